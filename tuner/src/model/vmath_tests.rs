//! Tests of `model/vmath.rs`.

use super::*;

/// Distance in units in the last place.
fn ulps(a: f64, b: f64) -> u64 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
}

/// Deterministic spread of arguments over a range.
fn samples(lo: f64, hi: f64, n: usize) -> impl Iterator<Item = f64> {
    let mut state = 0x1234_5678_9abc_def1u64;
    (0..n).map(move |_| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        lo + (hi - lo) * ((state >> 11) as f64 / (1u64 << 53) as f64)
    })
}

#[test]
fn exp_is_within_two_ulps_of_the_standard_library() {
    let mut worst = 0;
    for x in samples(-700.0, 700.0, 200_000).chain(samples(-1.0, 1.0, 200_000)).chain([0.0, 1.0, -1.0]) {
        worst = worst.max(ulps(exp(x), x.exp()));
    }
    assert!(worst <= 2, "worst {worst} ulps");
    assert_eq!(exp(0.0), 1.0);
}

/// The polynomial schemes against Horner's rule, with coefficients of one size so that a
/// misplaced term would show.
#[test]
fn estrin_equals_horner() {
    let c14: [f64; 14] = std::array::from_fn(|i| 1.0 + i as f64 * 0.37);
    let c11: [f64; 11] = std::array::from_fn(|i| 2.0 - i as f64 * 0.29);
    for x in [-0.9, -0.3, 0.0, 0.25, 0.7, 1.3] {
        let horner = |c: &[f64]| c.iter().fold(0.0, |acc, &ci| acc * x + ci);
        assert!((estrin_14(&c14, x) - horner(&c14)).abs() <= 1e-13 * horner(&c14).abs().max(1.0));
        assert!((estrin_11(&c11, x) - horner(&c11)).abs() <= 1e-13 * horner(&c11).abs().max(1.0));
    }
}

#[test]
fn exp_clamps_outside_the_normal_range() {
    assert!(exp(-1e6) > 0.0 && exp(-1e6) < 1e-307);
    assert!(exp(1e6).is_finite() && exp(1e6) > 1e307);
    assert_eq!(1.0 / (1.0 + exp(-800.0)), 1.0);
}

#[test]
fn ln_is_within_two_ulps_of_the_standard_library() {
    let mut worst = 0;
    let tiny = samples(1e-300, 1e-290, 10_000);
    let around_one = samples(0.5, 2.0, 200_000);
    for x in samples(1e-6, 1e6, 200_000).chain(around_one).chain(tiny).chain([f64::MIN_POSITIVE, 1.0, 2.0]) {
        worst = worst.max(ulps(ln(x), x.ln()));
    }
    assert!(worst <= 2, "worst {worst} ulps");
    assert_eq!(ln(1.0), 0.0);
}
