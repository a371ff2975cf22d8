//! How the Bayesian optimiser (`bayes.rs`) picks a batch of points from a candidate set, given the
//! Gaussian process's joint posterior over the candidates (means `μ`, covariance `Σ` of the latent
//! function, in the targets' units, higher is better):
//!
//! - `ts`, Thompson sampling: one joint sample of the function per point of the batch, each point
//!   the maximum of its sample (a point already in the batch gives way to the sample's next best).
//!   Noise and batches need nothing more: the samples differ.
//! - `mes`, max-value entropy search (Wang and Jegelka, ICML 2017): the expected information a point
//!   gives about the maximum value y*, `E[γ φ(γ) / 2Φ(γ) - ln Φ(γ)]` with `γ = (y* - μ) / σ`, over
//!   maxima of joint samples.
//! - `ei`, expected improvement over the best posterior mean (the noisy form: improvement of the
//!   latent function).
//! - `pvrs`, predictive variance reduction search (bayes-skopt's default): the point that most
//!   reduces the posterior variance at the maxima of joint samples, i.e. the one that teaches most
//!   about where the optimum is.
//! - `kg`, the knowledge gradient (Frazier, Powell and Dayanik, "The knowledge-gradient policy for
//!   correlated normal beliefs", 2009): the expected rise of the posterior mean's maximum over the
//!   candidates after one more noisy observation at a point, `E[max_j (μ_j + b_j Z)] - max μ`
//!   with `b = Σ(·, x) / √(Σ(x, x) + noise)`, computed exactly from the upper envelope of those
//!   lines. It values a point by how much it can move the final recommendation (the mean's
//!   maximum), so it plays on both sides of a peak, where the slope is learnt, rather than on it.
//!
//! For every acquisition but Thompson sampling the batch is built greedily: after each pick, the
//! covariance is conditioned on a noisy observation there (its mean left as it is, the "kriging
//! believer"), so the next pick is drawn away from points the batch already covers.

use anyhow::{bail, Result};
use nalgebra::{DMatrix, DVector};
use rand::Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

/// The acquisition function (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Acquisition {
    Ts,
    Mes,
    Ei,
    Pvrs,
    Kg,
}

impl Acquisition {
    /// The names `--acq-function` takes.
    pub const NAMES: [&'static str; 5] = ["ts", "mes", "ei", "pvrs", "kg"];

    pub fn parse(name: &str) -> Result<Acquisition> {
        Ok(match name.to_ascii_lowercase().as_str() {
            "ts" => Acquisition::Ts,
            "mes" => Acquisition::Mes,
            "ei" => Acquisition::Ei,
            "pvrs" => Acquisition::Pvrs,
            "kg" => Acquisition::Kg,
            other => bail!("unknown acquisition function {other:?}; known: {}", Self::NAMES.join(", ")),
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Acquisition::Ts => "ts",
            Acquisition::Mes => "mes",
            Acquisition::Ei => "ei",
            Acquisition::Pvrs => "pvrs",
            Acquisition::Kg => "kg",
        }
    }
}

/// Joint samples drawn for the max values of MES and the maxima PVRS reduces the variance at.
const SAMPLES: usize = 32;

/// The standard normal density and distribution function.
fn phi(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

fn cdf(x: f64) -> f64 {
    0.5 * statrs::function::erf::erfc(-x / std::f64::consts::SQRT_2)
}

/// `ln Φ(x)` and `φ(x) / Φ(x)`, stable far into the lower tail (asymptotic series there).
fn log_cdf_and_ratio(x: f64) -> (f64, f64) {
    if x > -20.0 {
        let c = cdf(x).max(1e-300);
        (c.ln(), phi(x) / c)
    } else {
        // Φ(x) ≈ φ(x) / -x · (1 - 1/x²): the Mills ratio's leading terms.
        let ratio = -x / (1.0 - 1.0 / (x * x));
        (-0.5 * x * x - (-x * (2.0 * std::f64::consts::PI).sqrt()).ln() + (1.0 - 1.0 / (x * x)).ln(), ratio)
    }
}

/// A lower Cholesky factor of a posterior covariance, with jitter when rounding made it
/// indefinite (candidates close together give nearly equal rows).
fn sampling_factor(cov: &DMatrix<f64>) -> Result<DMatrix<f64>> {
    let scale = cov.diagonal().iter().fold(0.0f64, |m, v| m.max(*v)).max(1e-300);
    let mut jitter = 1e-10 * scale;
    for _ in 0..10 {
        let mut k = cov.clone();
        for i in 0..k.nrows() {
            k[(i, i)] += jitter;
        }
        if let Some(c) = nalgebra::Cholesky::new(k) {
            return Ok(c.unpack());
        }
        jitter *= 10.0;
    }
    bail!("the candidates' posterior covariance cannot be factored")
}

/// One joint sample of the latent function at the candidates.
fn joint_sample(mean: &DVector<f64>, factor: &DMatrix<f64>, rng: &mut impl Rng) -> DVector<f64> {
    let z = DVector::from_iterator(mean.len(), (0..mean.len()).map(|_| rng.sample::<f64, _>(StandardNormal)));
    mean + factor * z
}

/// Index of the largest value not in `taken` (ties: the first).
fn best_free(values: impl Iterator<Item = f64>, taken: &[usize]) -> Option<usize> {
    values
        .enumerate()
        .filter(|(i, v)| !taken.contains(i) && v.is_finite())
        .fold(None, |best: Option<(usize, f64)>, (i, v)| match best {
            Some((_, b)) if b >= v => best,
            _ => Some((i, v)),
        })
        .map(|(i, _)| i)
}

/// `E[max_j (a_j + b_j Z)] - max_j a_j` for a standard normal `Z`, by the upper envelope of the
/// lines `a_j + b_j z` (Frazier et al. 2009, algorithm 1): `Σ (b_{k+1} - b_k) f(-|c_k|)` over the
/// envelope's consecutive lines, `c_k` where they cross and `f(z) = z Φ(z) + φ(z)`.
fn expected_max_rise(mut lines: Vec<(f64, f64)>) -> f64 {
    // By slope, and for equal slopes the highest line last (the only one that can matter).
    lines.sort_by(|p, q| p.1.total_cmp(&q.1).then(p.0.total_cmp(&q.0)));
    let mut envelope: Vec<(f64, f64, f64)> = Vec::with_capacity(lines.len()); // (a, b, start)
    for (i, &(a, b)) in lines.iter().enumerate() {
        if lines.get(i + 1).is_some_and(|next| next.1 == b) {
            continue;
        }
        let mut start = f64::NEG_INFINITY;
        while let Some(&(ta, tb, tstart)) = envelope.last() {
            start = (ta - a) / (b - tb);
            if start <= tstart {
                envelope.pop();
                start = f64::NEG_INFINITY;
            } else {
                break;
            }
        }
        envelope.push((a, b, start));
    }
    let f = |z: f64| z * cdf(z) + phi(z);
    envelope.windows(2).map(|w| (w[1].1 - w[0].1) * f(-w[1].2.abs())).sum()
}

/// Picks `count` distinct candidates (indices) by `acquisition`, from the joint posterior
/// (`mean`, `cov`) at the candidates; `noise` is the variance of a new point's observation (for
/// the greedy batch's conditioning).
pub fn select(
    acquisition: Acquisition,
    mean: &DVector<f64>,
    cov: &DMatrix<f64>,
    noise: f64,
    count: usize,
    rng: &mut impl Rng,
) -> Result<Vec<usize>> {
    let m = mean.len();
    if m == 0 {
        bail!("no candidates to choose from");
    }
    let count = count.min(m);
    let factor = sampling_factor(cov)?;
    let mut picked: Vec<usize> = Vec::with_capacity(count);
    if acquisition == Acquisition::Ts {
        while picked.len() < count {
            let f = joint_sample(mean, &factor, rng);
            match best_free(f.iter().copied(), &picked) {
                Some(i) => picked.push(i),
                None => break,
            }
        }
        return Ok(picked);
    }
    if acquisition == Acquisition::Kg {
        return Ok(knowledge_gradient(mean, cov, noise, count));
    }
    let samples: Vec<DVector<f64>> = (0..SAMPLES).map(|_| joint_sample(mean, &factor, rng)).collect();
    let maxima: Vec<f64> = samples.iter().map(|f| f.max()).collect();
    let argmaxima: Vec<usize> = samples.iter().map(|f| f.argmax().0).collect();
    let incumbent = mean.max();
    let mut cov = cov.clone();
    let noise = noise.max(1e-12 * cov.diagonal().max().max(1e-300));
    while picked.len() < count {
        let score = |i: usize| -> f64 {
            let var = cov[(i, i)].max(0.0);
            let sd = var.sqrt();
            match acquisition {
                Acquisition::Ts | Acquisition::Kg => unreachable!("handled above"),
                Acquisition::Ei => {
                    let d = mean[i] - incumbent;
                    if sd <= 0.0 {
                        return d.max(0.0);
                    }
                    let u = d / sd;
                    d * cdf(u) + sd * phi(u)
                }
                Acquisition::Mes => {
                    if sd <= 1e-300 {
                        return 0.0;
                    }
                    maxima
                        .iter()
                        .map(|y| {
                            let g = (y - mean[i]) / sd;
                            let (log_cdf, ratio) = log_cdf_and_ratio(g);
                            0.5 * g * ratio - log_cdf
                        })
                        .sum::<f64>()
                        / maxima.len() as f64
                }
                Acquisition::Pvrs => {
                    argmaxima.iter().map(|&s| cov[(i, s)] * cov[(i, s)]).sum::<f64>() / (var + noise)
                }
            }
        };
        let Some(i) = best_free((0..m).map(score), &picked) else { break };
        picked.push(i);
        // Condition on a noisy observation at i (kriging believer: the means stay).
        let column = cov.column(i).clone_owned();
        let denominator = column[i] + noise;
        cov -= (&column * column.transpose()) / denominator;
    }
    Ok(picked)
}

/// The greedy batch of the knowledge gradient: each pick the candidate of the largest expected
/// rise of the mean's maximum, then the covariance conditioned on a noisy observation there.
/// Only candidates whose mean is within a few standard deviations of the best can become the
/// maximum, so the envelope is built over those (and the point observed).
fn knowledge_gradient(mean: &DVector<f64>, cov: &DMatrix<f64>, noise: f64, count: usize) -> Vec<usize> {
    let m = mean.len();
    let mut cov = cov.clone();
    let noise = noise.max(1e-12 * cov.diagonal().max().max(1e-300));
    let best = mean.max();
    let mut picked: Vec<usize> = Vec::with_capacity(count);
    while picked.len() < count {
        let relevant: Vec<usize> =
            (0..m).filter(|&j| mean[j] + 5.0 * cov[(j, j)].max(0.0).sqrt() >= best).collect();
        let score = |i: usize| -> f64 {
            let s = (cov[(i, i)].max(0.0) + noise).sqrt();
            let mut lines: Vec<(f64, f64)> = relevant.iter().map(|&j| (mean[j], cov[(j, i)] / s)).collect();
            if !relevant.contains(&i) {
                lines.push((mean[i], cov[(i, i)] / s));
            }
            expected_max_rise(lines)
        };
        let Some(i) = best_free((0..m).map(score), &picked) else { break };
        picked.push(i);
        let column = cov.column(i).clone_owned();
        let denominator = column[i] + noise;
        cov -= (&column * column.transpose()) / denominator;
    }
    picked
}

#[cfg(test)]
#[path = "acquisition_tests.rs"]
mod tests;
