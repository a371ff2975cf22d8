//! What an SPRT will cost and how often it will pass, before a game is played: for a true Elo
//! difference, the chance that the test accepts H1 and the number of game pairs it takes on
//! average, from Wald's approximations with the log-likelihood ratio as a Brownian motion (as
//! fishtest's and OpenBench's SPRT calculators compute them).
//!
//! Pairs are independent draws whose score (0, ¼, ½, ¾ or 1) has the variance σ² of the
//! pentanomial profile given (a match of the engines at the control to be used). Under a bound
//! with pair-score mean μᵢ, one pair moves the LLR by (μ₁ - μ₀)(2x - μ₀ - μ₁) / 2σ² on average
//! when pairs score x, so with a true mean μ the LLR drifts by d = (μ₁ - μ₀)(2μ - μ₀ - μ₁) / 2σ² a
//! pair with variance v = (μ₁ - μ₀)² / σ². The bounds' means are `score(elo)` for logistic Elo, and
//! ½ + √2·σ·nElo / (800 / ln 10) for normalised Elo (a pair's normalised score is its distance
//! from ½ over √2σ). Then, with the LLR bounds a > 0 > b and θ = 2d / v, the test passes with
//! probability (1 - e^(-θb)) / (e^(-θa) - e^(-θb)) and takes (P·a + (1 - P)·b) / d pairs (-a·b / v
//! when d is 0). The approximation ignores how far the last pair oversteps a bound, so real tests
//! pass a little less often at the bounds and run a little longer (a test measures by how much).
//!
//! A test with a cap on its games ends undecided when neither bound is reached by then: with a cap,
//! the LLR's distribution is carried forward a few pairs at a time on a grid between the bounds
//! (each step a normal move of the drift and variance above), the mass that leaves by either bound
//! counted as passed or rejected at that step.

use super::stats::{pair_score_variance, score_from_elo, EloModel, Pentanomial, Sprt, NELO_PER_T};

/// An SPRT's outlook at one true Elo difference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outlook {
    /// The true difference, logistic Elo.
    pub elo: f64,
    /// The same in normalised Elo, at the profile's spread.
    pub nelo: f64,
    /// The chance that the test accepts H1 (passes).
    pub pass: f64,
    /// Game pairs it takes on average.
    pub pairs: f64,
}

/// The spread an SPRT will see, from the pair counts of a match at the control it will use: the
/// variance of a pair's score. `None` when the counts have no spread (fewer than two outcomes).
pub fn pair_spread(profile: &Pentanomial) -> Option<f64> {
    let variance = pair_score_variance(profile);
    (variance > 0.0 && variance.is_finite()).then_some(variance)
}

/// The outlook of `sprt` when the true difference is `elo` (logistic) and pairs' scores have
/// variance `variance`.
pub fn outlook(sprt: &Sprt, variance: f64, elo: f64) -> Outlook {
    let nelo = (score_from_elo(elo) - 0.5) / (std::f64::consts::SQRT_2 * variance.sqrt()) * NELO_PER_T;
    let (drift, spread) = llr_moments(sprt, variance, elo);
    let (lower, upper) = sprt.bounds();
    let theta = 2.0 * drift / spread;
    let (pass, pairs) = if (theta * (upper - lower)).abs() < 1e-9 {
        (-lower / (upper - lower), -upper * lower / spread)
    } else {
        // The same ratio written with exponents that cannot overflow for either sign of θ.
        let pass = if theta > 0.0 {
            (theta * lower).exp_m1() / (theta * (lower - upper)).exp_m1()
        } else {
            (theta * upper).exp() * (-theta * lower).exp_m1() / (-theta * (lower - upper)).exp_m1()
        };
        (pass, (pass * upper + (1.0 - pass) * lower) / drift)
    };
    Outlook { elo, nelo, pass, pairs }
}

/// An SPRT's outlook at one true Elo difference when it stops undecided at a cap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CappedOutlook {
    pub pass: f64,
    pub reject: f64,
    /// The chance that it reaches the cap undecided.
    pub undecided: f64,
    /// Game pairs it takes on average, the cap included.
    pub pairs: f64,
}

/// Points of the LLR grid between the bounds.
const GRID: usize = 400;

/// The outlook of `sprt` at true difference `elo` (logistic) and pair-score variance `variance`
/// when it stops at `max_pairs` pairs (see the module documentation).
pub fn outlook_within(sprt: &Sprt, variance: f64, elo: f64, max_pairs: u64) -> CappedOutlook {
    let (drift, spread) = llr_moments(sprt, variance, elo);
    let (lower, upper) = sprt.bounds();
    let h = (upper - lower) / (GRID + 1) as f64;
    // Pairs per step: enough that a step's spread covers a few grid points.
    let k = ((9.0 * h * h / spread).ceil() as u64).clamp(1, max_pairs.max(1));
    let (mean, sd) = (drift * k as f64, (spread * k as f64).sqrt());
    let x = |i: usize| lower + h * (i + 1) as f64;
    let normal = statrs::distribution::Normal::new(0.0, 1.0).expect("a standard normal");
    let cdf = |z: f64| statrs::distribution::ContinuousCDF::cdf(&normal, z);
    // From grid point i: the chance of leaving above, below, and of landing at each grid point
    // (the interior mass spread by the normal density, scaled to what stays inside).
    let mut up = vec![0.0; GRID];
    let mut down = vec![0.0; GRID];
    let mut to = vec![0.0; GRID * GRID];
    for i in 0..GRID {
        up[i] = 1.0 - cdf((upper - x(i) - mean) / sd);
        down[i] = cdf((lower - x(i) - mean) / sd);
        let row = &mut to[i * GRID..(i + 1) * GRID];
        for (j, w) in row.iter_mut().enumerate() {
            *w = (-0.5 * ((x(j) - x(i) - mean) / sd).powi(2)).exp();
        }
        let total: f64 = row.iter().sum();
        let inside = (1.0 - up[i] - down[i]).max(0.0);
        row.iter_mut().for_each(|w| *w *= if total > 0.0 { inside / total } else { 0.0 });
    }
    let mut mass = vec![0.0; GRID];
    mass[((-lower / h).round() as usize).clamp(1, GRID) - 1] = 1.0;
    let (mut pass, mut reject, mut pairs) = (0.0, 0.0, 0.0);
    let mut played = 0;
    while played < max_pairs {
        let step = k.min(max_pairs - played);
        played += step;
        let mut next = vec![0.0; GRID];
        for (i, &m) in mass.iter().enumerate().filter(|(_, &m)| m > 1e-15) {
            pass += m * up[i];
            reject += m * down[i];
            pairs += m * (up[i] + down[i]) * played as f64;
            for (n, w) in next.iter_mut().zip(&to[i * GRID..(i + 1) * GRID]) {
                *n += m * w;
            }
        }
        mass = next;
    }
    let undecided: f64 = mass.iter().sum();
    CappedOutlook { pass, reject, undecided, pairs: pairs + undecided * max_pairs as f64 }
}

/// The LLR's drift and variance per pair at true difference `elo` (see the module documentation).
fn llr_moments(sprt: &Sprt, variance: f64, elo: f64) -> (f64, f64) {
    let sigma = variance.sqrt();
    let mean = score_from_elo(elo);
    let bound_mean = |bound: f64| match sprt.model {
        EloModel::Logistic => score_from_elo(bound),
        EloModel::Normalized => 0.5 + std::f64::consts::SQRT_2 * sigma * bound / NELO_PER_T,
    };
    let (m0, m1) = (bound_mean(sprt.elo0), bound_mean(sprt.elo1));
    ((m1 - m0) * (2.0 * mean - m0 - m1) / (2.0 * variance), (m1 - m0).powi(2) / variance)
}

#[cfg(test)]
#[path = "sprt_outlook_tests.rs"]
mod tests;
