//! Tests of `optim/spsa.rs`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::optim::clop_problems::Problem;

#[test]
fn the_schedule_ends_at_c_end_and_r_end() {
    let space = Space::parse_openbench("a, int, 10, 0, 100, 4, 0.002", "s").unwrap();
    let spsa = Spsa::new(&space, 1000);
    assert!((spsa.c_at(0, 1000) - 4.0).abs() < 1e-9);
    let a_end = spsa.a[0] / (spsa.big_a + 1000.0).powf(spsa.alpha);
    assert!((a_end / (4.0f64 * 4.0) - 0.002).abs() < 1e-12);
}

#[test]
fn noisy_games_walk_theta_to_the_optimum() {
    // The plus side wins with a logistic probability of the difference in a concave score.
    let space =
        Space::parse_openbench("a, float, 0, -100, 100, 5, 0.01\nb, float, 40, -100, 100, 5, 0.01", "s")
            .unwrap();
    let mut spsa = Spsa::new(&space, 4000);
    let strength = |x: &[f64]| -((x[0] - 30.0).powi(2) + (x[1] + 20.0).powi(2)) / 400.0;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for k in 1..=4000 {
        let p = spsa.perturb(k, &mut rng);
        let win = 1.0 / (1.0 + (strength(&p.minus) - strength(&p.plus)).exp());
        let result: f64 = (0..2).map(|_| if rng.random::<f64>() < win { 1.0 } else { -1.0 }).sum();
        spsa.update(&p, result);
    }
    assert!((spsa.theta[0] - 30.0).abs() < 8.0 && (spsa.theta[1] + 20.0).abs() < 8.0, "{:?}", spsa.theta);
    assert_eq!(spsa.iteration, 4000);
}

/// Integers as OpenBench plays them: c_k never below 0.5, the two sides always at least one
/// unit apart, and on average at theta ± c_k (stochastic rounding), where rounding to the
/// nearest would play the same value on both sides.
#[test]
fn integers_are_rounded_stochastically_around_theta_with_c_at_least_a_half() {
    let space =
        Space::parse_openbench("a, int, 10.3, 0, 100, 0.2, 0.002\nb, float, 5, 0, 10, 0.2, 0.002", "s")
            .unwrap();
    let spsa = Spsa::new(&space, 1000);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..1000 {
        let p = spsa.perturb(1000, &mut rng);
        assert_eq!(p.c_k[0], 0.5, "an integer's perturbation is at least 0.5");
        assert!((p.c_k[1] - 0.2).abs() < 1e-12, "a float's is its own");
        assert_eq!((p.plus[0].fract(), p.minus[0].fract()), (0.0, 0.0));
        assert_eq!((p.plus[0] - p.minus[0]) * p.signs[0], 1.0, "{:?} {:?}", p.plus, p.minus);
        assert!(((p.plus[1] - p.minus[1]).abs() - 0.4).abs() < 1e-9, "floats are not rounded");
    }
}

#[test]
fn integers_played_average_theta_plus_and_minus_c() {
    let space = Space::parse_openbench("a, int, 10.3, 0, 100, 0.7, 0.002", "s").unwrap();
    let spsa = Spsa::new(&space, 1000);
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let n = 40_000;
    let (mut up, mut down) = (0.0, 0.0);
    for _ in 0..n {
        let p = spsa.perturb(1000, &mut rng);
        let (hi, lo) = if p.signs[0] > 0.0 { (p.plus[0], p.minus[0]) } else { (p.minus[0], p.plus[0]) };
        up += hi;
        down += lo;
    }
    let (up, down) = (up / n as f64, down / n as f64);
    assert!((up - 11.0).abs() < 0.01 && (down - 9.6).abs() < 0.01, "{up} {down}");
}

/// On CLOP's log problem SPSA moves from 0 toward the optimum at -0.525, one pair per
/// perturbation or OpenBench's eight.
#[test]
fn spsa_solves_the_log_problem_with_one_or_eight_pairs_per_perturbation() {
    let problem = Problem::parse("log").unwrap();
    for pairs_per in [1, 8] {
        let settings = SpsaProblem { pairs_per, c_end: 0.1, r_end: 0.02 };
        let start = problem.optimum() - problem.win_probability(&[0.0]);
        let r = crate::optim::clop_problems::simple_regret(&problem, &settings, 10_000, 20, 3).unwrap();
        assert!(
            r.mean_regret < start / 2.0,
            "{pairs_per}: regret {} against {start} at the start",
            r.mean_regret
        );
    }
}

/// Two values: `a`, which decides the games of `duel`, and `b`, which they never look at.
fn pushed_and_ignored() -> Space {
    Space::parse_openbench("a, float, 0, -100, 100, 5, 0.01\nb, float, 0, -100, 100, 5, 0.01", "s").unwrap()
}

/// A pair of games won by the plus side with a logistic chance of its lead in `a`: wins - losses.
fn duel(p: &Perturbation, rng: &mut impl Rng) -> f64 {
    let win = 1.0 / (1.0 + ((p.minus[0] - p.plus[0]) / 40.0).exp());
    (0..2).map(|_| if rng.random::<f64>() < win { 1.0 } else { -1.0 }).sum()
}

/// The evidence tells a value the games push from one they do not care about: the first decides
/// the games, the second is never looked at, and after the run the first's drift is far outside
/// the random walk of its own steps while the second's is inside it.
#[test]
fn evidence_separates_a_value_the_games_push_from_one_that_wanders() {
    let mut spsa = Spsa::new(&pushed_and_ignored(), 2000);
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for k in 1..=2000 {
        let p = spsa.perturb(k, &mut rng);
        let result = duel(&p, &mut rng);
        spsa.update(&p, result);
    }
    let z = spsa.evidence(&[0.0, 0.0]).unwrap();
    assert!(z[0] > 4.0 && z[1].abs() < 3.0, "{z:?}");
    let mut old = spsa.clone();
    old.walk.clear();
    assert_eq!(old.evidence(&[0.0, 0.0]), None, "a checkpoint without the walk has no evidence");
    assert_eq!(old.kept(&[0.0, 0.0], 2.0), None);
    // Only the value the games pushed keeps its move.
    let kept = spsa.kept(&[0.0, 0.0], 2.0).unwrap();
    assert_eq!(kept, vec![spsa.theta[0], 0.0]);
}

/// A walk rebuilt from the values after each batch (an old run's trajectory) is the sum of the
/// batches' squared steps, and tells the pushed value from the wandering one as the kept walk does.
#[test]
fn a_walk_rebuilt_from_the_trajectory_reads_like_the_kept_one() {
    let mut spsa = Spsa::new(&pushed_and_ignored(), 2000);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut rows = vec![spsa.values().to_vec()];
    for first in (1..=2000).step_by(2) {
        let batch: Vec<Perturbation> = (first..first + 2).map(|k| spsa.perturb(k, &mut rng)).collect();
        for p in &batch {
            let result = duel(p, &mut rng);
            spsa.update(p, result);
        }
        rows.push(spsa.values().to_vec());
    }
    let kept = spsa.evidence(&[0.0, 0.0]).unwrap();
    let mut old = spsa.clone();
    old.walk.clear();
    assert!(!old.rebuild_walk(&rows[..3].iter().map(|r| r[..1].to_vec()).collect::<Vec<_>>()), "wrong width");
    assert!(old.rebuild_walk(&rows));
    assert!(!old.rebuild_walk(&rows), "a kept walk is not rebuilt");
    let first: f64 = (rows[1][0] - rows[0][0]).powi(2);
    assert!(old.walk[0] >= first);
    let rebuilt = old.evidence(&[0.0, 0.0]).unwrap();
    assert!(rebuilt[0] > 4.0 && rebuilt[1].abs() < 3.0, "{rebuilt:?} (kept walk: {kept:?})");
    assert!((rebuilt[0] / kept[0] - 1.0).abs() < 0.25, "{rebuilt:?} against {kept:?}");
}
