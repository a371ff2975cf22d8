//! Simultaneous perturbation stochastic approximation (Spall 1992) as fishtest and OpenBench run
//! it: at iteration k every value is perturbed by ±c_k (one random sign per value), the plus and
//! minus vectors play a game pair, and each value moves by R_k·c_k·result·sign, where result is
//! the plus side's wins minus losses and R_k = a_k / c_k².
//!
//! Schedule: c_k = c / k^γ, a_k = a / (A + k)^α with α = 0.602, γ = 0.101, A = a tenth of the
//! planned iterations. Each value's c and a come from OpenBench's c_end and r_end, the
//! perturbation and learning rate wanted at the last iteration N: c = c_end·N^γ, a = r_end·c_end²·
//! (A + N)^α.

use ndarray::{Array1, Zip};
use rand::Rng;
use serde::{Deserialize, Serialize};

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
}

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
        }
    }

    /// The current values, one per dimension of the space.
    pub fn values(&self) -> &[f64] {
        self.theta.as_slice().expect("a one-dimensional array is contiguous")
    }

    /// The perturbation of iteration `k` (1-based) around the current theta: one Rademacher
    /// sign per value (±1 with equal odds), each value moved by its c_k.
    pub fn perturb(&self, k: u64, rng: &mut impl Rng) -> Perturbation {
        let kf = k as f64;
        let c_k = self.c.mapv(|c| c / kf.powf(self.gamma));
        let signs =
            Array1::from_shape_fn(self.theta.len(), |_| if rng.random::<bool>() { 1.0 } else { -1.0 });
        let at = |side: f64| -> Vec<f64> {
            Zip::from(&self.theta)
                .and(&signs)
                .and(&c_k)
                .and(&self.min)
                .and(&self.max)
                .map_collect(|&t, &s, &c, &lo, &hi| (t + side * s * c).clamp(lo, hi))
                .to_vec()
        };
        Perturbation { k, plus: at(1.0), minus: at(-1.0), signs, c_k }
    }

    /// Applies a perturbation's result (the plus side's wins minus losses).
    pub fn update(&mut self, p: &Perturbation, result: f64) {
        let decay = (self.big_a + p.k as f64).powf(self.alpha);
        Zip::from(&mut self.theta)
            .and(&self.a)
            .and(&p.c_k)
            .and(&p.signs)
            .and(&self.min)
            .and(&self.max)
            .for_each(|t, &a, &c_k, &sign, &lo, &hi| {
                let r_k = a / decay / (c_k * c_k);
                *t = (*t + r_k * c_k * result * sign).clamp(lo, hi);
            });
        self.iteration = self.iteration.max(p.k);
    }

    /// The perturbation size at iteration k of dimension i.
    #[cfg(test)]
    pub fn c_at(&self, i: usize, k: u64) -> f64 {
        self.c[i] / (k.max(1) as f64).powf(self.gamma)
    }
}

#[cfg(test)]
#[path = "spsa_tests.rs"]
mod tests;
