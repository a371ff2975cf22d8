//! What the game loop asks of a player, whatever it is: an in-process configuration of our engine
//! (`inprocess.rs`), a UCI engine binary (`external.rs`) or an xboard engine binary (`xboard.rs`).

use std::fmt;
use std::time::Duration;

use whetstone::{Move, Position};

use crate::play::limit::{MoveBudget, MoveLimit};
use crate::play::outcome::Outcome;

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many moves; negative when the side to move is being mated.
    Mate(i32),
}

impl Score {
    /// Centipawns for adjudication: mates beyond any centipawn score, shorter mates larger.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 30_000 - n,
            Score::Mate(n) => -30_000 - n,
        }
    }
}

impl fmt::Display for Score {
    /// As cutechess writes move comments: `+0.35`, `-1.20`, `+M5`, `-M3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => write!(f, "{:+.2}", cp as f64 / 100.0),
            Score::Mate(n) if n >= 0 => write!(f, "+M{n}"),
            Score::Mate(n) => write!(f, "-M{}", -n),
        }
    }
}

/// A player's move and what it said about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    pub best: Move,
    pub score: Option<Score>,
    pub depth: u32,
    pub nodes: u64,
    /// Wall time from the request to the answer, measured by the caller's side of the player.
    pub elapsed: Duration,
}

/// Why a player produced no (legal) move; each loses the game for its side. All but
/// [`FailureKind::Resignation`] are failures, counted per side in a run's summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The process exited, closed its output, or could not be (re)started.
    Crash,
    /// No answer before its clock (or the hang time-out) ran out.
    TimeLoss,
    /// It answered with a move that is not legal here, or with no move where moves exist.
    IllegalMove,
    /// It resigned (an xboard engine's `resign`, or its claim that the opponent won).
    Resignation,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerFailure {
    pub kind: FailureKind,
    pub message: String,
}

impl PlayerFailure {
    pub fn new(kind: FailureKind, message: impl Into<String>) -> PlayerFailure {
        PlayerFailure { kind, message: message.into() }
    }
}

/// The game so far, as a player needs it: the position with its history (for repetitions), and
/// the start position and moves in UCI notation (what an external engine is sent).
pub struct GameView<'a> {
    pub pos: &'a Position,
    pub start_fen: &'a str,
    pub moves: &'a [String],
}

/// A chess player the game loop can drive.
pub trait Player: Send {
    /// The name written into the PGN and the tables.
    fn name(&self) -> &str;
    /// Forgets the previous game (transposition table, histories; `ucinewgame`); an external
    /// engine that died is restarted here.
    fn new_game(&mut self) -> Result<(), PlayerFailure>;
    /// Chooses a move within `budget`. `allowance` is how long it may take before it has lost
    /// on time (None without a clock).
    fn think(
        &mut self,
        game: &GameView,
        budget: MoveBudget,
        allowance: Option<Duration>,
    ) -> Result<Thought, PlayerFailure>;
    /// Whether this player can play games from each of `start_fens` at `limit`, checked once
    /// before a run's first game; an error says why not (an xboard engine has no node limit).
    fn check_games(&mut self, _limit: &MoveLimit, _start_fens: &[&str]) -> Result<(), String> {
        Ok(())
    }
    /// The game ended with `outcome` for `reason` (an xboard engine is told `result`).
    fn game_over(&mut self, _outcome: Outcome, _reason: &str) {}
}
