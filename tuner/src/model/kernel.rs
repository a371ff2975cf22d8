//! The two per-entry loops of the objective, the hot spots of an epoch: the sum of count ·
//! quad over a position's entries, and the scatter of the position's gradient back into the
//! entries' quads. Each quad (mg, eg, units against White, units against Black) is four f64.
//!
//! Baseline x86-64 (SSE2) needs two vector operations per quad; AVX2 needs one, which took a
//! one-thread epoch on the bench file from 117-119 ms to 99-101 ms. One binary serves every
//! machine: `Kernel::detect` picks AVX2 at run time where the CPU has it. Both kernels perform
//! the same additions in the same order (no fused multiply-add), so their results are
//! identical to the last bit.

use super::store::{COUNT_BITS, INDEX_BITS};

/// Per entry index: (mg, eg, units against White, units against Black).
pub type Quad = [f64; 4];

/// Length of the quad tables: every value of the index field, so the loops need no bounds
/// check (an entry's index is its top INDEX_BITS bits).
pub const TABLE_LEN: usize = 1 << INDEX_BITS;

/// A quad per entry index.
pub type QuadTable = [Quad; TABLE_LEN];

/// Every count field as an f64, indexed by the field's bits: one load instead of a sign
/// extension and a conversion.
static COUNT_F64: [f64; 1 << COUNT_BITS] = {
    let mut table = [0.0; 1 << COUNT_BITS];
    let mut b = 0;
    while b < table.len() {
        table[b] = ((b as u16) << (16 - COUNT_BITS)) as i16 as f64 / (1 << (16 - COUNT_BITS)) as f64;
        b += 1;
    }
    table
};
const COUNT_FIELD: usize = (1 << COUNT_BITS) - 1;

/// An entry's count (as f64) and its index in the quad table.
#[inline(always)]
fn decode(entry: u16) -> (f64, usize) {
    (COUNT_F64[entry as usize & COUNT_FIELD], (entry >> COUNT_BITS) as usize)
}

/// The instruction set the per-entry loops use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Portable,
    Avx2,
}

impl Kernel {
    /// The fastest kernel this CPU runs.
    pub fn detect() -> Kernel {
        if avx2_available() {
            Kernel::Avx2
        } else {
            Kernel::Portable
        }
    }
}

/// Whether this CPU has AVX2 (the standard library caches the answer).
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Σ count · table[index] over `entries`. Four accumulators (entry number mod 4) keep the
/// additions from waiting on each other. `AVX2` must only be true inside a function compiled
/// with AVX2 enabled, reached after `avx2_available()`.
#[inline(always)]
pub fn entry_sum<const AVX2: bool>(entries: &[u16], table: &QuadTable) -> Quad {
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: by this function's contract the CPU has AVX2.
        return unsafe { avx2::entry_sum(entries, table) };
    }
    let mut acc = [[0.0f64; 4]; 4];
    let blocks = entries.chunks_exact(4);
    let tail = blocks.remainder();
    let add = |acc: &mut Quad, (count, index): (f64, usize)| {
        for k in 0..4 {
            acc[k] += count * table[index][k];
        }
    };
    for block in blocks {
        for lane in 0..4 {
            add(&mut acc[lane], decode(block[lane]));
        }
    }
    for (lane, &entry) in tail.iter().enumerate() {
        add(&mut acc[lane], decode(entry));
    }
    std::array::from_fn(|k| (acc[0][k] + acc[1][k]) + (acc[2][k] + acc[3][k]))
}

/// Adds count · g to table[index] for each of `entries`. The same contract on `AVX2` as
/// [`entry_sum`].
#[inline(always)]
pub fn scatter<const AVX2: bool>(entries: &[u16], g: Quad, table: &mut QuadTable) {
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: by this function's contract the CPU has AVX2.
        return unsafe { avx2::scatter(entries, g, table) };
    }
    for &entry in entries {
        let (count, index) = decode(entry);
        for k in 0..4 {
            table[index][k] += count * g[k];
        }
    }
}

/// The same loops with AVX2 intrinsics: the compiler keeps a quad in two SSE registers even
/// where AVX2 is enabled, so the one-register form is written out.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{decode, Quad, QuadTable};
    use std::arch::x86_64::*;

    /// # Safety
    /// The CPU must have AVX2.
    #[inline(always)]
    pub unsafe fn entry_sum(entries: &[u16], table: &QuadTable) -> Quad {
        // A quad reference points at four readable f64, which is what the load reads.
        let term = |entry: u16| {
            let (count, index) = decode(entry);
            _mm256_mul_pd(_mm256_set1_pd(count), unsafe { _mm256_loadu_pd(table[index].as_ptr()) })
        };
        let mut acc = [_mm256_setzero_pd(); 4];
        let blocks = entries.chunks_exact(4);
        let tail = blocks.remainder();
        for block in blocks {
            for lane in 0..4 {
                acc[lane] = _mm256_add_pd(acc[lane], term(block[lane]));
            }
        }
        for (lane, &entry) in tail.iter().enumerate() {
            acc[lane] = _mm256_add_pd(acc[lane], term(entry));
        }
        let mut sum = [0.0; 4];
        let total = _mm256_add_pd(_mm256_add_pd(acc[0], acc[1]), _mm256_add_pd(acc[2], acc[3]));
        // `sum` is four writable f64.
        unsafe { _mm256_storeu_pd(sum.as_mut_ptr(), total) };
        sum
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[inline(always)]
    pub unsafe fn scatter(entries: &[u16], g: Quad, table: &mut QuadTable) {
        // `g` is four readable f64.
        let g = unsafe { _mm256_loadu_pd(g.as_ptr()) };
        for &entry in entries {
            let (count, index) = decode(entry);
            let slot = table[index].as_mut_ptr();
            // `slot` points at the four f64 of one quad of `table`, borrowed mutably here.
            unsafe {
                _mm256_storeu_pd(
                    slot,
                    _mm256_add_pd(_mm256_loadu_pd(slot), _mm256_mul_pd(_mm256_set1_pd(count), g)),
                )
            };
        }
    }
}
