//! The evaluation as an Excel workbook (`tune report`): one sheet per piece with its middle-game
//! and end-game piece-square tables laid out as boards under a red-white-green colour scale, the
//! same tables with their average moved into the piece's material value and left-right mirrored,
//! the tables as Rust array literals; difference sheets against a baseline; and the other terms
//! (mobility, passed pawns, king shield and storm, the king-safety curve) as tables with charts.

use std::path::Path;

use anyhow::{Context, Result};
use rust_xlsxwriter::{
    Chart, ChartType, Color, ConditionalFormat3ColorScale, ConditionalFormatType, Format, FormatAlign,
    Workbook, Worksheet, XlsxError,
};
use whetstone::eval::weights::{king_curve, MAX_KING_UNITS};
use whetstone::params::{ParamSet, Shape, Term};

const PIECES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
const FILES: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];

/// Where each block of a piece sheet starts: (first row, first column) of its 9x9 board with labels.
pub const MG_BOARD: (u32, u16) = (2, 0);
pub const EG_BOARD: (u32, u16) = (2, 10);
pub const MG_NORMALISED: (u32, u16) = (14, 0);
pub const EG_NORMALISED: (u32, u16) = (14, 10);
pub const MG_MIRRORED: (u32, u16) = (26, 0);
pub const EG_MIRRORED: (u32, u16) = (26, 10);
/// Where the Rust literals start (one line per cell, column A).
pub const RUST_ROW: u32 = 38;

/// Writes the workbook of `params` (with difference sheets against `baseline`) to `path`.
pub fn write(params: &ParamSet, baseline: Option<&ParamSet>, path: &Path) -> Result<()> {
    let mut book = Workbook::new();
    let formats = Formats::new();
    let material = params.term("material");
    for piece in PIECES {
        let Some(term) = params.term(&format!("pst.{piece}")) else { continue };
        let value = material
            .and_then(|m| PIECES.iter().position(|p| *p == piece).and_then(|i| m.mg.get(i).zip(m.eg.get(i))));
        let sheet = book.add_worksheet();
        piece_sheet(sheet, piece, term, value.map(|(mg, eg)| (*mg, *eg)), &formats)
            .with_context(|| format!("sheet {piece}"))?;
    }
    if let Some(base) = baseline {
        for piece in PIECES {
            let name = format!("pst.{piece}");
            if let (Some(now), Some(before)) = (params.term(&name), base.term(&name)) {
                let sheet = book.add_worksheet();
                diff_sheet(sheet, piece, now, before, &formats)
                    .with_context(|| format!("sheet {piece} diff"))?;
            }
        }
    }
    terms_sheet(book.add_worksheet(), params, baseline, &formats).context("sheet terms")?;
    curve_sheet(book.add_worksheet(), params, &formats).context("sheet king curve")?;
    book.save(path).with_context(|| format!("writing {}", path.display()))
}

struct Formats {
    title: Format,
    header: Format,
    number: Format,
    code: Format,
}

impl Formats {
    fn new() -> Formats {
        Formats {
            title: Format::new().set_bold().set_font_size(13),
            header: Format::new()
                .set_bold()
                .set_align(FormatAlign::Center)
                .set_background_color(Color::RGB(0xEEEEEE)),
            number: Format::new().set_num_format("0").set_align(FormatAlign::Center),
            code: Format::new().set_font_name("Courier New"),
        }
    }
}

/// The value of square index `sq` (a1 = 0) at board cell (row 0 = rank 8, file).
fn square_of(row: usize, file: usize) -> usize {
    (7 - row) * 8 + file
}

/// Writes a labelled 8x8 board of `values` (square-indexed) at `at`, with a three-colour scale
/// whose middle is `mid` (0 for tables, the material value for normalised ones).
fn board(
    sheet: &mut Worksheet,
    at: (u32, u16),
    title: &str,
    values: &[f64],
    mid: f64,
    f: &Formats,
) -> Result<(), XlsxError> {
    let (r0, c0) = at;
    sheet.write_string_with_format(r0, c0, title, &f.title)?;
    for (file, name) in FILES.iter().enumerate() {
        sheet.write_string_with_format(r0 + 1, c0 + 1 + file as u16, *name, &f.header)?;
    }
    for row in 0..8 {
        let r = r0 + 2 + row as u32;
        sheet.write_string_with_format(r, c0, (8 - row).to_string(), &f.header)?;
        for file in 0..8 {
            let value = values[square_of(row, file)];
            // Squares a piece never stands on (pawns on ranks 1 and 8) are left empty.
            if !value.is_nan() {
                sheet.write_number_with_format(r, c0 + 1 + file as u16, value, &f.number)?;
            }
        }
    }
    let scale = ConditionalFormat3ColorScale::new()
        .set_minimum_color(Color::RGB(0xF8696B))
        .set_midpoint(ConditionalFormatType::Number, mid)
        .set_midpoint_color(Color::White)
        .set_maximum_color(Color::RGB(0x63BE7B));
    sheet.add_conditional_format(r0 + 2, c0 + 1, r0 + 9, c0 + 8, &scale)?;
    Ok(())
}

/// The squares a piece can stand on (pawns never on ranks 1 and 8).
fn used_squares(piece: &str) -> Vec<usize> {
    (0..64).filter(|sq| piece != "pawn" || (8..56).contains(sq)).collect()
}

/// The table with its mean over `used` squares moved into `material`: a piece on an average
/// square is worth exactly its material. Unused squares are NaN (left empty in the sheet).
pub fn normalised(table: &[i32], material: i32, used: &[usize]) -> Vec<f64> {
    let mean = used.iter().map(|&sq| table[sq] as f64).sum::<f64>() / used.len().max(1) as f64;
    let mut out = vec![f64::NAN; 64];
    for &sq in used {
        out[sq] = material as f64 + table[sq] as f64 - mean;
    }
    out
}

/// The average of each square and its left-right mirror (a1 with h1): the table's symmetric part.
pub fn mirrored(values: &[f64]) -> Vec<f64> {
    (0..64).map(|sq| (values[sq] + values[sq ^ 7]) / 2.0).collect()
}

fn piece_sheet(
    sheet: &mut Worksheet,
    piece: &str,
    term: &Term,
    material: Option<(i32, i32)>,
    f: &Formats,
) -> Result<(), XlsxError> {
    sheet.set_name(piece)?;
    sheet.write_string_with_format(
        0,
        0,
        format!("pst.{piece}: centipawns, White's view, rank 8 at the top"),
        &f.title,
    )?;
    let as_f64 = |v: &[i32]| v.iter().map(|&x| x as f64).collect::<Vec<_>>();
    board(sheet, MG_BOARD, "middle game", &as_f64(&term.mg), 0.0, f)?;
    board(sheet, EG_BOARD, "end game", &as_f64(&term.eg), 0.0, f)?;
    let used = used_squares(piece);
    let (mg_mat, eg_mat) = material.unwrap_or((0, 0));
    let (mg_norm, eg_norm) = (normalised(&term.mg, mg_mat, &used), normalised(&term.eg, eg_mat, &used));
    board(
        sheet,
        MG_NORMALISED,
        "middle game + material, average square = material",
        &mg_norm,
        mg_mat as f64,
        f,
    )?;
    board(
        sheet,
        EG_NORMALISED,
        "end game + material, average square = material",
        &eg_norm,
        eg_mat as f64,
        f,
    )?;
    board(
        sheet,
        MG_MIRRORED,
        "the same, left-right mirrored average",
        &mirrored(&mg_norm),
        mg_mat as f64,
        f,
    )?;
    board(
        sheet,
        EG_MIRRORED,
        "the same, left-right mirrored average",
        &mirrored(&eg_norm),
        eg_mat as f64,
        f,
    )?;
    sheet.write_string_with_format(
        RUST_ROW,
        0,
        "As Rust arrays (a1 = index 0, written rank 8 first):",
        &f.title,
    )?;
    let mut row = RUST_ROW + 1;
    for (phase, values) in [("MG", &term.mg), ("EG", &term.eg)] {
        for line in rust_array(&format!("PST_{}_{phase}", piece.to_uppercase()), values) {
            sheet.write_string_with_format(row, 0, line, &f.code)?;
            row += 1;
        }
    }
    sheet.set_column_width(0, 6)?;
    sheet.set_column_width(10, 6)?;
    sheet.set_freeze_panes(1, 0)?;
    Ok(())
}

/// A table as a Rust array literal in the engine's square order, one rank per line, rank 8 first
/// (so it reads as the board; the indices are noted per line).
pub fn rust_array(name: &str, values: &[i32]) -> Vec<String> {
    let mut lines = vec![format!("const {name}: [i32; 64] = [")];
    for rank in (0..8).rev() {
        let cells: Vec<String> = (0..8).map(|file| format!("{:4}", values[rank * 8 + file])).collect();
        lines.push(format!("    {}, // rank {}", cells.join(","), rank + 1));
    }
    lines.push("];".to_string());
    lines
}

fn diff_sheet(
    sheet: &mut Worksheet,
    piece: &str,
    now: &Term,
    before: &Term,
    f: &Formats,
) -> Result<(), XlsxError> {
    sheet.set_name(format!("{piece} diff"))?;
    sheet.write_string_with_format(0, 0, format!("pst.{piece}: this file minus the baseline"), &f.title)?;
    let diff = |a: &[i32], b: &[i32]| a.iter().zip(b).map(|(x, y)| (x - y) as f64).collect::<Vec<_>>();
    board(sheet, MG_BOARD, "middle game", &diff(&now.mg, &before.mg), 0.0, f)?;
    board(sheet, EG_BOARD, "end game", &diff(&now.eg, &before.eg), 0.0, f)?;
    sheet.set_freeze_panes(1, 0)?;
    Ok(())
}

/// Every term that is not a piece-square table: one row per element with its middle-game and
/// end-game values (and the baseline's), and a line chart for each list-shaped term.
fn terms_sheet(
    sheet: &mut Worksheet,
    params: &ParamSet,
    baseline: Option<&ParamSet>,
    f: &Formats,
) -> Result<(), XlsxError> {
    sheet.set_name("terms")?;
    let headers = ["term", "element", "mg", "eg", "baseline mg", "baseline eg"];
    for (c, h) in headers.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, *h, &f.header)?;
    }
    let mut row = 1u32;
    let mut chart_row = 1u32;
    for term in params.terms.iter().filter(|t| t.shape != Shape::Square) {
        let first = row;
        let base = baseline.and_then(|b| b.term(&term.name));
        for i in 0..term.len() {
            sheet.write_string(row, 0, &term.name)?;
            sheet.write_string(row, 1, term.element_label(i))?;
            sheet.write_number_with_format(row, 2, term.mg[i] as f64, &f.number)?;
            sheet.write_number_with_format(row, 3, term.eg[i] as f64, &f.number)?;
            if let Some(b) = base {
                sheet.write_number_with_format(row, 4, b.mg[i] as f64, &f.number)?;
                sheet.write_number_with_format(row, 5, b.eg[i] as f64, &f.number)?;
            }
            row += 1;
        }
        if term.shape == Shape::List && term.len() > 2 {
            let mut chart = Chart::new(ChartType::Line);
            chart.title().set_name(&term.name);
            for (col, name) in [(2u16, "mg"), (3u16, "eg")] {
                chart
                    .add_series()
                    .set_name(name)
                    .set_categories(("terms", first, 1, row - 1, 1))
                    .set_values(("terms", first, col, row - 1, col));
            }
            chart.x_axis().set_name("element");
            sheet.insert_chart(chart_row, 7, &chart)?;
            chart_row += 16;
        }
    }
    sheet.set_column_width(0, 28)?;
    sheet.set_column_width(1, 10)?;
    sheet.set_freeze_panes(1, 0)?;
    Ok(())
}

/// The king-safety curve: attack units to penalty, middle game and end game, with a chart.
fn curve_sheet(sheet: &mut Worksheet, params: &ParamSet, f: &Formats) -> Result<(), XlsxError> {
    sheet.set_name("king curve")?;
    let (Some(scale), Some(power)) =
        (params.term("king_safety.curve_scale"), params.term("king_safety.curve_power"))
    else {
        return sheet.write_string(0, 0, "no king-safety curve in this params file").map(|_| ());
    };
    for (c, h) in ["units", "mg penalty", "eg penalty"].iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, *h, &f.header)?;
    }
    let (mg, eg) = (king_curve(scale.mg[0], power.mg[0]), king_curve(scale.eg[0], power.mg[0]));
    let step = 10;
    let mut row = 1u32;
    for units in (0..=MAX_KING_UNITS).step_by(step) {
        sheet.write_number(row, 0, units as f64)?;
        sheet.write_number_with_format(row, 1, mg[units] as f64, &f.number)?;
        sheet.write_number_with_format(row, 2, eg[units] as f64, &f.number)?;
        row += 1;
    }
    let mut chart = Chart::new(ChartType::Line);
    chart.title().set_name("king-safety curve: scale * (units/100)^power");
    for (col, name) in [(1u16, "mg"), (2u16, "eg")] {
        chart.add_series().set_name(name).set_categories(("king curve", 1, 0, row - 1, 0)).set_values((
            "king curve",
            1,
            col,
            row - 1,
            col,
        ));
    }
    chart.x_axis().set_name("attack units");
    sheet.insert_chart(1, 4, &chart)?;
    sheet.set_column_width(1, 12)?;
    sheet.set_column_width(2, 12)?;
    sheet.set_freeze_panes(1, 0)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use calamine::{open_workbook, Data, Reader, Xlsx};

    use super::*;
    use crate::dataset::testutil::TempDir;

    fn repo(path: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
    }

    fn number(range: &calamine::Range<Data>, row: u32, col: u32) -> f64 {
        match range.get_value((row, col)) {
            Some(Data::Float(x)) => *x,
            Some(Data::Int(x)) => *x as f64,
            None | Some(Data::Empty) => f64::NAN,
            other => panic!("({row}, {col}): {other:?}"),
        }
    }

    /// The 8x8 values of a board block, square-indexed.
    fn read_board(range: &calamine::Range<Data>, at: (u32, u16)) -> Vec<f64> {
        let mut out = vec![0.0; 64];
        for row in 0..8 {
            for file in 0..8 {
                out[square_of(row, file)] =
                    number(range, at.0 + 2 + row as u32, (at.1 + 1 + file as u16) as u32);
            }
        }
        out
    }

    #[test]
    fn the_workbook_reads_back_with_every_value_of_the_params_file() {
        let dir = TempDir::new("workbook");
        let path = dir.path("eval.xlsx");
        let params = ParamSet::load(&repo("params/eval.toml")).unwrap();
        let baseline = ParamSet::load(&repo("params/handset.toml")).unwrap();
        write(&params, Some(&baseline), &path).unwrap();
        let mut book: Xlsx<_> = open_workbook(&path).unwrap();
        let material = params.term("material").unwrap();
        for (p, piece) in PIECES.iter().enumerate() {
            let term = params.term(&format!("pst.{piece}")).unwrap();
            let range = book.worksheet_range(piece).unwrap();
            let as_f64 = |v: &[i32]| v.iter().map(|&x| x as f64).collect::<Vec<_>>();
            assert_eq!(read_board(&range, MG_BOARD), as_f64(&term.mg), "{piece} mg");
            assert_eq!(read_board(&range, EG_BOARD), as_f64(&term.eg), "{piece} eg");
            // Normalised: the average used square is worth the material value.
            let used = used_squares(piece);
            let norm = read_board(&range, MG_NORMALISED);
            let mean = used.iter().map(|&sq| norm[sq]).sum::<f64>() / used.len() as f64;
            let expected = material.mg.get(p).copied().unwrap_or(0) as f64;
            assert!((mean - expected).abs() < 1e-9, "{piece}: {mean} vs {expected}");
            // Mirrored: symmetric left to right.
            let mirror = read_board(&range, MG_MIRRORED);
            assert!(used.iter().all(|&sq| (mirror[sq] - mirror[sq ^ 7]).abs() < 1e-9));
            assert_eq!(mirror.iter().filter(|v| v.is_nan()).count(), 64 - used.len());
            // The Rust literal holds the table.
            let rust: Vec<String> = (RUST_ROW + 1..RUST_ROW + 11)
                .map(|r| range.get_value((r, 0)).map(|d| d.to_string()).unwrap_or_default())
                .collect();
            assert!(rust[0].starts_with(&format!("const PST_{}_MG", piece.to_uppercase())), "{rust:?}");
            assert!(rust[1].contains(&format!("{:4}", term.mg[56])), "{rust:?}");
            // The difference sheet.
            let diff = book.worksheet_range(&format!("{piece} diff")).unwrap();
            let before = baseline.term(&format!("pst.{piece}")).unwrap();
            let expected: Vec<f64> = term.mg.iter().zip(&before.mg).map(|(a, b)| (a - b) as f64).collect();
            assert_eq!(read_board(&diff, MG_BOARD), expected, "{piece} diff");
        }
        // Every other value, row by row.
        let terms = book.worksheet_range("terms").unwrap();
        let mut row = 1;
        for term in params.terms.iter().filter(|t| t.shape != Shape::Square) {
            for i in 0..term.len() {
                assert_eq!(terms.get_value((row, 0)).map(|d| d.to_string()), Some(term.name.clone()));
                assert_eq!(number(&terms, row, 2), term.mg[i] as f64, "{} {i}", term.name);
                assert_eq!(number(&terms, row, 3), term.eg[i] as f64, "{} {i}", term.name);
                row += 1;
            }
        }
        let curve = book.worksheet_range("king curve").unwrap();
        let scale = params.term("king_safety.curve_scale").unwrap();
        let power = params.term("king_safety.curve_power").unwrap();
        assert_eq!(number(&curve, 11, 1), king_curve(scale.mg[0], power.mg[0])[100] as f64);
    }

    #[test]
    fn normalising_and_mirroring() {
        let mut table = vec![0; 64];
        table[8] = 60; // a2
        let norm = normalised(&table, 100, &used_squares("pawn"));
        assert_eq!(norm[8], 100.0 + 60.0 - 60.0 / 48.0);
        assert!(norm[0].is_nan(), "rank 1 is unused by pawns");
        let mirror = mirrored(&norm);
        assert_eq!(mirror[8], mirror[15]);
        assert_eq!(mirror[8], (norm[8] + norm[15]) / 2.0);
        let lines = rust_array("T", &(0..64).collect::<Vec<_>>());
        assert_eq!(lines[1], "      56,  57,  58,  59,  60,  61,  62,  63, // rank 8");
    }
}
