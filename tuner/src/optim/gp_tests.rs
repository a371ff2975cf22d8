//! Tests of the Gaussian process: the gradient of the likelihood against finite differences, a
//! noisy quadratic, the posterior variance at sampled points, the full metric and input warping
//! on functions made for them, shifted points, and bad observations refused.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

fn grid(n: usize) -> Vec<Vec<f64>> {
    (0..n).map(|i| vec![-1.0 + 2.0 * i as f64 / (n - 1) as f64]).collect()
}

/// The analytic gradient against central differences, for every shape of kernel.
#[test]
fn the_gradient_matches_finite_differences() {
    for (dims, full, warp) in [
        (2, false, false),
        (2, true, false),
        (2, false, true),
        (2, true, true),
        (3, true, true),
        (1, true, true),
    ] {
        let shape = Shape { dims, full, warp };
        let mut rng = ChaCha8Rng::seed_from_u64(3 + dims as u64);
        let x: Vec<Vec<f64>> =
            (0..15).map(|_| (0..dims).map(|_| rng.random_range(-1.0..1.0)).collect()).collect();
        let y: Vec<f64> = x
            .iter()
            .map(|p| (2.0 * p[0]).sin() + p[dims - 1] * p[dims - 1] + 0.1 * rng.random::<f64>())
            .collect();
        let noise: Vec<f64> = (0..15).map(|i| 0.01 * (1 + i % 3) as f64).collect();
        let (_, _, yn, nn) = normalise(&y, &noise);
        let mut theta: Vec<f64> = (0..dims).map(|k| -0.3 + 0.5 * k as f64).collect();
        theta.extend((0..shape.correlations()).map(|k| 0.7 - 0.9 * k as f64));
        theta.extend((0..shape.warps()).map(|k| 0.3 * (k as f64 - 1.5)));
        theta.extend([0.4, -3.0]);
        assert_eq!(theta.len(), shape.len());
        let (_, grad) = objective(&theta, shape, &x, &yn, &nn);
        for k in 0..theta.len() {
            let h = 1e-6;
            let (mut a, mut b) = (theta.clone(), theta.clone());
            a[k] += h;
            b[k] -= h;
            let numeric =
                (objective(&a, shape, &x, &yn, &nn).0 - objective(&b, shape, &x, &yn, &nn).0) / (2.0 * h);
            assert!(
                (numeric - grad[k]).abs() < 1e-4 * numeric.abs().max(1.0),
                "{shape:?} parameter {k}: {numeric} vs {}",
                grad[k]
            );
        }
    }
}

#[test]
fn a_noisy_quadratic_gives_its_maximum_and_a_sensible_length_scale() {
    // y = 1 - (x - 0.3)², sampled on 40 points with noise of standard deviation 0.05.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let x = grid(40);
    let noise_sd = 0.05;
    let y: Vec<f64> = x
        .iter()
        .map(|p| 1.0 - (p[0] - 0.3).powi(2) + noise_sd * (rng.random::<f64>() - 0.5) * 12f64.sqrt())
        .collect();
    let noise = vec![noise_sd * noise_sd; x.len()];
    let hyper = fit(&x, &y, &noise, &[Hyper::neutral(1)], 100).unwrap();
    let length = hyper.lengths()[0];
    // A parabola over a box of width 2 is smooth: neither the noise's scale nor a constant.
    assert!(length > 0.3 && length < 10.0, "length scale {length}");
    let gp = Gp::new(&x, &y, &noise, &hyper).unwrap();
    let fine: Vec<Vec<f64>> = grid(401);
    let (means, _) = gp.predict(&fine);
    let best = fine[means.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).unwrap().0][0];
    assert!((best - 0.3).abs() < 0.12, "maximum at {best}");
    assert!((gp.mean_at(&[0.3]) - 1.0).abs() < 0.05);
}

#[test]
fn the_posterior_variance_shrinks_at_sampled_points() {
    let x = vec![vec![-0.5], vec![0.5]];
    let y = vec![0.2, 0.4];
    let hyper = Hyper {
        log_lengths: vec![(0.3f64).ln()],
        log_signal: 0.0,
        log_noise: (1e-6f64).ln(),
        ..Hyper::neutral(1)
    };
    let gp = Gp::new(&x, &y, &[1e-4, 1e-4], &hyper).unwrap();
    let (_, sd) = gp.predict(&[vec![-0.5], vec![0.0], vec![0.95]]);
    assert!(sd[0] < 0.2 * sd[1] && sd[0] < 0.2 * sd[2], "{sd:?}");
    // The joint covariance agrees with the marginal one.
    let (_, cov) = gp.joint(&[vec![-0.5], vec![0.0], vec![0.95]]);
    for i in 0..3 {
        assert!((cov[(i, i)].sqrt() - sd[i]).abs() < 1e-9);
    }
    // More noise at a point: less shrinkage there.
    let noisy = Gp::new(&x, &y, &[1e-4, 1.0], &hyper).unwrap();
    let (_, sd2) = noisy.predict(&[vec![0.5]]);
    let (_, sd1) = gp.predict(&[vec![0.5]]);
    assert!(sd2[0] > 3.0 * sd1[0]);
}

/// Root mean square error of the posterior mean against `f` at `points`.
fn rmse(gp: &Gp, points: &[Vec<f64>], f: impl Fn(&[f64]) -> f64) -> f64 {
    let means = gp.means(points);
    (points.iter().zip(&means).map(|(p, m)| (m - f(p)).powi(2)).sum::<f64>() / points.len() as f64).sqrt()
}

/// A narrow ridge along the diagonal x = -y (short across, long along): the full metric
/// learns a strong positive correlation between the axes (its short direction is (1, 1)) and
/// predicts the ridge far better than one length scale per axis can.
#[test]
fn the_full_metric_recovers_a_rotated_ridge() {
    let ridge = |p: &[f64]| (-(p[0] + p[1]).powi(2) / 0.08 - (p[0] - p[1]).powi(2) / 8.0).exp();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let x = crate::optim::bayes::latin_hypercube(80, 2, &mut rng);
    let y: Vec<f64> = x.iter().map(|p| ridge(p)).collect();
    let noise = vec![1e-6; x.len()];
    let test = crate::optim::bayes::latin_hypercube(400, 2, &mut rng);
    let mut errors = Vec::new();
    for full in [false, true] {
        let shape = Shape { dims: 2, full, warp: false };
        let hyper = fit(&x, &y, &noise, &[Hyper::neutral_shaped(shape)], 100).unwrap();
        if full {
            let v = hyper.correlations[0];
            let rho = v / (1.0 + v * v).sqrt();
            assert!(rho > 0.8, "correlation {rho} ({hyper:?})");
        }
        errors.push(rmse(&Gp::new(&x, &y, &noise, &hyper).unwrap(), &test, ridge));
    }
    assert!(errors[1] < 0.6 * errors[0], "per axis {}, full {}", errors[0], errors[1]);
}

/// A function that is a plain parabola in a warped coordinate (`p^0.3`, steep near -1 and
/// flat near 1): the warping learns to stretch the steep end (its first shape below 1) and
/// predicts better than the stationary kernel alone.
#[test]
fn input_warping_recovers_an_asymmetric_function() {
    let warped = |p: &[f64]| -> f64 {
        let u = ((p[0] + 1.0) / 2.0).powf(0.3);
        1.0 - 8.0 * (u - 0.7).powi(2)
    };
    let x = grid(25);
    let y: Vec<f64> = x.iter().map(|p| warped(p)).collect();
    let noise = vec![1e-6; x.len()];
    let test = grid(301);
    let mut errors = Vec::new();
    for warp in [false, true] {
        let shape = Shape { dims: 1, full: false, warp };
        let hyper = fit(&x, &y, &noise, &[Hyper::neutral_shaped(shape)], 100).unwrap();
        if warp {
            assert!(hyper.log_warp[0] < -0.3, "shapes {:?}", hyper.log_warp);
        }
        errors.push(rmse(&Gp::new(&x, &y, &noise, &hyper).unwrap(), &test, warped));
    }
    assert!(errors[1] < 0.6 * errors[0], "unwarped {}, warped {}", errors[0], errors[1]);
}

/// A step in the embedded space lands at that kernel distance, and the warping's inverse
/// undoes it.
#[test]
fn shifted_points_are_at_the_asked_kernel_distance() {
    let hyper = Hyper {
        log_lengths: vec![(0.4f64).ln(), (0.7f64).ln()],
        correlations: vec![1.5],
        log_warp: vec![0.3, -0.2, -0.4, 0.5],
        log_signal: 0.0,
        log_noise: -7.0,
    };
    let gp = Gp::new(&[vec![0.0, 0.0]], &[0.0], &[0.0], &hyper).unwrap();
    let centre = [-0.2, 0.1];
    let xi = [0.05, -0.03];
    let moved = gp.shifted(&centre, &xi);
    let (a, b) = (gp.metric.embed(&centre), gp.metric.embed(&moved));
    let distance = euclid(&a, &b);
    assert!((distance - euclid(&xi, &[0.0, 0.0])).abs() < 1e-9, "{distance}");
    for (x, shapes) in [(-0.7, (1.3, 0.8)), (0.2, (0.5, 2.0)), (0.95, (2.5, 0.4))] {
        let w = Metric::warp_one(x, shapes).0;
        assert!((Metric::unwarp_one(w, shapes) - x).abs() < 1e-9);
    }
}

#[test]
fn bad_observations_are_refused() {
    let h = Hyper::neutral(1);
    assert!(Gp::new(&[], &[], &[], &h).is_err());
    assert!(Gp::new(&[vec![0.0]], &[f64::NAN], &[0.0], &h).is_err());
    assert!(Gp::new(&[vec![0.0, 1.0]], &[1.0], &[0.0], &h).is_err());
    assert!(fit(&[vec![0.0]], &[1.0], &[0.0, 1.0], &[h], 10).is_err());
}
