//! Tests of `fitness/tournament.rs`.

use super::*;
use crate::testutil::{judge, pair_judge, Judge};

#[test]
fn every_candidate_plays_its_rounds_and_each_game_counts_for_both_sides() {
    let t = Tournament { source: judge(true) };
    let candidates: Vec<Vec<f64>> = (0..8).map(|i| vec![i as f64]).collect();
    // Four games each: two rounds of four pairings, one game pair each.
    let scored = t.rank(&candidates, 4, 11, &AtomicBool::new(false)).unwrap();
    assert_eq!(t.source.asked.lock().unwrap().len(), 8, "2 rounds x 4 pairings");
    let played: u64 = scored.iter().map(|s| s.games.played()).sum();
    assert_eq!(played, 16, "8 game pairs, each game counted once");
    // The strongest can only win, the weakest only lose: the ranking follows strength.
    assert_eq!(scored[7].fitness, 1.0);
    assert_eq!(scored[0].fitness, 0.0);
    assert_eq!(t.games_per_trial(4), 2, "each game is shared by two candidates");
}

#[test]
fn an_odd_one_out_plays_the_reference_and_the_schedule_follows_the_seed() {
    let schedule = Tournament::<Judge>::schedule(5, 3, 2);
    assert_eq!(schedule.len(), 9, "three rounds of two pairings and one bye");
    assert_eq!(schedule.iter().filter(|(_, b)| b.is_none()).count(), 3);
    for round in schedule.chunks(3) {
        let mut seen: Vec<usize> = round.iter().flat_map(|&(a, b)| [Some(a), b]).flatten().collect();
        seen.sort();
        assert_eq!(seen, [0, 1, 2, 3, 4], "every candidate plays once a round");
    }
    assert_eq!(schedule, Tournament::<Judge>::schedule(5, 3, 2));
    assert_ne!(schedule, Tournament::<Judge>::schedule(5, 3, 3));
    let t = Tournament { source: judge(true) };
    let candidates: Vec<Vec<f64>> = [-1.0, 1.0, 2.0].iter().map(|&v| vec![v]).collect();
    let scored = t.rank(&candidates, 2, 5, &AtomicBool::new(false)).unwrap();
    let asked = t.source.asked.lock().unwrap();
    assert_eq!(asked.iter().filter(|trial| trial.opponent.is_none()).count(), 1);
    assert_eq!(scored.iter().map(|s| s.games.played()).sum::<u64>(), 4, "two pairs: one duel, one bye");
}

#[test]
fn a_tournament_of_pairs_counts_each_pair_once_in_its_cost() {
    let t = Tournament { source: pair_judge(true) };
    let candidates: Vec<Vec<f64>> = (0..4).map(|i| vec![i as f64]).collect();
    let scored = t.rank(&candidates, 4, 3, &AtomicBool::new(false)).unwrap();
    let mut pairs = crate::play::games::stats::Pentanomial::default();
    for s in &scored {
        pairs.merge(&s.games.pairs);
        assert_eq!(2 * s.games.pairs.pairs(), s.games.played(), "{s:?}");
    }
    // Two rounds of two pairings, every pair 1½ points for the stronger side: from the
    // pairing's first candidate, 1½ or ½.
    assert_eq!(pairs.pairs(), 4);
    assert_eq!(pairs.0[1] + pairs.0[3], 4, "{pairs:?}");
    assert_eq!(scored[3].fitness, 0.75, "the strongest scores 1½ of 2 in every pair");
}
