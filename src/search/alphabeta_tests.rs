use super::*;

#[test]
fn the_table_score_replaces_the_evaluation_only_beyond_it_by_its_bound() {
    assert_eq!(tt_bounded_eval(10, Bound::Lower, 50), 50);
    assert_eq!(tt_bounded_eval(10, Bound::Lower, -50), 10);
    assert_eq!(tt_bounded_eval(10, Bound::Upper, -50), -50);
    assert_eq!(tt_bounded_eval(10, Bound::Upper, 50), 10);
    assert_eq!(tt_bounded_eval(10, Bound::Exact, -3), -3);
    assert_eq!(tt_bounded_eval(10, Bound::None, 99), 10);
    assert_eq!(tt_bounded_eval(10, Bound::Lower, MATE - 5), 10, "never a mate score");
}
