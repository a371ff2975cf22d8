//! CLOP: Confident Local OPtimization for noisy black-box parameter tuning.
//!
//! Rémi Coulom, "CLOP: Confident Local Optimization for Noisy Black-Box Parameter
//! Tuning", Advances in Computer Games 13 (2011).
//!
//! The win rate is modelled as a logistic function of a quadratic `q(x)` of the
//! (normalised, `[-1, 1]^n`) parameters. The quadratic is fitted by maximum a
//! posteriori logistic regression (Newton's method with a weak Gaussian prior on the
//! coefficients). Each sample carries a weight that is small when a regression says,
//! with confidence, that the sample is worse than the weighted mean of all samples:
//! `w(x) = min(1, min_i exp((q_i(x) - m_i) / (H s_i)))`, where `m_i` is the weighted
//! mean strength of the samples and `s_i` its standard deviation. Weights and
//! regressions are iterated until the total weight stops shrinking. New samples are
//! drawn from the density proportional to `w`, so the sampled region contracts around
//! the optimum, and the final estimate is the weighted mean of the samples.
//!
//! Details that the paper leaves open follow the author's reference implementation,
//! which produced the paper's figures: the prior strength (0.01), the refit schedule
//! (refit when the sample count has grown by 10 %), the Metropolis-within-Gibbs
//! sampler of `w`, and the replication of samples once many have been collected.
//!
//! This module does no I/O: the caller maps `[-1, 1]` to real parameter bounds.

use std::collections::HashMap;

use nalgebra::{DMatrix, DVector};
use ndarray::{Array1, Array2, Axis, Zip};
use rand::Rng;
use rand_distr::{Distribution, Uniform};
use serde::{Deserialize, Serialize};

use crate::play::games::stats::GameScore;

/// Which quadratic terms the regression uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Correlations {
    /// Full quadratic: every cross term `x_i x_j`. `(n + 1)(n + 2) / 2` coefficients.
    All,
    /// Only `x_i^2`, no cross terms. `2n + 1` coefficients; needs fewer samples in
    /// high dimension but cannot model correlated parameters.
    Diagonal,
}

/// Tuning knobs. Defaults are those of the paper's experiments (script
/// `many_problems.py` of the reference implementation).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ClopSettings {
    /// Full or diagonal quadratic model. Default: `All` (the paper's "CLOP").
    pub correlations: Correlations,
    /// Confidence height `H`: a sample keeps weight 1 unless the regression puts it
    /// more than `H` standard deviations below the mean. Paper: 3.
    pub h: f64,
    /// Strength `λ` of the Gaussian prior `-λ/2 |θ|^2` on the regression coefficients.
    /// It regularises the fit when few samples exist. Paper: 0.01.
    pub prior_strength: f64,
    /// Refit when the outcome count has grown by this fraction (geometric schedule:
    /// `next = next + 1 + floor(next * refit_rate)`). Paper: 0.1.
    pub refit_rate: f64,
    /// Draw rating `d` in logit units: `P(win) = σ(q - d)`, `P(loss) = σ(-q - d)`.
    /// A draw counts in the likelihood as one win and one loss (as in the reference
    /// implementation). 0 means "no draws expected"; a draw then weighs as half a win
    /// plus half a loss. Default 0 (the paper's artificial problems have no draws).
    pub draw_rating: f64,
    /// Metropolis steps per dimension used to draw each new sample from the weight
    /// density. Paper experiments: 1000.
    pub mcmc_steps_per_dim: usize,
    /// After `i` samples, each point is played `1 + i / replication_threshold`
    /// times. This keeps sampling and fitting cheap over very long runs (the number of
    /// distinct points grows only logarithmically). 0 disables replication. Paper: 1000.
    pub replication_threshold: usize,
    /// Safety cap on the weight/regression iterations of one refit.
    pub max_localization_iterations: usize,
}

impl Default for ClopSettings {
    fn default() -> Self {
        ClopSettings {
            correlations: Correlations::All,
            h: 3.0,
            prior_strength: 1e-2,
            refit_rate: 0.1,
            draw_rating: 0.0,
            mcmc_steps_per_dim: 1000,
            replication_threshold: 1000,
            max_localization_iterations: 100,
        }
    }
}

/// The optimiser's answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Estimate {
    /// Weighted mean of the samples: the recommended parameters, in `[-1, 1]^n`.
    pub mean: Vec<f64>,
    /// Expected score (win + draw/2) at `mean` according to the regression.
    pub win_rate: f64,
    /// Lower end of a 95 % interval on `win_rate` (posterior of the regression).
    pub win_rate_low: f64,
    /// Upper end of the same interval.
    pub win_rate_high: f64,
    /// Number of recorded outcomes.
    pub samples: usize,
    /// Sum of the sample weights (in games); how many games the estimate rests on.
    pub weight_sum: f64,
    /// Maximum of the fitted quadratic inside `[-1, 1]^n`, if it is concave and its
    /// maximum lies inside the box. The paper recommends `mean` instead.
    pub regression_max: Option<Vec<f64>>,
    /// Number of confidence weightings in the current weight function.
    pub weightings: usize,
}

/// One distinct sampled point with its outcome counts.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct Point {
    x: Vec<f64>,
    /// Losses, draws, wins.
    counts: [u64; 3],
}

impl Point {
    fn games(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// One confidence constraint: weight factor `exp(min(0, (q(x) - mean) / radius))`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct Weighting {
    coefficients: Vec<f64>,
    mean: f64,
    radius: f64,
}

/// MAP fit of the quadratic logistic model.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct Fit {
    coefficients: Vec<f64>,
    /// Inverse of the negative Hessian of the log posterior (row-major), i.e. the
    /// Laplace approximation of the posterior covariance; used for intervals.
    covariance: Vec<f64>,
}

/// CLOP state. Everything needed to continue is serialised, so a `Clop` restored from
/// JSON (with `serde_json`'s `float_roundtrip`) continues exactly as the original.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Clop {
    dims: usize,
    settings: ClopSettings,
    points: Vec<Point>,
    /// Global outcome counts: losses, draws, wins.
    totals: [u64; 3],
    /// Recorded outcomes.
    recorded: usize,
    /// Outcome count at which the next refit happens.
    next_refit: usize,
    weightings: Vec<Weighting>,
    model: Option<Fit>,
    /// Points handed out by `sample`.
    issued: usize,
    /// Last point handed out and how many times in a row.
    last_issued: Option<Vec<f64>>,
    last_issued_times: usize,
    /// Index of `points` by exact coordinates; rebuilt after deserialisation.
    #[serde(skip)]
    index: HashMap<Vec<u64>, usize>,
}

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `ln σ(x)`, stable for large `|x|`.
fn log_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

fn key(x: &[f64]) -> Vec<u64> {
    x.iter().map(|v| v.to_bits()).collect()
}

/// Number of quadratic coefficients for `dims` dimensions.
pub fn coefficient_count(dims: usize, correlations: Correlations) -> usize {
    match correlations {
        Correlations::All => (dims + 1) * (dims + 2) / 2,
        Correlations::Diagonal => 2 * dims + 1,
    }
}

/// Monomials of the quadratic model, in coefficient order: `1`, `x_i`, then
/// `x_i x_j` for `i <= j` (all) or `x_i^2` (diagonal).
pub fn monomials(x: &[f64], correlations: Correlations, out: &mut Vec<f64>) {
    out.clear();
    out.push(1.0);
    out.extend_from_slice(x);
    match correlations {
        Correlations::All => {
            for i in 0..x.len() {
                for j in i..x.len() {
                    out.push(x[i] * x[j]);
                }
            }
        }
        Correlations::Diagonal => out.extend(x.iter().map(|v| v * v)),
    }
}

/// Value of the quadratic with `coefficients` at `x`, without allocating.
pub fn quadratic_value(coefficients: &[f64], x: &[f64], correlations: Correlations) -> f64 {
    let n = x.len();
    let mut value = coefficients[0];
    for i in 0..n {
        value += coefficients[1 + i] * x[i];
    }
    let mut p = 1 + n;
    match correlations {
        Correlations::All => {
            for i in 0..n {
                for j in i..n {
                    value += coefficients[p] * x[i] * x[j];
                    p += 1;
                }
            }
        }
        Correlations::Diagonal => {
            for i in 0..n {
                value += coefficients[p + i] * x[i] * x[i];
            }
        }
    }
    value
}

/// Weighted MAP logistic regression of outcomes on the quadratic monomials.
///
/// Likelihood per game: `σ(q - d)` for a win, `σ(-q - d)` for a loss, their product
/// for a draw. The log posterior is concave, so damped Newton converges reliably.
/// `weights[k]` multiplies the log-likelihood of every game at `points[k]`.
fn fit_regression(
    points: &[Point],
    weights: &[f64],
    correlations: Correlations,
    prior_strength: f64,
    draw_rating: f64,
    start: Option<&[f64]>,
) -> Option<Fit> {
    let dims = points.first()?.x.len();
    let p = coefficient_count(dims, correlations);
    // The design matrix (one row of monomials per point) and per-point (win-like, loss-like)
    // weighted counts; points that weigh nothing are left out.
    let mut rows = Vec::with_capacity(points.len() * p);
    let mut mono = Vec::with_capacity(p);
    let (mut a, mut b) = (Vec::with_capacity(points.len()), Vec::with_capacity(points.len()));
    for (point, &w) in points.iter().zip(weights) {
        let [l, dr, wi] = point.counts;
        let (wins_like, losses_like) = (w * (wi + dr) as f64, w * (l + dr) as f64);
        if wins_like == 0.0 && losses_like == 0.0 {
            continue;
        }
        monomials(&point.x, correlations, &mut mono);
        rows.extend_from_slice(&mono);
        a.push(wins_like);
        b.push(losses_like);
    }
    let design = Array2::from_shape_vec((a.len(), p), rows).expect("p monomials per row");
    let (a, b) = (Array1::from(a), Array1::from(b));
    let d = draw_rating;
    let log_posterior = |theta: &Array1<f64>| -> f64 {
        let q = design.dot(theta);
        let likelihood: f64 = Zip::from(&q)
            .and(&a)
            .and(&b)
            .fold(0.0, |sum, &q, &a, &b| sum + a * log_sigmoid(q - d) + b * log_sigmoid(-q - d));
        likelihood - 0.5 * prior_strength * theta.dot(theta)
    };
    // The negative Hessian of the log posterior: Xᵀ diag(h) X + λI, h the curvature per point.
    let curvature = |q: &Array1<f64>| -> Array1<f64> {
        Zip::from(q).and(&a).and(&b).map_collect(|&q, &a, &b| {
            let (sw, sl) = (sigmoid(q - d), sigmoid(-q - d));
            a * sw * (1.0 - sw) + b * sl * (1.0 - sl)
        })
    };
    let negative_hessian = |q: &Array1<f64>| -> DMatrix<f64> {
        let weighted = &design * &curvature(q).insert_axis(Axis(1));
        let h = design.t().dot(&weighted) + Array2::<f64>::eye(p) * prior_strength;
        DMatrix::from_row_iterator(p, p, h.iter().copied())
    };
    let mut theta = match start {
        Some(s) if s.len() == p => Array1::from(s.to_vec()),
        _ => Array1::zeros(p),
    };
    let mut value = log_posterior(&theta);
    for _ in 0..100 {
        let q = design.dot(&theta);
        let slope = Zip::from(&q)
            .and(&a)
            .and(&b)
            .map_collect(|&q, &a, &b| a * (1.0 - sigmoid(q - d)) - b * (1.0 - sigmoid(-q - d)));
        let gradient = design.t().dot(&slope) - &theta * prior_strength;
        let step = negative_hessian(&q).cholesky()?.solve(&DVector::from_column_slice(gradient.as_slice()?));
        let step = Array1::from(step.as_slice().to_vec());
        // Backtracking: the Newton step of a concave function may overshoot far from
        // the optimum (near-separable data early on).
        let mut scale = 1.0;
        let mut improved = false;
        for _ in 0..30 {
            let candidate = &theta + &(&step * scale);
            let candidate_value = log_posterior(&candidate);
            if candidate_value.is_finite() && candidate_value >= value {
                theta = candidate;
                let gain = candidate_value - value;
                value = candidate_value;
                improved = gain > 1e-10 * (1.0 + value.abs());
                break;
            }
            scale *= 0.5;
        }
        if !improved || scale * step.dot(&step).sqrt() < 1e-10 {
            break;
        }
    }
    // Covariance at the optimum: the inverse of the negative Hessian there.
    let covariance = negative_hessian(&design.dot(&theta)).cholesky()?.inverse();
    Some(Fit { coefficients: theta.to_vec(), covariance: covariance.transpose().iter().copied().collect() })
}

/// Expected score `P(win) + P(draw) / 2` for strength `q`.
fn win_rate(q: f64, draw_rating: f64) -> f64 {
    let w = sigmoid(q - draw_rating);
    let l = sigmoid(-q - draw_rating);
    w + 0.5 * (1.0 - w - l)
}

/// MLE of a constant strength `m` from weighted counts, and its standard deviation
/// (inverse square root of the Fisher information): the scale of "confidently".
fn mean_and_deviation(wins_like: f64, losses_like: f64, draw_rating: f64) -> (f64, f64) {
    let d = draw_rating;
    // d/dm [a ln σ(m - d) + b ln σ(-m - d)] = a σ(d - m) - b σ(m + d), decreasing in m.
    let slope = |m: f64| wins_like * sigmoid(d - m) - losses_like * sigmoid(m + d);
    let (mut lo, mut hi) = (-30.0, 30.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if slope(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let m = 0.5 * (lo + hi);
    let pw = sigmoid(m - d);
    let pl = sigmoid(-m - d);
    let info = wins_like * pw * (1.0 - pw) + losses_like * pl * (1.0 - pl);
    (m, if info > 0.0 { info.sqrt().recip() } else { f64::INFINITY })
}

impl Clop {
    /// A fresh optimiser over `[-1, 1]^dims`.
    pub fn new(dims: usize, settings: ClopSettings) -> Clop {
        Clop {
            dims,
            settings,
            points: Vec::new(),
            totals: [0; 3],
            recorded: 0,
            next_refit: 0,
            weightings: Vec::new(),
            model: None,
            issued: 0,
            last_issued: None,
            last_issued_times: 0,
            index: HashMap::new(),
        }
    }

    /// Number of recorded outcomes.
    pub fn samples(&self) -> usize {
        self.recorded
    }

    /// Coefficients of the current regression (see [`monomials`] for their order).
    #[cfg(test)]
    pub fn regression(&self) -> Option<&[f64]> {
        self.model.as_ref().map(|m| m.coefficients.as_slice())
    }

    /// `ln w(x)`: 0 where no confident regression says `x` is bad, negative elsewhere.
    pub fn log_weight(&self, x: &[f64]) -> f64 {
        let c = self.settings.correlations;
        self.weightings
            .iter()
            .map(|w| (quadratic_value(&w.coefficients, x, c) - w.mean) / w.radius)
            .fold(0.0, f64::min)
    }

    /// Next point to play, in `[-1, 1]^dims`. May be called several times before the
    /// matching `record`s. Deterministic given the rng and the state. Cheap: the
    /// weight function only changes at refits.
    pub fn sample(&mut self, rng: &mut impl Rng) -> Vec<f64> {
        if self.dims == 0 {
            self.issued += 1;
            return Vec::new();
        }
        if let (Some(last), true) = (&self.last_issued, self.settings.replication_threshold > 0) {
            let wanted = 1 + self.issued / self.settings.replication_threshold;
            if self.last_issued_times < wanted {
                let x = last.clone();
                self.last_issued_times += 1;
                self.issued += 1;
                return x;
            }
        }
        // Metropolis-within-Gibbs on the density proportional to w(x), started from the
        // previous point: each step redraws one coordinate uniformly in [-1, 1].
        let coordinate = Uniform::new_inclusive(-1.0, 1.0).expect("a finite interval");
        let dimension = Uniform::new(0, self.dims).expect("at least one dimension");
        let acceptance = Uniform::new(0.0, 1.0).expect("a finite interval");
        let mut x = match &self.last_issued {
            Some(last) => last.clone(),
            None => coordinate.sample_iter(&mut *rng).take(self.dims).collect(),
        };
        if !self.weightings.is_empty() {
            let mut current = self.log_weight(&x);
            for _ in 0..self.settings.mcmc_steps_per_dim * self.dims {
                let i = dimension.sample(rng);
                let old = x[i];
                x[i] = coordinate.sample(rng);
                let proposed = self.log_weight(&x);
                if acceptance.sample(rng) < (proposed - current).exp() {
                    current = proposed;
                } else {
                    x[i] = old;
                }
            }
        } else if self.last_issued.is_some() {
            // Uniform weights: an independent uniform draw.
            for v in x.iter_mut() {
                *v = coordinate.sample(rng);
            }
        }
        self.last_issued = Some(x.clone());
        self.last_issued_times = 1;
        self.issued += 1;
        x
    }

    /// Record the outcome of one game played at `x`. Points outside `[-1, 1]` are
    /// clamped; a wrong dimension or non-finite coordinate is ignored (no panic).
    /// `outcome` is the tuned side's result.
    pub fn record(&mut self, x: &[f64], outcome: GameScore) {
        if x.len() != self.dims || x.iter().any(|v| !v.is_finite()) {
            return;
        }
        let x: Vec<f64> = x.iter().map(|v| v.clamp(-1.0, 1.0)).collect();
        if self.index.len() != self.points.len() {
            self.index = self.points.iter().enumerate().map(|(i, p)| (key(&p.x), i)).collect();
        }
        let slot = match outcome {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        };
        let k = key(&x);
        let i = match self.index.get(&k) {
            Some(&i) => i,
            None => {
                self.points.push(Point { x, counts: [0; 3] });
                self.index.insert(k, self.points.len() - 1);
                self.points.len() - 1
            }
        };
        self.points[i].counts[slot] += 1;
        self.totals[slot] += 1;
        if self.recorded == self.next_refit {
            self.next_refit += 1 + (self.next_refit as f64 * self.settings.refit_rate) as usize;
            self.refit();
        }
        self.recorded += 1;
    }

    fn weights(&self) -> Vec<f64> {
        self.points.iter().map(|p| self.log_weight(&p.x).exp()).collect()
    }

    fn total_weight(&self, weights: &[f64]) -> f64 {
        self.points.iter().zip(weights).map(|(p, w)| w * p.games() as f64).sum()
    }

    /// Rebuild the weight function from scratch: alternate regression and confidence
    /// weighting until the total weight shrinks by less than 1 %; the last weighting
    /// (which changed little) is dropped so the kept model matches the kept weights.
    fn refit(&mut self) {
        let s = &self.settings;
        let (correlations, prior, d) = (s.correlations, s.prior_strength, s.draw_rating);
        self.weightings.clear();
        let mut weights = vec![1.0; self.points.len()];
        let start = self.model.as_ref().map(|m| m.coefficients.clone());
        let mut fit = fit_regression(&self.points, &weights, correlations, prior, d, start.as_deref());
        let can_localize = self.totals[0] > 1 && self.totals[2] > 1 && s.h > 0.0;
        if can_localize {
            for _ in 0..s.max_localization_iterations {
                let Some(current) = fit.clone() else { break };
                let previous_total = self.total_weight(&weights);
                let (mut a, mut b) = (0.0, 0.0);
                for (p, w) in self.points.iter().zip(&weights) {
                    let [l, dr, wi] = p.counts;
                    a += w * (wi + dr) as f64;
                    b += w * (l + dr) as f64;
                }
                let (mean, deviation) = mean_and_deviation(a, b, d);
                let radius = deviation * self.settings.h;
                if !(radius.is_finite() && radius > 0.0) {
                    break;
                }
                self.weightings.push(Weighting { coefficients: current.coefficients.clone(), mean, radius });
                let new_weights = self.weights();
                let new_total = self.total_weight(&new_weights);
                if new_total >= previous_total * 0.99 {
                    self.weightings.pop();
                    break;
                }
                weights = new_weights;
                fit = fit_regression(
                    &self.points,
                    &weights,
                    correlations,
                    prior,
                    d,
                    Some(&current.coefficients),
                );
            }
        }
        if fit.is_some() {
            self.model = fit;
        }
    }

    /// Current estimate of the optimum: the weighted mean of the samples, with the
    /// regression's expected score there and a 95 % interval.
    pub fn estimate(&self) -> Estimate {
        let weights = self.weights();
        let mut mean = vec![0.0; self.dims];
        let mut weight_sum = 0.0;
        for (p, w) in self.points.iter().zip(&weights) {
            let w = w * p.games() as f64;
            weight_sum += w;
            for (m, v) in mean.iter_mut().zip(&p.x) {
                *m += w * v;
            }
        }
        if weight_sum > 0.0 {
            mean.iter_mut().for_each(|m| *m /= weight_sum);
        }
        let d = self.settings.draw_rating;
        let c = self.settings.correlations;
        let (win_rate_mid, low, high, regression_max) = match &self.model {
            Some(fit) => {
                let q = quadratic_value(&fit.coefficients, &mean, c);
                let mut mono = Vec::new();
                monomials(&mean, c, &mut mono);
                let p = mono.len();
                let mut var = 0.0;
                for i in 0..p {
                    for j in 0..p {
                        var += mono[i] * fit.covariance[i * p + j] * mono[j];
                    }
                }
                let sd = var.max(0.0).sqrt();
                (
                    win_rate(q, d),
                    win_rate(q - 1.96 * sd, d),
                    win_rate(q + 1.96 * sd, d),
                    quadratic_max(&fit.coefficients, self.dims, c),
                )
            }
            None => (0.5, 0.0, 1.0, None),
        };
        Estimate {
            mean,
            win_rate: win_rate_mid,
            win_rate_low: low,
            win_rate_high: high,
            samples: self.recorded,
            weight_sum,
            regression_max,
            weightings: self.weightings.len(),
        }
    }
}

/// Maximum of the quadratic if it is strictly concave and the maximum is in the box.
fn quadratic_max(coefficients: &[f64], dims: usize, c: Correlations) -> Option<Vec<f64>> {
    if dims == 0 {
        return None;
    }
    // q(x) = c0 + b.x + x' A x with A symmetric; maximum solves -2A x = b.
    let mut a = DMatrix::zeros(dims, dims);
    let mut p = 1 + dims;
    match c {
        Correlations::All => {
            for i in 0..dims {
                for j in i..dims {
                    if i == j {
                        a[(i, i)] = -2.0 * coefficients[p];
                    } else {
                        a[(i, j)] = -coefficients[p];
                        a[(j, i)] = -coefficients[p];
                    }
                    p += 1;
                }
            }
        }
        Correlations::Diagonal => {
            for i in 0..dims {
                a[(i, i)] = -2.0 * coefficients[p + i];
            }
        }
    }
    let b = DVector::from_column_slice(&coefficients[1..=dims]);
    let x = a.cholesky()?.solve(&b);
    x.iter().all(|v| v.abs() <= 1.0).then(|| x.iter().copied().collect())
}

#[cfg(test)]
#[path = "clop_tests.rs"]
mod tests;
