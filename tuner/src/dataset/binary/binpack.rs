//! Stockfish's `.binpack` through the `sfbinpack` crate (read only).
//!
//! A binpack is a run of chunks (`BINP`, a 4-byte size, the payload); a payload holds chains of
//! entries: a packed position with its move, score, ply and result, then the following moves
//! and scores of the same game, compressed. The crate reads a chunk and unpacks its entries; each
//! entry's position is rebuilt by our FEN parser from the crate's FEN. Scores and results are the
//! side to move's in the file and White's here.
//!
//! The crate's entry decoder has no error path (corrupt payload bytes panic inside it): a chunk
//! whose payload does not decode is reported by its byte offset and, with `skip_broken`,
//! skipped whole (the next chunk is read); a chunk cut short by the end of the file ends the
//! reading, reported.

use std::fs::File;
use std::io::{BufReader, Seek};
use std::path::Path;

use anyhow::{Context, Result};
use whetstone::{Color, Position};

use super::super::file_format::FileFormat;
use super::super::reading::progress_bar;
use super::super::record_io::{ReadOptions, ReadReport, Sink};
use super::super::Label;

/// Reads every entry of a binpack into `sink`.
pub fn read(path: &Path, options: &ReadOptions, sink: &mut Sink) -> Result<ReadReport> {
    let name = path.display().to_string();
    let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bar = progress_bar(options.progress, size, &name);
    let mut file = BufReader::with_capacity(1 << 20, file);
    let mut report = ReadReport::new(FileFormat::Binpack, "entries");
    let mut chunk = Vec::new();
    let mut chunks = 0u64;
    loop {
        let offset = file.stream_position().with_context(|| format!("reading {name}"))?;
        if offset >= size {
            break;
        }
        chunks += 1;
        match sfbinpack::read_chunk_into(&mut file, &mut chunk) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                // Without a whole chunk header and payload nothing after it can be found.
                report
                    .broken(options.skip_broken, format!("{name}: chunk {chunks} at byte {offset}: {e}"))?;
                break;
            }
        }
        bar.set_position(offset);
        let entries = std::panic::catch_unwind(|| sfbinpack::parse_chunk(&chunk));
        let Ok(entries) = entries else {
            report.broken(
                options.skip_broken,
                format!("{name}: chunk {chunks} at byte {offset}: its {} bytes do not decode", chunk.len()),
            )?;
            continue;
        };
        for (i, entry) in entries.iter().enumerate() {
            report.units += 1;
            let fen = match entry.pos.fen() {
                Ok(fen) => fen,
                Err(e) => {
                    let problem = format!("{name}: chunk {chunks} at byte {offset}, entry {}: {e:?}", i + 1);
                    report.broken(options.skip_broken, problem)?;
                    continue;
                }
            };
            let pos = match Position::from_fen(&fen) {
                Ok(pos) => pos,
                Err(e) => {
                    let problem = format!(
                        "{name}: chunk {chunks} at byte {offset}, entry {}: bad board {fen}: {e}",
                        i + 1
                    );
                    report.broken(options.skip_broken, problem)?;
                    continue;
                }
            };
            let white: i16 = if pos.side_to_move() == Color::White { 1 } else { -1 };
            let outcome = match entry.result * white {
                1 => 1.0,
                -1 => 0.0,
                _ => 0.5,
            };
            report.positions += 1;
            sink(&pos, Label { outcome, score: Some(i32::from(entry.score) * i32::from(white)) })?;
        }
    }
    bar.finish_and_clear();
    Ok(report)
}
