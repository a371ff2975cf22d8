//! Limited-memory BFGS (Nocedal and Wright, "Numerical Optimization", 2nd ed., algorithm 7.4 and
//! 7.5) with a backtracking Armijo line search, inside a box: the Gaussian process fits its
//! hyperparameters with it (`gp.rs`). A step that leaves the box is projected back and the
//! curvature memory is dropped, which keeps every iterate feasible at the price of a few more
//! steps near a bound; the hyperparameters' bounds are loose, so that is rare.

/// The result of a minimisation.
#[derive(Clone, Debug, PartialEq)]
pub struct Minimum {
    pub x: Vec<f64>,
    pub value: f64,
    /// Iterations taken (line searches).
    pub iterations: usize,
}

/// Pairs of steps and gradient changes kept for the inverse-Hessian approximation.
const MEMORY: usize = 8;
/// Armijo's sufficient-decrease constant.
const ARMIJO: f64 = 1e-4;

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Minimises `f` (returning the value and the gradient) from `x0` within `[lower, upper]`, for at
/// most `max_iterations` line searches; stops when the projected gradient or the improvement is
/// negligible. A non-finite value counts as worse than any finite one, so the line search backs
/// off from regions where `f` cannot be evaluated.
pub fn minimise(
    mut f: impl FnMut(&[f64]) -> (f64, Vec<f64>),
    x0: &[f64],
    lower: &[f64],
    upper: &[f64],
    max_iterations: usize,
) -> Minimum {
    let project = |x: &mut [f64]| {
        for ((v, lo), hi) in x.iter_mut().zip(lower).zip(upper) {
            *v = v.clamp(*lo, *hi);
        }
    };
    let mut x = x0.to_vec();
    project(&mut x);
    let (mut value, mut grad) = f(&x);
    if !value.is_finite() {
        return Minimum { x, value, iterations: 0 };
    }
    let mut memory: Vec<(Vec<f64>, Vec<f64>, f64)> = Vec::new();
    let mut iterations = 0;
    while iterations < max_iterations {
        iterations += 1;
        // Two-loop recursion: direction = -H grad.
        let mut q = grad.clone();
        let mut alphas = Vec::with_capacity(memory.len());
        for (s, y, rho) in memory.iter().rev() {
            let a = rho * dot(s, &q);
            q.iter_mut().zip(y).for_each(|(qi, yi)| *qi -= a * yi);
            alphas.push(a);
        }
        let gamma = memory.last().map_or(1.0, |(s, y, _)| dot(s, y) / dot(y, y).max(1e-300));
        q.iter_mut().for_each(|v| *v *= gamma);
        for ((s, y, rho), a) in memory.iter().zip(alphas.iter().rev()) {
            let b = rho * dot(y, &q);
            q.iter_mut().zip(s).for_each(|(qi, si)| *qi += (a - b) * si);
        }
        let mut direction: Vec<f64> = q.iter().map(|v| -v).collect();
        if dot(&direction, &grad) >= 0.0 {
            // Not a descent direction (stale memory): fall back to steepest descent.
            memory.clear();
            direction = grad.iter().map(|g| -g).collect();
        }
        // The first step of steepest descent is scaled to move by at most one unit.
        let mut step =
            if memory.is_empty() { 1.0 / direction.iter().map(|d| d.abs()).fold(1.0, f64::max) } else { 1.0 };
        let slope = dot(&direction, &grad);
        let mut accepted = None;
        for _ in 0..40 {
            let mut trial: Vec<f64> = x.iter().zip(&direction).map(|(xi, di)| xi + step * di).collect();
            project(&mut trial);
            let (v, g) = f(&trial);
            if v.is_finite() && v <= value + ARMIJO * step * slope.min(0.0) {
                accepted = Some((trial, v, g));
                break;
            }
            step *= 0.5;
        }
        let Some((next, next_value, next_grad)) = accepted else { break };
        let s: Vec<f64> = next.iter().zip(&x).map(|(a, b)| a - b).collect();
        let y: Vec<f64> = next_grad.iter().zip(&grad).map(|(a, b)| a - b).collect();
        let improvement = value - next_value;
        let sy = dot(&s, &y);
        let clipped = next.iter().zip(&direction).zip(&x).any(|((n, d), o)| (n - (o + step * d)).abs() > 0.0);
        if clipped {
            memory.clear();
        } else if sy > 1e-12 * dot(&y, &y).sqrt() * dot(&s, &s).sqrt() {
            memory.push((s, y, 1.0 / sy));
            if memory.len() > MEMORY {
                memory.remove(0);
            }
        }
        (x, value, grad) = (next, next_value, next_grad);
        // Converged: the projected gradient vanishes, or the value stopped moving.
        let projected = x
            .iter()
            .zip(&grad)
            .zip(lower.iter().zip(upper))
            .map(|((xi, gi), (lo, hi))| (xi - gi).clamp(*lo, *hi) - xi)
            .fold(0.0f64, |m, v| m.max(v.abs()));
        if projected < 1e-6 || improvement.abs() < 1e-10 * value.abs().max(1.0) {
            break;
        }
    }
    Minimum { x, value, iterations }
}

#[cfg(test)]
#[path = "lbfgs_tests.rs"]
mod tests;
