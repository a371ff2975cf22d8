//! Tests of `report/workbook.rs`.

use calamine::{open_workbook, Data, Reader, Xlsx};

use super::*;
use crate::testutil::TempDir;

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
            out[square_of(row, file)] = number(range, at.0 + 2 + row as u32, (at.1 + 1 + file as u16) as u32);
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
    write(&params, Some(&baseline), &Frozen::default(), &path).unwrap();
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
        // The Rust literal holds the table in index order, a1 = 0 first.
        let rust: Vec<String> = (RUST_ROW + 1..RUST_ROW + 12)
            .map(|r| range.get_value((r, 0)).map(|d| d.to_string()).unwrap_or_default())
            .collect();
        assert!(rust[0].contains("a1 = index 0"), "{rust:?}");
        assert!(rust[1].starts_with(&format!("const PST_{}_MG", piece.to_uppercase())), "{rust:?}");
        assert_eq!(array_values(&rust[1..]), term.mg, "{piece}: the array pastes in index order");
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

/// The numbers of a Rust array literal's body, comments left out.
fn array_values(lines: &[String]) -> Vec<i32> {
    lines
        .iter()
        .skip_while(|l| !l.contains('['))
        .skip(1)
        .take_while(|l| !l.starts_with("];"))
        .flat_map(|l| l.split("//").next().unwrap_or("").split(',').map(str::trim).collect::<Vec<_>>())
        .filter(|c| !c.is_empty())
        .map(|c| c.parse().unwrap())
        .collect()
}

#[test]
fn rust_arrays_are_in_index_order_a1_first() {
    let values: Vec<i32> = (0..64).collect();
    let lines = rust_array("T", &values);
    assert!(lines[0].starts_with("// a1 = index 0"), "{lines:?}");
    assert_eq!(lines[1], "const T: [i32; 64] = [");
    assert_eq!(lines[2], "       0,   1,   2,   3,   4,   5,   6,   7, // a1..h1");
    assert_eq!(lines[9], "      56,  57,  58,  59,  60,  61,  62,  63, // a8..h8");
    assert_eq!(lines[10], "];");
    assert_eq!(array_values(&lines), values);
}

#[test]
fn colour_scales_are_symmetric_about_their_middle() {
    // -13 and +53: the red end is -53, so -13 is a pale red.
    assert_eq!(scale_bounds(&[-13.0, 0.0, 53.0], 0.0), (-53.0, 53.0));
    assert_eq!(scale_bounds(&[-80.0, 5.0], 0.0), (-80.0, 80.0));
    // Normalised boards centre on the material value; empty squares do not count.
    assert_eq!(scale_bounds(&[280.0, f64::NAN, 350.0], 300.0), (250.0, 350.0));
    assert_eq!(scale_bounds(&[0.0; 4], 0.0), (-1.0, 1.0));
}

#[test]
fn every_board_shares_the_frozen_header_row_and_rank_column() {
    let boards = [MG_BOARD, EG_BOARD, MG_NORMALISED, EG_NORMALISED, MG_MIRRORED, EG_MIRRORED];
    for (r0, c0) in boards {
        // Title, then file letters, both above the frozen split; the values below it.
        assert_eq!(r0 + 2, FREEZE.0, "board at ({r0}, {c0})");
        assert_eq!(c0 % 10, 0);
    }
    // Column A holds the rank numbers of the first board, left of the split.
    assert_eq!((MG_BOARD.1, FREEZE.1), (0, 1));
    assert!(NOTE_ROW < MG_BOARD.0 && RUST_ROW > FREEZE.0 + 8);
}

#[test]
fn frozen_values_are_marked_and_noted() {
    let dir = TempDir::new("workbook-frozen");
    let path = dir.path("eval.xlsx");
    let params = whetstone::eval::EvalParamSet::baked().into_set();
    let frozen =
        Frozen::from_names(["pst.knight[a1].mg", "pst_knight_a1_eg", "threat.hanging.eg", "tempo.mg"]);
    write(&params, None, &frozen, &path).unwrap();
    let mut book: Xlsx<_> = open_workbook(&path).unwrap();
    let knight = book.worksheet_range("knight").unwrap();
    let note = knight.get_value((NOTE_ROW, 0)).map(|d| d.to_string()).unwrap_or_default();
    assert!(note.contains("frozen") && note.contains("1 squares: a1"), "{note}");
    // The value itself stays a number.
    let a1 = params.term("pst.knight").unwrap().mg[0] as f64;
    assert_eq!(number(&knight, MG_BOARD.0 + 9, (MG_BOARD.1 + 1) as u32), a1);
    let bishop = book.worksheet_range("bishop").unwrap();
    assert!(matches!(bishop.get_value((NOTE_ROW, 0)), None | Some(Data::Empty)));
    let terms = book.worksheet_range("terms").unwrap();
    let frozen_of = |name: &str| {
        (1..terms.height() as u32)
            .find(|&r| terms.get_value((r, 0)).map(|d| d.to_string()).as_deref() == Some(name))
            .and_then(|r| terms.get_value((r, 6)).map(|d| d.to_string()))
            .filter(|s| !s.is_empty())
    };
    assert_eq!(frozen_of("threat.hanging").as_deref(), Some("eg"));
    assert_eq!(frozen_of("tempo").as_deref(), Some("mg"));
    assert_eq!(frozen_of("bishop_pair"), None);
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
}
