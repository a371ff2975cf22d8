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
}
