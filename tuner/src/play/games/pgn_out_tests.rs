//! Tests of `play/games/pgn_out.rs`.

use super::*;

#[test]
fn dates_from_day_numbers() {
    assert_eq!(civil_from_days(0), (1970, 1, 1));
    assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    assert_eq!(civil_from_days(20_780), (2026, 11, 23));
    assert_eq!(today().len(), 10);
}

#[test]
fn movetext_wraps_and_numbers_black_first_moves() {
    assert_eq!(start_move("8/8/8/8/8/8/8/K1k5 b - - 0 37"), (37, false));
    assert_eq!(start_move("garbage"), (1, true));
    let mut out = String::new();
    let tokens: Vec<String> = (0..40).map(|i| format!("w{i}")).collect();
    wrap(&mut out, &tokens, 20);
    assert!(out.lines().all(|l| l.len() <= 20), "{out}");
    assert_eq!(out.split_whitespace().count(), 40);
}
