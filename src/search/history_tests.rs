use super::*;

#[test]
fn gravity_keeps_history_bounded() {
    let mut e = 0;
    for _ in 0..10_000 {
        History::update(&mut e, 20_000);
        assert!(e <= HISTORY_MAX);
    }
    for _ in 0..10_000 {
        History::update(&mut e, -20_000);
        assert!(e >= -HISTORY_MAX);
    }
}

#[test]
fn a_cutoff_rewards_the_move_after_its_predecessors() {
    let pos = Position::startpos();
    let mut h = History::default();
    let best = pos.parse_uci_move("g1f3").unwrap();
    let other = pos.parse_uci_move("a2a3").unwrap();
    let conts = [5, NO_PIECE_TO];
    h.record_cutoff(&pos, 0, 400, best, true, &[other, best], &[], conts);
    assert!(h.quiet_score(&pos, best, conts) > h.quiet_score(&pos, best, [NO_PIECE_TO; 2]));
    assert!(h.quiet_score(&pos, best, conts) > h.quiet_score(&pos, best, [6, NO_PIECE_TO]));
    assert!(h.quiet_score(&pos, other, conts) < 0);
    assert_eq!(h.killers[0][0], best);
}

/// A new search forgets the killers and halves the histories, or (`history.no_ageing`) keeps
/// them whole.
#[test]
fn a_new_search_halves_or_keeps_the_histories() {
    let pos = Position::startpos();
    let best = pos.parse_uci_move("g1f3").unwrap();
    let conts = [5, NO_PIECE_TO];
    let mut h = History::default();
    h.record_cutoff(&pos, 0, 400, best, true, &[best], &[], conts);
    let score = h.quiet_score(&pos, best, conts);
    let [one_back, two_back] = h.continuation_scores(&pos, best, conts);
    assert!(one_back > 0 && two_back == 0, "{one_back} {two_back}");
    h.new_search(false);
    assert_eq!(h.quiet_score(&pos, best, conts), score);
    assert_eq!(h.killers[0][0], Move::NULL);
    h.new_search(true);
    assert_eq!(h.continuation_scores(&pos, best, conts), [one_back / 2, 0]);
    assert!(h.quiet_score(&pos, best, conts) < score);
}
