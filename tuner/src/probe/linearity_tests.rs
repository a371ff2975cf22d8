//! Tests of `probe/linearity.rs`.

use super::*;

#[test]
fn second_differences_tell_curves_from_rounding() {
    let mut linear = Differences::default();
    let mut curved = Differences::default();
    for p in 0..100 {
        // Rounding moves a linear weight's second difference by a centipawn or two.
        linear.add(0.5, Some((p % 3) as f64 - 1.0), 2.5);
        // A square's: 2 d^2 = 8 at d = 2.
        curved.add(1.0 + p as f64 / 10.0, Some(8.0), 2.5);
    }
    assert_eq!(classify(&linear, 0.05), Linearity::Linear);
    assert_eq!(classify(&curved, 0.05), Linearity::NonLinear);
    assert_eq!(classify(&Differences::default(), 0.05), Linearity::NoEffect);
    // A kink in a few positions (a clamp at zero) is not a curve.
    let mut kinked = linear;
    kinked.add(1.0, Some(12.0), 2.5);
    assert_eq!(classify(&kinked, 0.05), Linearity::Linear);
}
