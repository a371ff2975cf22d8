//! Tests of `eval/terms/threats.rs`.

use crate::eval::baked::idx;
use crate::eval::tests::coefficient;

#[test]
fn the_king_threatens_what_nothing_defends() {
    // White king e4 next to the undefended knight d5 (the pawns keep it out of the known endgames).
    assert_eq!(coefficient("4k3/7p/8/3n4/4K3/8/P7/8 w - - 0 1", idx::THREAT_BY_KING), 1);
    // Defended by the pawn c6: no threat.
    assert_eq!(coefficient("4k3/7p/2p5/3n4/4K3/8/P7/8 w - - 0 1", idx::THREAT_BY_KING), 0);
}

#[test]
fn a_pawn_attacking_an_undefended_knight_is_a_threat_and_hanging() {
    let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(fen, idx::THREAT_BY_PAWN + 1), 1);
    assert_eq!(coefficient(fen, idx::THREAT_HANGING), 1);
    // The same position with colours swapped counts for Black.
    let swapped = "4k3/8/8/4p3/3N4/8/8/4K3 b - - 0 1";
    assert_eq!(coefficient(swapped, idx::THREAT_BY_PAWN + 1), -1);
    // Defended, the knight is threatened but not hanging.
    let defended = "4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(defended, idx::THREAT_HANGING), 0);
}

#[test]
fn a_pawn_no_pawn_attacks_and_that_is_outnumbered_is_weak() {
    // The knight e3 attacks d5, nothing defends it.
    let lone = "4k3/7p/8/3p4/8/4N3/P7/4K3 w - - 0 1";
    assert_eq!(coefficient(lone, idx::THREAT_WEAK_PAWN), 1);
    // Colours swapped: Black's.
    assert_eq!(coefficient("4k3/p7/4n3/8/3P4/8/7P/4K3 b - - 0 1", idx::THREAT_WEAK_PAWN), -1);
    // Attacked by a pawn: a threat by pawn, not a weak pawn (and e4 is not weak for Black either).
    assert_eq!(coefficient("4k3/7p/8/3p4/4P3/4N3/8/4K3 w - - 0 1", idx::THREAT_WEAK_PAWN), 0);
    // Two knights against the rook's one defence: weak; defended by a pawn instead: not.
    assert_eq!(coefficient("3rk3/7p/8/3p4/1N6/4N3/P7/4K3 w - - 0 1", idx::THREAT_WEAK_PAWN), 1);
    assert_eq!(coefficient("4k3/7p/4p3/3p4/1N6/4N3/P7/4K3 w - - 0 1", idx::THREAT_WEAK_PAWN), 0);
}

#[test]
fn a_piece_attacked_once_and_defended_once_is_overloaded() {
    // The bishop b3 attacks the knight d5, which only the pawn e6 defends.
    assert_eq!(coefficient("4k3/8/4p3/3n4/8/1B6/P7/4K3 w - - 0 1", idx::THREAT_OVERLOADED), 1);
    // A second attacker, the rook d1: outnumbered, no longer counted.
    assert_eq!(coefficient("4k3/8/4p3/3n4/8/1B6/P7/3RK3 w - - 0 1", idx::THREAT_OVERLOADED), 0);
}

#[test]
fn a_queen_attacked_by_anything_counts() {
    // The rook d1 attacks the queen d5; the queen's own attack on the rook is no queen threat.
    assert_eq!(coefficient("4k3/p7/8/3q4/8/8/P7/3RK3 w - - 0 1", idx::THREAT_QUEEN_ATTACKED), 1);
    assert_eq!(coefficient("4k3/p7/8/3q4/8/8/P7/4K3 w - - 0 1", idx::THREAT_QUEEN_ATTACKED), 0);
}

#[test]
fn a_safe_push_that_forks_counts_and_the_seventh_rank_needs_a_target() {
    // e4-e5 would attack the knights on d6 and f6.
    let fork = "4k3/8/3n1n2/8/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(fork, idx::THREAT_PAWN_PUSH), 2);
    // (With pawns: rook against bare king is a known endgame, scored without the terms.)
    let rook_on_seventh = "4k3/R7/8/7p/8/8/P7/4K3 w - - 0 1";
    assert_eq!(coefficient(rook_on_seventh, idx::ROOK_SEVENTH), 1);
    let king_off_the_back_rank = "8/R7/4k3/7p/8/8/P7/4K3 w - - 0 1";
    assert_eq!(coefficient(king_off_the_back_rank, idx::ROOK_SEVENTH), 0);
}
