//! A match's journal (`journal.jsonl` in its run folder), from which a killed match resumes. The
//! first line records what defines the match (a [`RunIdentity`]); then one line per finished
//! pair, in the order pairs finished, appended and flushed after the pair's games are in
//! `games.pgn`: the pair's number, the length of `games.pgn` after it, and its two games as the
//! tally counts them.
//!
//! A kill leaves at worst a torn last line, and games in `games.pgn` past the last whole entry;
//! resuming drops both (that pair is played again), as datagen's `progress.txt` does. Pair i
//! always plays the same opening, so the pairs a resumed match plays are the ones missing from
//! the journal, and replaying the entries gives the tally the games already played gave.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::play::games::identity::RunIdentity;
use crate::play::games::output::GAMES_FILE;
use crate::play::games::tally::GameSummary;
use crate::run::write_atomically;

pub const JOURNAL_FILE: &str = "journal.jsonl";

/// One finished pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairEntry {
    /// The pair's number in the whole match (its opening's place in the schedule).
    pub pair: usize,
    /// The length of `games.pgn` once the pair's games were written.
    pub pgn_bytes: u64,
    /// The first contestant with White, then with Black.
    pub games: [GameSummary; 2],
}

/// The journal's first line.
#[derive(Serialize, Deserialize)]
struct Header {
    identity: RunIdentity,
}

/// An open journal, appended to after every pair.
pub struct PairJournal {
    path: PathBuf,
    file: File,
}

/// A journal as read: its entries, and whether a torn last line was dropped.
struct Read {
    entries: Vec<PairEntry>,
    torn: bool,
}

impl PairJournal {
    /// A new match in `dir` (an earlier journal there is replaced).
    pub fn create(dir: &Path, identity: &RunIdentity) -> Result<PairJournal> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join(JOURNAL_FILE);
        write_atomically(&path, &header_line(identity)?)?;
        PairJournal::open(path)
    }

    /// Checked before anything starts: `dir` holds a journal of the match `identity` defines, none
    /// of whose pairs lies past the `pairs` planned now. Returns the pairs finished.
    pub fn check_resumable(dir: &Path, identity: &RunIdentity, pairs: usize) -> Result<Vec<PairEntry>> {
        Ok(read(dir, identity, pairs)?.entries)
    }

    /// A match resumed in `dir`: the pairs finished, with the journal and `games.pgn` cut back to
    /// the last whole entry.
    pub fn resume(dir: &Path, identity: &RunIdentity, pairs: usize) -> Result<(PairJournal, Vec<PairEntry>)> {
        let Read { entries, torn } = read(dir, identity, pairs)?;
        let path = dir.join(JOURNAL_FILE);
        if torn {
            eprintln!("{}: the last pair's record is incomplete: that pair is played again", path.display());
            let mut text = header_line(identity)?;
            for entry in &entries {
                text.push_str(&entry_line(entry)?);
            }
            write_atomically(&path, &text)?;
        }
        let games = dir.join(GAMES_FILE);
        let length = entries.last().map_or(0, |e| e.pgn_bytes);
        let file = OpenOptions::new()
            .write(true)
            .create(length == 0)
            .truncate(false)
            .open(&games)
            .with_context(|| format!("--resume: opening {}", games.display()))?;
        let actual = file.metadata().with_context(|| format!("reading {}", games.display()))?.len();
        if actual < length {
            bail!(
                "--resume: {} holds {actual} bytes, fewer than the {length} the journal records",
                games.display()
            );
        }
        file.set_len(length)
            .with_context(|| format!("cutting {} back to {length} bytes", games.display()))?;
        Ok((PairJournal::open(path)?, entries))
    }

    /// A run's journal in `dir`: a new one, or (`resume`) the one there with the pairs it has
    /// finished.
    pub fn start(
        dir: &Path,
        identity: &RunIdentity,
        pairs: usize,
        resume: bool,
    ) -> Result<(PairJournal, Vec<PairEntry>)> {
        if resume {
            PairJournal::resume(dir, identity, pairs)
        } else {
            Ok((PairJournal::create(dir, identity)?, Vec::new()))
        }
    }

    fn open(path: PathBuf) -> Result<PairJournal> {
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        Ok(PairJournal { path, file })
    }

    /// Records a finished pair (its games already written to `games.pgn`).
    pub fn append(&mut self, entry: &PairEntry) -> Result<()> {
        let line = entry_line(entry)?;
        self.file.write_all(line.as_bytes()).with_context(|| format!("writing {}", self.path.display()))?;
        self.file.flush().with_context(|| format!("writing {}", self.path.display()))
    }
}

/// The pairs of `0..pairs` that `done` does not hold, in order: what a resumed run plays.
pub fn missing_pairs(pairs: usize, done: &[PairEntry]) -> Vec<usize> {
    let finished: BTreeSet<usize> = done.iter().map(|e| e.pair).collect();
    (0..pairs).filter(|i| !finished.contains(i)).collect()
}

fn header_line(identity: &RunIdentity) -> Result<String> {
    let header = Header { identity: identity.clone() };
    Ok(serde_json::to_string(&header).context("serialising the journal's header")? + "\n")
}

fn entry_line(entry: &PairEntry) -> Result<String> {
    Ok(serde_json::to_string(entry).context("serialising a journal entry")? + "\n")
}

/// Reads and checks the journal in `dir`: the same identity, each pair once, none past `pairs`.
fn read(dir: &Path, identity: &RunIdentity, pairs: usize) -> Result<Read> {
    let path = dir.join(JOURNAL_FILE);
    if !path.is_file() {
        bail!("--resume: no {JOURNAL_FILE} in {} (no match to resume there)", dir.display());
    }
    let bytes = std::fs::read(&path).with_context(|| format!("--resume: reading {}", path.display()))?;
    // Only whole lines count: what follows the last newline is a line torn by a kill.
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let torn = whole < bytes.len();
    let mut lines = bytes[..whole].split(|&b| b == b'\n').filter(|l| !l.is_empty());
    let header: Header = lines
        .next()
        .and_then(|line| serde_json::from_slice(line).ok())
        .with_context(|| format!("--resume: {} does not start with a match's options", path.display()))?;
    let differences = header.identity.differences(identity);
    if !differences.is_empty() {
        bail!(
            "--resume: the match in {} was started with other options ({}); resume it with the \
             options it was started with, or start a new match elsewhere",
            dir.display(),
            differences.join("; ")
        );
    }
    let mut entries = Vec::new();
    let mut seen = BTreeSet::new();
    for (n, line) in lines.enumerate() {
        let entry: PairEntry = serde_json::from_slice(line)
            .with_context(|| format!("--resume: {}:{} is damaged", path.display(), n + 2))?;
        if !seen.insert(entry.pair) {
            bail!("--resume: {}:{}: pair {} is recorded twice", path.display(), n + 2, entry.pair + 1);
        }
        if entry.pair >= pairs {
            bail!(
                "--resume: pair {} was played already in {}: a resumed match needs at least {} games",
                entry.pair + 1,
                dir.display(),
                2 * (entry.pair + 1)
            );
        }
        entries.push(entry);
    }
    Ok(Read { entries, torn })
}

#[cfg(test)]
#[path = "journal_tests.rs"]
mod tests;
