//! Tests of `eval/terms/space.rs`.

use crate::eval::baked::idx;
use crate::eval::tests::coefficient;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn the_start_position_is_even() {
    for element in [idx::SPACE_RESTRICT_PIECE, idx::SPACE_RESTRICT_EMPTY, idx::SPACE_CENTER_CONTROL] {
        assert_eq!(coefficient(START, element), 0);
    }
}

#[test]
fn a_square_the_enemy_attacks_twice_and_we_once_is_restricted() {
    // d5 is empty: the knights b4 and f4 attack it, only the knight c7 for Black (both
    // sides' other pieces are far). White's knights are where Black is short.
    let fen = "4k3/p1n5/8/8/1N3N2/8/P7/4K3 w - - 0 1";
    // Black: restricted on d5 (White attacks it twice, Black once); White: on nothing.
    assert_eq!(coefficient(fen, idx::SPACE_RESTRICT_EMPTY), -1);
    assert_eq!(coefficient(fen, idx::SPACE_RESTRICT_PIECE), 0);
    // A black pawn on e6 covers d5: no longer restricted.
    assert_eq!(coefficient("4k3/p1n5/4p3/8/1N3N2/8/P7/4K3 w - - 0 1", idx::SPACE_RESTRICT_EMPTY), 0);
}

#[test]
fn the_big_centre_counts_only_with_enough_pieces() {
    // After 1. e4 e5 2. Nf3 Nc6, White holds more of the centre without contest.
    let open = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    assert_ne!(coefficient(open, idx::SPACE_CENTER_CONTROL), 0);
    // Kings, pawns and one rook each: not counted.
    let ending = "r3k3/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/R3K3 w - - 0 1";
    assert_eq!(coefficient(ending, idx::SPACE_CENTER_CONTROL), 0);
}
