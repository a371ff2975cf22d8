//! Deterministic train/validation split (`tune dataset split`).
//!
//! Each line goes to the validation file when a hash of its line number and the seed falls below the
//! fraction, so the same input, fraction and seed give the same split on every machine, independent of
//! the line's text and of the other lines. Lines are copied byte for byte (terminators included); a
//! `fen,result` CSV header on the first line is copied to both files.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use whetstone::types::{mix64, GOLDEN_GAMMA};

/// Line counts of a split.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SplitReport {
    pub lines: usize,
    pub train: usize,
    pub valid: usize,
    /// Whether a CSV header line was copied to both files.
    pub header: bool,
}

/// Whether line `line` (1-based) goes to the validation set.
pub fn is_valid_line(line: u64, seed: u64, fraction: f64) -> bool {
    let h = mix64(mix64(seed.wrapping_add(GOLDEN_GAMMA)) ^ line);
    // The top 53 bits as a uniform number in [0, 1).
    ((h >> 11) as f64) * (1.0 / (1u64 << 53) as f64) < fraction
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
    let name = input.display();
    let reader = File::open(input).with_context(|| format!("cannot open {name}"))?;
    let mut reader = BufReader::with_capacity(1 << 20, reader);
    let create = |path: &Path| -> Result<BufWriter<File>> {
        let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        Ok(BufWriter::with_capacity(1 << 20, file))
    };
    let (mut train_out, mut valid_out) = (create(train)?, create(valid)?);
    let mut report = SplitReport::default();
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
        if is_valid_line(report.lines as u64, seed, fraction) {
            report.valid += 1;
            valid_out.write_all(&line)?;
        } else {
            report.train += 1;
            train_out.write_all(&line)?;
        }
    }
    train_out.flush().with_context(|| format!("writing {}", train.display()))?;
    valid_out.flush().with_context(|| format!("writing {}", valid.display()))?;
    Ok(report)
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
mod tests {
    use super::*;
    use crate::dataset::testutil::TempDir;

    fn lines_of(path: &Path) -> Vec<String> {
        std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
    }

    #[test]
    fn the_split_is_a_deterministic_partition_with_the_requested_fraction() {
        let dir = TempDir::new("split");
        let input = dir.path("in.epd");
        let text: String = (0..10_000).map(|i| format!("line {i}\n")).collect();
        std::fs::write(&input, &text).unwrap();
        let (train, valid) = (dir.path("train.epd"), dir.path("valid.epd"));
        let report = split(&input, &train, &valid, 0.1, 1).unwrap();
        assert_eq!(report.lines, 10_000);
        assert_eq!(report.train + report.valid, 10_000);
        assert!((900..1100).contains(&report.valid), "{report:?}");
        let (t, v) = (lines_of(&train), lines_of(&valid));
        assert_eq!((t.len(), v.len()), (report.train, report.valid));
        // A partition that keeps each file's lines in input order.
        let mut merged: Vec<(usize, String)> = t
            .iter()
            .chain(&v)
            .map(|l| (l.strip_prefix("line ").unwrap().parse().unwrap(), l.clone()))
            .collect();
        let numbers = |ls: &[String]| -> Vec<usize> {
            ls.iter().map(|l| l.strip_prefix("line ").unwrap().parse().unwrap()).collect()
        };
        assert!(numbers(&t).windows(2).all(|w| w[0] < w[1]) && numbers(&v).windows(2).all(|w| w[0] < w[1]));
        merged.sort();
        assert_eq!(merged.into_iter().map(|(_, l)| l).collect::<Vec<_>>(), text.lines().collect::<Vec<_>>());

        // The same again gives byte-identical files; another seed another split.
        let (train2, valid2) = (dir.path("train2.epd"), dir.path("valid2.epd"));
        split(&input, &train2, &valid2, 0.1, 1).unwrap();
        assert_eq!(std::fs::read(&train).unwrap(), std::fs::read(&train2).unwrap());
        assert_eq!(std::fs::read(&valid).unwrap(), std::fs::read(&valid2).unwrap());
        split(&input, &train2, &valid2, 0.1, 2).unwrap();
        assert_ne!(std::fs::read(&valid).unwrap(), std::fs::read(&valid2).unwrap());
    }

    #[test]
    fn the_assignment_is_fixed_per_line_number_and_seed() {
        // Pinned values: a change of the hash would change every published split.
        let valid: Vec<u64> = (1..=100).filter(|&l| is_valid_line(l, 1, 0.1)).collect();
        assert_eq!(valid, PINNED_SEED_1);
        assert!((1..=1000).all(|l| !is_valid_line(l, 7, 0.0) && is_valid_line(l, 7, 1.0)));
    }

    const PINNED_SEED_1: [u64; 11] = [2, 4, 5, 10, 13, 14, 15, 32, 40, 81, 98];

    #[test]
    fn bytes_are_copied_unchanged_and_a_csv_header_goes_to_both() {
        let dir = TempDir::new("split-bytes");
        let input = dir.path("in.csv");
        let mut text = b"fen,result\r\n".to_vec();
        for i in 0..200 {
            text.extend_from_slice(format!("x{i} \t\r\n").as_bytes());
        }
        text.extend_from_slice(b"last without newline");
        std::fs::write(&input, &text).unwrap();
        let (train, valid) = (dir.path("t.csv"), dir.path("v.csv"));
        let report = split(&input, &train, &valid, 0.5, 3).unwrap();
        assert!(report.header);
        assert_eq!(report.lines, 202);
        let (t, v) = (std::fs::read(&train).unwrap(), std::fs::read(&valid).unwrap());
        assert!(t.starts_with(b"fen,result\r\n") && v.starts_with(b"fen,result\r\n"));
        assert_eq!(t.len() + v.len(), text.len() + b"fen,result\r\n".len());
    }

    #[test]
    fn bad_arguments_are_refused() {
        let dir = TempDir::new("split-args");
        let input = dir.path("in.epd");
        std::fs::write(&input, "a\n").unwrap();
        let err = |t: &Path, v: &Path, f: f64| split(&input, t, v, f, 1).unwrap_err().to_string();
        assert!(err(&dir.path("t"), &dir.path("v"), 1.5).contains("not between 0 and 1"));
        assert!(err(&dir.path("t"), &dir.path("v"), f64::NAN).contains("not between 0 and 1"));
        assert!(err(&dir.path("t"), &dir.path("t"), 0.1).contains("the same file"));
        assert!(err(&input, &dir.path("v"), 0.1).contains("is the input"));
        assert!(split(&dir.path("missing"), &dir.path("t"), &dir.path("v"), 0.1, 1)
            .unwrap_err()
            .to_string()
            .contains("cannot open"));
    }
}
