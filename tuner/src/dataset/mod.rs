//! Labelled positions for Texel tuning: loading, statistics, conversion and splitting.
//!
//! - [`load`](load::load) reads a labelled-position file in parallel and maps every position to a
//!   compact value at once (the tuner core keeps traces, never millions of `Position`s).
//! - [`formats::parse_line`] is the per-line parser; the accepted formats are listed in [`formats`].
//! - `tune dataset stats|convert|split` (in `cmd/dataset.rs`) use these; `convert` also turns PGN
//!   games into labelled positions ([`pgn`]).
//!
//! Layout: `label.rs` (what a position carries and what loading found: the vocabulary below every
//! other file), `formats.rs` (line formats in and out), `load.rs` (parallel loading), `pgn.rs`
//! (games to positions), `holdout.rs` (the one rule for which positions validate), `split.rs` (a
//! file split by it into train and validation files), `stats.rs` (counts by result and phase).
//! Files of every format (docs/datasets.md): `files.rs` (which format a file is in, checked
//! against its content, over `file_format.rs`, the formats by name), `stream.rs` (positions read
//! from and written to any format, one at a time), over the formats' readers and writers —
//! `text_out.rs` (text), `binary/` (viriformat, bulletformat, binpack), `openbench.rs` (PGN files
//! and OpenBench archives) — which share `record_io.rs` (read options and report, the sink, the
//! writer trait) and `reading.rs` (files checked to exist, the problem cap, progress bars,
//! opening text and gzip); `tools/` (filter, dedupe, shuffle, sample, merge). This file only
//! declares them and names the vocabulary. Tests sit beside each file (`*_tests.rs`); fixtures
//! are in `tuner/testdata/`.

pub mod binary;
pub mod file_format;
pub mod files;
pub mod formats;
pub mod holdout;
pub mod label;
pub mod load;
pub mod openbench;
pub mod pgn;
pub mod reading;
pub mod record_io;
pub mod split;
pub mod stats;
pub mod stream;
pub mod text_out;
pub mod tools;

pub use label::{Label, LoadOptions, LoadSummary, Outcome};
