//! Tests of CLOP: the regression recovers known quadratics (with draws, and without cross terms
//! in diagonal mode), the optimum of one dimension is found, samples stay in the box, a state
//! continues after a round trip through JSON as the uninterrupted one does, several samples may
//! be asked before any result, bad input does no harm, and refits come geometrically.

use super::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn outcome(rng: &mut ChaCha8Rng, p: f64) -> GameScore {
    if rng.random::<f64>() < p {
        GameScore::Win
    } else {
        GameScore::Loss
    }
}

#[test]
fn regression_recovers_known_quadratic() {
    // q(x, y) = 0.3 + 0.5x - 0.4y - 1.0x^2 + 0.6xy - 0.8y^2, coefficient order
    // 1, x, y, x^2, xy, y^2.
    let truth = [0.3, 0.5, -0.4, -1.0, 0.6, -0.8];
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut points = Vec::new();
    for _ in 0..4000 {
        let x = vec![rng.random_range(-1.0..=1.0), rng.random_range(-1.0..=1.0)];
        let p = sigmoid(quadratic_value(&truth, &x, Correlations::All));
        let mut counts = [0; 3];
        for _ in 0..50 {
            counts[if rng.random::<f64>() < p { 2 } else { 0 }] += 1;
        }
        points.push(Point { x, counts });
    }
    let weights = vec![1.0; points.len()];
    let fit = fit_regression(&points, &weights, Correlations::All, 1e-2, 0.0, None).unwrap();
    for (got, want) in fit.coefficients.iter().zip(&truth) {
        assert!((got - want).abs() < 0.05, "{:?} vs {:?}", fit.coefficients, truth);
    }
}

#[test]
fn regression_with_draws_recovers_strength() {
    // With draw rating d, P(win) = σ(q - d), P(loss) = σ(-q - d).
    let d = 0.8;
    let truth = [0.2, -0.5, -0.7];
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut points = Vec::new();
    for _ in 0..3000 {
        let x = vec![rng.random_range(-1.0..=1.0)];
        let q = quadratic_value(&truth, &x, Correlations::All);
        let (pw, pl) = (sigmoid(q - d), sigmoid(-q - d));
        let mut counts = [0; 3];
        for _ in 0..50 {
            let u: f64 = rng.random();
            counts[if u < pw {
                2
            } else if u < pw + pl {
                0
            } else {
                1
            }] += 1;
        }
        points.push(Point { x, counts });
    }
    let weights = vec![1.0; points.len()];
    let fit = fit_regression(&points, &weights, Correlations::All, 1e-2, d, None).unwrap();
    // The draw likelihood is the reference's approximation (win x loss), so allow
    // some bias but the shape must be right.
    let opt = -fit.coefficients[1] / (2.0 * fit.coefficients[2]);
    assert!((opt - (-0.5 / 1.4)).abs() < 0.1, "{:?}", fit.coefficients);
}

#[test]
fn diagonal_mode_has_no_cross_terms() {
    assert_eq!(coefficient_count(3, Correlations::Diagonal), 7);
    assert_eq!(coefficient_count(3, Correlations::All), 10);
    let mut m = Vec::new();
    monomials(&[2.0, 3.0], Correlations::Diagonal, &mut m);
    assert_eq!(m, vec![1.0, 2.0, 3.0, 4.0, 9.0]);
    monomials(&[2.0, 3.0], Correlations::All, &mut m);
    assert_eq!(m, vec![1.0, 2.0, 3.0, 4.0, 6.0, 9.0]);
    let settings = ClopSettings { correlations: Correlations::Diagonal, ..Default::default() };
    let mut clop = Clop::new(2, settings);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..300 {
        let x = clop.sample(&mut rng);
        let p = sigmoid(0.5 - x[0] * x[0] - x[1] * x[1] + x[0] * x[1]);
        let o = outcome(&mut rng, p);
        clop.record(&x, o);
    }
    assert_eq!(clop.regression().unwrap().len(), 5);
}

#[test]
fn one_dimensional_optimum_found() {
    let mut clop = Clop::new(1, ClopSettings::default());
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..20_000 {
        let x = clop.sample(&mut rng);
        let p = sigmoid(0.5 - 3.0 * (x[0] - 0.3).powi(2));
        let o = outcome(&mut rng, p);
        clop.record(&x, o);
    }
    let e = clop.estimate();
    assert!((e.mean[0] - 0.3).abs() < 0.1, "{e:?}");
    assert!(e.win_rate_low <= e.win_rate && e.win_rate <= e.win_rate_high);
    assert!((e.win_rate - sigmoid(0.5)).abs() < 0.03, "{e:?}");
    assert!(e.weightings > 0);
    assert!(e.weight_sum < 20_000.0);
}

#[test]
fn samples_stay_in_box() {
    let mut clop = Clop::new(3, ClopSettings { mcmc_steps_per_dim: 50, ..Default::default() });
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..3000 {
        let x = clop.sample(&mut rng);
        assert_eq!(x.len(), 3);
        assert!(x.iter().all(|v| (-1.0..=1.0).contains(v)), "{x:?}");
        // Optimum on the boundary pushes samples to the edge.
        let o = outcome(&mut rng, sigmoid(2.0 * x[0] + x[1] - x[2]));
        clop.record(&x, o);
    }
}

#[test]
fn json_round_trip_continues_identically() {
    let settings = ClopSettings { mcmc_steps_per_dim: 100, replication_threshold: 50, ..Default::default() };
    let mut a = Clop::new(2, settings);
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let f = |x: &[f64]| sigmoid(0.2 - (x[0] - 0.2).powi(2) - 2.0 * (x[1] + 0.4).powi(2));
    for _ in 0..500 {
        let x = a.sample(&mut rng);
        let o = outcome(&mut rng, f(&x));
        a.record(&x, o);
    }
    // Leave a pending sample so the replication state is exercised too.
    let pending = a.sample(&mut rng);
    let json = serde_json::to_string(&a).unwrap();
    let mut b: Clop = serde_json::from_str(&json).unwrap();
    let mut rng_b = rng.clone();
    a.record(&pending, GameScore::Win);
    b.record(&pending, GameScore::Win);
    for _ in 0..700 {
        let xa = a.sample(&mut rng);
        let xb = b.sample(&mut rng_b);
        assert_eq!(xa, xb);
        let oa = outcome(&mut rng, f(&xa));
        let ob = outcome(&mut rng_b, f(&xb));
        a.record(&xa, oa);
        b.record(&xb, ob);
    }
    assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    assert_eq!(a.estimate().mean, b.estimate().mean);
}

#[test]
fn several_samples_before_records() {
    let mut clop = Clop::new(1, ClopSettings::default());
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..200 {
        let xs: Vec<_> = (0..4).map(|_| clop.sample(&mut rng)).collect();
        for x in xs {
            let o = outcome(&mut rng, sigmoid(-x[0]));
            clop.record(&x, o);
        }
    }
    assert_eq!(clop.samples(), 800);
    assert!(clop.estimate().mean[0] < 0.0);
}

#[test]
fn invalid_input_is_harmless() {
    let mut clop = Clop::new(2, ClopSettings::default());
    clop.record(&[0.0], GameScore::Win);
    clop.record(&[f64::NAN, 0.0], GameScore::Win);
    assert_eq!(clop.samples(), 0);
    let e = clop.estimate();
    assert_eq!(e.mean, vec![0.0, 0.0]);
    clop.record(&[5.0, -5.0], GameScore::Draw);
    assert_eq!(clop.samples(), 1);
    let mut zero = Clop::new(0, ClopSettings::default());
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    assert!(zero.sample(&mut rng).is_empty());
    zero.record(&[], GameScore::Win);
    let _ = zero.estimate();
}

#[test]
fn refits_are_geometric() {
    let mut clop = Clop::new(1, ClopSettings::default());
    let mut refits = 0;
    let mut last = 0;
    for i in 0..100_000 {
        let x = [(i % 7) as f64 / 7.0];
        clop.record(&x, if i % 3 == 0 { GameScore::Win } else { GameScore::Loss });
        if clop.next_refit != last {
            refits += 1;
            last = clop.next_refit;
        }
        if i > 20_000 {
            break;
        }
    }
    assert!(refits < 90, "{refits}");
}
