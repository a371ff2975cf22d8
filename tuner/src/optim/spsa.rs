//! Simultaneous perturbation stochastic approximation (Spall 1992) as fishtest and OpenBench run
//! it: at iteration k every value is perturbed by ±c_k (one random sign per value), the plus and
//! minus vectors play a game pair, and each value moves by R_k·c_k·result·sign, where result is
//! the plus side's wins minus losses and R_k = a_k / c_k².
//!
//! Schedule: c_k = c / k^γ, a_k = a / (A + k)^α with α = 0.602, γ = 0.101, A = a tenth of the
//! planned iterations. Each value's c and a come from OpenBench's c_end and r_end, the
//! perturbation and learning rate wanted at the last iteration N: c = c_end·N^γ, a = r_end·c_end²·
//! (A + N)^α.
//!
//! Integer values are played as OpenBench plays them: c_k at least 0.5, and the plus and minus
//! values rounded stochastically (floor(x + u), one uniform u shared by both sides), so that the
//! two sides always differ and the played values equal theta ± c_k on average. Rounding to the
//! nearest integer instead plays the same value on both sides whenever c_k < 0.5, and a value
//! other than theta ± c_k otherwise, so the update would follow noise or a biased gradient.
//!
//! Evidence (not in OpenBench): each step is R_k·c_k·result times the value's own random sign, so a
//! value the games do not care about walks randomly, with a spread of the square root of the sum
//! of its squared steps. A value's drift from its start against that spread (`evidence`, a z
//! score) says which values the games pushed (|z| well above 2) and which only wandered.

use ndarray::Array1;
use rand::Rng;
use serde::{Deserialize, Serialize};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::clop_problems::{Problem, Solver};
use super::space::Space;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spsa {
    pub theta: Array1<f64>,
    /// Iterations whose results are in `theta`.
    pub iteration: u64,
    /// The planned number of iterations N the schedule is laid out for.
    pub iterations: u64,
    pub alpha: f64,
    pub gamma: f64,
    pub big_a: f64,
    pub a: Array1<f64>,
    pub c: Array1<f64>,
    min: Array1<f64>,
    max: Array1<f64>,
    /// Which values are integers (rounded stochastically, c_k at least 0.5). Empty in a
    /// checkpoint written before integers were told apart: every value is then played unrounded,
    /// as that run started.
    #[serde(default)]
    integer: Vec<bool>,
    /// Per value, the sum of its squared steps (before clamping to the bounds), for `evidence`.
    /// Empty in a checkpoint written before it was kept: such a run reports no evidence.
    #[serde(default)]
    walk: Vec<f64>,
}

/// The smallest perturbation of an integer value (OpenBench's): with it, stochastic rounding
/// always plays the two sides at least one unit apart.
const MIN_INTEGER_C: f64 = 0.5;

/// One iteration's perturbation: the plus and minus vectors and what the update needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub k: u64,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    signs: Array1<f64>,
    c_k: Array1<f64>,
}

impl Spsa {
    pub fn new(space: &Space, iterations: u64) -> Spsa {
        let (alpha, gamma) = (0.602, 0.101);
        let n = iterations.max(1) as f64;
        let big_a = 0.1 * n;
        let per_dim = |f: &dyn Fn(&crate::optim::space::Dim) -> f64| space.dims.iter().map(f).collect();
        Spsa {
            theta: space.starts().into(),
            iteration: 0,
            iterations: iterations.max(1),
            alpha,
            gamma,
            big_a,
            c: per_dim(&|d| d.c_end * n.powf(gamma)),
            a: per_dim(&|d| d.r_end * d.c_end * d.c_end * (big_a + n).powf(alpha)),
            min: per_dim(&|d| d.min),
            max: per_dim(&|d| d.max),
            integer: space.dims.iter().map(|d| d.integer).collect(),
            walk: vec![0.0; space.dims.len()],
        }
    }

    /// The current values, one per dimension of the space.
    pub fn values(&self) -> &[f64] {
        self.theta.as_slice().expect("a one-dimensional array is contiguous")
    }

    fn is_integer(&self, i: usize) -> bool {
        self.integer.get(i).copied().unwrap_or(false)
    }

    /// The perturbation of iteration `k` (1-based) around the current theta: one Rademacher
    /// sign per value (±1 with equal odds), each value moved by its c_k; integers rounded
    /// stochastically (see the module's comment).
    pub fn perturb(&self, k: u64, rng: &mut impl Rng) -> Perturbation {
        let kf = k as f64;
        let c_k = Array1::from_shape_fn(self.theta.len(), |i| {
            let c = self.c[i] / kf.powf(self.gamma);
            if self.is_integer(i) {
                c.max(MIN_INTEGER_C)
            } else {
                c
            }
        });
        let signs =
            Array1::from_shape_fn(self.theta.len(), |_| if rng.random::<bool>() { 1.0 } else { -1.0 });
        // Drawn after the signs, so that a space without integers draws what it always drew.
        let shifts: Vec<Option<f64>> =
            (0..self.theta.len()).map(|i| self.is_integer(i).then(|| rng.random::<f64>())).collect();
        let at = |side: f64| -> Vec<f64> {
            (0..self.theta.len())
                .map(|i| {
                    let x = self.theta[i] + side * signs[i] * c_k[i];
                    let x = shifts[i].map_or(x, |u| (x + u).floor());
                    x.clamp(self.min[i], self.max[i])
                })
                .collect()
        };
        Perturbation { k, plus: at(1.0), minus: at(-1.0), signs, c_k }
    }

    /// Applies a perturbation's result (the plus side's wins minus losses).
    pub fn update(&mut self, p: &Perturbation, result: f64) {
        let decay = (self.big_a + p.k as f64).powf(self.alpha);
        let keeps_walk = self.keeps_walk();
        for i in 0..self.theta.len() {
            let r_k = self.a[i] / decay / (p.c_k[i] * p.c_k[i]);
            let step = r_k * p.c_k[i] * result * p.signs[i];
            self.theta[i] = (self.theta[i] + step).clamp(self.min[i], self.max[i]);
            if keeps_walk {
                self.walk[i] += step * step;
            }
        }
        self.iteration = self.iteration.max(p.k);
    }

    /// Each value's drift from `start` against the random walk of its own steps (a z score; 0
    /// for a value that never stepped), or None for a run resumed from a checkpoint that did not
    /// keep the walk.
    pub fn evidence(&self, start: &[f64]) -> Option<Vec<f64>> {
        (self.keeps_walk() && start.len() == self.theta.len()).then(|| {
            let z = |(i, walk): (usize, &f64)| {
                if *walk > 0.0 {
                    (self.theta[i] - start[i]) / walk.sqrt()
                } else {
                    0.0
                }
            };
            self.walk.iter().enumerate().map(z).collect()
        })
    }

    /// Whether the run keeps each value's walk (a checkpoint written before it was kept does not).
    pub fn keeps_walk(&self) -> bool {
        self.walk.len() == self.theta.len()
    }

    /// Rebuilds the walk of a checkpoint written before it was kept, from the values after each
    /// batch (the run's trajectory, its start first): each batch's whole step, after the bounds,
    /// stands for the steps of its iterations. Its expected square is the sum of theirs (their
    /// signs are independent), so the evidence reads the same on average, a little noisier.
    /// False, and nothing changed, if the walk is kept or a row has the wrong length.
    pub fn rebuild_walk(&mut self, rows: &[Vec<f64>]) -> bool {
        let n = self.theta.len();
        if self.keeps_walk() || rows.iter().any(|r| r.len() != n) {
            return false;
        }
        self.walk = vec![0.0; n];
        for pair in rows.windows(2) {
            for (i, walk) in self.walk.iter_mut().enumerate() {
                *walk += (pair[1][i] - pair[0][i]).powi(2);
            }
        }
        true
    }

    /// The values with the evidence to move: theta where |z| is at least `min_evidence`, the
    /// start elsewhere (a value that only wandered goes back), or None without the walk.
    pub fn kept(&self, start: &[f64], min_evidence: f64) -> Option<Vec<f64>> {
        let z = self.evidence(start)?;
        Some(
            (0..z.len()).map(|i| if z[i].abs() >= min_evidence { self.theta[i] } else { start[i] }).collect(),
        )
    }

    /// The perturbation size at iteration k of dimension i.
    #[cfg(test)]
    pub fn c_at(&self, i: usize, k: u64) -> f64 {
        self.c[i] / (k.max(1) as f64).powf(self.gamma)
    }
}

/// SPSA on the artificial problems of CLOP's paper (`clop_problems`), for the expected simple
/// regret: every value on [-1, 1] from 0, each pair a duel of the plus values against the minus
/// values (a game is won by plus with probability σ(r(plus) - r(minus))), `pairs_per` pairs per
/// perturbation as OpenBench plays them.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaProblem {
    pub pairs_per: u64,
    pub c_end: f64,
    pub r_end: f64,
}

impl Solver for SpsaProblem {
    fn solve(&self, problem: &Problem, games: u64, seed: u64) -> anyhow::Result<Vec<f64>> {
        let lines: Vec<String> = (0..problem.dims())
            .map(|i| format!("x{i}, float, 0, -1, 1, {}, {}", self.c_end, self.r_end))
            .collect();
        let space = Space::parse_openbench(&lines.join("\n"), "the problem")?;
        let per = self.pairs_per.max(1);
        let iterations = (games / (2 * per)).max(1);
        let mut spsa = Spsa::new(&space, iterations);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for k in 1..=iterations {
            let p = spsa.perturb(k, &mut rng);
            let plus_wins = 1.0 / (1.0 + (problem.strength(&p.minus) - problem.strength(&p.plus)).exp());
            let result: f64 =
                (0..2 * per).map(|_| if rng.random::<f64>() < plus_wins { 1.0 } else { -1.0 }).sum();
            spsa.update(&p, result);
        }
        Ok(spsa.values().to_vec())
    }
}

#[cfg(test)]
#[path = "spsa_tests.rs"]
mod tests;
