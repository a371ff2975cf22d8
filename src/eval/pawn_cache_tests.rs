//! Tests of `eval/pawn_cache.rs`.

use super::*;

#[test]
fn an_entry_is_found_under_its_own_key_only() {
    let mut cache = PawnCache::new(4);
    let entry = PawnEntry::new(0x1234_5678_0000_0001, S(3, -4), [Bitboard(1), Bitboard(2)]);
    cache.store(entry);
    let found = cache.probe(entry.key).expect("stored");
    assert_eq!((found.score, found.passed), (S(3, -4), [Bitboard(1), Bitboard(2)]));
    // Same slot (same low bits), other key: a miss, not the other structure's score.
    assert!(cache.probe(entry.key ^ (1 << 40)).is_none());
    // A later entry in the slot replaces it.
    cache.store(PawnEntry { key: 5, ..entry });
    assert!(cache.probe(entry.key).is_none());
    assert!(cache.probe(5).is_some());
}

#[test]
fn a_disabled_cache_stores_nothing_and_key_zero_never_hits() {
    let mut off = PawnCache::disabled();
    off.store(PawnEntry::new(7, S::ZERO, [Bitboard::EMPTY; 2]));
    assert!(!off.is_enabled() && off.probe(7).is_none());
    let on = PawnCache::new(3);
    assert!(on.is_enabled());
    assert!(on.probe(0).is_none(), "an empty slot must not answer for key 0");
}

#[test]
fn a_king_score_is_kept_per_colour_and_king_square() {
    let mut cache = PawnCache::new(4);
    let key = 0x77;
    let (g1, h1) = (Square::new(6), Square::new(7));
    // No entry under the key: nothing is kept.
    cache.store_king(key, Color::White, g1, S(1, 1));
    assert!(cache.probe_king(key, Color::White, g1).is_none());
    cache.store(PawnEntry::new(key, S::ZERO, [Bitboard::EMPTY; 2]));
    assert!(cache.probe_king(key, Color::White, g1).is_none(), "a fresh entry keeps no king score");
    cache.store_king(key, Color::White, g1, S(5, -2));
    assert_eq!(cache.probe_king(key, Color::White, g1), Some(S(5, -2)));
    // Another king square or the other colour: a miss.
    assert!(cache.probe_king(key, Color::White, h1).is_none());
    assert!(cache.probe_king(key, Color::Black, g1).is_none());
    // A new entry for the structure forgets the king scores.
    cache.store(PawnEntry::new(key, S::ZERO, [Bitboard::EMPTY; 2]));
    assert!(cache.probe_king(key, Color::White, g1).is_none());
}
