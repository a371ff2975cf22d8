//! What a labelled position carries (its [`Label`]) and what loading a file of them found
//! ([`LoadSummary`]), with the options of loading: the vocabulary every reader and writer of
//! `dataset/` shares, so it sits below them all.

use std::fmt;

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

/// How [`load`](super::load::load) treats broken lines and whether it shows progress.
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
    /// The first broken lines (at most [`MAX_PROBLEMS`](super::reading::MAX_PROBLEMS)), as `file:line: what is wrong`.
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
