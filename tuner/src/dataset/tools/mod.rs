//! The dataset tools, every one streamed: memory is bounded by a fixed buffer or by `--memory`,
//! not by the size of the input.
//!
//! - [`filter`]: positions kept by rules (in check, not quiet, |score|, phase, pieces, ply);
//! - [`dedupe`]: the first of each position kept, in file order (an external hash partition);
//! - [`shuffle`]: a seeded shuffle of a file larger than memory (an external bucket shuffle);
//! - [`sample`]: a seeded share or count of the positions, in file order;
//! - [`bucket`]: the temporary files the external tools spill to.

pub mod bucket;
pub mod dedupe;
pub mod filter;
pub mod sample;
pub mod shuffle;

/// Memory the external tools may use by default (MiB).
pub const DEFAULT_MEMORY_MB: usize = 1024;
