//! Search constants, declared in `params/search.toml` like the evaluation weights so that the
//! black-box tuners can tune them, and read here into named fields.

use super::time::TimePlan;
use crate::params::{ParamSet, ParamsError};

/// The search.toml the engine was built with.
pub const SEARCH_TOML: &str = include_str!("../../params/search.toml");

#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    pub aspiration_window: i32,
    pub nmp_base: i32,
    pub nmp_depth_divisor: i32,
    pub nmp_eval_divisor: i32,
    pub lmr_base: i32,
    pub lmr_divisor: i32,
    pub lmr_cut_node: i32,
    pub see_quiet_margin: i32,
    pub rfp_margin: i32,
    pub rfp_max_depth: i32,
    pub futility_base: i32,
    pub futility_per_depth: i32,
    pub futility_max_depth: i32,
    pub lmp_base: i32,
    pub lmp_max_depth: i32,
    pub see_capture_margin: i32,
    pub qsearch_delta: i32,
    pub time_panic_percent: i32,
    pub time_plan: TimePlan,
    pub singular_min_depth: i32,
    pub singular_margin: i32,
    /// lmr[depth][moves], precomputed from lmr.base and lmr.divisor.
    pub lmr: Vec<[i32; 64]>,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams::from_set(&Self::built_in_set()).expect("params/search.toml is checked by a test")
    }
}

impl SearchParams {
    pub fn built_in_set() -> ParamSet {
        ParamSet::from_toml_str(SEARCH_TOML, "params/search.toml").expect("params/search.toml is valid")
    }

    pub fn from_set(set: &ParamSet) -> Result<SearchParams, ParamsError> {
        set.check_layout(&Self::built_in_set(), "search parameters")?;
        let get = |name: &str| set.term(name).map(|t| t.mg[0]).expect("layout checked");
        let (lmr_base, lmr_divisor) = (get("lmr.base"), get("lmr.divisor"));
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
        Ok(SearchParams {
            aspiration_window: get("aspiration.window"),
            nmp_base: get("nmp.base"),
            nmp_depth_divisor: get("nmp.depth_divisor"),
            nmp_eval_divisor: get("nmp.eval_divisor"),
            lmr_base,
            lmr_divisor,
            lmr_cut_node: get("lmr.cut_node"),
            see_quiet_margin: get("see.quiet_margin"),
            rfp_margin: get("rfp.margin"),
            rfp_max_depth: get("rfp.max_depth"),
            futility_base: get("futility.base"),
            futility_per_depth: get("futility.per_depth"),
            futility_max_depth: get("futility.max_depth"),
            lmp_base: get("lmp.base"),
            lmp_max_depth: get("lmp.max_depth"),
            see_capture_margin: get("see.capture_margin"),
            qsearch_delta: get("qsearch.delta"),
            time_panic_percent: get("time.panic_percent"),
            time_plan: TimePlan {
                moves_left: get("time.moves_left") as u64,
                start_percent: get("time.start_percent") as u32,
            },
            singular_min_depth: get("singular.min_depth"),
            singular_margin: get("singular.margin"),
            lmr,
        })
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
        assert_eq!(p.nmp_base, 3);
        assert!(p.reduction(10, 20) >= 2 && p.reduction(1, 1) == 0);
    }

    #[test]
    fn the_default_time_plan_is_the_shipped_one() {
        assert_eq!(SearchParams::default().time_plan, TimePlan::default());
    }
}
