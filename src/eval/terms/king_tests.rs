//! Tests of `eval/terms/king.rs`.

use crate::board::Position;
use crate::eval::baked::idx;
use crate::eval::tests::coefficient;
use crate::types::Color;

/// The count of one king-safety feature against `defender`'s king in the trace of `fen`.
fn danger_feature(fen: &str, defender: Color, element: usize) -> i16 {
    let trace = crate::eval::trace(&Position::from_fen(fen).unwrap());
    let features = &trace.king_features[defender.index()];
    features.iter().find(|&&(i, _)| i as usize == element).map_or(0, |&(_, n)| n)
}

#[test]
fn weak_squares_are_those_next_to_the_king_only_the_king_defends() {
    // White king g1, pawns f2 g2 h2; a Black knight on e3 hits f1 and g2, which only the king
    // defends (f2 and h2 are not attacked; the pawns defend nothing next to the king).
    let knight = "7k/8/8/8/8/4n3/5PPP/6K1 w - - 0 1";
    assert_eq!(danger_feature(knight, Color::White, idx::KING_SAFETY_WEAK_SQUARES), 2);
    // A White rook on a1 also guards f1: only g2 is left weak.
    let rook = "7k/8/8/8/8/4n3/5PPP/R5K1 w - - 0 1";
    assert_eq!(danger_feature(rook, Color::White, idx::KING_SAFETY_WEAK_SQUARES), 1);
    // Nothing attacks Black's king: no weak square there.
    assert_eq!(danger_feature(rook, Color::Black, idx::KING_SAFETY_WEAK_SQUARES), 0);
}

#[test]
fn the_shield_is_scored_by_file_and_the_blocked_storm_apart() {
    // White king g1, pawns f2, g3, h2; Black pawns g4 (blocked by g3) and h4 (not blocked).
    // Black king a8 behind pawns a7, b7 and nothing on c-file.
    let fen = "k7/pp6/8/8/6pp/6P1/5P1P/6K1 w - - 0 1";
    // Files f, g, h are 2, 1 and 0 from the edge; the shield pawns stand on relative ranks 1, 2, 1.
    assert_eq!(coefficient(fen, idx::KING_SHIELD_FILE + 8 * 2 + 1), 1);
    assert_eq!(coefficient(fen, idx::KING_SHIELD_FILE + 8 + 2), 1);
    // h2 (White) and a7 (Black, relative rank 1 on the edge) cancel; b7 is Black's b/g-file pawn.
    assert_eq!(coefficient(fen, idx::KING_SHIELD_FILE + 1), 0);
    assert_eq!(coefficient(fen, idx::KING_SHIELD_FILE + 8 + 1), -1);
    // The king's own file: g3 for White (rank 2), a7 for Black (rank 1).
    assert_eq!(coefficient(fen, idx::KING_SHIELD_KING_FILE + 2), 1);
    assert_eq!(coefficient(fen, idx::KING_SHIELD_KING_FILE + 1), -1);
    // g4 stands right in front of g3 (relative rank 3): blocked; h4 in front of nothing on h3.
    assert_eq!(coefficient(fen, idx::KING_STORM_BLOCKED + 3), 1);
    assert!((0..8).filter(|&r| r != 3).all(|r| coefficient(fen, idx::KING_STORM_BLOCKED + r) == 0));
}

#[test]
fn the_king_is_scored_by_its_distance_to_the_nearest_pawn() {
    // White king e1: h3 is 3 away, a5 4. Black king h8: h3 is 5 away.
    let fen = "6nk/8/8/p7/8/7P/8/1N2K3 w - - 0 1";
    assert_eq!(coefficient(fen, idx::KING_PAWN_DISTANCE + 3), 1);
    assert_eq!(coefficient(fen, idx::KING_PAWN_DISTANCE + 5), -1);
    assert_eq!(coefficient(fen, idx::KING_PAWN_DISTANCE + 4), 0);
    // Without pawns nothing is counted.
    let pawnless = "k5nr/8/8/8/8/8/8/1N2K2R w - - 0 1";
    assert!((0..8).all(|d| coefficient(pawnless, idx::KING_PAWN_DISTANCE + d) == 0));
}
