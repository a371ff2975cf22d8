//! How a game ended, from White's point of view: what the game loop decides and every player
//! may be told (an xboard engine gets `result`). Its own file so that `player.rs`, which the
//! game loop calls, need not reach up into `game.rs`.

use serde::{Deserialize, Serialize};
use whetstone::Color;

/// How a game ended, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
}

impl Outcome {
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    pub(super) fn win_for(side: Color) -> Outcome {
        match side {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// The result for `side`: 1, 0.5 or 0.
    pub fn points_for(self, side: Color) -> f64 {
        match (self, side) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}
