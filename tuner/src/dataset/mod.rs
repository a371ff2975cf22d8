//! Labelled positions for Texel tuning: loading, statistics, conversion and splitting.
//!
//! - [`load`] reads a labelled-position file in parallel and maps every position to a compact value at
//!   once (the tuner core keeps traces, never millions of `Position`s).
//! - [`parse_line`] is the per-line parser; the accepted formats are listed in [`formats`].
//! - `tune dataset stats|convert|split` (in `cmd/dataset.rs`) use these; `convert` also turns PGN
//!   games into labelled positions ([`pgn`]).
//!
//! Layout: `formats.rs` (line formats in and out), `load.rs` (parallel loading), `pgn.rs` (games to
//! positions), `holdout.rs` (the one rule for which positions validate), `split.rs` (a file split
//! by it into train and validation files), `stats.rs` (counts by result and phase). Files of every
//! format (docs/datasets.md): `files.rs` (which format a file is in, checked against its
//! content, over `file_format.rs`, the formats by name), `stream.rs` (positions read from and
//! written to any format, one at a time), over the formats' readers and writers — `text_out.rs`
//! (text), `binary/` (viriformat, bulletformat, binpack), `openbench.rs` (PGN files and OpenBench
//! archives) — which share `record_io.rs` (read options and report, the sink, the writer trait)
//! and `reading.rs` (the problem cap, progress bars, opening text and gzip); `tools/` (filter,
//! dedupe, shuffle, sample, merge). Tests
//! sit in each file or beside it (`*_tests.rs`); fixtures are in `tuner/testdata/`.

pub mod binary;
pub mod file_format;
pub mod files;
pub mod formats;
pub mod holdout;
pub(crate) mod load;
pub mod openbench;
pub mod pgn;
pub mod reading;
pub mod record_io;
pub mod split;
pub mod stats;
pub mod stream;
pub mod text_out;
pub mod tools;

use std::fmt;
use std::path::Path;

use whetstone::Position;

// Part of the API for the tuner core even where the binary does not call it.
#[allow(unused_imports)]
pub use formats::parse_line;

/// Checked before anything is loaded or a run folder made: every file named by `flag` exists.
pub fn check_files(flag: &str, paths: &[std::path::PathBuf]) -> anyhow::Result<()> {
    for path in paths {
        if !path.is_file() {
            anyhow::bail!("{flag} {}: no such file", path.display());
        }
    }
    Ok(())
}

/// A game result from White's point of view: 1.0 win, 0.5 draw, 0.0 loss.
pub type Outcome = f32;

/// What a labelled position says: the game's result and, where the games recorded it, the score
/// of the search that played the move from this position (centipawns, White's view; EPD writes
/// it as the side to move's `ce`). `tune texel --score-weight` blends the two.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Label {
    pub outcome: Outcome,
    pub score: Option<i32>,
}

/// How [`load`] treats broken lines and whether it shows progress.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Abort on the first broken line (its `file:line: message` is the error) instead of skipping it.
    pub strict: bool,
    /// Show a progress bar on stderr (hidden anyway when stderr is not a terminal).
    pub progress: bool,
}

/// What loading found: counts, and the first problems (`file:line: message`), for the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadSummary {
    /// Lines in the file, blank and comment lines included.
    pub lines: usize,
    /// Positions loaded (the length of the returned vector).
    pub loaded: usize,
    /// Broken lines skipped.
    pub skipped: usize,
    /// The first broken lines (at most [`load::MAX_PROBLEMS`]), as `file:line: what is wrong`.
    pub problems: Vec<String>,
    /// Loaded positions by result: losses, draws, wins (White's view).
    pub by_result: [usize; 3],
    /// What `lines` counts in a file that is not text ("records", "games", ...); empty for lines.
    pub unit: &'static str,
}

impl LoadSummary {
    /// What `lines` counts: lines of text, or the records or games of another format.
    pub fn unit(&self) -> &'static str {
        if self.unit.is_empty() {
            "lines"
        } else {
            self.unit
        }
    }
}

impl fmt::Display for LoadSummary {
    /// `1000 positions (1-0 310, 1/2 554, 0-1 136) from 1002 lines; 2 broken lines skipped`, then one
    /// line per listed problem.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [losses, draws, wins] = self.by_result;
        write!(
            f,
            "{} positions (1-0 {wins}, 1/2 {draws}, 0-1 {losses}) from {} {}; {} broken line{} skipped",
            self.loaded,
            self.lines,
            self.unit(),
            self.skipped,
            if self.skipped == 1 { "" } else { "s" }
        )?;
        for problem in &self.problems {
            write!(f, "\n  {problem}")?;
        }
        if self.skipped > self.problems.len() {
            write!(f, "\n  ... and {} more", self.skipped - self.problems.len())?;
        }
        Ok(())
    }
}

/// Parses a labelled-position file in parallel (rayon), calling `map` on every good position, and returns
/// the mapped values in file order.
///
/// Formats are detected per line (see [`formats`]). A broken line is reported as
/// `<file>:<line>: <what is wrong>`, skipped and counted; with `strict` the first one aborts with that
/// message. A file that is not a dataset at all (compressed or binary, or none of its first 100
/// non-blank, non-comment lines parse, or no position in it) is rejected at once with a clear error.
/// Shows an indicatif progress bar when `progress` is set.
pub fn load<T: Send>(
    path: &Path,
    options: &LoadOptions,
    map: impl Fn(&Position, Outcome) -> T + Sync,
) -> anyhow::Result<(Vec<T>, LoadSummary)> {
    load::load(path, options, |pos, label: Label| map(pos, label.outcome))
}

/// As [`load`], with each position's whole [`Label`] (its search score too, where the file has one).
pub fn load_labelled<T: Send>(
    path: &Path,
    options: &LoadOptions,
    map: impl Fn(&Position, Label) -> T + Sync,
) -> anyhow::Result<(Vec<T>, LoadSummary)> {
    load::load(path, options, map)
}
