//! Tests of `dataset/split.rs`.

use super::*;
use crate::dataset::load::load;
use crate::dataset::LoadOptions;
use crate::testutil::TempDir;

/// Position line `n`: the same rook ending at move number `n`, so every line differs, won
/// and lost in turn, so every line is a game of its own.
fn position(n: usize) -> String {
    format!("4k3/8/8/8/8/8/8/R3K3 w - - 0 {n} c9 \"{}\";", if n % 2 == 0 { "1-0" } else { "0-1" })
}

/// The move numbers of a file's lines, in file order.
fn numbers(path: &Path) -> Vec<usize> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(|l| l.split_whitespace().nth(5).unwrap().parse().unwrap()).collect()
}

#[test]
fn the_split_is_a_deterministic_partition_with_the_requested_fraction() {
    let dir = TempDir::new("split");
    let input = dir.path("in.epd");
    let text: String = (1..=10_000).map(|n| position(n) + "\n").collect();
    std::fs::write(&input, &text).unwrap();
    let (train, valid) = (dir.path("train.epd"), dir.path("valid.epd"));
    let report = split(&input, &train, &valid, 0.1, 1).unwrap();
    assert_eq!((report.lines, report.other), (10_000, 0));
    assert_eq!(report.train + report.valid, 10_000);
    assert!((900..1100).contains(&report.valid), "{report:?}");
    let (t, v) = (numbers(&train), numbers(&valid));
    assert_eq!((t.len(), v.len()), (report.train, report.valid));
    // A partition that keeps each file's lines in input order, the validation file holding
    // the positions the rule holds out (position i is on line i + 1).
    assert!(t.windows(2).all(|w| w[0] < w[1]) && v.windows(2).all(|w| w[0] < w[1]));
    let rule = HoldOut { fraction: 0.1, seed: 1 };
    assert_eq!(v, (1..=10_000).filter(|&n| rule.holds_out(n as u64 - 1)).collect::<Vec<_>>());
    let mut merged = [t, v].concat();
    merged.sort();
    assert_eq!(merged, (1..=10_000).collect::<Vec<_>>());

    // The same again gives byte-identical files; another seed another split.
    let (train2, valid2) = (dir.path("train2.epd"), dir.path("valid2.epd"));
    split(&input, &train2, &valid2, 0.1, 1).unwrap();
    assert_eq!(std::fs::read(&train).unwrap(), std::fs::read(&train2).unwrap());
    assert_eq!(std::fs::read(&valid).unwrap(), std::fs::read(&valid2).unwrap());
    split(&input, &train2, &valid2, 0.1, 2).unwrap();
    assert_ne!(std::fs::read(&valid).unwrap(), std::fs::read(&valid2).unwrap());
}

#[test]
fn the_files_hold_the_positions_the_rule_holds_out_of_the_loaded_file() {
    // Comments, blank and broken lines are not positions: they do not take a number, so the
    // validation file holds what the tuners hold out of the same file loaded whole.
    let dir = TempDir::new("split-load");
    let input = dir.path("in.epd");
    let mut text = String::from("# a dataset\n");
    for n in 1..=300 {
        text.push_str(&position(n));
        text.push_str(match n % 7 {
            0 => "\n\n",
            3 => "\r\nnot a position c9 \"1-0\";\n",
            _ => "\n",
        });
    }
    std::fs::write(&input, &text).unwrap();
    let (train, valid) = (dir.path("t.epd"), dir.path("v.epd"));
    let report = split(&input, &train, &valid, 0.3, 5).unwrap();
    assert_eq!(report.train + report.valid, 300);
    assert_eq!(report.other, 1 + 300 / 7 + (300 + 4) / 7);
    let fens = |path: &Path| load(path, &LoadOptions::default(), |pos, _| pos.to_fen()).unwrap().0;
    let all = fens(&input);
    let rule = HoldOut { fraction: 0.3, seed: 5 };
    let held = |keep: bool| -> Vec<String> {
        all.iter()
            .enumerate()
            .filter(|(i, _)| rule.holds_out(*i as u64) == keep)
            .map(|(_, f)| f.clone())
            .collect()
    };
    assert_eq!(fens(&valid), held(true));
    assert_eq!(fens(&train), held(false));
}

#[test]
fn the_positions_of_one_game_go_to_one_file() {
    // Games of a king walk with a pawn that advances: each game's positions may follow each
    // other; the next game starts with the pawn back home.
    let dir = TempDir::new("split-games");
    let input = dir.path("in.epd");
    let mut text = String::new();
    for _game in 0..400 {
        for rank in 2..7 {
            // Rows from rank 7 down to rank 2; the pawn on a`rank`.
            let rows: Vec<&str> = (2..=7).rev().map(|r| if r == rank { "P7" } else { "8" }).collect();
            text.push_str(&format!("4k3/{}/4K3 w - - c9 \"1-0\";\n", rows.join("/")));
        }
    }
    std::fs::write(&input, &text).unwrap();
    let (train, valid) = (dir.path("t.epd"), dir.path("v.epd"));
    let report = split(&input, &train, &valid, 0.2, 7).unwrap();
    assert_eq!(report.train + report.valid, 2000);
    assert_eq!((report.train % 5, report.valid % 5), (0, 0), "whole games of five positions: {report:?}");
    assert!((200..600).contains(&report.valid), "{report:?}");
}

#[test]
fn bytes_are_copied_unchanged_and_a_csv_header_goes_to_both() {
    let dir = TempDir::new("split-bytes");
    let input = dir.path("in.csv");
    let mut text = b"fen,result\r\n".to_vec();
    for n in 1..=200 {
        text.extend_from_slice(format!("4k3/8/8/8/8/8/8/R3K3 w - - 0 {n},1-0 \t\r\n").as_bytes());
    }
    text.extend_from_slice(b"last without newline");
    std::fs::write(&input, &text).unwrap();
    let (train, valid) = (dir.path("t.csv"), dir.path("v.csv"));
    let report = split(&input, &train, &valid, 0.5, 3).unwrap();
    assert!(report.header);
    assert_eq!((report.lines, report.other), (202, 1));
    let (t, v) = (std::fs::read(&train).unwrap(), std::fs::read(&valid).unwrap());
    assert!(t.starts_with(b"fen,result\r\n") && v.starts_with(b"fen,result\r\n"));
    assert_eq!(t.len() + v.len(), text.len() + b"fen,result\r\n".len());
    assert!(t.ends_with(b"last without newline"), "a line without a position goes to training");
}

#[test]
fn bad_arguments_are_refused() {
    let dir = TempDir::new("split-args");
    let input = dir.path("in.epd");
    std::fs::write(&input, "a\n").unwrap();
    let err = |t: &Path, v: &Path, f: f64| split(&input, t, v, f, 1).unwrap_err().to_string();
    assert!(err(&dir.path("t"), &dir.path("v"), 1.5).contains("not between 0 and 1"));
    assert!(err(&dir.path("t"), &dir.path("v"), f64::NAN).contains("not between 0 and 1"));
    assert!(err(&dir.path("t"), &dir.path("t"), 0.1).contains("the same file"));
    assert!(err(&input, &dir.path("v"), 0.1).contains("is the input"));
    assert!(split(&dir.path("missing"), &dir.path("t"), &dir.path("v"), 0.1, 1)
        .unwrap_err()
        .to_string()
        .contains("cannot open"));
}
