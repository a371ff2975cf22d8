//! Tests of `attacks/magic.rs`.

use super::*;

/// Every entry of both tables, for every subset of every mask, equals the slow ray walk.
#[test]
fn every_entry_matches_reference() {
    let t = tables();
    assert_eq!(t.attacks.len(), 102_400 + 5_248);
    let mut checked = 0;
    for sq in 0..64 {
        for occ in subsets(t.rook[sq].mask) {
            assert_eq!(rook_attacks(sq, occ), rook_attacks_slow(sq, occ), "rook {sq} {occ:#x}");
            checked += 1;
        }
        for occ in subsets(t.bishop[sq].mask) {
            assert_eq!(bishop_attacks(sq, occ), bishop_attacks_slow(sq, occ), "bishop {sq} {occ:#x}");
            checked += 1;
        }
    }
    assert_eq!(checked, 107_648);
}

/// Occupancy outside the mask (edges, far squares) never changes the looked-up set.
#[test]
fn random_full_occupancies_match_reference() {
    let mut rng = Rng(12345);
    for _ in 0..20_000 {
        let occ = rng.next() & rng.next();
        let sq = (rng.next() % 64) as usize;
        assert_eq!(rook_attacks(sq, occ), rook_attacks_slow(sq, occ));
        assert_eq!(bishop_attacks(sq, occ), bishop_attacks_slow(sq, occ));
    }
}

/// The committed magics are exactly what the generator finds from its fixed seed.
#[cfg(not(feature = "pext"))]
#[test]
fn committed_magics_match_the_generator() {
    let (searched, stats) = SliderTables::search();
    assert!(stats.candidates_tried > 128);
    let committed = include_str!("magic_numbers.rs");
    assert!(
        searched.to_rust_module() == committed,
        "src/movegen/magic_numbers.rs is stale: regenerate it with `whetstone magics --rust`"
    );
}

#[test]
fn masks_exclude_edges() {
    let t = tables();
    assert_eq!(t.rook[0].mask.count_ones(), 12);
    assert_eq!(t.rook[27].mask.count_ones(), 10); // d4
    assert_eq!(t.bishop[27].mask.count_ones(), 9);
    assert_eq!(t.bishop[0].mask.count_ones(), 6);
}
