//! Positions kept by rules, streamed: each position is tested on its own, in file order.

use std::fmt;

use whetstone::eval::{evaluate, phase, Weights};
use whetstone::search::Quiescence;
use whetstone::{Color, Position};

use super::super::Label;

/// The rules; a position is kept when it passes every one given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FilterRules {
    /// Drop positions whose side to move is in check.
    pub no_check: bool,
    /// Drop positions that are not quiet (quiescence score differs from the static evaluation,
    /// our engine's weights), as `tune dataset convert` does for PGN games.
    pub only_quiet: bool,
    /// Drop positions whose search score is larger than this either way (centipawns).
    pub max_score: Option<i32>,
    /// Drop positions without a search score.
    pub scored: bool,
    /// Keep phases from this (0 = pawns and kings .. 24 = every piece; knights and bishops 1,
    /// rooks 2, queens 4).
    pub min_phase: Option<i32>,
    /// Keep phases up to this.
    pub max_phase: Option<i32>,
    /// Keep positions with at least this many pieces, kings and pawns included.
    pub min_pieces: Option<u32>,
    /// Keep positions with at most this many pieces.
    pub max_pieces: Option<u32>,
    /// Keep positions from this ply of the game (from the FEN's move number and side to move;
    /// 0 = White's first move).
    pub min_ply: Option<u32>,
    /// Keep positions up to this ply.
    pub max_ply: Option<u32>,
}

/// Why a position was dropped (the first rule it failed).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dropped {
    InCheck,
    NotQuiet,
    Score,
    NoScore,
    Phase,
    Pieces,
    Ply,
}

impl Dropped {
    pub const ALL: [Dropped; 7] = [
        Dropped::InCheck,
        Dropped::NotQuiet,
        Dropped::Score,
        Dropped::NoScore,
        Dropped::Phase,
        Dropped::Pieces,
        Dropped::Ply,
    ];

    pub fn describe(self) -> &'static str {
        match self {
            Dropped::InCheck => "in check",
            Dropped::NotQuiet => "not quiet",
            Dropped::Score => "|score| above --max-score",
            Dropped::NoScore => "no search score",
            Dropped::Phase => "phase outside the range",
            Dropped::Pieces => "piece count outside the range",
            Dropped::Ply => "ply outside the range",
        }
    }
}

/// The game ply of a position: 2 × (move number − 1), plus one when Black is to move.
pub fn ply(pos: &Position) -> u32 {
    2 * pos.fullmove_number().saturating_sub(1) + u32::from(pos.side_to_move() == Color::Black)
}

/// Applies the rules, with the quiescence search they may need.
pub struct Filter {
    rules: FilterRules,
    qs: Quiescence,
    weights: Weights,
    pub kept: u64,
    pub dropped: [u64; 7],
}

impl Filter {
    pub fn new(rules: FilterRules) -> Filter {
        Filter { rules, qs: Quiescence::default(), weights: Weights::default(), kept: 0, dropped: [0; 7] }
    }

    /// Whether to keep the position; counts it either way.
    pub fn keep(&mut self, pos: &Position, label: Label) -> bool {
        match self.reason(pos, label) {
            None => {
                self.kept += 1;
                true
            }
            Some(why) => {
                self.dropped[why as usize] += 1;
                false
            }
        }
    }

    fn reason(&mut self, pos: &Position, label: Label) -> Option<Dropped> {
        let r = &self.rules;
        let outside = |v: i64, lo: Option<i64>, hi: Option<i64>| {
            lo.is_some_and(|lo| v < lo) || hi.is_some_and(|hi| v > hi)
        };
        if r.no_check && pos.in_check() {
            return Some(Dropped::InCheck);
        }
        if r.scored && label.score.is_none() {
            return Some(Dropped::NoScore);
        }
        if let (Some(max), Some(score)) = (r.max_score, label.score) {
            if score.abs() > max {
                return Some(Dropped::Score);
            }
        }
        if outside(phase(pos).into(), r.min_phase.map(i64::from), r.max_phase.map(i64::from)) {
            return Some(Dropped::Phase);
        }
        if outside(pos.occupied().count().into(), r.min_pieces.map(i64::from), r.max_pieces.map(i64::from)) {
            return Some(Dropped::Pieces);
        }
        if outside(ply(pos).into(), r.min_ply.map(i64::from), r.max_ply.map(i64::from)) {
            return Some(Dropped::Ply);
        }
        if r.only_quiet {
            // A copy without the game's history: the quiescence search must not see repetitions.
            let fresh = Position::from_fen(&pos.to_fen()).ok()?;
            let (score, _) = self.qs.search(&fresh, &self.weights);
            if score != evaluate(&fresh, &self.weights) {
                return Some(Dropped::NotQuiet);
            }
        }
        None
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kept {}", self.kept)?;
        for why in Dropped::ALL {
            let n = self.dropped[why as usize];
            if n > 0 {
                write!(f, "; dropped {n} {}", why.describe())?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "filter_tests.rs"]
mod tests;
