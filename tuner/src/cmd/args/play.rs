//! The command-line options every game-playing command shares (`tune match`, `gauntlet`,
//! `datagen`, `verify`, and the black-box tuners' game fitnesses): limits, openings,
//! adjudication, concurrency; and the engine under test (`--engine`, `--engine-search`,
//! `--engine-option`). They resolve to the library's [`MatchSettings`].

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use super::choices;
use crate::play::games::book::BookOrder;
use crate::play::games::game::{Adjudication, DrawRule, ResignRule};
use crate::play::games::runner::Contestant;
use crate::play::games::stats::EloModel;
use crate::play::limit::LimitChoice;
use crate::play::runs::settings::{threads, MatchSettings};

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
    pub fn contestant(&self, play: &MatchSettings) -> Result<Contestant> {
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
    #[arg(long, value_parser = choices::book_order(), default_value = "random")]
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
        super::clap_defaults()
    }

    /// The settings these options give.
    pub fn settings(&self) -> MatchSettings {
        MatchSettings {
            limit: self.limit(),
            adjudication: self.adjudication(),
            time_margin: Duration::from_millis(self.time_margin),
            book: self.book.clone(),
            book_plies: self.book_plies,
            book_order: self.book_order,
            book_start: self.book_start,
            seed: self.seed,
            concurrency: threads(self.concurrency),
            hash_mb: self.hash,
            quiet: self.quiet,
        }
    }

    pub fn limit(&self) -> LimitChoice {
        LimitChoice { nodes: self.nodes, depth: self.depth, tc: self.tc.clone() }
    }

    fn adjudication(&self) -> Adjudication {
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
}

#[cfg(test)]
#[path = "play_tests.rs"]
mod tests;

/// What an SPRT's Elo bounds mean, as `--elo-model` takes it (`tune match`, `tune sprt`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelArg {
    Logistic,
    Normalized,
}

impl From<ModelArg> for EloModel {
    fn from(model: ModelArg) -> EloModel {
        match model {
            ModelArg::Logistic => EloModel::Logistic,
            ModelArg::Normalized => EloModel::Normalized,
        }
    }
}
