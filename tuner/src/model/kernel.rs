//! The two per-entry loops of the objective, the hot spots of an epoch: the sum of a position's
//! slot quads, and the scatter of the position's gradient back into them. A quad holds four
//! f64 (mg, eg, units against White, units against Black), already multiplied by the slot's
//! count (see `store`), so each entry is one load and one addition.
//!
//! Baseline x86-64 (SSE2) needs two vector operations per quad; AVX2 needs one. One binary
//! serves every machine: `Kernel::detect` picks AVX2 at run time where the CPU has it. Both
//! kernels perform the same operations in the same order, so their results are identical to the
//! last bit. (An AVX-512 build of the batch math was no faster than AVX2 with batches of 8.)
//!
//! The loops index the slot tables without bounds checks: `TraceStore` guarantees that every
//! entry is below its slot count, and the objective's tables have one quad per slot. Checked
//! indexing cost a compare and a branch per entry in the two hottest loops of the tuner.

/// Per slot: (mg, eg, units against White, units against Black), times the slot's count.
pub type Quad = [f64; 4];

/// A quad in a table, on a 32-byte boundary so that none straddles two cache lines (a Vec of
/// plain quads is only 16-byte aligned, which split every other quad: a split load or store
/// costs two, and the scatter's loads wait on its stores).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub struct Aligned(pub Quad);

/// The instruction set the objective is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Baseline x86-64 (SSE2) or any other architecture.
    Portable,
    /// AVX2: one 256-bit operation per entry, the batch math four positions per instruction.
    Avx2,
}

impl Kernel {
    /// The fastest kernel this CPU runs.
    pub fn detect() -> Kernel {
        if Kernel::Avx2.available() {
            Kernel::Avx2
        } else {
            Kernel::Portable
        }
    }

    /// Whether this CPU has the kernel's instructions (the standard library caches the answer).
    pub fn available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => std::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Avx2 => false,
        }
    }

    /// This kernel if the CPU runs it, else the portable one.
    pub fn usable(self) -> Kernel {
        if self.available() {
            self
        } else {
            Kernel::Portable
        }
    }
}

/// Σ table[slot] over `entries`. Four accumulators (entry number mod 4) keep the additions
/// from waiting on each other.
///
/// # Safety
/// Every entry must be below `table.len()`. `AVX2` must only be true inside a function compiled
/// with AVX2 enabled, reached after `Kernel::Avx2.available()`.
#[inline(always)]
pub unsafe fn entry_sum<const AVX2: bool>(entries: &[u16], table: &[Aligned]) -> Quad {
    debug_assert!(entries.iter().all(|&e| (e as usize) < table.len()));
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: the caller's contract.
        return unsafe { avx2::entry_sum(entries, table) };
    }
    let mut acc = [[0.0f64; 4]; 4];
    let blocks = entries.chunks_exact(4);
    let tail = blocks.remainder();
    let add = |acc: &mut Quad, slot: u16| {
        // SAFETY: the caller's contract.
        let quad = unsafe { &table.get_unchecked(slot as usize).0 };
        for k in 0..4 {
            acc[k] += quad[k];
        }
    };
    for block in blocks {
        for lane in 0..4 {
            add(&mut acc[lane], block[lane]);
        }
    }
    for (lane, &slot) in tail.iter().enumerate() {
        add(&mut acc[lane], slot);
    }
    std::array::from_fn(|k| (acc[0][k] + acc[1][k]) + (acc[2][k] + acc[3][k]))
}

/// Adds g to table[slot] for each of `entries`, which must be distinct: the AVX2 form loads
/// four slots before it stores them (the loop then runs a quarter faster than one slot at a
/// time, whose every load waits on the store before it), and `TraceStore` never names a slot
/// twice in one position.
///
/// # Safety
/// The same contract as [`entry_sum`].
#[inline(always)]
pub unsafe fn scatter<const AVX2: bool>(entries: &[u16], g: Quad, table: &mut [Aligned]) {
    debug_assert!(entries.iter().all(|&e| (e as usize) < table.len()));
    debug_assert!(entries.iter().enumerate().all(|(i, e)| !entries[i + 1..].contains(e)), "a slot twice");
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: the caller's contract.
        return unsafe { avx2::scatter(entries, g, table) };
    }
    for &slot in entries {
        // SAFETY: the caller's contract.
        let quad = unsafe { &mut table.get_unchecked_mut(slot as usize).0 };
        for k in 0..4 {
            quad[k] += g[k];
        }
    }
}

/// The same loops with AVX2 intrinsics: the compiler keeps a quad in two SSE registers even
/// where AVX2 is enabled, so the one-register form is written out.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Aligned, Quad};
    use std::arch::x86_64::*;

    /// # Safety
    /// The CPU must have AVX2 and every entry must be below `table.len()`.
    #[inline(always)]
    pub unsafe fn entry_sum(entries: &[u16], table: &[Aligned]) -> Quad {
        let base = table.as_ptr();
        // SAFETY: the slot is within the table, so the load reads one quad's four f64.
        let quad = |slot: u16| unsafe { _mm256_loadu_pd(base.add(slot as usize).cast()) };
        let mut acc = [_mm256_setzero_pd(); 4];
        let blocks = entries.chunks_exact(4);
        let tail = blocks.remainder();
        for block in blocks {
            for lane in 0..4 {
                acc[lane] = _mm256_add_pd(acc[lane], quad(block[lane]));
            }
        }
        for (lane, &slot) in tail.iter().enumerate() {
            acc[lane] = _mm256_add_pd(acc[lane], quad(slot));
        }
        let mut sum = [0.0; 4];
        let total = _mm256_add_pd(_mm256_add_pd(acc[0], acc[1]), _mm256_add_pd(acc[2], acc[3]));
        // `sum` is four writable f64.
        unsafe { _mm256_storeu_pd(sum.as_mut_ptr(), total) };
        sum
    }

    /// # Safety
    /// The CPU must have AVX2 and every entry must be below `table.len()`.
    #[inline(always)]
    pub unsafe fn scatter(entries: &[u16], g: Quad, table: &mut [Aligned]) {
        // `g` is four readable f64.
        let g = unsafe { _mm256_loadu_pd(g.as_ptr()) };
        let base = table.as_mut_ptr();
        let blocks = entries.chunks_exact(4);
        let tail = blocks.remainder();
        for block in blocks {
            // SAFETY: each slot is within the table, which is borrowed mutably here, so each
            // pointer addresses one quad's four f64; the four slots are distinct, so loading all
            // four before storing any reads the values as updated so far.
            unsafe {
                let quad: [*mut f64; 4] = std::array::from_fn(|k| base.add(block[k] as usize).cast());
                let sum: [__m256d; 4] = std::array::from_fn(|k| _mm256_add_pd(_mm256_loadu_pd(quad[k]), g));
                for k in 0..4 {
                    _mm256_storeu_pd(quad[k], sum[k]);
                }
            }
        }
        for &slot in tail {
            // SAFETY: as above, one slot at a time.
            unsafe {
                let quad = base.add(slot as usize).cast::<f64>();
                _mm256_storeu_pd(quad, _mm256_add_pd(_mm256_loadu_pd(quad), g));
            }
        }
    }
}
