//! Tests of `fitness/selfplay.rs`.

use std::time::Duration;

use super::*;
use crate::play::games::game::Adjudication;
use crate::play::limit::MoveLimit;

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn a_crippled_candidate_loses_to_the_reference_and_duels_are_symmetric() {
    let eval = EvalParamSet::baked();
    let search = SearchParamSet::baked();
    let slots = eval.select(&["material"]).unwrap();
    let space = Space::from_sets(&eval, &slots, None);
    let fitness = SelfPlay {
        space: space.clone(),
        eval,
        search,
        settings: GameSettings {
            limit: MoveLimit::Nodes(300),
            adjudication: Adjudication::none(),
            time_margin: Duration::ZERO,
            hang_timeout: Duration::from_secs(10),
        },
        openings: book::default_book(),
        concurrency: 2,
        hash_mb: 1,
    };
    // Every piece worth one centipawn: the engine gives its pieces away.
    let crippled: Vec<f64> = space.dims.iter().map(|d| d.min.max(1.0)).collect();
    let trials = [
        Trial { candidate: crippled.clone(), opponent: None, games: 8 },
        Trial { candidate: space.starts(), opponent: Some(crippled), games: 3 },
    ];
    let mut seen = 0;
    let results = fitness.play(&trials, 7, &AtomicBool::new(false), &mut |n| seen += n).unwrap();
    assert_eq!(seen, 12, "8 games, then 3 rounded up to two pairs");
    assert_eq!(results[0].played(), 8);
    // 300-node games are noisy: a crippled side may win one, never a third of them.
    assert!(results[0].score() < 0.3, "{:?}", results[0]);
    assert!(results[1].score() > 0.75, "{:?}", results[1]);
    assert_eq!((results[0].pairs.pairs(), results[1].pairs.pairs()), (4, 2));
    assert!(results.iter().all(|g| g.all_in_pairs()), "every game counted in its pair: {results:?}");
    assert!(results[1].pairs.0[4] >= 1, "the reference beats the crippled side in both colours: {results:?}");
    let again = fitness.play(&trials, 7, &AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!(results, again, "the same seed plays the same games");
}
