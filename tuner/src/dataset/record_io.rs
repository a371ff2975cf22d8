//! What a reader and a writer of any one format share: how to read, what reading found (with its
//! first problems), where positions go, and the writer trait with what it wrote. Below the
//! formats' readers and writers, which `stream.rs` dispatches to.

use std::fmt;

use anyhow::{bail, Result};
use whetstone::Position;

use super::file_format::FileFormat;
use super::pgn::{PgnOptions, PgnReport};
use super::reading::MAX_PROBLEMS;
use super::Label;

/// How to read.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The input's format, when its extension does not say (checked against the content).
    pub from: Option<FileFormat>,
    /// Skip broken lines, records and games (counted and listed) instead of stopping.
    pub skip_broken: bool,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// How PGN games (and OpenBench archives) become positions.
    pub pgn: PgnOptions,
}

/// What reading found.
#[derive(Clone, Debug, Default)]
pub struct ReadReport {
    pub format: Option<FileFormat>,
    /// Positions passed to the sink.
    pub positions: u64,
    /// Lines, records or games read, as `unit` says.
    pub units: u64,
    pub unit: &'static str,
    /// Broken lines, records or games skipped.
    pub skipped: u64,
    /// The first problems, each naming the file and where.
    pub problems: Vec<String>,
    /// For PGN and archives: what the game filters did.
    pub games: Option<PgnReport>,
    /// For archives: members read, and members skipped as broken.
    pub members: Option<(u64, u64)>,
}

impl ReadReport {
    pub(crate) fn new(format: FileFormat, unit: &'static str) -> ReadReport {
        ReadReport { format: Some(format), unit, ..ReadReport::default() }
    }

    /// Records a broken unit: an error unless `skip` (then counted and listed).
    pub(crate) fn broken(&mut self, skip: bool, problem: String) -> Result<()> {
        if !skip {
            bail!(
                "{problem}; {} positions read before it (--skip-broken skips it and reads on)",
                self.positions
            );
        }
        self.skipped += 1;
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(problem);
        }
        Ok(())
    }
}

impl fmt::Display for ReadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let format = self.format.map(|f| f.to_string()).unwrap_or_default();
        write!(f, "{format}: {} positions from {} {}", self.positions, self.units, self.unit)?;
        if let Some((members, broken)) = self.members {
            write!(f, " in {members} archive members ({broken} broken skipped)")?;
        }
        if self.skipped > 0 {
            write!(f, "; {} broken skipped", self.skipped)?;
        }
        for problem in &self.problems {
            write!(f, "\n  {problem}")?;
        }
        if self.skipped > self.problems.len() as u64 {
            write!(f, "\n  ... and {} more", self.skipped - self.problems.len() as u64)?;
        }
        if let Some(games) = &self.games {
            write!(f, "\n{games}")?;
        }
        Ok(())
    }
}

/// Where positions go: called once per position, in file order.
pub type Sink<'a> = dyn FnMut(&Position, Label) -> Result<()> + 'a;

/// What a writer wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteReport {
    pub positions: u64,
    /// Positions without a search score, written with score 0 (formats that need one).
    pub zero_scores: u64,
    /// Positions that could not be written (viriformat: no legal move to chain them by).
    pub dropped: u64,
    /// Viriformat: games (chains of positions) written.
    pub games: u64,
}

impl fmt::Display for WriteReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} positions written", self.positions)?;
        if self.games > 0 {
            write!(f, " in {} game chains", self.games)?;
        }
        if self.zero_scores > 0 {
            write!(f, "; {} without a search score written with score 0", self.zero_scores)?;
        }
        if self.dropped > 0 {
            write!(
                f,
                "; {} dropped (no legal move: the format stores a move from every position)",
                self.dropped
            )?;
        }
        Ok(())
    }
}

/// A position writer of one format.
pub trait PositionWriter {
    fn write(&mut self, pos: &Position, label: Label) -> Result<()>;
    /// Flushes and closes; what was written.
    fn finish(self: Box<Self>) -> Result<WriteReport>;
}
