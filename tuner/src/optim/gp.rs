//! Gaussian-process regression for the Bayesian optimiser (`bayes.rs`): a Matérn 5/2 kernel with
//! one length scale per parameter and optionally a full metric (learnt principal directions) and
//! input warping (see [`Hyper`]), a signal variance, a learned noise variance added to each
//! observation's own (heteroscedastic) noise variance, and hyperparameters that maximise the log
//! marginal likelihood plus weak priors (Rasmussen and Williams, "Gaussian Processes for Machine
//! Learning", 2006, chapters 2 and 5; the full metric is a full positive definite `M` in their
//! section 4.2's distance `(x - x')ᵀ M (x - x')`, here `M = D⁻¹ C Cᵀ D⁻¹`).
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

/// Off-diagonal parameters of the full metric: normal around 0 with this deviation (a
/// parameter v gives a correlation v / √(1 + v²) between two axes in 2-D, so 5 still allows
/// correlations of 0.98 at a small cost), within these bounds.
const CORRELATION_SD: f64 = 5.0;
const CORRELATION_BOUNDS: (f64, f64) = (-50.0, 50.0);
/// Log shapes of the Kumaraswamy warping: normal around 0 (no warping) with this deviation
/// (BoTorch's input warping uses log-normal priors of about this width), within ln 0.1 .. ln 10.
const WARP_SD: f64 = 0.5;
const LOG_WARP_BOUNDS: (f64, f64) = (-std::f64::consts::LN_10, std::f64::consts::LN_10);
/// Warped inputs stay this far inside `[0, 1]`, where the warping's logarithms are finite.
const WARP_EPSILON: f64 = 1e-7;

/// A kernel's hyperparameters (natural logarithms; variances in normalised target units).
///
/// The distance between two points `x`, `x'` is `r = |Cᵀ D⁻¹ (w(x) - w(x'))|`: `w` warps each
/// coordinate (the identity without warping), `D` holds the length scales along the axes, and
/// `C` is a lower-triangular factor with unit rows (so `C Cᵀ` is a correlation matrix, the
/// identity without a full metric). With a full metric the kernel's principal directions need
/// not follow the axes (a narrow diagonal ridge is short across and long along), while each
/// axis's length scale keeps its meaning and its prior: moving along axis `a` alone by `Δ`
/// gives `r = Δ / ℓ_a`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hyper {
    pub log_lengths: Vec<f64>,
    /// The full metric's parameters, row by row below the diagonal (row `a` of `C` is
    /// `(v_a0, ..., v_a,a-1, 1)` normalised): `d(d-1)/2` of them, or none for an axis-aligned
    /// metric.
    #[serde(default)]
    pub correlations: Vec<f64>,
    /// Input warping (Snoek et al., "Input warping for Bayesian optimization of non-stationary
    /// functions", 2014): per parameter, the logarithms of the two shapes `(a, b)` of a
    /// Kumaraswamy distribution function `1 - (1 - p^a)^b` over `p = (x + 1) / 2`; empty
    /// without warping.
    #[serde(default)]
    pub log_warp: Vec<f64>,
    pub log_signal: f64,
    pub log_noise: f64,
}

/// Which parts of the kernel a fit adjusts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub dims: usize,
    pub full: bool,
    pub warp: bool,
}

impl Shape {
    fn correlations(&self) -> usize {
        if self.full {
            self.dims * self.dims.saturating_sub(1) / 2
        } else {
            0
        }
    }

    fn warps(&self) -> usize {
        if self.warp {
            2 * self.dims
        } else {
            0
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.dims + self.correlations() + self.warps() + 2
    }
}

impl Hyper {
    /// A neutral start: length 0.25 along each axis, no correlation, no warping, unit signal,
    /// small noise.
    #[cfg(test)]
    pub fn neutral(dims: usize) -> Hyper {
        Hyper::neutral_shaped(Shape { dims, full: false, warp: false })
    }

    /// A neutral start of the given shape.
    pub fn neutral_shaped(shape: Shape) -> Hyper {
        Hyper {
            log_lengths: vec![LENGTH_CENTRE; shape.dims],
            correlations: vec![0.0; shape.correlations()],
            log_warp: vec![0.0; shape.warps()],
            log_signal: 0.0,
            log_noise: NOISE_CENTRE,
        }
    }

    /// The parts this kernel has.
    pub fn shape(&self) -> Shape {
        let dims = self.log_lengths.len();
        Shape { dims, full: dims > 1 && !self.correlations.is_empty(), warp: !self.log_warp.is_empty() }
    }

    /// The length scales in unit coordinates (warped coordinates when the inputs are warped).
    pub fn lengths(&self) -> Vec<f64> {
        self.log_lengths.iter().map(|l| l.exp()).collect()
    }

    fn to_vec(&self) -> Vec<f64> {
        let mut v = self.log_lengths.clone();
        v.extend(&self.correlations);
        v.extend(&self.log_warp);
        v.extend([self.log_signal, self.log_noise]);
        v
    }

    fn from_vec(v: &[f64], shape: Shape) -> Hyper {
        let (d, c, w) = (shape.dims, shape.correlations(), shape.warps());
        Hyper {
            log_lengths: v[..d].to_vec(),
            correlations: v[d..d + c].to_vec(),
            log_warp: v[d + c..d + c + w].to_vec(),
            log_signal: v[d + c + w],
            log_noise: v[d + c + w + 1],
        }
    }

    fn bounds(shape: Shape) -> (Vec<f64>, Vec<f64>) {
        let (d, c, w) = (shape.dims, shape.correlations(), shape.warps());
        let mut lo = vec![LOG_LENGTH_BOUNDS.0; d];
        let mut hi = vec![LOG_LENGTH_BOUNDS.1; d];
        lo.extend(vec![CORRELATION_BOUNDS.0; c]);
        hi.extend(vec![CORRELATION_BOUNDS.1; c]);
        lo.extend(vec![LOG_WARP_BOUNDS.0; w]);
        hi.extend(vec![LOG_WARP_BOUNDS.1; w]);
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

/// The kernel's geometry, built from the hyperparameters: how a point is warped, scaled and
/// rotated into the space where the distance is Euclidean.
#[derive(Clone, Debug)]
struct Metric {
    dims: usize,
    inv_lengths: Vec<f64>,
    /// `C`, row-major `dims × dims`, lower triangular with unit rows.
    c: Vec<f64>,
    /// The norm of each row before normalisation, `|(v_a0, ..., 1)|`.
    norms: Vec<f64>,
    /// Kumaraswamy shapes `(a, b)` per parameter, when warping.
    warp: Option<Vec<(f64, f64)>>,
}

impl Metric {
    fn new(hyper: &Hyper) -> Metric {
        let dims = hyper.log_lengths.len();
        let mut c = vec![0.0; dims * dims];
        let mut norms = vec![1.0; dims];
        let mut k = 0;
        for a in 0..dims {
            c[a * dims + a] = 1.0;
            if !hyper.correlations.is_empty() {
                for j in 0..a {
                    c[a * dims + j] = hyper.correlations[k];
                    k += 1;
                }
            }
            let norm = (0..=a).map(|j| c[a * dims + j].powi(2)).sum::<f64>().sqrt();
            for j in 0..=a {
                c[a * dims + j] /= norm;
            }
            norms[a] = norm;
        }
        let warp = (!hyper.log_warp.is_empty())
            .then(|| hyper.log_warp.chunks_exact(2).map(|p| (p[0].exp(), p[1].exp())).collect());
        Metric { dims, inv_lengths: hyper.log_lengths.iter().map(|l| (-l).exp()).collect(), c, norms, warp }
    }

    /// The warped coordinate of `x` along one axis (in `[-1, 1]`) and its derivatives along the
    /// log shapes `(ln a, ln b)`.
    fn warp_one(x: f64, (a, b): (f64, f64)) -> (f64, f64, f64) {
        let p = ((x + 1.0) / 2.0).clamp(WARP_EPSILON, 1.0 - WARP_EPSILON);
        let q = p.powf(a);
        let rest = (1.0 - q).max(1e-300);
        let tail = rest.powf(b);
        let w = 1.0 - tail;
        // d w / d ln a = b (1 - q)^(b-1) q ln q;  d w / d ln b = -(1 - q)^b ln(1 - q) b.
        let da = b * tail / rest * q * q.max(1e-300).ln();
        let db = -tail * rest.ln() * b;
        (2.0 * w - 1.0, 2.0 * da, 2.0 * db)
    }

    /// The inverse of [`Metric::warp_one`]'s coordinate: `p = (1 - (1 - w)^(1/b))^(1/a)`.
    fn unwarp_one(w: f64, (a, b): (f64, f64)) -> f64 {
        let w = ((w + 1.0) / 2.0).clamp(0.0, 1.0);
        let p = (1.0 - (1.0 - w).powf(1.0 / b)).max(0.0).powf(1.0 / a);
        2.0 * p - 1.0
    }

    /// `D⁻¹ w(x)`: the warped point over the length scales.
    fn scaled(&self, x: &[f64]) -> Vec<f64> {
        match &self.warp {
            None => x.iter().zip(&self.inv_lengths).map(|(v, il)| v * il).collect(),
            Some(shapes) => x
                .iter()
                .zip(shapes)
                .zip(&self.inv_lengths)
                .map(|((v, s), il)| Metric::warp_one(*v, *s).0 * il)
                .collect(),
        }
    }

    /// `Cᵀ u`.
    fn rotate(&self, u: &[f64]) -> Vec<f64> {
        let d = self.dims;
        (0..d).map(|k| (k..d).map(|a| self.c[a * d + k] * u[a]).sum()).collect()
    }

    /// The point in the space where the kernel's distance is Euclidean.
    fn embed(&self, x: &[f64]) -> Vec<f64> {
        self.rotate(&self.scaled(x))
    }
}

/// A coordinate reflected at the box's faces (`1.2` becomes `0.8`), so steps from a point on a
/// face spread inside the box instead of piling up on the face as clamping would.
fn reflect(v: f64) -> f64 {
    let v = if v > 1.0 {
        2.0 - v
    } else if v < -1.0 {
        -2.0 - v
    } else {
        v
    };
    v.clamp(-1.0, 1.0)
}

/// Euclidean distance.
fn euclid(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt()
}

/// Jitter added to the diagonal, relative to the signal variance, so near-duplicate points of an
/// exact fitness still factor.
const JITTER: f64 = 1e-9;

/// The covariance of the observations (embedded by the metric): signal kernel plus each point's
/// noise and the extra noise.
fn covariance(t: &[Vec<f64>], noise: &[f64], hyper: &Hyper) -> DMatrix<f64> {
    let n = t.len();
    let signal = hyper.log_signal.exp();
    let extra = hyper.log_noise.exp();
    let mut k = DMatrix::zeros(n, n);
    for i in 0..n {
        k[(i, i)] = signal * (1.0 + JITTER) + noise[i] + extra;
        for j in 0..i {
            let v = signal * matern52(euclid(&t[i], &t[j]));
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
fn objective(theta: &[f64], shape: Shape, x: &[Vec<f64>], y: &[f64], noise: &[f64]) -> (f64, Vec<f64>) {
    let hyper = Hyper::from_vec(theta, shape);
    let metric = Metric::new(&hyper);
    let d = shape.dims;
    let (nc, nw) = (shape.correlations(), shape.warps());
    let n = x.len();
    // Per point: u = D⁻¹ w(x), t = Cᵀ u, and the warped coordinates' derivatives.
    let u: Vec<Vec<f64>> = x.iter().map(|p| metric.scaled(p)).collect();
    let t: Vec<Vec<f64>> = u.iter().map(|v| metric.rotate(v)).collect();
    let warp_grads: Vec<Vec<(f64, f64)>> = match &metric.warp {
        None => Vec::new(),
        Some(shapes) => x
            .iter()
            .map(|p| {
                p.iter()
                    .zip(shapes)
                    .map(|(v, s)| {
                        let (_, da, db) = Metric::warp_one(*v, *s);
                        (da, db)
                    })
                    .collect()
            })
            .collect(),
    };
    let Ok(chol) = factor(covariance(&t, noise, &hyper)) else {
        return (f64::INFINITY, vec![0.0; theta.len()]);
    };
    let yv = DVector::from_column_slice(y);
    let alpha = chol.solve(&yv);
    let log_det: f64 = chol.l_dirty().diagonal().iter().take(n).map(|v| v.ln()).sum::<f64>();
    let mut value = 0.5 * yv.dot(&alpha) + log_det;
    // W = α αᵀ - K⁻¹; the gradient of the log likelihood along dK is ½ Σ W ∘ dK.
    let inverse = chol.inverse();
    let signal = hyper.log_signal.exp();
    let (g_signal, g_noise) = (d + nc + nw, d + nc + nw + 1);
    let mut grad = vec![0.0; theta.len()];
    let mut du = vec![0.0; d];
    let mut z = vec![0.0; d];
    let mut cz = vec![0.0; d];
    for i in 0..n {
        let w_ii = alpha[i] * alpha[i] - inverse[(i, i)];
        grad[g_signal] += 0.5 * w_ii * signal;
        grad[g_noise] += 0.5 * w_ii * hyper.log_noise.exp();
        for j in 0..i {
            let w = alpha[i] * alpha[j] - inverse[(i, j)];
            for k in 0..d {
                du[k] = u[i][k] - u[j][k];
                z[k] = t[i][k] - t[j][k];
            }
            let r = z.iter().map(|v| v * v).sum::<f64>().sqrt();
            let e = (-SQRT5 * r).exp();
            // Off-diagonal pairs count twice (W and dK are symmetric).
            grad[g_signal] += w * signal * (1.0 + SQRT5 * r + 5.0 * r * r / 3.0) * e;
            // d k / d r² = -(5/6) σ² (1 + √5 r) e^{-√5 r}.
            let coef = -w * signal * 5.0 / 6.0 * (1.0 + SQRT5 * r) * e;
            // C z: d r² / d u = 2 C z.
            for (a, value) in cz.iter_mut().enumerate() {
                *value = metric.c[a * d..=a * d + a].iter().zip(&z).map(|(c, zk)| c * zk).sum();
            }
            for a in 0..d {
                // d u_a / d ln ℓ_a = -u_a.
                grad[a] -= coef * 2.0 * du[a] * cz[a];
            }
            if nc > 0 {
                let mut idx = d;
                for a in 1..d {
                    for (zk, c_ak) in z.iter().zip(&metric.c[a * d..a * d + a]) {
                        grad[idx] += coef * 2.0 * du[a] * (zk - c_ak * cz[a]) / metric.norms[a];
                        idx += 1;
                    }
                }
            }
            if nw > 0 {
                for a in 0..d {
                    let g = coef * 2.0 * cz[a] * metric.inv_lengths[a];
                    let (ai, bi) = warp_grads[i][a];
                    let (aj, bj) = warp_grads[j][a];
                    grad[d + nc + 2 * a] += g * (ai - aj);
                    grad[d + nc + 2 * a + 1] += g * (bi - bj);
                }
            }
        }
    }
    // The likelihood's gradient, negated for minimisation.
    grad.iter_mut().for_each(|g| *g = -*g);
    for k in 0..d {
        let u = (theta[k] - LENGTH_CENTRE) / LENGTH_WIDTH;
        value += u.powi(8);
        grad[k] += 8.0 * u.powi(7) / LENGTH_WIDTH;
    }
    for k in d..d + nc {
        value += theta[k].powi(2) / (2.0 * CORRELATION_SD * CORRELATION_SD);
        grad[k] += theta[k] / (CORRELATION_SD * CORRELATION_SD);
    }
    for k in d + nc..d + nc + nw {
        value += theta[k].powi(2) / (2.0 * WARP_SD * WARP_SD);
        grad[k] += theta[k] / (WARP_SD * WARP_SD);
    }
    value += theta[g_signal].powi(2) / (2.0 * SIGNAL_SD * SIGNAL_SD);
    grad[g_signal] += theta[g_signal] / (SIGNAL_SD * SIGNAL_SD);
    let u = theta[g_noise] - NOISE_CENTRE;
    value += u * u / (2.0 * NOISE_SD * NOISE_SD);
    grad[g_noise] += u / (NOISE_SD * NOISE_SD);
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
    let shape = first.shape();
    if starts.iter().any(|s| s.shape() != shape) || x.iter().any(|p| p.len() != shape.dims) {
        bail!("the starting hyperparameters and the points do not all have the same shape");
    }
    let (_, _, yn, nn) = normalise(y, noise);
    let (lo, hi) = Hyper::bounds(shape);
    let mut best: Option<lbfgs::Minimum> = None;
    for start in starts {
        let m =
            lbfgs::minimise(|t| objective(t, shape, x, &yn, &nn), &start.to_vec(), &lo, &hi, max_iterations);
        if m.value.is_finite() && best.as_ref().is_none_or(|b| m.value < b.value) {
            best = Some(m);
        }
    }
    match best {
        Some(m) => Ok(Hyper::from_vec(&m.x, shape)),
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
    /// The observations, embedded by the metric.
    t: Vec<Vec<f64>>,
    hyper: Hyper,
    metric: Metric,
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
        let shape = hyper.shape();
        if hyper.correlations.len() != shape.correlations() || hyper.log_warp.len() != shape.warps() {
            bail!("the kernel's correlations or warping do not fit its {} dimensions", shape.dims);
        }
        let (mean, scale, yn, nn) = normalise(y, noise);
        let metric = Metric::new(hyper);
        let t: Vec<Vec<f64>> = x.iter().map(|p| metric.embed(p)).collect();
        let chol = factor(covariance(&t, &nn, hyper))?;
        let alpha = chol.solve(&DVector::from_column_slice(&yn));
        Ok(Gp { t, metric, signal: hyper.log_signal.exp(), hyper: hyper.clone(), chol, alpha, mean, scale })
    }

    pub fn hyper(&self) -> &Hyper {
        &self.hyper
    }

    /// Number of observations.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    /// The point at kernel distance `|xi|` from `centre` in the direction `xi` takes in the
    /// embedded space (`centre`'s embedding plus `xi`, mapped back), reflected into the box: local
    /// candidates shaped by the metric, long along a ridge the kernel has learnt and short across.
    pub fn shifted(&self, centre: &[f64], xi: &[f64]) -> Vec<f64> {
        let m = &self.metric;
        let d = m.dims;
        let c = DMatrix::from_row_slice(d, d, &m.c);
        // Cᵀ v = xi: the step in scaled (warped) coordinates, then D v in warped ones.
        let v = c
            .transpose()
            .solve_upper_triangular(&DVector::from_column_slice(xi))
            .unwrap_or_else(|| DVector::from_column_slice(xi));
        (0..d)
            .map(|a| {
                let step = v[a] / m.inv_lengths[a];
                match &m.warp {
                    None => reflect(centre[a] + step),
                    Some(shapes) => {
                        let w = Metric::warp_one(centre[a], shapes[a]).0;
                        Metric::unwarp_one(reflect(w + step), shapes[a]).clamp(-1.0, 1.0)
                    }
                }
            })
            .collect()
    }

    /// The extra noise variance the fit found, in target units.
    pub fn extra_noise(&self) -> f64 {
        self.hyper.log_noise.exp() * self.scale * self.scale
    }

    /// Kernel values between `p` and every observation (normalised units).
    fn cross(&self, p: &[f64]) -> DVector<f64> {
        let e = self.metric.embed(p);
        DVector::from_iterator(self.t.len(), self.t.iter().map(|q| self.signal * matern52(euclid(&e, q))))
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
        let (n, m) = (self.t.len(), points.len());
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
        let embedded: Vec<Vec<f64>> = points.iter().map(|p| self.metric.embed(p)).collect();
        let mut cov = DMatrix::zeros(m, m);
        for i in 0..m {
            cov[(i, i)] = self.signal * (1.0 + JITTER);
            for j in 0..i {
                let c = self.signal * matern52(euclid(&embedded[i], &embedded[j]));
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
#[path = "gp_tests.rs"]
mod tests;
