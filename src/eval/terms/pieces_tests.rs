//! Tests of `eval/terms/pieces.rs`.

use crate::eval::baked::idx;
use crate::eval::tests::coefficient;

#[test]
fn outposts_and_minor_pieces_behind_pawns() {
    // Bishop d5 defended by e4, no black pawn on c or e files ahead: an outpost.
    let fen = "4k3/p7/8/3B4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(fen, idx::BISHOP_OUTPOST), 1);
    // A black pawn on c7 could drive it away: no outpost.
    let chased = "4k3/2p5/8/3B4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(chased, idx::BISHOP_OUTPOST), 0);
    // Knight d3 behind d4, bishop c1 not behind a pawn.
    let behind = "4k3/8/8/8/3P4/3N4/8/2B1K3 w - - 0 1";
    assert_eq!(coefficient(behind, idx::MINOR_BEHIND_PAWN), 1);
    let black = "2b1k3/8/3n4/3p4/8/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(black, idx::MINOR_BEHIND_PAWN), -1);
}

#[test]
fn minor_pieces_are_scored_by_their_distance_to_the_king() {
    // White king e1: knight g1 two steps away, bishop c4 three; Black king e8: knight b8 three.
    let fen = "1n2k3/8/8/8/2B5/8/8/4K1N1 w - - 0 1";
    assert_eq!(coefficient(fen, idx::MINOR_KING_DISTANCE + 2), 1);
    assert_eq!(coefficient(fen, idx::MINOR_KING_DISTANCE + 3), 0);
    assert!((4..8).all(|d| coefficient(fen, idx::MINOR_KING_DISTANCE + d) == 0));
}

#[test]
fn bishops_are_hemmed_in_by_rammed_pawns_of_their_colour() {
    // White pawns d3 (light) and e3 (dark) blocked by d4 and e4; the bishop c1 is dark.
    let fen = "4k3/8/8/8/3pp3/3PP3/8/2B1K3 w - - 0 1";
    assert_eq!(coefficient(fen, idx::BISHOP_RAMMED_PAWNS), 1);
    // Black's light bishop f5 and its rammed light pawn e4 cancel White's.
    let both = "4k3/8/8/5b2/3pp3/3PP3/8/2B1K3 w - - 0 1";
    assert_eq!(coefficient(both, idx::BISHOP_RAMMED_PAWNS), 0);
    // Unblocked pawns of the bishop's colour do not count.
    let free = "4k3/8/8/8/8/4P3/8/2B1K3 w - - 0 1";
    assert_eq!(coefficient(free, idx::BISHOP_RAMMED_PAWNS), 0);
}

#[test]
fn a_bishop_on_a_long_diagonal_needs_both_centre_squares_in_view() {
    // b2 sees d4 and e5 on the a1-h8 diagonal (pawns a7 and h2 keep the position out of the
    // known endgames, which are scored without the terms).
    assert_eq!(coefficient("4k3/p7/8/8/8/8/1B5P/4K3 w - - 0 1", idx::BISHOP_LONG_DIAGONAL), 1);
    // Past pieces but not past pawns: a knight on c3 is looked through, a pawn is not.
    assert_eq!(coefficient("4k3/p7/8/8/8/2N5/1B5P/4K3 w - - 0 1", idx::BISHOP_LONG_DIAGONAL), 1);
    assert_eq!(coefficient("4k3/p7/8/8/8/2P5/1B5P/4K3 w - - 0 1", idx::BISHOP_LONG_DIAGONAL), 0);
    // In the centre itself, or off the long diagonals: nothing.
    assert_eq!(coefficient("4k3/p7/8/8/3B4/8/7P/4K3 w - - 0 1", idx::BISHOP_LONG_DIAGONAL), 0);
    assert_eq!(coefficient("4k3/p7/8/8/8/8/2B4P/4K3 w - - 0 1", idx::BISHOP_LONG_DIAGONAL), 0);
}

#[test]
fn the_king_is_scored_by_its_minor_piece_and_pawn_defenders() {
    // White king g1 with the knight f1 and pawns f2, g2, h2 next to it (the knight d3 is not);
    // Black king g8 with pawns f7, g7, h7.
    let fen = "6k1/5ppp/8/8/8/3N4/5PPP/5NK1 w - - 0 1";
    assert_eq!(coefficient(fen, idx::KING_DEFENDERS + 4), 1);
    assert_eq!(coefficient(fen, idx::KING_DEFENDERS + 3), -1);
    assert!([0, 1, 2, 5, 6, 7].iter().all(|&n| coefficient(fen, idx::KING_DEFENDERS + n) == 0));
}

#[test]
fn sliders_aimed_at_the_king_ring_past_pieces_but_not_past_pawns() {
    // Bishop b1 behind the knight d3 points at h7, next to the king g8; a pawn on d3 blocks it.
    assert_eq!(coefficient("6k1/5ppp/8/8/8/3N4/P7/1B4K1 w - - 0 1", idx::BISHOP_KING_RING), 1);
    assert_eq!(coefficient("6k1/5ppp/8/8/8/3P4/P7/1B4K1 w - - 0 1", idx::BISHOP_KING_RING), 0);
    // A bishop already attacking the king's zone (g6, two steps from g8) is not counted again.
    assert_eq!(coefficient("6k1/5ppp/8/8/8/8/P7/1B4K1 w - - 0 1", idx::BISHOP_KING_RING), 0);
    // Rook e1 behind the knight e4 points up the e-file at e7, next to the king e8.
    assert_eq!(coefficient("4k3/p7/8/8/4N3/8/P7/4R1K1 w - - 0 1", idx::ROOK_KING_RING), 1);
    assert_eq!(coefficient("4k3/p7/8/8/4P3/8/P7/4R1K1 w - - 0 1", idx::ROOK_KING_RING), 0);
}

#[test]
fn a_queen_is_relatively_pinned_with_one_piece_between_it_and_a_slider() {
    // Queen d1, knight d4, rook d8: one piece between on a rook line.
    assert_eq!(coefficient("3rk3/p7/8/8/3N4/8/P7/3QK3 w - - 0 1", idx::QUEEN_RELATIVE_PIN), 1);
    // No piece between (a plain attack) or two: no pin.
    assert_eq!(coefficient("3rk3/p7/8/8/8/8/P7/3QK3 w - - 0 1", idx::QUEEN_RELATIVE_PIN), 0);
    assert_eq!(coefficient("3rk3/p7/8/3n4/3N4/8/P7/3QK3 w - - 0 1", idx::QUEEN_RELATIVE_PIN), 0);
    // A bishop on the diagonal a4-d1 behind the pawn c2 pins; a rook there does not.
    assert_eq!(coefficient("4k3/p7/8/8/b7/8/P1P5/3QK3 w - - 0 1", idx::QUEEN_RELATIVE_PIN), 1);
    assert_eq!(coefficient("4k3/p7/8/8/r7/8/P1P5/3QK3 w - - 0 1", idx::QUEEN_RELATIVE_PIN), 0);
}

#[test]
fn imbalance_counts_pieces_times_pawns_above_five() {
    // White: a knight and a rook with 7 pawns (+2 each); Black: a rook with 3 pawns (-2).
    let fen = "r3k3/ppp5/8/8/8/8/PPPPPPP1/RN2K3 w - - 0 1";
    assert_eq!(coefficient(fen, idx::IMBALANCE_KNIGHT_PAWNS), 2);
    assert_eq!(coefficient(fen, idx::IMBALANCE_ROOK_PAWNS), 2 - (-2));
}
