//! e^x and ln x for the objective's batch math, written without branches or library calls so
//! that a loop over a batch's lanes compiles to vector code (the standard library's `exp` and
//! `ln` are calls into libm, one position at a time, and were a quarter of an epoch).
//!
//! Both stay within two units in the last place of the standard library's results (tests
//! check them over wide ranges), so the loss is the double-precision loss.
//! The classic reductions: x = k·ln 2 + r with |r| ≤ ln 2 / 2 for e^x, and x = 2^e·m with
//! √½ ≤ m < √2 for ln x, each followed by a polynomial.

/// ln 2 split so that k · LN2_HI is exact for every k the reductions produce (Cody and Waite).
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
/// 1.5 · 2^52: adding it rounds a double of magnitude below 2^51 to an integer, which then sits
/// in the low bits of the sum's representation.
const ROUNDER: f64 = 6_755_399_441_055_744.0;
/// The exponent field of 1.0.
const ONE_EXPONENT: u64 = 1023 << 52;

/// Taylor coefficients of e^r, 1/13! down to 1/0!: the first omitted term, r^14/14!, is below
/// 5e-18 for |r| ≤ ln 2 / 2.
const EXP_POLY: [f64; 14] = {
    let mut c = [1.0; 14];
    let mut i = 1;
    while i < 14 {
        // c[13 - i] = 1 / i!
        c[13 - i] = c[14 - i] / i as f64;
        i += 1;
    }
    c
};

/// The sign of an end-game score as the engine takes it for its complexity: 0 at 0, where
/// `f64::signum` would say 1 (`whetstone::eval::terms::complexity::adjustment`).
#[inline]
pub fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// e^x. Arguments are clamped to [-708, 709], where e^x is a normal double; below that the
/// result is about 3e-308 instead of smaller (no use of the objective tells the two apart).
#[inline(always)]
pub fn exp(x: f64) -> f64 {
    let x = if x < -708.0 { -708.0 } else { x };
    let x = if x > 709.0 { 709.0 } else { x };
    let shifted = x * std::f64::consts::LOG2_E + ROUNDER;
    let k = shifted - ROUNDER;
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let p = estrin_14(&EXP_POLY, r);
    // 2^k from k's bits in `shifted`: shifting them into the exponent field drops the rest.
    let scale = f64::from_bits((shifted.to_bits() << 52).wrapping_add(ONE_EXPONENT));
    p * scale
}

/// Coefficients of the series ln m = 2·atanh(s) = 2(s + s³/3 + s⁵/5 + …), s = (m-1)/(m+1), in
/// z = s², highest first: 2/23 … 2/3. |s| ≤ 0.172, so the first omitted term is below 1e-18.
const LN_POLY: [f64; 11] = {
    let mut c = [0.0; 11];
    let mut i = 0;
    while i < 11 {
        c[i] = 2.0 / (23 - 2 * i) as f64;
        i += 1;
    }
    c
};

/// ln x for a positive, normal x (the objective floors its arguments at the smallest normal).
#[inline(always)]
pub fn ln(x: f64) -> f64 {
    let bits = x.to_bits();
    // x = 2^e · m with 1 ≤ m < 2; the exponent field becomes a double exactly through the
    // 2^52 trick (no integer conversion, which has no vector form before AVX-512).
    let field = bits >> 52;
    let e = f64::from_bits(field | 0x4330_0000_0000_0000) - (4_503_599_627_370_496.0 + 1023.0);
    let m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | ONE_EXPONENT);
    // Centre m on 1: √½ ≤ m < √2.
    let high = m > std::f64::consts::SQRT_2;
    let m = if high { m * 0.5 } else { m };
    let e = if high { e + 1.0 } else { e };
    let f = m - 1.0;
    let s = f / (2.0 + f);
    let z = s * s;
    let p = estrin_11(&LN_POLY, z);
    // ln m = 2s + s·z·p: the leading term on its own, the small correction after it.
    let ln_m = s * 2.0 + s * (z * p);
    e * LN2_HI + (ln_m + e * LN2_LO)
}

/// c[0]·x^13 + … + c[13] by Estrin's scheme: pairs first, then pairs of pairs, so the chain
/// of dependent operations is four multiplications long instead of thirteen.
#[inline(always)]
fn estrin_14(c: &[f64; 14], x: f64) -> f64 {
    let x2 = x * x;
    let x4 = x2 * x2;
    let x8 = x4 * x4;
    // Pairs, lowest degree first: c[13] + c[12]·x, …
    let p = |hi: usize| c[hi] + c[hi - 1] * x;
    let (a, b, d, e, f, g, h) = (p(13), p(11), p(9), p(7), p(5), p(3), p(1));
    let low = (a + b * x2) + (d + e * x2) * x4;
    let high = (f + g * x2) + h * x4;
    low + high * x8
}

/// c[0]·x^10 + … + c[10] by Estrin's scheme (see `estrin_14`).
#[inline(always)]
fn estrin_11(c: &[f64; 11], x: f64) -> f64 {
    let x2 = x * x;
    let x4 = x2 * x2;
    let x8 = x4 * x4;
    let p = |hi: usize| c[hi] + c[hi - 1] * x;
    let (a, b, d, e, f) = (p(10), p(8), p(6), p(4), p(2));
    let low = (a + b * x2) + (d + e * x2) * x4;
    let high = f + c[0] * x2;
    low + high * x8
}

#[cfg(test)]
#[path = "vmath_tests.rs"]
mod tests;
