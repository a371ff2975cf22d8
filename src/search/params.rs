//! Search constants, declared in `params/search.toml` like the evaluation weights so that the
//! black-box tuners can tune them, baked into `src/search/baked.rs` by `tune export`, and read
//! here into named fields by the baked module's `idx` offsets (a constant the TOML no longer
//! declares is a compile error, not a panic).

use super::baked::idx;
use super::time::TimePlan;
use crate::search::SearchParamSet;

/// The search's constants as the search reads them: `params[idx::NMP_BASE]`, each offset
/// generated from params/search.toml as the evaluation's are from params/eval.toml, so a constant is
/// declared once (in the TOML) and one the TOML drops is a compile error. Two tables are derived
/// once here because the search reads them every node.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    values: [i32; idx::COUNT],
    pub time_plan: TimePlan,
    /// lmr[depth][moves], precomputed from lmr.base and lmr.divisor.
    pub lmr: Vec<[i32; 64]>,
}

impl Default for SearchParams {
    /// The constants the engine was built with.
    fn default() -> SearchParams {
        SearchParams::from_set(&SearchParamSet::baked())
    }
}

impl std::ops::Index<usize> for SearchParams {
    type Output = i32;

    /// The constant at a generated offset (`idx::RFP_MARGIN`).
    fn index(&self, at: usize) -> &i32 {
        &self.values[at]
    }
}

impl SearchParams {
    /// The constants of a set (whose layout, being a [`SearchParamSet`], is the baked one).
    pub fn from_set(set: &SearchParamSet) -> SearchParams {
        // Search constants are unphased: one value per element, in `idx` order.
        let flat: Vec<i32> = set.terms.iter().flat_map(|t| t.mg.iter().copied()).collect();
        let values: [i32; idx::COUNT] = flat.try_into().expect("the baked layout has idx::COUNT elements");
        let (lmr_base, lmr_divisor) = (values[idx::LMR_BASE], values[idx::LMR_DIVISOR]);
        let lmr = (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (m, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        let v = lmr_base as f64 / 100.0
                            + (d as f64).ln() * (m as f64).ln() / (lmr_divisor as f64 / 100.0);
                        *r = v as i32;
                    }
                }
                row
            })
            .collect();
        let time_plan = TimePlan {
            moves_left: values[idx::TIME_MOVES_LEFT] as u64,
            start_percent: values[idx::TIME_START_PERCENT] as u32,
            inc_percent: (75 + values[idx::TIME_INC_BONUS]).max(0) as u64,
        };
        SearchParams { values, time_plan, lmr }
    }

    pub fn reduction(&self, depth: i32, moves: usize) -> i32 {
        self.lmr[depth.clamp(0, 63) as usize][moves.min(63)]
    }

    /// The history bonus of a cutoff at `depth` (and the malus of the moves tried before it):
    /// `history.bonus_quadratic`·d² + `history.bonus_linear`·d, at most `history.bonus_max`.
    pub fn history_bonus(&self, depth: i32) -> i32 {
        let d = depth.max(0);
        (self[idx::HISTORY_BONUS_QUADRATIC] * d * d + self[idx::HISTORY_BONUS_LINEAR] * d)
            .min(self[idx::HISTORY_BONUS_MAX])
    }
}

#[cfg(test)]
#[path = "params_tests.rs"]
mod tests;
