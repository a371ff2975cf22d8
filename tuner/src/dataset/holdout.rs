//! The one hold-out rule: which positions of a dataset are kept back for validation.
//!
//! Positions are numbered from 0 in the order a dataset loads them (the files in the order given,
//! each file's positions in line order; blank, comment, header and broken lines are not positions).
//! Position `index` is held out when a hash of the index and the seed falls below the fraction, so
//! the same data, fraction and seed hold out the same positions on every machine, whatever the
//! positions say. The tuners split a loaded trace store by it (`model::split`: `tune texel`
//! without `--valid`, the Texel fitness of `tune pbil|spsa|clop`), and `tune dataset split`
//! writes the same split of one file as two files.

use whetstone::types::{mix64, GOLDEN_GAMMA};

/// A deterministic share of a dataset's positions, kept back for validation.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct HoldOut {
    /// The expected share of positions held out, in [0, 1].
    pub fraction: f64,
    /// Another seed, another split.
    pub seed: u64,
}

impl HoldOut {
    /// Whether position `index` (0-based, in load order) is held out.
    pub fn holds_out(&self, index: usize) -> bool {
        // 1 holds out everything: the hash's largest values would round to 1.0 below.
        if self.fraction >= 1.0 {
            return true;
        }
        let z = mix64((index as u64).wrapping_add(self.seed.wrapping_mul(GOLDEN_GAMMA)));
        (z as f64 / u64::MAX as f64) < self.fraction
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_held_out_positions_are_fixed_per_index_and_seed() {
        // Pinned values: a change of the hash would change the validation set of every tuning run
        // (these are the positions the tuners held out before the rule moved here).
        let held = |seed, fraction| -> Vec<usize> {
            (0..100).filter(|&i| HoldOut { fraction, seed }.holds_out(i)).collect()
        };
        assert_eq!(held(1, 0.1), [10, 18, 21, 41, 48, 68, 82, 83]);
        assert_eq!(
            held(7, 0.25),
            [
                0, 3, 6, 11, 12, 14, 17, 26, 34, 39, 42, 47, 51, 52, 53, 56, 58, 59, 64, 66, 67, 68, 71, 79,
                80, 83, 88, 92
            ]
        );
        assert!((0..10_000).all(|i| {
            !HoldOut { fraction: 0.0, seed: 7 }.holds_out(i)
                && HoldOut { fraction: 1.0, seed: 7 }.holds_out(i)
        }));
    }

    #[test]
    fn the_share_held_out_follows_the_fraction() {
        for fraction in [0.05, 0.2, 0.5] {
            let rule = HoldOut { fraction, seed: 3 };
            let held = (0..100_000).filter(|&i| rule.holds_out(i)).count() as f64 / 100_000.0;
            assert!((held - fraction).abs() < 0.01, "{fraction}: {held}");
        }
    }
}
