//! SplitMix64 (Steele, Lea and Flood 2014): the one small seeded generator and hash finaliser of
//! the project. The engine draws its Zobrist keys from it at compile time; the tuner hashes line
//! numbers and seeds with it (hold-out splits, per-step seeds), so one seed means the same draws
//! on every machine.

/// The generator's increment: 2^64 divided by the golden ratio.
pub const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The finaliser: a well-mixed 64-bit hash of `z`.
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The generator: its state advances by [`GOLDEN_GAMMA`] and each output is the state mixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        mix64(self.0)
    }
}

#[cfg(test)]
#[path = "splitmix_tests.rs"]
mod tests;
