//! Move-ordering memory: killer moves per ply, counter-moves, and butterfly history.

use crate::board::Position;
use crate::types::{Color, Move};

/// History scores stay within ±HISTORY_MAX (the "gravity" update below guarantees it), far below
/// the scores the move picker gives killers and counter-moves, so they can never overlap.
pub const HISTORY_MAX: i32 = 16_384;

pub const MAX_PLY: usize = 128;

pub struct History {
    /// butterfly[side][from][to]
    butterfly: Vec<[[i32; 64]; 64]>,
    /// counter[piece][to] of the previous move -> the quiet move that refuted it.
    counter: [[Move; 64]; 12],
    pub killers: [[Move; 2]; MAX_PLY + 1],
}

impl Default for History {
    fn default() -> History {
        History {
            butterfly: vec![[[0; 64]; 64]; 2],
            counter: [[Move::NULL; 64]; 12],
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
        }
    }
}

impl History {
    pub fn score(&self, side: Color, m: Move) -> i32 {
        self.butterfly[side.index()][m.from().index()][m.to().index()]
    }

    /// Moves the score towards ±HISTORY_MAX by `bonus`, less as it gets closer (gravity).
    fn update(entry: &mut i32, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// A quiet move caused a beta cutoff: reward it, punish the quiets tried before it.
    pub fn record_cutoff(&mut self, pos: &Position, ply: usize, depth: i32, best: Move, tried: &[Move]) {
        let side = pos.side_to_move();
        let bonus = (depth * depth).min(1200);
        for &m in tried {
            let e = &mut self.butterfly[side.index()][m.from().index()][m.to().index()];
            Self::update(e, if m == best { bonus * 16 } else { -bonus * 16 });
        }
        if self.killers[ply][0] != best {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best;
        }
        if let Some((piece, to)) = previous_move(pos) {
            self.counter[piece][to] = best;
        }
    }

    pub fn counter_move(&self, pos: &Position) -> Move {
        previous_move(pos).map_or(Move::NULL, |(piece, to)| self.counter[piece][to])
    }

    /// Forgets killers below the root of a new search; history is kept between moves of a game.
    pub fn new_search(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        for side in self.butterfly.iter_mut() {
            for row in side.iter_mut() {
                for e in row.iter_mut() {
                    *e /= 2;
                }
            }
        }
    }
}

/// The piece that made the last move and its destination, if there was a last move.
fn previous_move(pos: &Position) -> Option<(usize, usize)> {
    let last = pos.state().last_move;
    if last.is_null() {
        return None;
    }
    let to = match last.kind() {
        crate::types::MoveKind::Castling => crate::board::castling::king_destination(
            !pos.side_to_move(),
            crate::board::castling::castle_side(last.from(), last.to()),
        ),
        _ => last.to(),
    };
    pos.piece_on(to).map(|p| (p.index(), to.index()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_history_bounded() {
        let mut e = 0;
        for _ in 0..10_000 {
            History::update(&mut e, 20_000);
            assert!(e <= HISTORY_MAX);
        }
        for _ in 0..10_000 {
            History::update(&mut e, -20_000);
            assert!(e >= -HISTORY_MAX);
        }
    }
}
