//! Gaussian-process regression for the Bayesian optimiser (`bayes.rs`): a Matérn 5/2 kernel with
//! one length scale per parameter, a signal variance, a learned noise variance added to each
//! observation's own (heteroscedastic) noise variance, and hyperparameters that maximise the log
//! marginal likelihood plus weak priors (Rasmussen and Williams, "Gaussian Processes for Machine
//! Learning", 2006, chapters 2 and 5).
//!
//! Inputs are the tuner's unit coordinates (`[-1, 1]` per parameter). Targets are normalised to
//! mean 0 and variance 1 before fitting, so the priors and bounds below are in those units; every
//! prediction is returned in the targets' own units. The linear algebra is nalgebra's (Cholesky
//! factorisation, triangular solves); the hyperparameters are fitted by L-BFGS on their
//! logarithms (`lbfgs.rs`) with analytic gradients.

use anyhow::{bail, Result};
use nalgebra::{Cholesky, DMatrix, DVector, Dyn};
use serde::{Deserialize, Serialize};

use super::lbfgs;

const SQRT5: f64 = 2.236_067_977_499_79;

/// The Matérn 5/2 correlation at scaled distance `r`: `(1 + √5 r + 5r²/3) e^{-√5 r}`.
pub fn matern52(r: f64) -> f64 {
    let s = SQRT5 * r;
    (1.0 + s + s * s / 3.0) * (-s).exp()
}

/// Log length scales: a flat region between about 0.05 and 1.25 (the box is 2 wide), falling off
/// steeply outside, as bayes-skopt's "round-flat" priors do: short scales would fit the game noise,
/// long ones a constant. The upper end was measured: flat up to 5, noisy games on a narrow ridge
/// (CLOP's Correlated problem) were often fitted as a flat function with noise, the posterior
/// grew confident everywhere and Thompson sampling stopped exploring (regret 0.10 at 10,000
/// games, 50 runs; 0.040 with this prior, and Log 1-D unchanged: docs/tuning.md).
const LENGTH_CENTRE: f64 = -1.386_294_361_119_890_6; // ln 0.25
const LENGTH_WIDTH: f64 = 1.609_437_912_434_100_3; // ln 5
/// Log signal variance (of the normalised targets): normal with this deviation around 0.
const SIGNAL_SD: f64 = 2.0;
/// Log extra noise variance: normal around ln 1e-3 (each point's sampling noise is known; the
/// extra term only takes up what the model cannot fit).
const NOISE_CENTRE: f64 = -6.907_755_278_982_137;
const NOISE_SD: f64 = 2.5;
/// Bounds of the log hyperparameters: lengths, signal, noise.
const LOG_LENGTH_BOUNDS: (f64, f64) = (-4.605_170_185_988_091, 3.912_023_005_428_146); // 0.01 .. 50
const LOG_SIGNAL_BOUNDS: (f64, f64) = (-13.815_510_557_964_274, 6.907_755_278_982_137); // 1e-6 .. 1e3
const LOG_NOISE_BOUNDS: (f64, f64) = (-18.420_680_743_952_367, std::f64::consts::LN_10); // 1e-8 .. 10

/// A kernel's hyperparameters (natural logarithms; variances in normalised target units).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hyper {
    pub log_lengths: Vec<f64>,
    pub log_signal: f64,
    pub log_noise: f64,
}

impl Hyper {
    /// A neutral start: length 0.5 (a quarter of the box), unit signal, small noise.
    pub fn neutral(dims: usize) -> Hyper {
        Hyper { log_lengths: vec![LENGTH_CENTRE; dims], log_signal: 0.0, log_noise: NOISE_CENTRE }
    }

    /// The length scales in unit coordinates.
    pub fn lengths(&self) -> Vec<f64> {
        self.log_lengths.iter().map(|l| l.exp()).collect()
    }

    fn to_vec(&self) -> Vec<f64> {
        let mut v = self.log_lengths.clone();
        v.extend([self.log_signal, self.log_noise]);
        v
    }

    fn from_vec(v: &[f64]) -> Hyper {
        let d = v.len() - 2;
        Hyper { log_lengths: v[..d].to_vec(), log_signal: v[d], log_noise: v[d + 1] }
    }

    fn bounds(dims: usize) -> (Vec<f64>, Vec<f64>) {
        let mut lo = vec![LOG_LENGTH_BOUNDS.0; dims];
        let mut hi = vec![LOG_LENGTH_BOUNDS.1; dims];
        lo.extend([LOG_SIGNAL_BOUNDS.0, LOG_NOISE_BOUNDS.0]);
        hi.extend([LOG_SIGNAL_BOUNDS.1, LOG_NOISE_BOUNDS.1]);
        (lo, hi)
    }
}

/// Targets as the model sees them: mean 0, variance 1 (a constant sample is only centred).
fn normalise(y: &[f64], noise: &[f64]) -> (f64, f64, Vec<f64>, Vec<f64>) {
    let n = y.len().max(1) as f64;
    let mean = y.iter().sum::<f64>() / n;
    let var = y.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let scale = if var.sqrt() > 1e-12 * mean.abs().max(1.0) { var.sqrt() } else { 1.0 };
    let yn = y.iter().map(|v| (v - mean) / scale).collect();
    let nn = noise.iter().map(|v| v.max(0.0) / (scale * scale)).collect();
    (mean, scale, yn, nn)
}

/// Scaled distance between two points.
fn distance(a: &[f64], b: &[f64], inv_lengths: &[f64]) -> f64 {
    a.iter().zip(b).zip(inv_lengths).map(|((x, y), il)| ((x - y) * il).powi(2)).sum::<f64>().sqrt()
}

/// Jitter added to the diagonal, relative to the signal variance, so near-duplicate points of an
/// exact fitness still factor.
const JITTER: f64 = 1e-9;

/// The covariance of the observations: signal kernel plus each point's noise and the extra noise.
fn covariance(x: &[Vec<f64>], noise: &[f64], hyper: &Hyper) -> DMatrix<f64> {
    let n = x.len();
    let inv: Vec<f64> = hyper.log_lengths.iter().map(|l| (-l).exp()).collect();
    let signal = hyper.log_signal.exp();
    let extra = hyper.log_noise.exp();
    let mut k = DMatrix::zeros(n, n);
    for i in 0..n {
        k[(i, i)] = signal * (1.0 + JITTER) + noise[i] + extra;
        for j in 0..i {
            let v = signal * matern52(distance(&x[i], &x[j], &inv));
            k[(i, j)] = v;
            k[(j, i)] = v;
        }
    }
    k
}

/// Cholesky factor of `k`, adding jitter when rounding made it indefinite.
fn factor(mut k: DMatrix<f64>) -> Result<Cholesky<f64, Dyn>> {
    let scale = k.diagonal().iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
    let mut jitter = 1e-10 * scale;
    for _ in 0..8 {
        if let Some(c) = Cholesky::new(k.clone()) {
            return Ok(c);
        }
        for i in 0..k.nrows() {
            k[(i, i)] += jitter;
        }
        jitter *= 10.0;
    }
    bail!("the Gaussian process's covariance matrix is not positive definite ({} points)", k.nrows())
}

/// Minus the log posterior of the hyperparameters `theta` (the log marginal likelihood plus the
/// priors' log densities, constants dropped) and its gradient.
fn objective(theta: &[f64], x: &[Vec<f64>], y: &[f64], noise: &[f64]) -> (f64, Vec<f64>) {
    let hyper = Hyper::from_vec(theta);
    let dims = hyper.log_lengths.len();
    let n = x.len();
    let Ok(chol) = factor(covariance(x, noise, &hyper)) else {
        return (f64::INFINITY, vec![0.0; theta.len()]);
    };
    let yv = DVector::from_column_slice(y);
    let alpha = chol.solve(&yv);
    let log_det: f64 = chol.l_dirty().diagonal().iter().take(n).map(|v| v.ln()).sum::<f64>();
    let mut value = 0.5 * yv.dot(&alpha) + log_det;
    // W = α αᵀ - K⁻¹; the gradient of the log likelihood along dK is ½ Σ W ∘ dK.
    let inverse = chol.inverse();
    let inv_lengths: Vec<f64> = hyper.log_lengths.iter().map(|l| (-l).exp()).collect();
    let signal = hyper.log_signal.exp();
    let mut grad = vec![0.0; dims + 2];
    for i in 0..n {
        let w_ii = alpha[i] * alpha[i] - inverse[(i, i)];
        grad[dims] += 0.5 * w_ii * signal;
        grad[dims + 1] += 0.5 * w_ii * hyper.log_noise.exp();
        for j in 0..i {
            let w = alpha[i] * alpha[j] - inverse[(i, j)];
            let r = distance(&x[i], &x[j], &inv_lengths);
            let e = (-SQRT5 * r).exp();
            // Off-diagonal pairs count twice (W and dK are symmetric).
            grad[dims] += w * signal * (1.0 + SQRT5 * r + 5.0 * r * r / 3.0) * e;
            let common = w * signal * 5.0 / 3.0 * (1.0 + SQRT5 * r) * e;
            for (d, g) in grad.iter_mut().take(dims).enumerate() {
                let delta = (x[i][d] - x[j][d]) * inv_lengths[d];
                *g += common * delta * delta;
            }
        }
    }
    // The likelihood's gradient, negated for minimisation.
    grad.iter_mut().for_each(|g| *g = -*g);
    for d in 0..dims {
        let u = (theta[d] - LENGTH_CENTRE) / LENGTH_WIDTH;
        value += u.powi(8);
        grad[d] += 8.0 * u.powi(7) / LENGTH_WIDTH;
    }
    value += theta[dims].powi(2) / (2.0 * SIGNAL_SD * SIGNAL_SD);
    grad[dims] += theta[dims] / (SIGNAL_SD * SIGNAL_SD);
    let u = theta[dims + 1] - NOISE_CENTRE;
    value += u * u / (2.0 * NOISE_SD * NOISE_SD);
    grad[dims + 1] += u / (NOISE_SD * NOISE_SD);
    (value, grad)
}

/// Hyperparameters that maximise the posterior given observations at `x` with values `y` and
/// noise variances `noise` (in `y`'s units), from each of `starts` (the best wins), at most
/// `max_iterations` L-BFGS steps each.
pub fn fit(
    x: &[Vec<f64>],
    y: &[f64],
    noise: &[f64],
    starts: &[Hyper],
    max_iterations: usize,
) -> Result<Hyper> {
    check(x, y, noise)?;
    let Some(first) = starts.first() else { bail!("no starting hyperparameters") };
    let dims = first.log_lengths.len();
    let (_, _, yn, nn) = normalise(y, noise);
    let (lo, hi) = Hyper::bounds(dims);
    let mut best: Option<lbfgs::Minimum> = None;
    for start in starts {
        let m = lbfgs::minimise(|t| objective(t, x, &yn, &nn), &start.to_vec(), &lo, &hi, max_iterations);
        if m.value.is_finite() && best.as_ref().is_none_or(|b| m.value < b.value) {
            best = Some(m);
        }
    }
    match best {
        Some(m) => Ok(Hyper::from_vec(&m.x)),
        None => bail!("the Gaussian process's hyperparameters could not be fitted ({} points)", x.len()),
    }
}

fn check(x: &[Vec<f64>], y: &[f64], noise: &[f64]) -> Result<()> {
    if x.is_empty() {
        bail!("the Gaussian process has no observations");
    }
    if x.len() != y.len() || x.len() != noise.len() {
        bail!("{} points, {} values and {} noise variances", x.len(), y.len(), noise.len());
    }
    if y.iter().chain(noise).any(|v| !v.is_finite()) {
        bail!("an observation or its noise variance is not finite");
    }
    Ok(())
}

/// A Gaussian process conditioned on observations, with fixed hyperparameters.
#[derive(Clone, Debug)]
pub struct Gp {
    x: Vec<Vec<f64>>,
    hyper: Hyper,
    inv_lengths: Vec<f64>,
    signal: f64,
    chol: Cholesky<f64, Dyn>,
    /// K⁻¹ y (normalised).
    alpha: DVector<f64>,
    mean: f64,
    scale: f64,
}

impl Gp {
    /// Conditions the process with `hyper` on the observations.
    pub fn new(x: &[Vec<f64>], y: &[f64], noise: &[f64], hyper: &Hyper) -> Result<Gp> {
        check(x, y, noise)?;
        if x.iter().any(|p| p.len() != hyper.log_lengths.len()) {
            bail!("a point's dimension differs from the kernel's {}", hyper.log_lengths.len());
        }
        let (mean, scale, yn, nn) = normalise(y, noise);
        let chol = factor(covariance(x, &nn, hyper))?;
        let alpha = chol.solve(&DVector::from_column_slice(&yn));
        Ok(Gp {
            x: x.to_vec(),
            inv_lengths: hyper.log_lengths.iter().map(|l| (-l).exp()).collect(),
            signal: hyper.log_signal.exp(),
            hyper: hyper.clone(),
            chol,
            alpha,
            mean,
            scale,
        })
    }

    pub fn hyper(&self) -> &Hyper {
        &self.hyper
    }

    /// Number of observations.
    pub fn len(&self) -> usize {
        self.x.len()
    }

    /// The extra noise variance the fit found, in target units.
    pub fn extra_noise(&self) -> f64 {
        self.hyper.log_noise.exp() * self.scale * self.scale
    }

    /// Kernel values between `p` and every observation (normalised units).
    fn cross(&self, p: &[f64]) -> DVector<f64> {
        DVector::from_iterator(
            self.x.len(),
            self.x.iter().map(|q| self.signal * matern52(distance(p, q, &self.inv_lengths))),
        )
    }

    /// The posterior mean of the latent function at `p`, in target units.
    pub fn mean_at(&self, p: &[f64]) -> f64 {
        let k = self.cross(p);
        self.mean + self.scale * k.dot(&self.alpha)
    }

    /// The posterior means at `points` (cheaper than [`Gp::predict`]: no triangular solve).
    pub fn means(&self, points: &[Vec<f64>]) -> Vec<f64> {
        points.iter().map(|p| self.mean_at(p)).collect()
    }

    /// The posterior means and standard deviations of the latent function (noise excluded).
    pub fn predict(&self, points: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
        let (means, v) = self.solved(points);
        let sds = (0..points.len())
            .map(|j| {
                let var = self.signal * (1.0 + JITTER) - v.column(j).norm_squared();
                var.max(0.0).sqrt() * self.scale
            })
            .collect();
        (means, sds)
    }

    /// Means and `L⁻¹ K(X, points)`.
    fn solved(&self, points: &[Vec<f64>]) -> (Vec<f64>, DMatrix<f64>) {
        let (n, m) = (self.x.len(), points.len());
        let mut ks = DMatrix::zeros(n, m);
        for (j, p) in points.iter().enumerate() {
            ks.set_column(j, &self.cross(p));
        }
        let means = (0..m).map(|j| self.mean + self.scale * ks.column(j).dot(&self.alpha)).collect();
        self.chol.l_dirty().solve_lower_triangular_unchecked_mut(&mut ks);
        (means, ks)
    }

    /// The joint posterior of the latent function at `points`: means and covariance (target
    /// units), for Thompson sampling and batch selection.
    pub fn joint(&self, points: &[Vec<f64>]) -> (DVector<f64>, DMatrix<f64>) {
        let (means, v) = self.solved(points);
        let m = points.len();
        let mut cov = DMatrix::zeros(m, m);
        for i in 0..m {
            cov[(i, i)] = self.signal * (1.0 + JITTER);
            for j in 0..i {
                let c = self.signal * matern52(distance(&points[i], &points[j], &self.inv_lengths));
                cov[(i, j)] = c;
                cov[(j, i)] = c;
            }
        }
        cov -= v.transpose() * &v;
        cov *= self.scale * self.scale;
        (DVector::from_vec(means), cov)
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn grid(n: usize) -> Vec<Vec<f64>> {
        (0..n).map(|i| vec![-1.0 + 2.0 * i as f64 / (n - 1) as f64]).collect()
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let x: Vec<Vec<f64>> =
            (0..15).map(|_| vec![rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)]).collect();
        let y: Vec<f64> =
            x.iter().map(|p| (2.0 * p[0]).sin() + p[1] * p[1] + 0.1 * rng.random::<f64>()).collect();
        let noise: Vec<f64> = (0..15).map(|i| 0.01 * (1 + i % 3) as f64).collect();
        let (_, _, yn, nn) = normalise(&y, &noise);
        let theta = [-0.3, 0.2, 0.4, -3.0];
        let (_, grad) = objective(&theta, &x, &yn, &nn);
        for k in 0..theta.len() {
            let h = 1e-6;
            let (mut a, mut b) = (theta, theta);
            a[k] += h;
            b[k] -= h;
            let numeric = (objective(&a, &x, &yn, &nn).0 - objective(&b, &x, &yn, &nn).0) / (2.0 * h);
            assert!(
                (numeric - grad[k]).abs() < 1e-4 * numeric.abs().max(1.0),
                "{k}: {numeric} vs {}",
                grad[k]
            );
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
        let hyper = Hyper { log_lengths: vec![(0.3f64).ln()], log_signal: 0.0, log_noise: (1e-6f64).ln() };
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

    #[test]
    fn bad_observations_are_refused() {
        let h = Hyper::neutral(1);
        assert!(Gp::new(&[], &[], &[], &h).is_err());
        assert!(Gp::new(&[vec![0.0]], &[f64::NAN], &[0.0], &h).is_err());
        assert!(Gp::new(&[vec![0.0, 1.0]], &[1.0], &[0.0], &h).is_err());
        assert!(fit(&[vec![0.0]], &[1.0], &[0.0, 1.0], &[h], 10).is_err());
    }
}
