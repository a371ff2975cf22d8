//! Tests of `eval/masks.rs`.

use super::*;

#[test]
fn spans() {
    let e4: Square = "e4".parse().unwrap();
    assert_eq!(front_span(Color::White, e4).count(), 4);
    assert_eq!(front_span(Color::Black, e4).count(), 3);
    assert_eq!(passed_span(Color::White, e4).count(), 12);
    assert_eq!(attack_span(Color::Black, e4).count(), 6);
    assert_eq!(adjacent_files(0), Bitboard::file(1));
    assert!(front_span(Color::White, "e8".parse().unwrap()).is_empty());
}

#[test]
fn the_outer_ring_is_what_two_king_steps_reach_and_one_does_not() {
    use crate::attacks::king_attacks;
    for sq in (0..64).map(Square::new) {
        let inner = king_attacks(sq);
        let two = inner.into_iter().fold(Bitboard::EMPTY, |b, s| b | king_attacks(s));
        assert_eq!(outer_ring(sq), two & !inner & !Bitboard::from_square(sq), "{sq:?}");
    }
    assert_eq!(outer_ring("e4".parse().unwrap()).count(), 16);
    assert_eq!(outer_ring("a1".parse().unwrap()).count(), 5);
}
