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
        };
        SearchParams { values, time_plan, lmr }
    }

    pub fn reduction(&self, depth: i32, moves: usize) -> i32 {
        self.lmr[depth.clamp(0, 63) as usize][moves.min(63)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_search_params_load() {
        let p = SearchParams::default();
        assert_eq!(p[idx::NMP_BASE], 4);
        assert!(p.reduction(10, 20) >= 2 && p.reduction(1, 1) == 0);
    }

    /// Every offset reads the term whose name it is, as params/search.toml declares it (read by
    /// name here, by generated offset in the search), and a changed value reaches its offset
    /// and no other.
    #[test]
    fn every_offset_reads_its_own_term() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("params/search.toml");
        let file = crate::params::ParamSet::load(&path).unwrap();
        let p = SearchParams::default();
        for (term, at) in file.terms.iter().zip(file.element_offsets()) {
            assert_eq!(p[at], term.mg[0], "{}", term.name);
        }
        assert_eq!(file.element_offsets()[3], idx::NMP_EVAL_DIVISOR, "the TOML's order is the baked one");
        assert_eq!(p.time_plan.moves_left as i32, p[idx::TIME_MOVES_LEFT]);
        let mut values = SearchParamSet::baked().values();
        values[idx::RFP_MARGIN] += 1;
        let changed = SearchParams::from_set(&SearchParamSet::baked().with_values(&values));
        let differing: Vec<usize> = (0..idx::COUNT).filter(|&i| changed[i] != p[i]).collect();
        assert_eq!(differing, [idx::RFP_MARGIN]);
        assert_eq!(changed[idx::RFP_MARGIN], p[idx::RFP_MARGIN] + 1);
    }

    #[test]
    fn the_default_time_plan_is_the_shipped_one() {
        assert_eq!(SearchParams::default().time_plan, TimePlan::default());
    }
}
