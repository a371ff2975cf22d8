//! Spill files of the external tools: one position a line, `index<TAB>FEN<TAB>score<TAB>result`
//! (the score empty when there is none), so a position, its label and its place in the input
//! come back exactly. About 80 bytes a position on disk and 200 in memory, which sizes buckets.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};

use anyhow::{bail, Context, Result};
use whetstone::Position;

use super::super::formats::{parse_result, result_decimal};
use super::super::Label;

/// Bytes a position takes in memory when a bucket is loaded (its line, the parsed values).
pub const BYTES_IN_MEMORY: usize = 256;

/// One spilled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Spilled {
    pub index: u64,
    pub fen: String,
    pub label: Label,
}

impl Spilled {
    pub fn position(&self) -> Result<Position> {
        Position::from_fen(&self.fen).map_err(|e| anyhow::anyhow!("spilled position {}: {e}", self.fen))
    }
}

/// A set of temporary bucket files, written in one pass and read back one at a time.
pub struct Buckets {
    files: Vec<BufWriter<File>>,
    pub counts: Vec<u64>,
}

impl Buckets {
    /// `n` empty buckets in the system's temporary directory (removed when dropped).
    pub fn new(n: usize) -> Result<Buckets> {
        let files = (0..n.max(1))
            .map(|_| tempfile::tempfile().map(|f| BufWriter::with_capacity(64 << 10, f)))
            .collect::<std::io::Result<Vec<_>>>()
            .context("creating temporary bucket files")?;
        Ok(Buckets { counts: vec![0; files.len()], files })
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn push(&mut self, bucket: usize, index: u64, pos: &Position, label: Label) -> Result<()> {
        let score = label.score.map(|s| s.to_string()).unwrap_or_default();
        writeln!(self.files[bucket], "{index}\t{}\t{score}\t{}", pos.to_fen(), result_decimal(label.outcome))
            .context("writing a temporary bucket file")?;
        self.counts[bucket] += 1;
        Ok(())
    }

    /// The buckets, flushed and rewound, for reading back.
    pub fn into_readers(self) -> Result<Vec<BucketReader>> {
        self.files
            .into_iter()
            .map(|w| {
                let mut file =
                    w.into_inner().map_err(|e| e.into_error()).context("flushing a bucket file")?;
                file.seek(SeekFrom::Start(0)).context("rewinding a bucket file")?;
                Ok(BucketReader { reader: BufReader::with_capacity(64 << 10, file), line: String::new() })
            })
            .collect()
    }
}

/// A bucket read back line by line.
pub struct BucketReader {
    reader: BufReader<File>,
    line: String,
}

impl BucketReader {
    /// The next position of the bucket, or None at its end.
    pub fn next_spilled(&mut self) -> Result<Option<Spilled>> {
        self.line.clear();
        if self.reader.read_line(&mut self.line).context("reading a temporary bucket file")? == 0 {
            return Ok(None);
        }
        parse(self.line.trim_end()).map(Some)
    }

    /// Every position of the bucket.
    pub fn all(&mut self) -> Result<Vec<Spilled>> {
        let mut out = Vec::new();
        while let Some(s) = self.next_spilled()? {
            out.push(s);
        }
        Ok(out)
    }
}

fn parse(line: &str) -> Result<Spilled> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [index, fen, score, result] = fields[..] else { bail!("a torn bucket line: {line}") };
    let score = if score.is_empty() { None } else { Some(score.parse().context("a bucket score")?) };
    let outcome = parse_result(result).map_err(|e| anyhow::anyhow!(e))?;
    Ok(Spilled {
        index: index.parse().context("a bucket index")?,
        fen: fen.to_string(),
        label: Label { outcome, score },
    })
}

/// Buckets for `positions` positions so that one bucket fits in `memory_mb` (at least 1).
pub fn buckets_for(positions: u64, memory_mb: usize) -> usize {
    let per_bucket = ((memory_mb.max(1) << 20) / BYTES_IN_MEMORY).max(1) as u64;
    positions.div_ceil(per_bucket).max(1) as usize
}
