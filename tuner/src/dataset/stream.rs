//! Positions streamed from and to files of any format: [`read`] calls a sink with every position
//! and its label in file order, holding one record (or one game) at a time; [`create`] opens a
//! writer. Memory does not grow with the file, so every tool built on these (convert, filter,
//! dedupe, merge, stats) handles files larger than memory.
//!
//! Broken input: a text line, a binary record or a game that does not read is an error naming the
//! file, where (line, or byte offset and record number) and how many positions were read before
//! it; with `skip_broken` it is counted, listed among the first problems, and reading goes on.

use std::fmt;
use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::{bail, Context, Result};
use whetstone::Position;

use super::binary::{binpack, bullet, viri};
use super::files::{self, FileFormat};
use super::formats::{parse_labelled_line, Format};
use super::load::MAX_PROBLEMS;
use super::pgn::{PgnOptions, PgnReport};
use super::{openbench, text_out, Label};

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

/// Reads every position of `path` (in the format [`files::input_format`] settles on) into `sink`.
pub fn read(path: &Path, options: &ReadOptions, sink: &mut Sink) -> Result<ReadReport> {
    let format = files::input_format(path, options.from)?;
    read_as(path, format, options, sink)
}

/// As [`read`], in a format already settled.
pub fn read_as(
    path: &Path,
    format: FileFormat,
    options: &ReadOptions,
    sink: &mut Sink,
) -> Result<ReadReport> {
    match format {
        f if f.is_text() => read_text(path, options, sink),
        FileFormat::Viriformat => viri::read(path, options, sink),
        FileFormat::Bulletformat => bullet::read(path, options, sink),
        FileFormat::Binpack => binpack::read(path, options, sink),
        FileFormat::Pgn => openbench::read_pgn_file(path, options, sink),
        FileFormat::Archive => openbench::read_archive(path, options, sink),
        _ => unreachable!("every format is handled"),
    }
}

/// Text lines in any of the accepted line formats, one at a time.
fn read_text(path: &Path, options: &ReadOptions, sink: &mut Sink) -> Result<ReadReport> {
    let name = path.display().to_string();
    let (reader, bar) = super::load::open_text(path, options.progress)?;
    let mut reader = BufReader::with_capacity(1 << 20, reader);
    let mut report = ReadReport::new(FileFormat::Epd, "lines");
    let mut line = Vec::with_capacity(256);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).with_context(|| format!("reading {name}"))? == 0 {
            break;
        }
        report.units += 1;
        if report.units == 1 {
            super::load::check_text(&line, &name)?;
            if line.starts_with(b"\xef\xbb\xbf") {
                line.drain(..3);
            }
        }
        let parsed = std::str::from_utf8(&line)
            .map_err(|e| format!("not UTF-8 text (bad byte at column {})", e.valid_up_to() + 1))
            .and_then(parse_labelled_line);
        match parsed {
            Ok(None) => {}
            Ok(Some((pos, label))) => {
                report.positions += 1;
                sink(&pos, label)?;
            }
            Err(message) => {
                report.broken(options.skip_broken, format!("{name}:{}: {message}", report.units))?
            }
        }
    }
    bar.finish_and_clear();
    Ok(report)
}

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

/// Opens `path` for writing `format` (refused if it exists, unless `force`).
pub fn create(path: &Path, format: FileFormat, force: bool) -> Result<Box<dyn PositionWriter>> {
    files::check_overwrite(path, force)?;
    Ok(match format {
        FileFormat::Epd => Box::new(text_out::TextWriter::create(path, Format::Epd)?),
        FileFormat::Ethereal => Box::new(text_out::TextWriter::create(path, Format::Ethereal)?),
        FileFormat::Csv => Box::new(text_out::TextWriter::create(path, Format::Csv)?),
        FileFormat::Text => Box::new(text_out::TextWriter::create(path, Format::Text)?),
        FileFormat::Viriformat => Box::new(viri::Writer::create(path)?),
        FileFormat::Bulletformat => Box::new(bullet::Writer::create(path)?),
        other => bail!("{}: {other} is read only", path.display()),
    })
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
