//! Tests of `sprt_outlook.rs`: Wald's identities at the bounds, and the approximation against
//! simulated tests decided by the real pentanomial GSPRT.

use super::*;
use crate::play::games::stats::SprtDecision;
use crate::testutil::Rng;

/// Test 57's pairs at 3 s + 0.03 s (reports/tests.md): the engine's spread at the SPRT clock.
const PROFILE: [u64; 5] = [105, 562, 947, 616, 160];

fn variance() -> f64 {
    pair_spread(&Pentanomial(PROFILE)).unwrap()
}

/// The logistic Elo whose normalised Elo at the profile's spread is `nelo`.
fn elo_of_nelo(nelo: f64) -> f64 {
    let mean = 0.5 + std::f64::consts::SQRT_2 * variance().sqrt() * nelo / NELO_PER_T;
    -400.0 * (1.0 / mean - 1.0).log10()
}

#[test]
fn at_the_bounds_the_test_passes_with_its_error_rates_and_halfway_with_even_odds() {
    for model in [EloModel::Normalized, EloModel::Logistic] {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, model).unwrap();
        let at = |bound: f64| match model {
            EloModel::Normalized => elo_of_nelo(bound),
            EloModel::Logistic => bound,
        };
        let h0 = outlook(&sprt, variance(), at(0.0));
        let h1 = outlook(&sprt, variance(), at(5.0));
        let middle = outlook(&sprt, variance(), at(2.5));
        assert!((h0.pass - 0.05).abs() < 1e-9 && (h1.pass - 0.95).abs() < 1e-9, "{model:?}: {h0:?} {h1:?}");
        assert!((middle.pass - 0.5).abs() < 1e-3, "{model:?}: {middle:?}");
        // The longest tests are those of a difference between the bounds; the same distance
        // outside either bound takes as long.
        assert!(middle.pairs > h1.pairs && (h0.pairs - h1.pairs).abs() < 1e-6 * h1.pairs, "{model:?}");
        let far = outlook(&sprt, variance(), at(20.0));
        assert!(far.pass > 0.999_999 && far.pairs < h1.pairs / 3.0, "{model:?}: {far:?}");
        let bad = outlook(&sprt, variance(), at(-20.0));
        assert!(bad.pass < 1e-6 && bad.pairs > 0.0, "{model:?}: {bad:?}");
    }
    // The nElo it reports is the profile's: about 1.46 times the Elo near 0 at this draw rate.
    let o = outlook(&Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Normalized).unwrap(), variance(), 10.0);
    assert!((o.nelo / 10.0 - 1.465).abs() < 0.01, "{o:?}");
}

#[test]
fn a_flat_profile_has_no_spread() {
    assert_eq!(pair_spread(&Pentanomial([0, 0, 40, 0, 0])), None);
    assert_eq!(pair_spread(&Pentanomial::default()), None);
}

/// The profile's pair distribution tilted (exponentially) until its mean is `mean`.
fn tilted(mean: f64) -> [f64; 5] {
    let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
    let total: u64 = PROFILE.iter().sum();
    let at = |lambda: f64| {
        let w: Vec<f64> =
            (0..5).map(|i| PROFILE[i] as f64 / total as f64 * (lambda * scores[i]).exp()).collect();
        let z: f64 = w.iter().sum();
        w.iter().map(|x| x / z).collect::<Vec<f64>>()
    };
    let (mut lo, mut hi) = (-20.0, 20.0);
    for _ in 0..100 {
        let mid: f64 = (lo + hi) / 2.0;
        let m: f64 = at(mid).iter().zip(scores).map(|(p, s)| p * s).sum();
        if m < mean {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    at(lo).try_into().unwrap()
}

/// Pass rate and mean pairs of `runs` simulated tests at pair-score mean `mean`, decided by the
/// real GSPRT (checked every 4 pairs, as a runner reports pairs in batches).
fn simulate(sprt: &Sprt, mean: f64, runs: usize, rng: &mut Rng) -> (f64, f64) {
    let probs = tilted(mean);
    let (mut passed, mut pairs) = (0, 0u64);
    for _ in 0..runs {
        let mut counts = Pentanomial::default();
        loop {
            for _ in 0..4 {
                let u = rng.unit();
                let mut acc = 0.0;
                let outcome = probs.iter().position(|p| {
                    acc += p;
                    u < acc
                });
                counts.0[outcome.unwrap_or(4)] += 1;
            }
            if let Some(decision) = sprt.decision(sprt.llr(&counts)) {
                passed += usize::from(decision == SprtDecision::AcceptH1);
                pairs += counts.pairs();
                break;
            }
        }
    }
    (passed as f64 / runs as f64, pairs as f64 / runs as f64)
}

#[test]
fn the_approximation_matches_simulated_tests_within_their_overshoot() {
    // Wide bounds keep each simulated test short; the last steps overshoot the bounds more than
    // they would in a [0, 5] test, so the simulation passes a little less often at the bounds and
    // runs a little longer than Wald's figures.
    let sprt = Sprt::new(0.0, 25.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let mut rng = Rng(0x5eed_5eed);
    for (nelo, pass_range) in [(25.0, (0.90, 0.99)), (0.0, (0.01, 0.08)), (12.5, (0.40, 0.60))] {
        let elo = elo_of_nelo(nelo);
        let predicted = outlook(&sprt, variance(), elo);
        let mean = score_from_elo(elo);
        let (pass, pairs) = simulate(&sprt, mean, 400, &mut rng);
        eprintln!(
            "nElo {nelo}: simulated pass {pass:.3}, {pairs:.0} pairs; Wald {:.3}, {:.0}",
            predicted.pass, predicted.pairs
        );
        assert!(
            pass >= pass_range.0 && pass <= pass_range.1,
            "nElo {nelo}: passed {pass}, Wald {predicted:?}"
        );
        let ratio = pairs / predicted.pairs;
        assert!(
            (0.85..1.35).contains(&ratio),
            "nElo {nelo}: {pairs} pairs against Wald's {}",
            predicted.pairs
        );
    }
}

#[test]
fn a_cap_leaves_some_tests_undecided_and_a_far_cap_agrees_with_wald() {
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    for nelo in [0.0, 5.0, 10.0, 15.0] {
        let elo = elo_of_nelo(nelo);
        let wald = outlook(&sprt, variance(), elo);
        let far = outlook_within(&sprt, variance(), elo, (wald.pairs * 30.0) as u64);
        assert!((far.pass + far.reject + far.undecided - 1.0).abs() < 1e-6, "nElo {nelo}: {far:?}");
        assert!(far.undecided < 1e-3 && (far.pass - wald.pass).abs() < 0.02, "nElo {nelo}: {far:?} {wald:?}");
        // Checking the bounds every few pairs rather than continuously lengthens tests a little.
        let ratio = far.pairs / wald.pairs;
        assert!(
            (0.97..1.15).contains(&ratio),
            "nElo {nelo}: {} pairs against Wald's {}",
            far.pairs,
            wald.pairs
        );
        // At half the average length many tests are still running, and they stop at the cap.
        let half = outlook_within(&sprt, variance(), elo, (wald.pairs / 2.0) as u64);
        assert!(half.undecided > 0.2 && half.pairs < wald.pairs / 2.0 + 1.0, "nElo {nelo}: {half:?}");
        assert!(half.pass <= far.pass + 1e-9 && half.reject <= far.reject + 1e-9, "nElo {nelo}");
    }
}
