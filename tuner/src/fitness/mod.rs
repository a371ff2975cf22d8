//! Fitness sources of the black-box tuners, one file each: the Texel loss over a dataset
//! (`texel.rs`), games of our engine in this process (`selfplay.rs`), and any program following
//! CLOP's connection-script contract (`command.rs`). A tuner asks for a loss or for games; what a
//! fitness cannot give is a clear error before the run starts.

pub mod command;
pub mod selfplay;
pub mod setup;
pub mod texel;

use std::sync::atomic::AtomicBool;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::play::stats::{GameScore, Wld};

/// Games from the candidate's side, and games that could not be played (a command that failed
/// every retry): those are reported, never counted as a result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Games {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub failed: u64,
}

impl Games {
    pub fn played(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points per game played (0.5 with none).
    pub fn score(&self) -> f64 {
        self.wld().score()
    }

    pub fn wld(&self) -> Wld {
        Wld { wins: self.wins, losses: self.losses, draws: self.draws }
    }

    pub fn record(&mut self, score: GameScore) {
        match score {
            GameScore::Win => self.wins += 1,
            GameScore::Loss => self.losses += 1,
            GameScore::Draw => self.draws += 1,
        }
    }

    pub fn add(&mut self, other: &Games) {
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
        self.failed += other.failed;
    }

    /// Each game played, wins first: the outcomes CLOP records one by one.
    pub fn outcomes(&self) -> impl Iterator<Item = GameScore> {
        std::iter::repeat_n(GameScore::Win, self.wins as usize)
            .chain(std::iter::repeat_n(GameScore::Loss, self.losses as usize))
            .chain(std::iter::repeat_n(GameScore::Draw, self.draws as usize))
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

/// A fitness measured by games.
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
}

/// Where a tuner's scores come from.
pub enum Fitness {
    Texel(Box<texel::TexelFitness>),
    Games(Box<dyn GameFitness>),
}

impl Fitness {
    pub fn describe(&self) -> String {
        match self {
            Fitness::Texel(t) => t.describe(),
            Fitness::Games(g) => g.describe(),
        }
    }
}

/// A seed for one step of a run (a generation, an iteration), from the run's seed alone, so a
/// resumed run draws what the uninterrupted one drew.
pub fn step_seed(seed: u64, step: u64) -> u64 {
    whetstone::types::mix64(seed ^ step.wrapping_mul(whetstone::types::GOLDEN_GAMMA))
}
