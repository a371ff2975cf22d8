//! Tests of `eval/endgame/scaling.rs`.

use super::super::probe;
use super::super::test_support::pos;
use super::*;

fn scale_of(fen: &str) -> Option<(u8, u8)> {
    match probe(&pos(fen)) {
        Some(Verdict::Scale { white, black }) => Some((white, black)),
        None => None,
        other => panic!("{fen}: expected a scale factor, got {other:?}"),
    }
}

#[test]
fn opposite_bishops_scale_both_sides() {
    // White bishop e3 (dark), Black bishop e6 (light). Pawns 3 vs 2, then 3 vs 1.
    assert_eq!(scale_of("4k3/p4p2/4b3/8/8/4B3/PP3P2/4K3 w - - 0 1"), Some((32, 32)));
    assert_eq!(scale_of("4k3/p7/4b3/8/8/4B3/PP3P2/4K3 b - - 0 1"), Some((64, 64)));
    // Same-coloured bishops (Black's on d6, dark): no rule.
    assert_eq!(scale_of("4k3/p4p2/3b4/8/8/4B3/PP3P2/4K3 w - - 0 1"), None);
    // A rook each: milder. Unequal rooks or a knight added: no rule.
    assert_eq!(scale_of("r3k3/p4p2/4b3/8/8/4B3/PP3P2/R3K3 w - - 0 1"), Some((96, 96)));
    assert_eq!(scale_of("4k3/p4p2/4b3/8/8/4B3/PP3P2/R3K3 w - - 0 1"), None);
    assert_eq!(scale_of("4k3/p4p2/4b3/8/8/4B3/PP3P2/1N2K3 w - - 0 1"), None);
    // Two bishops against one: no rule.
    assert_eq!(scale_of("4k3/p4p2/4b3/8/8/4BB2/PP3P2/4K3 w - - 0 1"), None);
}

#[test]
fn pawnless_sides_that_cannot_win() {
    // KRKB: White can rarely win (16), Black with a lone bishop never (0).
    assert_eq!(scale_of("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1"), Some((16, 0)));
    // KRKN, KBBKB, KRBKR, KQKR (Black's side only: the queen is more than a minor piece ahead).
    assert_eq!(scale_of("4k3/8/8/3n4/8/8/8/R3K3 w - - 0 1"), Some((16, 0)));
    assert_eq!(scale_of("4k3/8/8/3b4/8/8/8/BB2K3 w - - 0 1"), Some((16, 0)));
    assert_eq!(scale_of("r3k3/8/8/8/8/8/8/RB2K3 w - - 0 1"), Some((16, 16)));
    assert_eq!(scale_of("r3k3/8/8/8/8/8/8/Q3K3 w - - 0 1"), Some((128, 16)));
    // A minor piece against pawns: that side can never win; the pawns keep their chances.
    assert_eq!(scale_of("4k3/pp6/8/8/8/8/8/2B1K3 w - - 0 1"), Some((0, 128)));
    // KRKP: the rook is more than a minor piece ahead, and Black has a pawn: nothing.
    assert_eq!(scale_of("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1"), None);
    // A bare king against pawns cannot win.
    assert_eq!(scale_of("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1"), Some((128, 0)));
    // Pawns on both sides, no bishops: nothing.
    assert_eq!(scale_of("4k2r/p7/8/8/8/8/P7/R3K3 w - - 0 1"), None);
}

#[test]
fn rules_combine_by_minimum() {
    // Opposite bishops, White without pawns: White's factor drops to 0, Black's stays at 32.
    assert_eq!(scale_of("4k3/p7/4b3/8/8/4B3/8/4K3 w - - 0 1"), Some((0, 32)));
}
