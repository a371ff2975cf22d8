//! Tests of `types/splitmix.rs`.

use super::*;

#[test]
fn matches_the_reference_stream() {
    // The first outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
    let mut rng = SplitMix64(0);
    assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
    assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    assert_eq!(rng.next_u64(), 0x06c4_5d18_8009_454f);
}
