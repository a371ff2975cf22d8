//! Optimisers over the flat value vector: Adam (analytic gradients) and the classic Texel local
//! search. Both change only the selected slots and keep every value inside its bounds.

use serde::{Deserialize, Serialize};

/// Adam's state, saved in checkpoints so a resumed run continues exactly.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Adam {
    pub learning_rate: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub epsilon: f64,
    pub step: u64,
    pub m: Vec<f64>,
    pub v: Vec<f64>,
}

impl Adam {
    pub fn new(values: usize, learning_rate: f64) -> Adam {
        Adam {
            learning_rate,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            step: 0,
            m: vec![0.0; values],
            v: vec![0.0; values],
        }
    }

    /// One update of the `selected` slots of `w` from `grad`, clamped to `bounds`.
    pub fn update(&mut self, w: &mut [f64], grad: &[f64], selected: &[usize], bounds: &[(i32, i32)]) {
        self.step += 1;
        let (b1, b2) = (self.beta1, self.beta2);
        let correction1 = 1.0 - b1.powi(self.step as i32);
        let correction2 = 1.0 - b2.powi(self.step as i32);
        for &i in selected {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * grad[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * grad[i] * grad[i];
            let m_hat = self.m[i] / correction1;
            let v_hat = self.v[i] / correction2;
            let (lo, hi) = bounds[i];
            w[i] = (w[i] - self.learning_rate * m_hat / (v_hat.sqrt() + self.epsilon))
                .clamp(lo as f64, hi as f64);
        }
    }
}

/// One pass of Texel's local search: each selected value tries +step then -step and keeps the
/// change if the loss drops. Returns the loss after the pass and how many values changed.
pub fn local_search_pass(
    w: &mut [f64],
    selected: &[usize],
    bounds: &[(i32, i32)],
    step: f64,
    mut loss_of: impl FnMut(&[f64]) -> f64,
    mut best: f64,
) -> (f64, usize) {
    let mut changed = 0;
    for &i in selected {
        let original = w[i];
        let (lo, hi) = (bounds[i].0 as f64, bounds[i].1 as f64);
        let mut improved = false;
        for delta in [step, -step] {
            let candidate = (original + delta).clamp(lo, hi);
            if candidate == original {
                continue;
            }
            w[i] = candidate;
            let loss = loss_of(w);
            if loss < best {
                best = loss;
                improved = true;
                break;
            }
        }
        if improved {
            changed += 1;
        } else {
            w[i] = original;
        }
    }
    (best, changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_minimises_a_quadratic_within_bounds() {
        // f(w) = (w0 - 3)^2 + (w1 + 2)^2, w1 bounded below by -1, w2 frozen.
        let mut w = vec![0.0, 0.0, 5.0];
        let bounds = [(-10, 10), (-1, 10), (-10, 10)];
        let mut adam = Adam::new(3, 0.1);
        for _ in 0..2000 {
            let grad = [2.0 * (w[0] - 3.0), 2.0 * (w[1] + 2.0), 1.0];
            adam.update(&mut w, &grad, &[0, 1], &bounds);
        }
        assert!((w[0] - 3.0).abs() < 1e-3, "{w:?}");
        assert_eq!(w[1], -1.0);
        assert_eq!(w[2], 5.0);
    }

    #[test]
    fn local_search_walks_downhill() {
        let mut w = vec![0.0, 0.0];
        let f = |w: &[f64]| (w[0] - 3.0).powi(2) + (w[1] + 2.0).powi(2);
        let mut best = f(&w);
        for _ in 0..10 {
            let (loss, _) = local_search_pass(&mut w, &[0, 1], &[(-9, 9), (-9, 9)], 1.0, f, best);
            best = loss;
        }
        assert_eq!(w, vec![3.0, -2.0]);
    }
}
