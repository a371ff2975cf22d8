//! Tests of `optim/lbfgs.rs`.

use super::*;

#[test]
fn rosenbrock_minimum_is_found() {
    let f = |x: &[f64]| {
        let (a, b) = (x[0], x[1]);
        let value = (1.0 - a).powi(2) + 100.0 * (b - a * a).powi(2);
        let grad = vec![-2.0 * (1.0 - a) - 400.0 * a * (b - a * a), 200.0 * (b - a * a)];
        (value, grad)
    };
    let m = minimise(f, &[-1.2, 1.0], &[-5.0, -5.0], &[5.0, 5.0], 200);
    assert!((m.x[0] - 1.0).abs() < 1e-3 && (m.x[1] - 1.0).abs() < 1e-3, "{m:?}");
}

#[test]
fn a_bound_holds_the_minimum_of_a_quadratic_outside_the_box() {
    let f = |x: &[f64]| {
        ((x[0] - 3.0).powi(2) + (x[1] + 1.0).powi(2), vec![2.0 * (x[0] - 3.0), 2.0 * (x[1] + 1.0)])
    };
    let m = minimise(f, &[0.0, 0.0], &[-1.0, -1.0], &[1.0, 1.0], 100);
    assert!((m.x[0] - 1.0).abs() < 1e-9 && (m.x[1] + 1.0).abs() < 1e-6, "{m:?}");
}
