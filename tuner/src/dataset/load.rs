//! Loading a labelled-position file: read in blocks, parse each block's lines in parallel, keep file
//! order, count and report broken lines, reject files that are not datasets at all. Gzip files
//! (`.epd.gz`, as large sets are shipped) are read through a decoder; other compressions are refused.

use std::path::Path;

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use whetstone::Position;

use super::file_format::FileFormat;
use super::files::{self, Content};
use super::formats::{parse_labelled_line, result_index};
use super::pgn::PgnOptions;
use super::reading::{check_text, open_text, read_full, MAX_PROBLEMS};
use super::stream::{self, ReadOptions};
use super::{Label, LoadOptions, LoadSummary, Outcome};

/// A file none of whose first this many position lines parse is not a dataset.
pub const SNIFF_LINES: usize = 100;
/// Bytes read and parsed per block.
const BLOCK_BYTES: usize = 4 << 20;

/// Parses a labelled-position file in parallel (rayon), calling `map` on every good position, and returns
/// the mapped values in file order.
///
/// Formats are detected per line (see [`super::formats`]). A broken line is reported as
/// `<file>:<line>: <what is wrong>`, skipped and counted; with `strict` the first one aborts with that
/// message. A file that is not a dataset at all (compressed or binary, or none of its first 100
/// non-blank, non-comment lines parse, or no position in it) is rejected at once with a clear error.
/// Shows an indicatif progress bar when `progress` is set.
pub fn load<T: Send>(
    path: &Path,
    options: &LoadOptions,
    map: impl Fn(&Position, Outcome) -> T + Sync,
) -> Result<(Vec<T>, LoadSummary)> {
    load_labelled(path, options, |pos, label: Label| map(pos, label.outcome))
}

/// As [`load`], with each position's whole [`Label`] (its search score too, where the file has
/// one). Text files (by their extension, or without one by their content) go through the parallel
/// line parser; every other format ([`super::files`]) is streamed in file order and mapped in
/// parallel a chunk at a time.
pub fn load_labelled<T: Send>(
    path: &Path,
    options: &LoadOptions,
    map: impl Fn(&Position, Label) -> T + Sync,
) -> Result<(Vec<T>, LoadSummary)> {
    let text = match FileFormat::from_extension(path) {
        Some(format) => format.is_text(),
        None => {
            !path.is_file() || matches!(files::content(&files::head(path)?), Content::Text | Content::Empty)
        }
    };
    if text {
        return load_blocks(path, options, map, BLOCK_BYTES);
    }
    let format = files::input_format(path, None)?;
    load_stream(path, format, options, map)
}

/// Positions mapped per parallel chunk when streaming a non-text file.
const STREAM_CHUNK: usize = 1 << 16;

/// A non-text file: positions streamed in file order (as FEN, so the chunk owns them), each chunk
/// mapped in parallel; the values keep file order.
fn load_stream<T: Send>(
    path: &Path,
    format: FileFormat,
    options: &LoadOptions,
    map: impl Fn(&Position, Label) -> T + Sync,
) -> Result<(Vec<T>, LoadSummary)> {
    let read = ReadOptions {
        from: Some(format),
        skip_broken: !options.strict,
        progress: options.progress,
        pgn: PgnOptions::default(),
    };
    let mut values = Vec::new();
    let mut summary = LoadSummary::default();
    let mut chunk: Vec<(String, Label)> = Vec::with_capacity(STREAM_CHUNK);
    let flush = |chunk: &mut Vec<(String, Label)>, values: &mut Vec<T>| -> Result<()> {
        let mapped: Vec<Result<T>> = chunk
            .par_iter()
            .map(|(fen, label)| {
                let pos = Position::from_fen(fen).map_err(|e| anyhow::anyhow!("{fen}: {e}"))?;
                Ok(map(&pos, *label))
            })
            .collect();
        chunk.clear();
        for value in mapped {
            values.push(value?);
        }
        Ok(())
    };
    let report = stream::read_as(path, format, &read, &mut |pos, label| {
        summary.by_result[result_index(label.outcome)] += 1;
        chunk.push((pos.to_fen(), label));
        if chunk.len() == STREAM_CHUNK {
            flush(&mut chunk, &mut values)?;
        }
        Ok(())
    })?;
    flush(&mut chunk, &mut values)?;
    summary.lines = report.units as usize;
    summary.unit = report.unit;
    summary.loaded = values.len();
    summary.skipped = report.skipped as usize;
    summary.problems = report.problems;
    if summary.loaded == 0 {
        bail!("{} holds no positions ({format}, {} {})", path.display(), report.units, report.unit);
    }
    Ok((values, summary))
}

fn load_blocks<T: Send>(
    path: &Path,
    options: &LoadOptions,
    map: impl Fn(&Position, Label) -> T + Sync,
    block_bytes: usize,
) -> Result<(Vec<T>, LoadSummary)> {
    let name = path.display().to_string();
    let (mut file, bar) = open_text(path, options.progress)?;

    let mut values = Vec::new();
    let mut summary = LoadSummary::default();
    // Lines that are neither blank nor comments, for the not-a-dataset check.
    let mut candidates = 0usize;
    let mut block = Vec::with_capacity(block_bytes + 4096);
    let mut first = true;
    loop {
        // Fill the block; carry any partial last line over to the next one.
        let start = block.len();
        block.resize(start + block_bytes, 0);
        let n = read_full(&mut file, &mut block[start..]).with_context(|| format!("reading {name}"))?;
        block.truncate(start + n);
        let eof = n == 0;
        if first {
            first = false;
            check_text(&block, &name)?;
            if block.starts_with(b"\xef\xbb\xbf") {
                block.drain(..3); // a UTF-8 byte-order mark
            }
        }
        if block.is_empty() && eof {
            break;
        }
        let end =
            if eof { block.len() } else { block.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) };
        if end == 0 {
            continue; // one very long line: read more
        }
        let lines = split_lines(&block[..end]);
        let parsed: Vec<Result<Option<(usize, T)>, String>> = lines
            .par_iter()
            .map(|&bytes| {
                let text = std::str::from_utf8(bytes)
                    .map_err(|e| format!("not UTF-8 text (bad byte at column {})", e.valid_up_to() + 1))?;
                Ok(parse_labelled_line(text)?
                    .map(|(pos, label)| (result_index(label.outcome), map(&pos, label))))
            })
            .collect();
        for result in parsed {
            summary.lines += 1;
            let line = summary.lines;
            match result {
                Ok(None) => {}
                Ok(Some((index, value))) => {
                    candidates += 1;
                    summary.loaded += 1;
                    summary.by_result[index] += 1;
                    values.push(value);
                }
                Err(message) => {
                    candidates += 1;
                    let problem = format!("{name}:{line}: {message}");
                    if options.strict {
                        bar.finish_and_clear();
                        bail!(problem);
                    }
                    summary.skipped += 1;
                    if summary.problems.len() < MAX_PROBLEMS {
                        summary.problems.push(problem);
                    }
                }
            }
            if candidates == SNIFF_LINES && summary.loaded == 0 {
                bar.finish_and_clear();
                bail!(not_a_dataset(
                    &name,
                    &summary,
                    &format!("none of its first {SNIFF_LINES} position lines")
                ));
            }
        }
        block.drain(..end);
        if eof {
            break;
        }
    }
    bar.finish_and_clear();
    if summary.loaded == 0 {
        if summary.skipped == 0 {
            bail!("{name} holds no positions ({} lines, all blank or comments)", summary.lines);
        }
        bail!(not_a_dataset(&name, &summary, &format!("none of its {} position lines", summary.skipped)));
    }
    Ok((values, summary))
}

fn not_a_dataset(name: &str, summary: &LoadSummary, which: &str) -> String {
    let first = summary.problems.first().map_or(String::new(), |p| format!("; the first: {p}"));
    format!(
        "{name} is not a labelled-position file: {which} parse (expected lines like \
         `<FEN> c9 \"1-0\";`, `<FEN> [1.0]`, `<FEN> | 1-0` or `<FEN>,1-0`){first}"
    )
}

/// The lines of a block that ends with a newline (or at the end of the file), without terminators.
fn split_lines(block: &[u8]) -> Vec<&[u8]> {
    let body = block.strip_suffix(b"\n").unwrap_or(block);
    if block.is_empty() {
        return Vec::new();
    }
    body.split(|&b| b == b'\n').map(|line| line.strip_suffix(b"\r").unwrap_or(line)).collect()
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;
