//! PGN games as positions, from a PGN file (plain, gzip or bzip2) or from an OpenBench datagen
//! archive: `PGNs/<id>.pgn.tar` as the server keeps it and serves it at `/api/pgns/<id>/`, a tar
//! of `<test>.<result>.<book index>.pgn.bz2` members, one per finished workload batch, whose move
//! comments are OpenBench's compact `{+0.35/12}` (or `{+0.35/12, line=...}`, `{book}`,
//! `{unknown}`).
//!
//! Games become positions by the filters of [`super::pgn`] (book plies, in check, after a capture,
//! not quiet, duplicates across the whole archive), each with the score of the move played from
//! it where its comment gives one. A member that does not decompress is named and skipped; the
//! games it gave before its corrupt part are kept, and the other members are read. A game with an
//! illegal move or FEN is skipped and named with its member, number and move.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use anyhow::{Context, Result};
use whetstone::Position;

use super::file_format::FileFormat;
use super::pgn::{extract_unseen, PgnReport};
use super::reading::{progress_bar, Counting, MAX_PROBLEMS};
use super::record_io::{ReadOptions, ReadReport, Sink};

/// Adds one member's game report to the archive's; problems are prefixed with the member.
fn add(total: &mut PgnReport, part: PgnReport, member: &str) {
    total.games += part.games;
    total.unfinished += part.unfinished;
    total.broken += part.broken;
    for problem in part.problems {
        if total.problems.len() < MAX_PROBLEMS {
            total.problems.push(format!("{member}: {problem}"));
        }
    }
    total.positions += part.positions;
    for (t, p) in total.dropped.iter_mut().zip(part.dropped) {
        *t += p;
    }
    total.kept += part.kept;
    for (t, p) in total.by_result.iter_mut().zip(part.by_result) {
        *t += p;
    }
}

/// Games of one PGN stream into `sink`; the report of what the filters did.
fn games_into(
    reader: impl Read,
    options: &ReadOptions,
    seen: &mut HashSet<u64>,
    sink: &mut Sink,
) -> Result<PgnReport> {
    extract_unseen(reader, &options.pgn, seen, |fen, label| {
        let pos = Position::from_fen(fen).map_err(|e| anyhow::anyhow!("kept position {fen}: {e}"))?;
        sink(&pos, label)
    })
}

/// A decoder for a member or file by its first bytes: bzip2, gzip or plain.
fn decoded<'a>(mut reader: impl Read + 'a) -> std::io::Result<Box<dyn Read + 'a>> {
    let mut magic = Vec::with_capacity(3);
    (&mut reader).take(3).read_to_end(&mut magic)?;
    let whole = std::io::Cursor::new(magic.clone()).chain(reader);
    Ok(if magic.starts_with(b"BZh") {
        Box::new(bzip2::read::MultiBzDecoder::new(BufReader::new(whole)))
    } else if magic.starts_with(b"\x1f\x8b") {
        Box::new(flate2::read::MultiGzDecoder::new(BufReader::new(whole)))
    } else {
        Box::new(whole)
    })
}

/// The games of one PGN file (plain, `.gz` or `.bz2`).
pub fn read_pgn_file(path: &Path, options: &ReadOptions, sink: &mut Sink) -> Result<ReadReport> {
    let name = path.display().to_string();
    let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bar = progress_bar(options.progress, size, &name);
    let reader = decoded(BufReader::new(Counting { inner: file, bar: bar.clone() }))
        .with_context(|| format!("reading {name}"))?;
    let games =
        games_into(reader, options, &mut HashSet::new(), sink).with_context(|| format!("reading {name}"))?;
    bar.finish_and_clear();
    let mut report = ReadReport::new(FileFormat::Pgn, "games");
    report.units = games.games as u64;
    report.positions = games.kept as u64;
    report.games = Some(games);
    Ok(report)
}

/// The games of every member of an OpenBench PGN archive.
pub fn read_archive(path: &Path, options: &ReadOptions, sink: &mut Sink) -> Result<ReadReport> {
    let name = path.display().to_string();
    let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bar = progress_bar(options.progress, size, &name);
    let mut archive = tar::Archive::new(BufReader::new(Counting { inner: file, bar: bar.clone() }));
    let mut report = ReadReport::new(FileFormat::Archive, "games");
    let mut total = PgnReport::default();
    let mut seen = HashSet::new();
    let (mut members, mut broken_members) = (0u64, 0u64);
    let entries = archive.entries().with_context(|| format!("reading {name} as a tar archive"))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {name}: a tar header after {members} members"))?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let member = entry.path().map(|p| p.display().to_string()).unwrap_or_else(|_| "?".to_string());
        members += 1;
        let mut emitted = 0u64;
        let mut counting = |pos: &Position, label| {
            emitted += 1;
            sink(pos, label)
        };
        let result = decoded(entry).and_then(|reader| {
            games_into(reader, options, &mut seen, &mut counting)
                .map_err(|e| std::io::Error::other(format!("{e:#}")))
        });
        report.positions += emitted;
        match result {
            Ok(games) => add(&mut total, games, &member),
            Err(e) => {
                // The positions of the games before the corrupt part were passed on already.
                broken_members += 1;
                let problem = format!(
                    "{name}: member {member}: {e} (the rest of it skipped; {emitted} positions came from it before)"
                );
                eprintln!("warning: {problem}");
                report.skipped += 1;
                if report.problems.len() < MAX_PROBLEMS {
                    report.problems.push(problem);
                }
            }
        }
    }
    bar.finish_and_clear();
    report.units = total.games as u64;
    report.members = Some((members, broken_members));
    report.games = Some(total);
    Ok(report)
}
