//! How a game-playing run plays its games (`tune match`, `gauntlet`, `datagen`, the verification
//! and the game fitnesses): the limit, openings, adjudication, threads and seed a command's game
//! options resolve to, and the engines they name as contestants.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::play::engines::engine_process::{EngineSpec, Protocol};
use crate::play::engines::inprocess::EngineSetup;
use crate::play::games::book::{self, BookOrder, Opening};
use crate::play::games::game::{Adjudication, GameSettings};
use crate::play::games::runner::{Contestant, PairJob};
use crate::play::limit::{LimitChoice, MoveLimit};

/// How a run plays its games. `cmd/` builds it from the game options every game-playing command
/// shares; the library never sees the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSettings {
    /// The limit per move, checked when games are played.
    pub limit: LimitChoice,
    pub adjudication: Adjudication,
    /// How far past its clock a move may end and still count (fastchess's timemargin).
    pub time_margin: Duration,
    /// The opening book [default: the built-in one].
    pub book: Option<PathBuf>,
    /// PGN books: at most this many plies of each game.
    pub book_plies: Option<usize>,
    pub book_order: BookOrder,
    /// The first opening used, counted from 1 (as fastchess's start=).
    pub book_start: usize,
    /// Seed of the opening order and of anything else drawn at random.
    pub seed: u64,
    /// Worker threads, each playing its own games (at least 1).
    pub concurrency: usize,
    /// Hash (MB) of each engine [default: the engine's own].
    pub hash_mb: Option<usize>,
    /// No live progress line.
    pub quiet: bool,
}

/// `requested` worker threads, or one per core when none are asked for (at least 1).
pub fn threads(requested: Option<usize>) -> usize {
    requested.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1)
}

impl MatchSettings {
    /// The settings of each game, with the limit resolved.
    pub fn game_settings(&self) -> Result<GameSettings> {
        Ok(self.game_settings_at(self.limit.resolve()?))
    }

    /// The settings of each game at `limit` instead of the settings' own.
    pub fn game_settings_at(&self, limit: MoveLimit) -> GameSettings {
        GameSettings {
            limit,
            adjudication: self.adjudication.clone(),
            time_margin: self.time_margin,
            hang_timeout: Duration::from_secs(60),
        }
    }

    /// The openings, and the book's name for the summary.
    pub fn openings(&self) -> Result<(Vec<Opening>, String)> {
        match &self.book {
            Some(path) => Ok((book::load(path, self.book_plies)?, path.display().to_string())),
            None => Ok((book::default_book(), "built-in (1,000 noob_3moves positions)".to_string())),
        }
    }

    /// Which opening each of `pairs` pairs starts from.
    pub fn opening_schedule(&self, book_len: usize, pairs: usize) -> Result<Vec<usize>> {
        if self.book_start == 0 || self.book_start > book_len {
            bail!("--book-start {} is outside the book's 1..={book_len} openings", self.book_start);
        }
        Ok(book::schedule(book_len, pairs, self.book_order, self.seed, self.book_start - 1))
    }

    /// The pairs of a two-engine match (contestant 0 against 1), one opening each from the
    /// book by its order, seed and start.
    pub fn match_jobs(&self, openings: &[Opening], pairs: usize) -> Result<Vec<PairJob>> {
        Ok(self
            .opening_schedule(openings.len(), pairs)?
            .into_iter()
            .map(|i| PairJob {
                start_fen: openings[i].fen.clone(),
                second_start: None,
                opening: openings[i].source.clone(),
                first: 0,
                second: 1,
            })
            .collect())
    }

    /// An engine by its path: a params file (`.toml`) played in this process, or an engine
    /// binary driven over UCI with `uci_options` (`Name=Value`, as fastchess's
    /// `option.Name=Value`) set after `uciok`; either with the settings' hash size.
    pub fn contestant(
        &self,
        path: &Path,
        search_params: Option<&Path>,
        uci_options: &[String],
    ) -> Result<Contestant> {
        if path.extension().is_some_and(|e| e == "toml") {
            if let Some(first) = uci_options.first() {
                bail!(
                    "{}: UCI options ({first}) apply to engine binaries; a params file is set by its own values",
                    path.display()
                );
            }
            let mut setup = EngineSetup::from_files(path, search_params)?;
            if let Some(mb) = self.hash_mb {
                setup.hash_mb = mb.max(1);
            }
            return Ok(Contestant::InProcess(setup));
        }
        if search_params.is_some() {
            bail!(
                "{}: search parameters apply to in-process configurations (a .toml params file)",
                path.display()
            );
        }
        uci_engine_spec(path, self.hash_mb, uci_options).map(Contestant::External)
    }
}

/// An engine binary driven over UCI, with the hash size (if given) and `uci_options`
/// (`Name=Value`, as fastchess's `option.Name=Value`) to set after `uciok`.
pub fn uci_engine_spec(path: &Path, hash: Option<usize>, uci_options: &[String]) -> Result<EngineSpec> {
    if !path.is_file() {
        bail!("{}: no such params file or engine binary", path.display());
    }
    let name = path.file_name().map_or_else(|| "engine".to_string(), |n| n.to_string_lossy().into_owned());
    let mut options = hash.map(|mb| vec![("Hash".to_string(), mb.to_string())]).unwrap_or_default();
    for option in uci_options {
        let Some((name, value)) = option.split_once('=') else {
            bail!("UCI option `{option}`: expected Name=Value (e.g. Threads=1)");
        };
        let name = name.trim();
        if name.is_empty() {
            bail!("UCI option `{option}`: the name is empty");
        }
        options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        options.push((name.to_string(), value.trim().to_string()));
    }
    let command = path.canonicalize().with_context(|| format!("resolving {}", path.display()))?;
    Ok(EngineSpec { name, command, args: Vec::new(), options, working_dir: None, protocol: Protocol::Uci })
}

/// Two contestants with the same name get `-1`/`-2` suffixes so the PGN and tables tell them apart.
pub fn distinct_names(contestants: &mut [Contestant]) {
    let names: Vec<String> = contestants.iter().map(|c| c.name().to_string()).collect();
    for (i, c) in contestants.iter_mut().enumerate() {
        if names.iter().filter(|n| **n == names[i]).count() > 1 {
            let name = format!("{}-{}", names[i], i + 1);
            match c {
                Contestant::InProcess(setup) => setup.name = name,
                Contestant::External(spec) => spec.name = name,
            }
        }
    }
}
