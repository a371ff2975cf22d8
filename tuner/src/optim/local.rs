//! Texel's local search: one value at a time, ±step, keep what lowers the loss.

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
#[path = "local_tests.rs"]
mod tests;
