//! Adam (Kingma and Ba 2015) over the flat value vector, with analytic gradients of the Texel
//! loss: only the selected slots change, each kept inside its bounds.

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

#[cfg(test)]
#[path = "adam_tests.rs"]
mod tests;
