//! Deterministic train/validation split of a file (`tune dataset split`), by the one hold-out rule
//! (`holdout.rs`): the file's positions are grouped into games in line order and a game's
//! positions go to the validation file when the rule holds the game out. So the two files hold the positions `tune texel
//! --data <file>` trains and validates on when it holds out the same fraction with the same seed,
//! and the same input, fraction and seed give the same split on every machine.
//!
//! Lines are copied byte for byte (terminators included); a `fen,result` CSV header on the first
//! line is copied to both files; lines that hold no position (blank, comment, broken) go to the
//! training file, unnumbered, as loading skips them.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};

use super::formats::parse_line;
use super::holdout::{GameCounter, GameMark, HoldOut};

/// Line counts of a split.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SplitReport {
    pub lines: usize,
    /// Positions written to the training file.
    pub train: usize,
    /// Positions written to the validation file.
    pub valid: usize,
    /// Lines without a position (blank, comment, broken), copied to the training file.
    pub other: usize,
    /// Whether a CSV header line was copied to both files.
    pub header: bool,
}

/// Splits `input` into `train` and `valid`.
pub fn split(input: &Path, train: &Path, valid: &Path, fraction: f64, seed: u64) -> Result<SplitReport> {
    if !(0.0..=1.0).contains(&fraction) {
        bail!("--valid-fraction {fraction} is not between 0 and 1");
    }
    if train == valid {
        bail!("--train and --valid are the same file ({})", train.display());
    }
    for out in [train, valid] {
        if same_file(input, out) {
            bail!("{} is the input; write the split elsewhere", out.display());
        }
    }
    let rule = HoldOut { fraction, seed };
    let name = input.display();
    let (reader, _bar) = super::reading::open_text(input, false)?;
    let mut reader = BufReader::with_capacity(1 << 20, reader);
    let create = |path: &Path| -> Result<BufWriter<File>> {
        let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        Ok(BufWriter::with_capacity(1 << 20, file))
    };
    let (mut train_out, mut valid_out) = (create(train)?, create(valid)?);
    let mut report = SplitReport::default();
    let mut games = GameCounter::default();
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).with_context(|| format!("reading {name}"))? == 0 {
            break;
        }
        report.lines += 1;
        if report.lines == 1 && is_csv_header(&line) {
            report.header = true;
            train_out.write_all(&line)?;
            valid_out.write_all(&line)?;
            continue;
        }
        match position(&line, report.lines == 1) {
            None => {
                report.other += 1;
                train_out.write_all(&line)?;
            }
            Some(mark) if rule.holds_out(games.next(mark)) => {
                report.valid += 1;
                valid_out.write_all(&line)?;
            }
            Some(_) => {
                report.train += 1;
                train_out.write_all(&line)?;
            }
        }
    }
    train_out.flush().with_context(|| format!("writing {}", train.display()))?;
    valid_out.flush().with_context(|| format!("writing {}", valid.display()))?;
    Ok(report)
}

/// The game mark of the position a line holds as loading reads it (a byte-order mark before
/// the first line is not part of it), or None for a line without one.
fn position(line: &[u8], first: bool) -> Option<GameMark> {
    let line = if first { line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line) } else { line };
    let (pos, outcome) = parse_line(std::str::from_utf8(line).ok()?).ok()??;
    Some(GameMark::of(&pos, outcome))
}

fn is_csv_header(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|l| l.trim().eq_ignore_ascii_case("fen,result"))
}

/// Whether two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
#[path = "split_tests.rs"]
mod tests;
