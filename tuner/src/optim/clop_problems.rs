//! The artificial test problems of Coulom's CLOP paper (ACG 13, 2011) and the
//! expected-simple-regret experiment used there to compare optimisers: any optimiser that
//! implements [`Solver`] (CLOP here, the Bayesian optimiser in `bayes.rs`) runs in it.
//!
//! Each problem gives a strength `r(x)` on `[-1, 1]^n`; a game is won with
//! probability `σ(r(x)) = 1 / (1 + e^{-r(x)})` and otherwise lost (the paper's
//! artificial problems have no draws). The formulas are those of the paper's
//! experiments (reference implementation's `artificial/` problems). n-D versions of a
//! problem average the strength of independent copies, as the paper's "Log5" etc.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::clop::{Clop, ClopSettings};
use crate::play::games::stats::GameScore;

/// A test problem. Names for the CLI in [`Problem::names`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Smooth, asymmetric, non-quadratic 1-D: `r = 2 ln(2u + 2.1) - 2u - 1`, `u = 2x + 1`,
    /// repeated over `copies` dimensions ("log", "log2", "log5").
    Log { copies: usize },
    /// Very flat top: `r = Σ 0.2 / (1 + 6d² + d³)`, `d = x_i + 0.6` ("flat").
    Flat,
    /// Nearly flat then a cliff: `r = 0.2u² - u^20`, `u = (x + 1) / 2` ("power").
    Power,
    /// Non-differentiable maximum (an angle) at `x = -0.2` ("angle").
    Angle,
    /// Piecewise linear with plateaus and steps, maximum at `-0.3` ("step").
    Step,
    /// Rosenbrock's banana valley in 2-D, repeated over `copies` pairs
    /// ("rosenbrock", "rosenbrock2", "rosenbrock5").
    Rosenbrock { copies: usize },
    /// Strongly correlated 2-D problem, repeated over `copies` pairs
    /// ("correlated", "correlated2").
    Correlated { copies: usize },
}

const NAMES: &[&str] = &[
    "log",
    "flat",
    "power",
    "angle",
    "step",
    "log2",
    "log5",
    "rosenbrock",
    "rosenbrock2",
    "rosenbrock5",
    "correlated",
    "correlated2",
];

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn log_strength(x: f64) -> f64 {
    let u = 2.0 * x + 1.0;
    2.0 * (2.0 * u + 2.1).ln() - 2.0 * u - 1.0
}

fn rosenbrock_strength(x: f64, y: f64) -> f64 {
    let a = 4.0 * x;
    let b = 10.0 * y + 4.0;
    1.0 - 0.1 * ((1.0 - a).powi(2) + (b - a * a).powi(2))
}

fn correlated_strength(x: f64, y: f64) -> f64 {
    // g(t) = -t²(t² - t + 1) ≤ 0 with its only maximum at t = 0.
    let g = |t: f64| t * t * (t * (1.0 - t) - 1.0);
    0.2 * (g(10.0 * (x + y + 0.1)) + g(x - y + 0.9)) + 0.1
}

impl Problem {
    /// Parse a CLI name (see [`Problem::names`]).
    pub fn parse(name: &str) -> anyhow::Result<Problem> {
        Ok(match name.to_ascii_lowercase().as_str() {
            "log" => Problem::Log { copies: 1 },
            "log2" => Problem::Log { copies: 2 },
            "log5" => Problem::Log { copies: 5 },
            "flat" => Problem::Flat,
            "power" => Problem::Power,
            "angle" => Problem::Angle,
            "step" => Problem::Step,
            "rosenbrock" => Problem::Rosenbrock { copies: 1 },
            "rosenbrock2" => Problem::Rosenbrock { copies: 2 },
            "rosenbrock5" => Problem::Rosenbrock { copies: 5 },
            "correlated" => Problem::Correlated { copies: 1 },
            "correlated2" => Problem::Correlated { copies: 2 },
            other => anyhow::bail!("unknown CLOP test problem {other:?}; known: {}", NAMES.join(", ")),
        })
    }

    /// All CLI names.
    #[cfg(test)]
    pub fn names() -> &'static [&'static str] {
        NAMES
    }

    /// Number of parameters.
    pub fn dims(&self) -> usize {
        match *self {
            Problem::Log { copies } => copies,
            Problem::Flat | Problem::Power | Problem::Angle | Problem::Step => 1,
            Problem::Rosenbrock { copies } | Problem::Correlated { copies } => 2 * copies,
        }
    }

    /// Strength (logit of the win probability) at `x`.
    pub fn strength(&self, x: &[f64]) -> f64 {
        let mean = |v: f64, n: usize| if n == 0 { 0.0 } else { v / n as f64 };
        match *self {
            Problem::Log { copies } => mean(x.iter().take(copies).map(|&v| log_strength(v)).sum(), copies),
            Problem::Flat => {
                let d = x.first().copied().unwrap_or(0.0) + 0.6;
                0.2 / (1.0 + 6.0 * d * d + d * d * d)
            }
            Problem::Power => {
                let u = (x.first().copied().unwrap_or(0.0) + 1.0) * 0.5;
                0.2 * u * u - u.powi(20)
            }
            Problem::Angle => {
                let d = x.first().copied().unwrap_or(0.0) + 0.2;
                let loss = if d > 0.0 {
                    (d + 2.0).sqrt() - 2f64.sqrt()
                } else {
                    2.0 * (0.5 - d).sqrt() - 2f64.sqrt()
                };
                1.0 - loss
            }
            Problem::Step => {
                let v = x.first().copied().unwrap_or(0.0);
                if v < -0.8 {
                    -2.0
                } else if v <= -0.3 {
                    -2.0 + 3.0 * (v + 0.8) / 0.5
                } else if v < 0.8 {
                    -(v + 0.3) / 1.1
                } else {
                    -2.0
                }
            }
            Problem::Rosenbrock { copies } => {
                mean(x.chunks_exact(2).take(copies).map(|p| rosenbrock_strength(p[0], p[1])).sum(), copies)
            }
            Problem::Correlated { copies } => {
                mean(x.chunks_exact(2).take(copies).map(|p| correlated_strength(p[0], p[1])).sum(), copies)
            }
        }
    }

    /// Probability of winning one game at `x`.
    pub fn win_probability(&self, x: &[f64]) -> f64 {
        sigmoid(self.strength(x))
    }

    /// Location of the maximum.
    pub fn optimum_x(&self) -> Vec<f64> {
        let repeat = |pattern: &[f64], copies: usize| pattern.repeat(copies);
        match *self {
            // d/du [2 ln(2u + 2.1) - 2u] = 0 at u = -0.05, i.e. x = -0.525.
            Problem::Log { copies } => repeat(&[-0.525], copies),
            Problem::Flat => vec![-0.6],
            // d/du [0.2u² - u^20] = 0 at u = (0.4 / 20)^(1/18).
            Problem::Power => vec![2.0 * (0.4f64 / 20.0).powf(1.0 / 18.0) - 1.0],
            Problem::Angle => vec![-0.2],
            Problem::Step => vec![-0.3],
            Problem::Rosenbrock { copies } => repeat(&[0.25, -0.3], copies),
            Problem::Correlated { copies } => repeat(&[-0.5, 0.4], copies),
        }
    }

    /// Maximum win probability.
    pub fn optimum(&self) -> f64 {
        self.win_probability(&self.optimum_x())
    }

    /// Draw one game's outcome at `x`.
    pub fn play(&self, x: &[f64], rng: &mut impl Rng) -> GameScore {
        if rng.random::<f64>() < self.win_probability(x) {
            GameScore::Win
        } else {
            GameScore::Loss
        }
    }
}

/// Expected simple regret over several independent runs.
#[derive(Clone, Debug, PartialEq)]
pub struct RegretSummary {
    pub games: u64,
    pub runs: usize,
    pub mean_regret: f64,
    /// Standard error of `mean_regret`.
    pub std_error: f64,
    pub median_regret: f64,
}

/// Seed of run `index`: a SplitMix64 scramble so neighbouring runs are unrelated.
fn run_seed(seed: u64, index: usize) -> u64 {
    let mut z = seed ^ (index as u64).wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// An optimiser the regret experiment can run: CLOP's settings, the Bayesian optimiser's, ...
pub trait Solver: Sync {
    /// Plays `games` games of `problem` (every outcome drawn from `seed`) and returns the final
    /// estimate of the optimum.
    fn solve(&self, problem: &Problem, games: u64, seed: u64) -> anyhow::Result<Vec<f64>>;
}

impl Solver for ClopSettings {
    fn solve(&self, problem: &Problem, games: u64, seed: u64) -> anyhow::Result<Vec<f64>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut clop = Clop::new(problem.dims(), self.clone());
        for _ in 0..games {
            let x = clop.sample(&mut rng);
            let outcome = problem.play(&x, &mut rng);
            clop.record(&x, outcome);
        }
        Ok(clop.estimate().mean)
    }
}

/// Simple regret of one run: `optimum - win_probability(final estimate)`.
pub fn single_run_regret(
    problem: &Problem,
    solver: &impl Solver,
    games: u64,
    seed: u64,
) -> anyhow::Result<f64> {
    let estimate = solver.solve(problem, games, seed)?;
    Ok((problem.optimum() - problem.win_probability(&estimate)).max(0.0))
}

/// Runs `solver` `runs` times (in parallel with rayon, each run seeded from `seed` and its
/// index) on `problem` for `games` games each and returns the expected simple regret:
/// optimum - win_probability(final estimate).
pub fn simple_regret(
    problem: &Problem,
    solver: &impl Solver,
    games: u64,
    runs: usize,
    seed: u64,
) -> anyhow::Result<RegretSummary> {
    let mut regrets: Vec<f64> = (0..runs)
        .into_par_iter()
        .map(|i| single_run_regret(problem, solver, games, run_seed(seed, i)))
        .collect::<anyhow::Result<_>>()?;
    let n = regrets.len().max(1) as f64;
    let mean = regrets.iter().sum::<f64>() / n;
    let variance =
        if runs > 1 { regrets.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    regrets.sort_by(f64::total_cmp);
    let median = match runs {
        0 => 0.0,
        r if r % 2 == 1 => regrets[r / 2],
        r => 0.5 * (regrets[r / 2 - 1] + regrets[r / 2]),
    };
    Ok(RegretSummary {
        games,
        runs,
        mean_regret: mean,
        std_error: (variance / n).sqrt(),
        median_regret: median,
    })
}

#[cfg(test)]
#[path = "clop_problems_tests.rs"]
mod tests;
