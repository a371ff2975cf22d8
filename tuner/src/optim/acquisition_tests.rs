//! Tests of `optim/acquisition.rs`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;

/// A posterior over 41 points of a line whose mean peaks at index 30, with a squared-exponential
/// covariance: every acquisition's first pick is near the peak, and a batch is distinct.
#[test]
fn every_acquisition_picks_near_the_peak_of_a_confident_posterior() {
    let m = 41;
    let xs: Vec<f64> = (0..m).map(|i| i as f64 / 40.0).collect();
    let mean = DVector::from_iterator(m, xs.iter().map(|x| -(x - 0.75).powi(2) * 10.0));
    let cov = DMatrix::from_fn(m, m, |i, j| 0.01 * (-(xs[i] - xs[j]).powi(2) / 0.02).exp());
    for acq in [Acquisition::Ts, Acquisition::Mes, Acquisition::Ei, Acquisition::Pvrs, Acquisition::Kg] {
        let picks = select(acq, &mean, &cov, 0.01, 4, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
        assert_eq!(picks.len(), 4, "{acq:?}");
        let mut distinct = picks.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 4, "{acq:?}: {picks:?}");
        assert!((xs[picks[0]] - 0.75).abs() <= 0.2, "{acq:?}: first pick at {}", xs[picks[0]]);
    }
}

#[test]
fn names_parse_and_bad_ones_are_named() {
    for name in Acquisition::NAMES {
        assert_eq!(Acquisition::parse(name).unwrap().name(), name);
    }
    let err = Acquisition::parse("ucb").unwrap_err().to_string();
    assert!(err.contains("\"ucb\"") && err.contains("ts, mes, ei, pvrs, kg"), "{err}");
}

/// The envelope's expectation against a Monte Carlo estimate, and the two-line case's closed
/// form: E[max(0, bZ)] = b φ(0).
#[test]
fn the_expected_rise_of_the_maximum_is_exact() {
    let two = expected_max_rise(vec![(0.0, 0.0), (0.0, 0.7)]);
    assert!((two - 0.7 * phi(0.0)).abs() < 1e-12, "{two}");
    let lines = vec![(0.1, -0.3), (0.0, 0.5), (-0.2, 1.0), (0.05, 0.2), (-1.0, 0.1), (0.05, 0.2)];
    let exact = expected_max_rise(lines.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let n = 400_000;
    let monte_carlo = (0..n)
        .map(|_| {
            let z: f64 = rng.sample(StandardNormal);
            lines.iter().map(|(a, b)| a + b * z).fold(f64::NEG_INFINITY, f64::max) - 0.1
        })
        .sum::<f64>()
        / n as f64;
    assert!((exact - monte_carlo).abs() < 3e-3, "{exact} vs {monte_carlo}");
}

#[test]
fn the_lower_tail_is_stable() {
    let (l, r) = log_cdf_and_ratio(-30.0);
    assert!(l.is_finite() && (r - 30.0).abs() < 0.1);
    let (l, r) = log_cdf_and_ratio(-19.9);
    let (l2, r2) = log_cdf_and_ratio(-20.1);
    assert!((l - l2).abs() < 5.0 && (r - r2).abs() < 0.5);
}
