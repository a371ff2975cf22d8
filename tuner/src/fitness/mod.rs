//! Fitness sources of the black-box tuners, one file each: the Texel loss over a dataset
//! (`texel.rs`), games of our engine in this process (`selfplay.rs`), any program following
//! CLOP's connection-script contract (`command.rs`), games of any UCI engine with candidate
//! values of its options (`engine.rs`), and a ranking by a tournament among the candidates
//! themselves (`tournament.rs`, over any game source that can duel).
//!
//! # The seam
//! A tuner never asks which fitness it has. It asks one of three questions of the [`Fitness`]
//! trait, the one its algorithm needs:
//! - [`Fitness::rank`]: a score for every member of a population, higher is better (PBIL; a
//!   batch of a Bayesian optimiser);
//! - [`Fitness::compare`]: a signed result of one candidate against another (SPSA's plus
//!   against minus);
//! - [`Fitness::outcomes`]: single game results of candidates against the reference (CLOP fits
//!   a win-rate model to them).
//!
//! A fitness that is an exact loss (Texel) also offers [`Fitness::exact`], so a tuner can keep
//! the best point it has seen and log training and validation losses; one that plays games says
//! so by [`Fitness::plays_games`], and the games each answer cost come back with the answer.
//!
//! Every fitness that plays games implements the smaller [`GameFitness`] (play these trials) and
//! gets the three answers from `games.rs`, written once; a new game source (another engine, a
//! cluster) is then one file. A source that plays game pairs (the same opening with each colour:
//! self-play, UCI engines) also counts each pair's points in [`Games::pairs`], the pentanomial
//! counts fastchess and OpenBench keep, so a tuner can use the pairs' variance (`tune bayes`
//! does); a source of single games (a command, one game a run) leaves them empty. A question a
//! fitness cannot answer (game outcomes of a loss) is an error the command raises before its
//! first step, from [`Fitness::plays_games`].

pub mod command;
pub mod engine;
pub mod games;
pub mod selfplay;
pub mod setup;
pub mod texel;
pub mod tournament;

use std::sync::atomic::AtomicBool;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::play::engines::engine_process::EngineSpec;
use crate::play::games::stats::{GameScore, Pentanomial, Wld};
use crate::play::games::tally::Failures;

/// The games behind a fitness answer, from the candidate's side: their [`Wld`] count (the plain
/// count every count of games builds on), with what a tuner needs besides: games that could not
/// be played (a command that failed every retry: reported, never counted as a result), each
/// side's failures, and the pairs among the games. A match counts its games in a [`MatchTally`],
/// which keeps how they ended for its report instead of unplayable games (it has none).
///
/// Checkpoints hold it as one flat object, `{"wins", "losses", "draws", "failed", "failures",
/// "pairs"}` (the W/L/D count flattened into it), as before the count was its own type.
///
/// [`MatchTally`]: crate::play::games::tally::MatchTally
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Games {
    #[serde(flatten)]
    pub wld: Wld,
    pub failed: u64,
    /// Games lost by a failure (crash, time forfeit, illegal move) of [the candidate's side, the
    /// other side (the reference, or the other candidate of a duel)]. Such a game is played and
    /// scored as a loss of the side that failed, as cutechess scores it, so these are already
    /// in the wins and losses; they are counted to be reported. (A checkpoint written before
    /// they were counted reads them as zero.)
    #[serde(default)]
    pub failures: [Failures; 2],
    /// The games that were played as pairs (one opening, each side once with each colour), by
    /// the candidate's points over the pair: 0, ½, 1, 1½, 2 (fastchess's and OpenBench's
    /// pentanomial counts). Their games are also in the wins, losses and draws; games not played
    /// in pairs (a command's) are in those alone. (A checkpoint written before pairs were
    /// counted reads them as none.)
    #[serde(default)]
    pub pairs: Pentanomial,
}

impl Games {
    pub fn played(&self) -> u64 {
        self.wld.games()
    }

    /// Points per game played (0.5 with none).
    pub fn score(&self) -> f64 {
        self.wld.score()
    }

    pub fn record(&mut self, score: GameScore) {
        self.wld.record(score);
    }

    /// Records a game pair: both games (from the candidate's side) and the pair's points.
    pub fn record_pair(&mut self, first: GameScore, second: GameScore) {
        self.record(first);
        self.record(second);
        self.pairs.add(first, second);
    }

    /// Whether every game played was played in a pair (and there was at least one).
    pub fn all_in_pairs(&self) -> bool {
        self.pairs.pairs() > 0 && 2 * self.pairs.pairs() == self.played()
    }

    /// The same games from the other side (the failures stay where they are: [candidate side,
    /// other side]).
    pub fn mirrored(&self) -> Games {
        Games { wld: self.wld.mirrored(), pairs: self.pairs.mirrored(), ..*self }
    }

    pub fn add(&mut self, other: &Games) {
        self.wld.merge(&other.wld);
        self.failed += other.failed;
        for (mine, theirs) in self.failures.iter_mut().zip(&other.failures) {
            mine.add(theirs);
        }
        self.pairs.merge(&other.pairs);
    }

    /// The failures for result.json: `{"candidate": {"crashes": .., "time_losses": ..,
    /// "illegal_moves": ..}, "opponent": {..}}`.
    pub fn failures_json(&self) -> serde_json::Value {
        serde_json::json!({ "candidate": self.failures[0], "opponent": self.failures[1] })
    }

    /// Each game played, wins first: the outcomes CLOP records one by one.
    pub fn outcomes(&self) -> impl Iterator<Item = GameScore> {
        std::iter::repeat_n(GameScore::Win, self.wld.wins as usize)
            .chain(std::iter::repeat_n(GameScore::Loss, self.wld.losses as usize))
            .chain(std::iter::repeat_n(GameScore::Draw, self.wld.draws as usize))
    }
}

/// Games to play: `candidate` (values over the tuning space) against `opponent`, or against the
/// reference (the starting values) when there is none.
#[derive(Clone, Debug)]
pub struct Trial {
    pub candidate: Vec<f64>,
    pub opponent: Option<Vec<f64>>,
    pub games: u32,
}

/// A fitness measured by games: what a game source implements; `games.rs` turns it into a
/// [`Fitness`].
pub trait GameFitness: Sync {
    /// What it plays, for the log.
    fn describe(&self) -> String;
    /// Whether a trial may name its own opponent (SPSA's plus against minus); otherwise both
    /// play the reference.
    fn duels(&self) -> bool;
    /// How many games a trial asking for `games` really plays (self-play rounds up to pairs).
    fn games_per_trial(&self, games: u32) -> u32 {
        games
    }
    /// Plays every trial (in parallel) and returns each one's games, in trial order. `seed`
    /// picks openings or is passed on, so the same seed plays the same games. `on_games` is told
    /// of finished games as they come. Raising `stop` ends the call with an error.
    fn play(
        &self,
        trials: &[Trial],
        seed: u64,
        stop: &AtomicBool,
        on_games: &mut dyn FnMut(u64),
    ) -> Result<Vec<Games>>;
    /// The engine binary whose options the games tune, if they tune one.
    fn engine_under_test(&self) -> Option<&EngineSpec> {
        None
    }
}

/// One candidate's score in a ranking: higher is better (minus the loss, or the points per
/// game), and the games it cost (none for a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    pub fitness: f64,
    pub games: Games,
}

/// One comparison of a candidate (plus) with another (minus): the result in game points from
/// the plus side (wins minus losses over the pair's games, or ±2 for a loss as if the side with
/// the lower loss had won a pair), and the games it cost, from the plus side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Compared {
    pub result: f64,
    pub games: Games,
}

/// A fitness that is a deterministic loss over any point: what a tuner may ask of it besides the
/// seam's three questions.
pub trait ExactLoss {
    /// The objective, lower is better.
    fn loss(&self, x: &[f64]) -> f64;
    /// The loss on held-out data, without regularisation (NaN when there is none).
    fn valid_loss(&self, x: &[f64]) -> f64;
}

/// Where a tuner's scores come from; see the module docs for the questions a tuner may ask.
pub trait Fitness: Sync {
    /// What it measures, for the log and result.json.
    fn describe(&self) -> String;
    /// Whether answers cost games (and so whether game outcomes can be asked for at all).
    fn plays_games(&self) -> bool;
    /// How many games a request for `games` really costs (self-play rounds up to pairs).
    fn games_per_trial(&self, games: u32) -> u32 {
        games
    }
    /// A score for every candidate (higher is better); a game fitness plays `games_each` games of
    /// each against the reference. `seed` fixes openings, so the same seed gives the same answer;
    /// raising `stop` ends the call with an error.
    fn rank(
        &self,
        candidates: &[Vec<f64>],
        games_each: u32,
        seed: u64,
        stop: &AtomicBool,
    ) -> Result<Vec<Scored>>;
    /// The result of each pair's first candidate against its second.
    fn compare(&self, pairs: &[(Vec<f64>, Vec<f64>)], seed: u64, stop: &AtomicBool) -> Result<Vec<Compared>>;
    /// One game of each candidate against the reference, its result from the candidate's side.
    fn outcomes(&self, candidates: &[Vec<f64>], seed: u64, stop: &AtomicBool) -> Result<Vec<Games>>;
    /// The loss itself, when the fitness is one.
    fn exact(&self) -> Option<&dyn ExactLoss> {
        None
    }
    /// The engine binary whose options the games tune (`--fitness engine`), so the result can
    /// be verified by that binary's games.
    fn engine_under_test(&self) -> Option<&EngineSpec> {
        None
    }
}

/// A seed for one step of a run (a generation, an iteration), from the run's seed alone, so a
/// resumed run draws what the uninterrupted one drew.
pub fn step_seed(seed: u64, step: u64) -> u64 {
    whetstone::types::mix64(seed ^ step.wrapping_mul(whetstone::types::GOLDEN_GAMMA))
}
