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
    assert_eq!(p.time_plan.inc_percent as i32, 75 + p[idx::TIME_INC_BONUS]);
    let mut values = SearchParamSet::baked().values();
    values[idx::RFP_MARGIN] += 1;
    let changed = SearchParams::from_set(&SearchParamSet::baked().with_values(&values));
    let differing: Vec<usize> = (0..idx::COUNT).filter(|&i| changed[i] != p[i]).collect();
    assert_eq!(differing, [idx::RFP_MARGIN]);
    assert_eq!(changed[idx::RFP_MARGIN], p[idx::RFP_MARGIN] + 1);
}

/// The shipped bonus is the one the search always had: 16·d² + 32·d, at most 2,400.
#[test]
fn the_history_bonus_grows_with_depth_to_its_cap() {
    let p = SearchParams::default();
    assert_eq!([1, 4, 11, 12, 30].map(|d| p.history_bonus(d)), [48, 384, 2288, 2400, 2400]);
}

#[test]
fn the_default_time_plan_is_the_shipped_one() {
    assert_eq!(SearchParams::default().time_plan, TimePlan::default());
}
