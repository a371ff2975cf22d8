//! A cache hint for tables the search reads at random: start loading a line now so that a read a
//! little later finds it in the cache instead of waiting for memory.

/// Starts loading the cache line that holds `value`.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let address: *const T = value;
        // SAFETY: a prefetch is only a hint: it never faults, reads nothing into the program
        // and changes no memory, whatever the address; the SSE instruction it needs is part
        // of every x86-64 CPU. Measured: see reports/tests.md, "Speed changes".
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address.cast::<i8>())
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
