//! Move-ordering memory: killer moves per ply, counter-moves, butterfly history, continuation
//! history (a quiet move's success after the moves one and two plies before it) and capture
//! history (a capture's success by moving piece, square and victim), and the static-evaluation
//! correction history.

use super::correction::Correction;
use crate::board::Position;
use crate::types::{Move, MoveKind, PieceType};

/// History scores stay within ±HISTORY_MAX (the "gravity" update below guarantees it), far below
/// the scores the move picker gives killers and counter-moves, so they can never overlap.
pub const HISTORY_MAX: i32 = 16_384;

pub const MAX_PLY: usize = 128;

pub use super::piece_to::{piece_to, PieceTo, NO_PIECE_TO};

pub struct History {
    /// What searches taught about the static evaluation (kept across moves like the rest).
    pub correction: Correction,
    /// butterfly[side][from][to]
    butterfly: Vec<[[i32; 64]; 64]>,
    /// continuation[previous piece-to][piece-to]; shared by the 1- and 2-ply-back tables.
    continuation: Vec<[i32; 12 * 64]>,
    /// capture[piece-to][victim type] (a promotion without a capture counts as victim 5).
    capture: Vec<[i32; 6]>,
    /// counter[piece][to] of the previous move -> the quiet move that refuted it.
    counter: [[Move; 64]; 12],
    pub killers: [[Move; 2]; MAX_PLY + 1],
}

impl Default for History {
    fn default() -> History {
        History {
            correction: Correction::default(),
            butterfly: vec![[[0; 64]; 64]; 2],
            continuation: vec![[0; 12 * 64]; 12 * 64 + 1],
            capture: vec![[0; 6]; 12 * 64],
            counter: [[Move::NULL; 64]; 12],
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
        }
    }
}

fn victim(pos: &Position, m: Move) -> usize {
    match m.kind() {
        MoveKind::EnPassant => PieceType::Pawn.index(),
        _ => pos.piece_on(m.to()).map_or(PieceType::King.index(), |p| p.piece_type().index()),
    }
}

impl History {
    /// A quiet move's ordering score: butterfly plus both continuation histories; `conts` are the
    /// piece-to indices of the moves one and two plies back.
    pub fn quiet_score(&self, pos: &Position, m: Move, conts: [PieceTo; 2]) -> i32 {
        let side = pos.side_to_move().index();
        let [one_back, two_back] = self.continuation_scores(pos, m, conts);
        self.butterfly[side][m.from().index()][m.to().index()] + one_back + two_back
    }

    /// A quiet move's two continuation histories alone: after the move one ply back, and after
    /// the move two plies back (0 where there is no such move).
    pub fn continuation_scores(&self, pos: &Position, m: Move, conts: [PieceTo; 2]) -> [i32; 2] {
        let pt = piece_to(pos, m);
        conts.map(|c| if pt == NO_PIECE_TO { 0 } else { self.continuation[c][pt] })
    }

    /// A capture's (or promotion's) history score.
    pub fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        let pt = piece_to(pos, m);
        if pt == NO_PIECE_TO {
            return 0;
        }
        self.capture[pt][victim(pos, m)]
    }

    /// Moves the score towards ±HISTORY_MAX by `bonus`, less as it gets closer (gravity).
    fn update(entry: &mut i32, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    fn update_quiet(&mut self, pos: &Position, m: Move, conts: [PieceTo; 2], bonus: i32) {
        let side = pos.side_to_move().index();
        Self::update(&mut self.butterfly[side][m.from().index()][m.to().index()], bonus);
        let pt = piece_to(pos, m);
        if pt == NO_PIECE_TO {
            return;
        }
        for c in conts {
            if c != NO_PIECE_TO {
                Self::update(&mut self.continuation[c][pt], bonus);
            }
        }
    }

    fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        let pt = piece_to(pos, m);
        if pt != NO_PIECE_TO {
            let v = victim(pos, m);
            Self::update(&mut self.capture[pt][v], bonus);
        }
    }

    /// `best` caused a beta cutoff: reward it by `bonus` (the search's `history_bonus` of the
    /// depth), punish the moves tried before it by as much (quiet moves only when `best` is quiet;
    /// the captures tried always, since they failed to cut either way).
    #[allow(clippy::too_many_arguments)]
    pub fn record_cutoff(
        &mut self,
        pos: &Position,
        ply: usize,
        bonus: i32,
        best: Move,
        best_is_quiet: bool,
        quiets_tried: &[Move],
        captures_tried: &[Move],
        conts: [PieceTo; 2],
    ) {
        if best_is_quiet {
            for &m in quiets_tried {
                self.update_quiet(pos, m, conts, if m == best { bonus } else { -bonus });
            }
            if self.killers[ply][0] != best {
                self.killers[ply][1] = self.killers[ply][0];
                self.killers[ply][0] = best;
            }
            if let Some((piece, to)) = previous_move(pos) {
                self.counter[piece][to] = best;
            }
        }
        for &m in captures_tried {
            self.update_capture(pos, m, if m == best { bonus } else { -bonus });
        }
    }

    pub fn counter_move(&self, pos: &Position) -> Move {
        previous_move(pos).map_or(Move::NULL, |(piece, to)| self.counter[piece][to])
    }

    /// Forgets killers below the root of a new search; the histories are kept between moves of a
    /// game, halved so that the newest search counts most (`halve`), or whole, as Ethereal 12.
    pub fn new_search(&mut self, halve: bool) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        if !halve {
            return;
        }
        let halve = |e: &mut i32| *e /= 2;
        self.butterfly.iter_mut().flatten().flatten().for_each(halve);
        self.continuation.iter_mut().flatten().for_each(halve);
        self.capture.iter_mut().flatten().for_each(halve);
    }
}

/// The piece that made the last move and its destination, if there was a last move.
fn previous_move(pos: &Position) -> Option<(usize, usize)> {
    let last = pos.state().last_move;
    if last.is_null() {
        return None;
    }
    let to = match last.kind() {
        MoveKind::Castling => crate::board::castling::king_destination(
            !pos.side_to_move(),
            crate::board::castling::castle_side(last.from(), last.to()),
        ),
        _ => last.to(),
    };
    pos.piece_on(to).map(|p| (p.index(), to.index()))
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
