//! Perft against published counts: the seed suite and the standard 126-position suite, each
//! position also colour-flipped. `cargo test` runs every (position, depth) whose published count
//! is at most SHALLOW_LIMIT nodes; `cargo test --release --test perft_suites -- --ignored`
//! runs every published depth.

mod common;

use common::{read_suite, PerftCase};
use whetstone::movegen::perft::perft;
use whetstone::Position;

const SHALLOW_LIMIT: u64 = 2_000_000;

fn check_cases(cases: &[PerftCase], limit: u64) -> usize {
    let mut checked = 0;
    for case in cases {
        let mut pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        let mut flipped = pos.flipped();
        for &(depth, expected) in case.counts.iter().filter(|&&(_, n)| n <= limit) {
            assert_eq!(perft(&mut pos, depth), expected, "{} depth {depth}", case.fen);
            assert_eq!(perft(&mut flipped, depth), expected, "flipped {} depth {depth}", flipped.to_fen());
            checked += 1;
        }
    }
    checked
}

#[test]
fn seed_suite_shallow() {
    let cases = read_suite("seed_perft.epd");
    assert_eq!(cases.len(), 19);
    // 14 of the 19 published counts are small enough for every `cargo test`.
    assert_eq!(check_cases(&cases, SHALLOW_LIMIT), 14);
}

#[test]
fn standard_suite_shallow() {
    let cases = read_suite("perftsuite.epd");
    assert_eq!(cases.len(), 126);
    assert!(check_cases(&cases, SHALLOW_LIMIT) > 500);
}

#[test]
fn horizontal_en_passant_pin() {
    // Black's c-pawn... the d7 pawn pushes two, but exd6 e.p. would expose the king on a5.
    let mut pos = Position::from_fen("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1").unwrap();
    pos.play_uci("d7d5").unwrap();
    assert!(pos.parse_uci_move("c5d6").is_err(), "en passant must be refused: it exposes the king");
    assert_eq!(perft(&mut Position::from_fen("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1").unwrap(), 6), 1_134_888);
}

#[ignore = "deep (about 12 billion nodes with the flips, ~25 s): cargo test --release --test perft_suites -- --ignored"]
#[test]
fn seed_suite_deep() {
    let cases = read_suite("seed_perft.epd");
    assert_eq!(check_cases(&cases, u64::MAX), 19);
}

#[ignore = "deep (about 12 billion nodes with the flips, ~25 s): cargo test --release --test perft_suites -- --ignored"]
#[test]
fn standard_suite_deep() {
    let cases = read_suite("perftsuite.epd");
    assert_eq!(check_cases(&cases, u64::MAX), 125 * 6 + 5);
}
