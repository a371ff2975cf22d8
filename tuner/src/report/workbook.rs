//! The evaluation as an Excel workbook (`tune report`): one sheet per piece with its middle-game
//! and end-game piece-square tables laid out as boards under a red-white-green colour scale
//! centred on zero, the same tables with their average moved into the piece's material value
//! and left-right mirrored, the tables as Rust array literals in the engine's square order;
//! difference sheets against a baseline; and the other terms (mobility, passed pawns, king
//! shield and storm, the king-safety curve) as tables with charts. Values a run froze
//! (`--min-coverage`) are marked `*` with a note.
//!
//! The boards of a sheet stand side by side in one band, so one frozen pane keeps every board's
//! file letters (row 4) and the rank numbers (column A) in view.

use std::path::Path;

use anyhow::{Context, Result};
use rust_xlsxwriter::{
    Chart, ChartType, Color, ConditionalFormat3ColorScale, ConditionalFormatType, Format, FormatAlign,
    Workbook, Worksheet, XlsxError,
};
use whetstone::eval::weights::{king_curve, MAX_KING_UNITS};
use whetstone::params::{ParamSet, Shape, Term};

use super::Frozen;

const PIECES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
const FILES: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];

/// Where each block of a piece sheet starts: (first row, first column) of its 9x9 board with
/// labels (title above). All in one band, ten columns apart.
pub const MG_BOARD: (u32, u16) = (2, 0);
pub const EG_BOARD: (u32, u16) = (2, 10);
pub const MG_NORMALISED: (u32, u16) = (2, 20);
pub const EG_NORMALISED: (u32, u16) = (2, 30);
pub const MG_MIRRORED: (u32, u16) = (2, 40);
pub const EG_MIRRORED: (u32, u16) = (2, 50);
/// The frozen pane of a board sheet: the title, note, board titles and file letters above,
/// the rank numbers of column A to the left.
pub const FREEZE: (u32, u16) = (MG_BOARD.0 + 2, 1);
/// The row of a sheet's note on frozen values.
pub const NOTE_ROW: u32 = 1;
/// Where the Rust literals start (one line per cell, column A).
pub const RUST_ROW: u32 = MG_BOARD.0 + 11;

/// Writes the workbook of `params` (with difference sheets against `baseline`, values in
/// `frozen` marked) to `path`.
pub fn write(params: &ParamSet, baseline: Option<&ParamSet>, frozen: &Frozen, path: &Path) -> Result<()> {
    let mut book = Workbook::new();
    let formats = Formats::new();
    let material = params.term("material");
    for piece in PIECES {
        let Some(term) = params.term(&format!("pst.{piece}")) else { continue };
        let value = material
            .and_then(|m| PIECES.iter().position(|p| *p == piece).and_then(|i| m.mg.get(i).zip(m.eg.get(i))));
        let sheet = book.add_worksheet();
        piece_sheet(sheet, piece, term, value.map(|(mg, eg)| (*mg, *eg)), frozen, &formats)
            .with_context(|| format!("sheet {piece}"))?;
    }
    if let Some(base) = baseline {
        for piece in PIECES {
            let name = format!("pst.{piece}");
            if let (Some(now), Some(before)) = (params.term(&name), base.term(&name)) {
                let sheet = book.add_worksheet();
                diff_sheet(sheet, piece, now, before, frozen, &formats)
                    .with_context(|| format!("sheet {piece} diff"))?;
            }
        }
    }
    terms_sheet(book.add_worksheet(), params, baseline, frozen, &formats).context("sheet terms")?;
    curve_sheet(book.add_worksheet(), params, &formats).context("sheet king curve")?;
    book.save(path).with_context(|| format!("writing {}", path.display()))
}

struct Formats {
    title: Format,
    note: Format,
    header: Format,
    number: Format,
    /// A frozen value: `*` after the number, italic.
    frozen: Format,
    code: Format,
}

impl Formats {
    fn new() -> Formats {
        let number = Format::new().set_num_format("0").set_align(FormatAlign::Center);
        Formats {
            title: Format::new().set_bold().set_font_size(13),
            note: Format::new().set_italic().set_font_color(Color::RGB(0x555555)),
            header: Format::new()
                .set_bold()
                .set_align(FormatAlign::Center)
                .set_background_color(Color::RGB(0xEEEEEE)),
            frozen: number.clone().set_num_format("0\"*\"").set_italic(),
            number,
            code: Format::new().set_font_name("Courier New"),
        }
    }
}

/// The value of square index `sq` (a1 = 0) at board cell (row 0 = rank 8, file).
fn square_of(row: usize, file: usize) -> usize {
    (7 - row) * 8 + file
}

/// The colour scale's ends for values around `mid`: `mid - M` and `mid + M` with M the largest
/// distance of a value from `mid` (at least 1), so equal distances get equal colours either side.
pub fn scale_bounds(values: &[f64], mid: f64) -> (f64, f64) {
    let m = values.iter().filter(|v| v.is_finite()).map(|v| (v - mid).abs()).fold(0.0, f64::max).max(1.0);
    (mid - m, mid + m)
}

/// Writes a labelled 8x8 board of `values` (square-indexed) at `at`, with a three-colour scale
/// centred on `mid` (0 for tables, the material value for normalised ones) and symmetric about
/// it; squares in `frozen` (64 flags, or empty) get the frozen format.
fn board(
    sheet: &mut Worksheet,
    at: (u32, u16),
    title: &str,
    values: &[f64],
    mid: f64,
    frozen: &[bool],
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
            let sq = square_of(row, file);
            let value = values[sq];
            // Squares a piece never stands on (pawns on ranks 1 and 8) are left empty.
            if !value.is_nan() {
                let format = if frozen.get(sq) == Some(&true) { &f.frozen } else { &f.number };
                sheet.write_number_with_format(r, c0 + 1 + file as u16, value, format)?;
            }
        }
    }
    let (lo, hi) = scale_bounds(values, mid);
    let scale = ConditionalFormat3ColorScale::new()
        .set_minimum(ConditionalFormatType::Number, lo)
        .set_minimum_color(Color::RGB(0xF8696B))
        .set_midpoint(ConditionalFormatType::Number, mid)
        .set_midpoint_color(Color::White)
        .set_maximum(ConditionalFormatType::Number, hi)
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

/// The frozen flags of a square table's phase (empty when nothing is frozen).
fn frozen_squares(term: &Term, eg: bool, frozen: &Frozen) -> Vec<bool> {
    if frozen.is_empty() {
        return Vec::new();
    }
    (0..term.len()).map(|i| frozen.element(term, i, eg)).collect()
}

/// The note on a sheet's frozen squares: how many, and which.
fn frozen_note(term: &Term, frozen: &Frozen) -> Option<String> {
    let names: Vec<String> = (0..term.len())
        .filter_map(|i| {
            let phases = frozen.phases(term, i);
            let label = term.element_label(i);
            match phases {
                "" => None,
                "mg, eg" | "yes" => Some(label),
                phase => Some(format!("{label}.{phase}")),
            }
        })
        .collect();
    (!names.is_empty()).then(|| {
        format!(
            "* frozen by the run (--min-coverage: seen in too few positions), kept at the start: {} squares: {}",
            names.len(),
            names.join(", ")
        )
    })
}

fn piece_sheet(
    sheet: &mut Worksheet,
    piece: &str,
    term: &Term,
    material: Option<(i32, i32)>,
    frozen: &Frozen,
    f: &Formats,
) -> Result<(), XlsxError> {
    sheet.set_name(piece)?;
    sheet.write_string_with_format(
        0,
        0,
        format!("pst.{piece}: centipawns, White's view, rank 8 at the top; colours centred on 0 (on the material value when normalised)"),
        &f.title,
    )?;
    if let Some(note) = frozen_note(term, frozen) {
        sheet.write_string_with_format(NOTE_ROW, 0, note, &f.note)?;
    }
    let as_f64 = |v: &[i32]| v.iter().map(|&x| x as f64).collect::<Vec<_>>();
    let (mg_frozen, eg_frozen) = (frozen_squares(term, false, frozen), frozen_squares(term, true, frozen));
    board(sheet, MG_BOARD, "middle game", &as_f64(&term.mg), 0.0, &mg_frozen, f)?;
    board(sheet, EG_BOARD, "end game", &as_f64(&term.eg), 0.0, &eg_frozen, f)?;
    let used = used_squares(piece);
    let (mg_mat, eg_mat) = material.unwrap_or((0, 0));
    let (mg_norm, eg_norm) = (normalised(&term.mg, mg_mat, &used), normalised(&term.eg, eg_mat, &used));
    board(
        sheet,
        MG_NORMALISED,
        "middle game + material, average square = material",
        &mg_norm,
        mg_mat as f64,
        &mg_frozen,
        f,
    )?;
    board(
        sheet,
        EG_NORMALISED,
        "end game + material, average square = material",
        &eg_norm,
        eg_mat as f64,
        &eg_frozen,
        f,
    )?;
    board(
        sheet,
        MG_MIRRORED,
        "middle game normalised, left-right mirrored average",
        &mirrored(&mg_norm),
        mg_mat as f64,
        &[],
        f,
    )?;
    board(
        sheet,
        EG_MIRRORED,
        "end game normalised, left-right mirrored average",
        &mirrored(&eg_norm),
        eg_mat as f64,
        &[],
        f,
    )?;
    sheet.write_string_with_format(
        RUST_ROW,
        0,
        "As Rust arrays in the engine's order (a1 = index 0): rank 1 (a1..h1) on the first line, rank 8 (a8..h8) on the last",
        &f.title,
    )?;
    let mut row = RUST_ROW + 1;
    for (phase, values) in [("MG", &term.mg), ("EG", &term.eg)] {
        for line in rust_array(&format!("PST_{}_{phase}", piece.to_uppercase()), values) {
            sheet.write_string_with_format(row, 0, line, &f.code)?;
            row += 1;
        }
    }
    for c in [MG_BOARD.1, EG_BOARD.1, MG_NORMALISED.1, EG_NORMALISED.1, MG_MIRRORED.1, EG_MIRRORED.1] {
        sheet.set_column_width(c, 6)?;
    }
    sheet.set_freeze_panes(FREEZE.0, FREEZE.1)?;
    Ok(())
}

/// A table as a Rust array literal in the engine's square order (a1 = index 0): eight values a
/// line, rank 1 (a1..h1) first, each line noting its squares, so it pastes into an engine that
/// indexes a1 = 0 as it is.
pub fn rust_array(name: &str, values: &[i32]) -> Vec<String> {
    let mut lines = vec![
        format!("// a1 = index 0: rank 1 (a1..h1) first, rank 8 (a8..h8) last"),
        format!("const {name}: [i32; 64] = ["),
    ];
    for rank in 0..8 {
        let cells: Vec<String> = (0..8).map(|file| format!("{:4}", values[rank * 8 + file])).collect();
        lines.push(format!("    {}, // a{r}..h{r}", cells.join(","), r = rank + 1));
    }
    lines.push("];".to_string());
    lines
}

fn diff_sheet(
    sheet: &mut Worksheet,
    piece: &str,
    now: &Term,
    before: &Term,
    frozen: &Frozen,
    f: &Formats,
) -> Result<(), XlsxError> {
    sheet.set_name(format!("{piece} diff"))?;
    sheet.write_string_with_format(
        0,
        0,
        format!("pst.{piece}: this file minus the baseline (colours centred on 0)"),
        &f.title,
    )?;
    if let Some(note) = frozen_note(now, frozen) {
        sheet.write_string_with_format(NOTE_ROW, 0, note, &f.note)?;
    }
    let diff = |a: &[i32], b: &[i32]| a.iter().zip(b).map(|(x, y)| (x - y) as f64).collect::<Vec<_>>();
    let (mg_frozen, eg_frozen) = (frozen_squares(now, false, frozen), frozen_squares(now, true, frozen));
    board(sheet, MG_BOARD, "middle game", &diff(&now.mg, &before.mg), 0.0, &mg_frozen, f)?;
    board(sheet, EG_BOARD, "end game", &diff(&now.eg, &before.eg), 0.0, &eg_frozen, f)?;
    sheet.set_column_width(MG_BOARD.1, 6)?;
    sheet.set_column_width(EG_BOARD.1, 6)?;
    sheet.set_freeze_panes(FREEZE.0, FREEZE.1)?;
    Ok(())
}

/// The columns of the terms sheet.
const TERM_COLUMNS: [&str; 7] = ["term", "element", "mg", "eg", "baseline mg", "baseline eg", "frozen"];

/// Every term that is not a piece-square table: one row per element with its middle-game and
/// end-game values (and the baseline's, and which phases the run froze), and a line chart for
/// each list-shaped term.
fn terms_sheet(
    sheet: &mut Worksheet,
    params: &ParamSet,
    baseline: Option<&ParamSet>,
    frozen: &Frozen,
    f: &Formats,
) -> Result<(), XlsxError> {
    sheet.set_name("terms")?;
    for (c, h) in TERM_COLUMNS.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, *h, &f.header)?;
    }
    let mut row = 1u32;
    let mut chart_row = 1u32;
    let chart_col = TERM_COLUMNS.len() as u16 + 1;
    for term in params.terms.iter().filter(|t| t.shape != Shape::Square) {
        let first = row;
        let base = baseline.and_then(|b| b.term(&term.name));
        for i in 0..term.len() {
            let format = |eg| if frozen.element(term, i, eg) { &f.frozen } else { &f.number };
            sheet.write_string(row, 0, &term.name)?;
            sheet.write_string(row, 1, term.element_label(i))?;
            sheet.write_number_with_format(row, 2, term.mg[i] as f64, format(false))?;
            sheet.write_number_with_format(row, 3, term.eg[i] as f64, format(true))?;
            if let Some(b) = base {
                sheet.write_number_with_format(row, 4, b.mg[i] as f64, &f.number)?;
                sheet.write_number_with_format(row, 5, b.eg[i] as f64, &f.number)?;
            }
            let phases = frozen.phases(term, i);
            if !phases.is_empty() {
                sheet.write_string(row, 6, phases)?;
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
            chart.x_axis().set_name(super::term_pictures::element_axis(term).desc.as_str());
            chart.y_axis().set_name(super::term_pictures::value_unit(term));
            sheet.insert_chart(chart_row, chart_col, &chart)?;
            chart_row += 16;
        }
    }
    if !frozen.is_empty() {
        sheet.write_string_with_format(
            0,
            chart_col,
            "* and the frozen column: values the run froze (--min-coverage), kept at the start",
            &f.note,
        )?;
    }
    sheet.set_column_width(0, 28)?;
    sheet.set_column_width(1, 10)?;
    sheet.set_freeze_panes(1, 2)?;
    Ok(())
}

/// The king-safety curve: attack units to penalty, middle game and end game, with a chart of the
/// part worth drawing (see [`super::term_pictures::king_curve_reach`]).
fn curve_sheet(sheet: &mut Worksheet, params: &ParamSet, f: &Formats) -> Result<(), XlsxError> {
    sheet.set_name("king curve")?;
    let (Some(scale), Some(power)) =
        (params.term("king_safety.curve_scale"), params.term("king_safety.curve_power"))
    else {
        return sheet.write_string(0, 0, "no king-safety curve in this params file").map(|_| ());
    };
    for (c, h) in ["attack units", "mg penalty (cp)", "eg penalty (cp)"].iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, *h, &f.header)?;
    }
    let (mg, eg) = (king_curve(scale.mg[0], power.mg[0]), king_curve(scale.eg[0], power.mg[0]));
    let reach =
        super::term_pictures::king_curve_reach(&[&mg, &eg], super::term_pictures::decisive_penalty(params));
    let step = 10;
    let mut chart_end = 1u32;
    for (i, units) in (0..=MAX_KING_UNITS).step_by(step).enumerate() {
        let row = i as u32 + 1;
        sheet.write_number(row, 0, units as f64)?;
        sheet.write_number_with_format(row, 1, mg[units] as f64, &f.number)?;
        sheet.write_number_with_format(row, 2, eg[units] as f64, &f.number)?;
        if units <= reach + step {
            chart_end = row;
        }
    }
    let mut chart = Chart::new(ChartType::Line);
    chart.title().set_name("king-safety curve: scale * (units/100)^power");
    for (col, name) in [(1u16, "mg"), (2u16, "eg")] {
        chart.add_series().set_name(name).set_categories(("king curve", 1, 0, chart_end, 0)).set_values((
            "king curve",
            1,
            col,
            chart_end,
            col,
        ));
    }
    chart.x_axis().set_name("attack units");
    chart.y_axis().set_name("penalty (centipawns)");
    sheet.insert_chart(1, 4, &chart)?;
    sheet.set_column_width(0, 12)?;
    sheet.set_column_width(1, 15)?;
    sheet.set_column_width(2, 15)?;
    sheet.set_freeze_panes(1, 1)?;
    Ok(())
}

#[cfg(test)]
#[path = "workbook_tests.rs"]
mod tests;
