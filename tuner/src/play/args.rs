//! The command-line options every game-playing command shares (`tune match`, `gauntlet`,
//! `datagen`, and the self-play fitness): limits, openings, adjudication, concurrency; and the
//! engine under test (`--engine`, `--engine-search`, `--engine-option`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::book::{self, BookOrder, Opening};
use super::engine_process::{EngineSpec, Protocol};
use super::game::{Adjudication, DrawRule, GameSettings, ResignRule};
use super::inprocess::EngineSetup;
use super::limit::MoveLimit;
use super::runner::{Contestant, PairJob};

/// The engine under test, as `tune match`, `gauntlet` and `datagen` name it (a command whose
/// engine is narrower rewords the help with `mut_arg`, as datagen does: in process only).
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct EngineArgs {
    /// The engine under test: a params file (in-process) or an engine binary.
    #[arg(long, default_value = "params/eval.toml")]
    pub engine: PathBuf,
    /// Search constants (params/search.toml format) for --engine [default: the built-in ones].
    #[arg(long, value_name = "FILE")]
    pub engine_search: Option<PathBuf>,
    /// UCI options for an --engine binary, `Name=Value` (repeatable; as fastchess's `option.`).
    #[arg(long, value_name = "NAME=VALUE")]
    pub engine_option: Vec<String>,
}

impl EngineArgs {
    /// The engine as a contestant, with the shared options' hash size.
    pub fn contestant(&self, play: &PlayArgs) -> Result<Contestant> {
        play.contestant(&self.engine, self.engine_search.as_deref(), &self.engine_option)
    }
}

#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct PlayArgs {
    /// Worker threads, each playing its own games [default: the number of cores].
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Nodes per move (as cutechess's nodes=N): results do not depend on machine load.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search depth per move.
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Clock per side: `base+increment` in seconds (`10+0.1`), or `moves/base[+inc]` (`40/60`).
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Opening book: `.epd` (one position per line) or `.pgn` (each game's moves) [default: the
    /// 1,000 positions built into `tune`, sampled from Stockfish's noob_3moves book].
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// PGN books: use at most this many plies of each game.
    #[arg(long, value_name = "N")]
    pub book_plies: Option<usize>,
    /// The order openings are taken in; each opening is played twice, once with each colour.
    #[arg(long, value_enum, default_value = "random")]
    pub book_order: BookOrder,
    /// The first opening to use (1 = the book's first), as fastchess's start=.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub book_start: usize,
    /// Seed of the opening order (and of anything else drawn at random): the same seed plays the
    /// same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Resign adjudication: a game ends when a side's score is at or below -resign-score for
    /// this many consecutive moves of each side, the other side agreeing (0: off).
    #[arg(long, default_value_t = 3, value_name = "MOVES")]
    pub resign_moves: u32,
    /// Resign adjudication: the score (centipawns, from the losing side) at or below whose
    /// negative a move counts toward --resign-moves.
    #[arg(long, default_value_t = 600, value_name = "CP")]
    pub resign_score: i32,
    /// Resign on the losing side's own score alone, without the opponent's agreement.
    #[arg(long)]
    pub resign_one_sided: bool,
    /// Draw adjudication: from this full move on, a game is drawn when both sides' scores stay
    /// within ±draw-score for draw-moves consecutive moves each (0: off).
    #[arg(long, default_value_t = 40, value_name = "MOVE")]
    pub draw_after: u32,
    /// Draw adjudication: consecutive moves of each side within ±draw-score.
    #[arg(long, default_value_t = 8, value_name = "MOVES")]
    pub draw_moves: u32,
    /// Draw adjudication: the largest absolute score (centipawns) that counts as level.
    #[arg(long, default_value_t = 10, value_name = "CP")]
    pub draw_score: i32,
    /// Adjudicate known endgames (KPK exactly, KQK/KRK/KBNK won, dead draws): true or false.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub known_endgames: bool,
    /// A game still going after this many full moves is a draw.
    #[arg(long, value_name = "N")]
    pub max_moves: Option<u32>,
    /// No adjudication at all: every game is played to its end by the rules.
    #[arg(long)]
    pub no_adjudication: bool,
    /// How many milliseconds past its clock a move may end and still count (fastchess's
    /// timemargin).
    #[arg(long, default_value_t = 0, value_name = "MS")]
    pub time_margin: u64,
    /// Hash (MB) of each in-process engine [default: engine.toml's Hash].
    #[arg(long, value_name = "MB")]
    pub hash: Option<usize>,
    /// No progress bar; one line per finished game pair instead of a live line (for logs).
    #[arg(long, short)]
    pub quiet: bool,
}

impl PlayArgs {
    /// The options as a command line without any of them sets them (`tune match`'s defaults),
    /// for a command that plays games but has no game options of its own (`tune texel --verify`).
    pub fn defaults() -> PlayArgs {
        crate::run::clap_defaults()
    }

    pub fn limit(&self) -> Result<MoveLimit> {
        MoveLimit::from_flags(self.nodes, self.depth, self.tc.as_deref())
    }

    pub fn concurrency(&self) -> usize {
        self.concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1)
    }

    pub fn adjudication(&self) -> Adjudication {
        if self.no_adjudication {
            return Adjudication::none();
        }
        Adjudication {
            resign: (self.resign_moves > 0).then_some(ResignRule {
                moves: self.resign_moves,
                score: self.resign_score,
                two_sided: !self.resign_one_sided,
            }),
            draw: (self.draw_moves > 0).then_some(DrawRule {
                after_move: self.draw_after,
                moves: self.draw_moves,
                score: self.draw_score,
            }),
            known_endgames: self.known_endgames,
            max_moves: self.max_moves,
        }
    }

    pub fn settings(&self) -> Result<GameSettings> {
        Ok(GameSettings {
            limit: self.limit()?,
            adjudication: self.adjudication(),
            time_margin: Duration::from_millis(self.time_margin),
            hang_timeout: Duration::from_secs(60),
        })
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
    /// book by --book-order, --seed and --book-start.
    pub fn match_jobs(&self, openings: &[Opening], pairs: usize) -> Result<Vec<PairJob>> {
        Ok(self
            .opening_schedule(openings.len(), pairs)?
            .into_iter()
            .map(|i| PairJob {
                start_fen: openings[i].fen.clone(),
                opening: openings[i].source.clone(),
                first: 0,
                second: 1,
            })
            .collect())
    }

    /// Our engine from a command-line argument: a params file (`.toml`) played in this process,
    /// or an engine binary driven over UCI with `uci_options` (`Name=Value`, as fastchess's
    /// `option.Name=Value`) set after `uciok`.
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
            if let Some(mb) = self.hash {
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
        uci_engine_spec(path, self.hash, uci_options).map(Contestant::External)
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
