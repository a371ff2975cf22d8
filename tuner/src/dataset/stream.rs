//! Positions streamed from and to files of any format: [`read`] calls a sink with every position
//! and its label in file order, holding one record (or one game) at a time; [`create`] opens a
//! writer. Memory does not grow with the file, so every tool built on these (convert, filter,
//! dedupe, merge, stats) handles files larger than memory.
//!
//! Broken input: a text line, a binary record or a game that does not read is an error naming the
//! file, where (line, or byte offset and record number) and how many positions were read before
//! it; with `skip_broken` it is counted, listed among the first problems, and reading goes on.

use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::{bail, Context, Result};

use super::binary::{binpack, bullet, viri};
use super::files::{self, FileFormat};
use super::formats::{parse_labelled_line, Format};
pub use super::record_io::{PositionWriter, ReadOptions, ReadReport, Sink, WriteReport};
use super::{openbench, text_out};

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
    let (reader, bar) = super::reading::open_text(path, options.progress)?;
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
            super::reading::check_text(&line, &name)?;
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
