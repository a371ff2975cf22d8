//! Tests of `eval/terms/closedness.rs`.

use super::closedness;
use crate::board::Position;
use crate::eval::baked::idx;
use crate::eval::tests::coefficient;

fn level(fen: &str) -> usize {
    closedness(&Position::from_fen(fen).unwrap())
}

#[test]
fn rammed_pawns_close_and_open_files_open_the_position() {
    // 16 pawns, none rammed, no open file: 16 / 3 = 5.
    assert_eq!(level("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 5);
    // An advance French: 16 pawns, 2 rammed pairs (d4 against d5, e5 against e6): 22 / 3 = 7.
    assert_eq!(level("rnbqkbnr/ppp2ppp/4p3/3pP3/3P4/8/PPP2PPP/RNBQKBNR w KQkq - 0 1"), 7);
    // Two pawns on one file, seven open files: clamped to 0.
    assert_eq!(level("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1"), 0);
}

#[test]
fn knights_and_rooks_are_counted_at_the_level_white_minus_black() {
    let fen = "r3k3/pppppppp/8/8/8/8/PPPPPPPP/RN2K3 w - - 0 1";
    assert_eq!(coefficient(fen, idx::CLOSEDNESS_KNIGHT + 5), 1);
    assert_eq!(coefficient(fen, idx::CLOSEDNESS_ROOK + 5), 0);
}
