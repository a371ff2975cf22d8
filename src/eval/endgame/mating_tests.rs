//! Tests of `eval/endgame/mating.rs`.

use super::super::test_support::exact;
use super::*;

#[test]
fn helper_tables() {
    assert_eq!(centre_distance(Square::A1), 6);
    assert_eq!(centre_distance(Square::H8), 6);
    assert_eq!(centre_distance(Square::E8), 3);
    assert_eq!(centre_distance("d4".parse().unwrap()), 0);
    assert_eq!(centre_distance("e5".parse().unwrap()), 0);
    assert_eq!(dark_corner_closeness(Square::A1), 7);
    assert_eq!(dark_corner_closeness(Square::H8), 7);
    assert_eq!(dark_corner_closeness(Square::A8), 0);
    assert_eq!(dark_corner_closeness(Square::H1), 0);
}

#[test]
fn krk_and_kqk_prefer_edge_and_close_kings() {
    for piece in ['R', 'Q'] {
        let score = |fen: &str| {
            exact(&fen.replace('X', &piece.to_string()).replace('x', &piece.to_ascii_lowercase().to_string()))
        };
        // Weak king in the corner vs in the centre, the strong king two squares away in both.
        let corner = score("k7/8/2K5/8/8/8/8/7X w - - 0 1");
        let centre = score("8/8/2K5/4k3/8/8/8/7X w - - 0 1");
        // Weak king on the edge, between the two.
        let edge = score("4k3/8/4K3/8/8/8/8/X7 w - - 0 1");
        assert!(corner > edge && edge > centre && centre > KNOWN_WIN, "{piece}: {corner} {edge} {centre}");
        // Kings close vs far, the weak king on the same square.
        let close = score("8/8/8/4k3/8/4K3/8/7X w - - 0 1");
        let far = score("8/8/8/4k3/8/8/8/K6X w - - 0 1");
        assert!(close > far && far > KNOWN_WIN, "{piece}: {close} {far}");
        // Black as the strong side: the negated scores.
        assert_eq!(score("7x/8/8/8/8/2k5/8/K7 b - - 0 1"), -corner);
    }
    // The queen is worth more than the rook in the same placement.
    assert!(exact("k7/8/2K5/8/8/8/8/7Q w - - 0 1") > exact("k7/8/2K5/8/8/8/8/7R w - - 0 1"));
}

#[test]
fn stalemate_and_hanging_piece_are_draws() {
    // Black to move is stalemated; with White to move it is a win.
    assert_eq!(exact("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"), 0);
    assert!(exact("k7/2Q5/1K6/8/8/8/8/8 w - - 0 1") > KNOWN_WIN);
    assert_eq!(exact("k1K5/7R/8/8/8/8/8/8 b - - 0 1"), 0);
    // The lone king to move takes the undefended rook.
    assert_eq!(exact("8/8/8/8/8/2k5/1R6/7K b - - 0 1"), 0);
    assert!(exact("8/8/8/8/8/2k5/1R6/7K w - - 0 1") > KNOWN_WIN);
    // Defended: no capture, still a win. In check but able to move: a win.
    assert!(exact("8/8/8/8/8/2k5/1R6/K7 b - - 0 1") > KNOWN_WIN);
    assert!(exact("8/8/8/8/8/2k5/8/K1R5 b - - 0 1") > KNOWN_WIN);
    // KBNK: the lone king takes the knight.
    assert_eq!(exact("8/8/8/8/8/2k5/1N6/5B1K b - - 0 1"), 0);
    assert!(exact("8/8/8/8/8/2k5/1N6/5B1K w - - 0 1") > KNOWN_WIN);
}

#[test]
fn kbnk_drives_to_the_bishops_corners() {
    // Dark-squared bishop on c1: a1 and h8 are the right corners, a8 and h1 the wrong ones.
    let right = exact("7k/8/5K2/8/8/8/8/2B1N3 w - - 0 1");
    let wrong = exact("k7/8/2K5/8/8/8/8/2B1N3 w - - 0 1");
    let centre = exact("8/8/8/8/4k3/2K5/8/2B1N3 w - - 0 1");
    let right_edge = exact("6k1/8/6K1/8/8/8/8/2B1N3 w - - 0 1");
    assert!(
        right > right_edge && right_edge > wrong && wrong >= centre,
        "{right} {right_edge} {wrong} {centre}"
    );
    assert!(centre > KNOWN_WIN);
    // Light-squared bishop on d1: now a8 is right and h8 wrong.
    let right = exact("k7/8/2K5/8/8/8/8/3BN3 w - - 0 1");
    let wrong = exact("7k/8/5K2/8/8/8/8/3BN3 w - - 0 1");
    assert!(right > wrong && wrong > KNOWN_WIN, "{right} {wrong}");
    // Kings close beat kings far.
    let close = exact("7k/8/5K2/8/8/8/8/2B1N3 w - - 0 1");
    let far = exact("7k/8/8/8/8/2K5/8/2B1N3 w - - 0 1");
    assert!(close > far, "{close} {far}");
    // Below the rook and the queen.
    assert!(right < exact("k7/8/2K5/8/8/8/8/7R w - - 0 1"));
}
