//! Tests of `fitness/games.rs`.

use super::*;
use crate::play::games::stats::GameScore;
use crate::testutil::{judge, pair_judge};

#[test]
fn pair_counts_survive_every_question() {
    use crate::play::games::stats::Pentanomial;
    let stop = AtomicBool::new(false);
    // A ranking: 3 games round up to 2 pairs, each pair from the candidate's side.
    let j = pair_judge(true);
    let scored = j.rank(&[vec![1.0], vec![-1.0], vec![0.0]], 3, 0, &stop).unwrap();
    let pairs: Vec<Pentanomial> = scored.iter().map(|s| s.games.pairs).collect();
    assert_eq!(
        pairs,
        [Pentanomial([0, 0, 0, 2, 0]), Pentanomial([0, 2, 0, 0, 0]), Pentanomial([0, 0, 2, 0, 0])]
    );
    assert!(scored.iter().all(|s| s.games.all_in_pairs() && s.games.played() == 4));
    assert_eq!(scored[0].fitness, 0.75);
    // A duel: the plus side's pairs.
    let c = j.compare(&[(vec![2.0], vec![1.0])], 0, &stop).unwrap();
    assert_eq!((c[0].games.pairs, c[0].result), (Pentanomial([0, 0, 0, 1, 0]), 1.0));
    // Both sides against the reference: the minus side's pairs are mirrored to the plus side.
    let j = pair_judge(false);
    let c = j.compare(&[(vec![1.0], vec![1.0]), (vec![1.0], vec![-1.0])], 0, &stop).unwrap();
    assert_eq!(c[0].games.pairs, Pentanomial([0, 1, 0, 1, 0]), "1½ for plus, 1½ for minus");
    assert_eq!(c[1].games.pairs, Pentanomial([0, 0, 0, 2, 0]), "1½ for plus, ½ for minus");
    assert!(c.iter().all(|c| c.games.all_in_pairs()), "{c:?}");
    assert_eq!(
        (c[1].games.wld.wins, c[1].games.wld.losses, c[1].games.wld.draws, c[1].result),
        (2, 0, 2, 2.0)
    );
    // Single games carry none.
    let o = j.outcomes(&[vec![1.0]], 0, &stop).unwrap();
    assert_eq!(o[0].pairs, Pentanomial([0, 0, 0, 1, 0]), "a pair source plays a pair even for one game");
    let single = judge(true).rank(&[vec![1.0]], 4, 0, &stop).unwrap();
    assert!(single[0].games.pairs.pairs() == 0 && !single[0].games.all_in_pairs());
}

#[test]
fn games_of_an_older_checkpoint_load_without_pairs() {
    let old = r#"{"wins":3,"losses":1,"draws":2,"failed":0,"failures":[{"crashes":0,"time_losses":1,"illegal_moves":0},{"crashes":0,"time_losses":0,"illegal_moves":0}]}"#;
    let games: Games = serde_json::from_str(old).unwrap();
    assert_eq!((games.wld.wins, games.failures[0].time_losses, games.pairs.pairs()), (3, 1, 0));
    let older: Games = serde_json::from_str(r#"{"wins":1,"losses":0,"draws":0,"failed":0}"#).unwrap();
    let one_win = crate::play::games::stats::Wld { wins: 1, ..Default::default() };
    assert_eq!(older, Games { wld: one_win, ..Games::default() });
    // Written as flat as before the W/L/D count was its own type, in the same order.
    let pairs = r#""pairs":[0,0,0,0,0]}"#;
    assert_eq!(serde_json::to_string(&games).unwrap(), format!("{},{pairs}", old.trim_end_matches('}')));
    let mut both = games;
    both.record_pair(GameScore::Win, GameScore::Draw);
    let back: Games = serde_json::from_str(&serde_json::to_string(&both).unwrap()).unwrap();
    assert_eq!(back, both);
    assert_eq!(both.mirrored().pairs.0, [0, 1, 0, 0, 0]);
}

#[test]
fn a_ranking_scores_each_candidate_by_its_games_against_the_reference() {
    let j = judge(true);
    let scored = j.rank(&[vec![1.0], vec![-1.0], vec![0.0]], 4, 0, &AtomicBool::new(false)).unwrap();
    assert_eq!(scored.iter().map(|s| s.fitness).collect::<Vec<_>>(), [1.0, 0.0, 0.5]);
    assert_eq!(scored[0].games.wld.wins, 4);
    assert!(j.asked.lock().unwrap().iter().all(|t| t.opponent.is_none() && t.games == 4));
}

#[test]
fn a_comparison_is_a_duel_when_the_source_can_set_one() {
    let j = judge(true);
    let c = j.compare(&[(vec![2.0], vec![1.0])], 0, &AtomicBool::new(false)).unwrap();
    assert_eq!(c[0].result, 2.0);
    assert_eq!((c[0].games.wld.wins, c[0].games.wld.losses), (2, 0));
    assert_eq!(j.asked.lock().unwrap()[0].opponent, Some(vec![1.0]));
}

#[test]
fn without_duels_both_sides_play_the_reference_and_the_minus_side_counts_against() {
    let j = judge(false);
    // Plus beats the reference, minus loses to it: +1 - (-1) = 2, two wins for plus.
    let c = j.compare(&[(vec![1.0], vec![-1.0])], 0, &AtomicBool::new(false)).unwrap();
    assert_eq!(c[0].result, 2.0);
    assert_eq!((c[0].games.wld.wins, c[0].games.wld.losses, c[0].games.wld.draws), (2, 0, 0));
    assert_eq!(j.asked.lock().unwrap().len(), 2);
    let even = j.compare(&[(vec![1.0], vec![1.0])], 0, &AtomicBool::new(false)).unwrap();
    assert_eq!(even[0].result, 0.0);
    assert_eq!((even[0].games.wld.wins, even[0].games.wld.losses), (1, 1));
}

#[test]
fn outcomes_are_single_games_against_the_reference() {
    let j = judge(true);
    let o = j.outcomes(&[vec![1.0], vec![-3.0]], 0, &AtomicBool::new(false)).unwrap();
    assert_eq!((o[0].wld.wins, o[1].wld.losses, o[0].played() + o[1].played()), (1, 1, 2));
    assert!(j.plays_games() && j.exact().is_none());
}
