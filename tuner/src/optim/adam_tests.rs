//! Tests of `optim/adam.rs`.

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
