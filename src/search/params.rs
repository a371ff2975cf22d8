//! Search constants, declared in `params/search.toml` like the evaluation weights so that the
//! black-box tuners can tune them, baked into `src/search/baked.rs` by `tune export`, and read
//! here into named fields by the baked module's `idx` offsets (a constant the TOML no longer
//! declares is a compile error, not a panic).

use super::baked::idx;
use super::time::TimePlan;
use crate::params::SearchParamSet;

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
    /// The constants the engine was built with.
    fn default() -> SearchParams {
        SearchParams::from_set(&SearchParamSet::baked())
    }
}

impl SearchParams {
    /// The constants of a set (whose layout, being a [`SearchParamSet`], is the baked one).
    pub fn from_set(set: &SearchParamSet) -> SearchParams {
        // Search constants are unphased: one value per element, in `idx` order.
        let value: Vec<i32> = set.terms.iter().flat_map(|t| t.mg.iter().copied()).collect();
        debug_assert_eq!(value.len(), idx::COUNT);
        let (lmr_base, lmr_divisor) = (value[idx::LMR_BASE], value[idx::LMR_DIVISOR]);
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
        SearchParams {
            aspiration_window: value[idx::ASPIRATION_WINDOW],
            nmp_base: value[idx::NMP_BASE],
            nmp_depth_divisor: value[idx::NMP_DEPTH_DIVISOR],
            nmp_eval_divisor: value[idx::NMP_EVAL_DIVISOR],
            lmr_base,
            lmr_divisor,
            lmr_cut_node: value[idx::LMR_CUT_NODE],
            see_quiet_margin: value[idx::SEE_QUIET_MARGIN],
            rfp_margin: value[idx::RFP_MARGIN],
            rfp_max_depth: value[idx::RFP_MAX_DEPTH],
            futility_base: value[idx::FUTILITY_BASE],
            futility_per_depth: value[idx::FUTILITY_PER_DEPTH],
            futility_max_depth: value[idx::FUTILITY_MAX_DEPTH],
            lmp_base: value[idx::LMP_BASE],
            lmp_max_depth: value[idx::LMP_MAX_DEPTH],
            see_capture_margin: value[idx::SEE_CAPTURE_MARGIN],
            qsearch_delta: value[idx::QSEARCH_DELTA],
            time_panic_percent: value[idx::TIME_PANIC_PERCENT],
            time_plan: TimePlan {
                moves_left: value[idx::TIME_MOVES_LEFT] as u64,
                start_percent: value[idx::TIME_START_PERCENT] as u32,
            },
            singular_min_depth: value[idx::SINGULAR_MIN_DEPTH],
            singular_margin: value[idx::SINGULAR_MARGIN],
            lmr,
        }
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

    /// Each field holds the value of the term its name says, as params/search.toml declares it
    /// (read by name here, by offset in `from_set`).
    #[test]
    fn every_field_reads_its_own_term() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("params/search.toml");
        let file = crate::params::ParamSet::load(&path).unwrap();
        let value = |name: &str| file.term(name).unwrap_or_else(|| panic!("{name}")).mg[0];
        let p = SearchParams::default();
        let fields = [
            (p.aspiration_window, "aspiration.window"),
            (p.nmp_base, "nmp.base"),
            (p.nmp_depth_divisor, "nmp.depth_divisor"),
            (p.nmp_eval_divisor, "nmp.eval_divisor"),
            (p.lmr_base, "lmr.base"),
            (p.lmr_divisor, "lmr.divisor"),
            (p.lmr_cut_node, "lmr.cut_node"),
            (p.see_quiet_margin, "see.quiet_margin"),
            (p.rfp_margin, "rfp.margin"),
            (p.rfp_max_depth, "rfp.max_depth"),
            (p.futility_base, "futility.base"),
            (p.futility_per_depth, "futility.per_depth"),
            (p.futility_max_depth, "futility.max_depth"),
            (p.lmp_base, "lmp.base"),
            (p.lmp_max_depth, "lmp.max_depth"),
            (p.see_capture_margin, "see.capture_margin"),
            (p.qsearch_delta, "qsearch.delta"),
            (p.time_panic_percent, "time.panic_percent"),
            (p.time_plan.moves_left as i32, "time.moves_left"),
            (p.time_plan.start_percent as i32, "time.start_percent"),
            (p.singular_min_depth, "singular.min_depth"),
            (p.singular_margin, "singular.margin"),
        ];
        for (field, name) in fields {
            assert_eq!(field, value(name), "{name}");
        }
        // A changed value reaches its field and no other.
        let mut values = SearchParamSet::baked().values();
        values[idx::RFP_MARGIN] += 1;
        let changed = SearchParams::from_set(&SearchParamSet::baked().with_values(&values));
        assert_eq!(changed, SearchParams { rfp_margin: p.rfp_margin + 1, ..p });
    }

    #[test]
    fn the_default_time_plan_is_the_shipped_one() {
        assert_eq!(SearchParams::default().time_plan, TimePlan::default());
    }
}
