//! Tests of `attacks/mod.rs`.

use super::*;

#[test]
fn leaper_counts() {
    assert_eq!(knight_attacks(Square::A1).count(), 2);
    assert_eq!(knight_attacks("d4".parse().unwrap()).count(), 8);
    assert_eq!(king_attacks(Square::H8).count(), 3);
    assert_eq!(
        pawn_attacks(Color::White, "a2".parse().unwrap()),
        Bitboard::from_square("b3".parse().unwrap())
    );
    assert_eq!(pawn_attacks(Color::Black, Square::E8).count(), 2);
}

#[test]
fn between_and_line() {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    assert_eq!(between(sq("a1"), sq("d4")).count(), 3); // b2 c3 d4
    assert!(between(sq("a1"), sq("d4")).contains(sq("d4")));
    assert_eq!(between(sq("a1"), sq("b3")), Bitboard::from_square(sq("b3")));
    assert_eq!(line(sq("a1"), sq("c3")).count(), 8);
    assert!(line(sq("a1"), sq("b3")).is_empty());
    assert_eq!(line(sq("e1"), sq("e5")), Bitboard::file(4));
}
