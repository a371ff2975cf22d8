//! Tests of `eval/terms/complexity.rs`.

use super::*;

#[test]
fn complexity_moves_the_end_game_away_from_zero_or_toward_it_by_at_most_itself() {
    assert_eq!(adjustment(100, 30), 30);
    assert_eq!(adjustment(-100, 30), -30);
    assert_eq!(adjustment(100, -30), -30);
    assert_eq!(adjustment(-100, -30), 30);
    // Never past zero: the side ahead stays ahead or level.
    assert_eq!(adjustment(40, -100), -40);
    assert_eq!(adjustment(-40, -100), 40);
    assert_eq!(adjustment(0, 80), 0);
}

#[test]
fn the_counts_see_pawns_flanks_and_pawn_endings() {
    let of = |fen: &str| counts(&Position::from_fen(fen).unwrap());
    // Start position: 16 pawns on both flanks, pieces on the board.
    assert_eq!(of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), [16, 1, 0, 1]);
    // Pawns on the king's side only, kings and pawns only.
    assert_eq!(of("8/5pk1/8/8/8/8/5PPK/8 w - - 0 1"), [3, 0, 1, 1]);
    // A pawn on d and one on e: both flanks; a rook on the board.
    assert_eq!(of("4k3/3p4/8/8/8/8/4P3/R3K3 w - - 0 1"), [2, 1, 0, 1]);
}
