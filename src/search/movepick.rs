//! Staged move ordering: the hash move first (after a legality check), then winning and equal
//! captures by MVV/LVA, then quiet moves (killers, then the counter-move, then by history), then
//! losing captures. Later stages are only generated if the earlier ones did not cut off.

use arrayvec::ArrayVec;

use crate::board::Position;
use crate::movegen::{generate, kind, MoveList, MAX_MOVES};
use crate::types::{Move, MoveKind, PieceType};

use super::history::{History, PieceTo, NO_PIECE_TO};
use super::see::{see_ge, SEE_VALUE};

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    HashMove,
    GenerateNoisy,
    GoodNoisy,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    Done,
}

pub struct MovePicker {
    stage: Stage,
    hash_move: Move,
    /// Quiet moves are skipped (quiescence search, or late-move pruning decided so).
    skip_quiets: bool,
    /// Quiescence search: losing captures are pruned rather than tried last.
    prune_bad_captures: bool,
    moves: MoveList,
    /// The score of each move of `moves`, same order (uninitialised beyond them, like the list).
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
    /// Losing captures, tried last (main search) or dropped (quiescence). On the stack: a heap
    /// list here cost an allocation in every node with a losing capture.
    bad: ArrayVec<Move, MAX_MOVES>,
    killers: [Move; 2],
    counter: Move,
    /// Piece-to indices of the moves one and two plies back (continuation history).
    conts: [PieceTo; 2],
}

const KILLER_1: i32 = 3_000_000;
const KILLER_2: i32 = 2_000_000;
const COUNTER: i32 = 1_000_000;

impl MovePicker {
    /// A picker for the main search; `hash_move` may be anything (it is checked for legality).
    pub fn new(
        pos: &Position,
        hash_move: Move,
        killers: [Move; 2],
        counter: Move,
        conts: [PieceTo; 2],
    ) -> MovePicker {
        let hash_move = if !hash_move.is_null() && pos.is_legal(hash_move) { hash_move } else { Move::NULL };
        MovePicker {
            stage: Stage::HashMove,
            hash_move,
            skip_quiets: false,
            prune_bad_captures: false,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            bad: ArrayVec::new(),
            killers,
            counter,
            conts,
        }
    }

    /// A picker for quiescence search: captures and queen promotions only, losing ones dropped.
    pub fn noisy_only(pos: &Position, hash_move: Move) -> MovePicker {
        let mut picker = MovePicker::new(pos, hash_move, [Move::NULL; 2], Move::NULL, [NO_PIECE_TO; 2]);
        if !picker.hash_move.is_null() && !is_noisy(pos, picker.hash_move) {
            picker.hash_move = Move::NULL;
        }
        picker.skip_quiets = true;
        picker.prune_bad_captures = true;
        picker
    }

    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move to search, or None when all are done. `history` orders quiet moves.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateNoisy;
                    if !self.hash_move.is_null() {
                        return Some(self.hash_move);
                    }
                }
                Stage::GenerateNoisy => {
                    self.moves.clear();
                    generate::<{ kind::NOISY }, _>(pos, &mut self.moves);
                    self.scores.clear();
                    self.scores
                        .extend(self.moves.iter().map(|&m| mvv_lva(pos, m) + history.capture_score(pos, m)));
                    self.next = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.pick_best() {
                    Some(m) if m == self.hash_move => {}
                    Some(m) => {
                        if see_ge(pos, m, 0) {
                            return Some(m);
                        }
                        if !self.prune_bad_captures {
                            self.bad.push(m);
                        }
                    }
                    None => {
                        self.stage = if self.skip_quiets { Stage::BadNoisy } else { Stage::GenerateQuiet }
                    }
                },
                Stage::GenerateQuiet => {
                    self.moves.clear();
                    generate::<{ kind::QUIET }, _>(pos, &mut self.moves);
                    self.scores.clear();
                    for &m in self.moves.iter() {
                        self.scores.push(if m == self.killers[0] {
                            KILLER_1
                        } else if m == self.killers[1] {
                            KILLER_2
                        } else if m == self.counter {
                            COUNTER
                        } else {
                            history.quiet_score(pos, m, self.conts)
                        });
                    }
                    self.next = 0;
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if self.skip_quiets {
                        self.stage = Stage::BadNoisy;
                        self.next = 0;
                        continue;
                    }
                    match self.pick_best() {
                        Some(m) if m == self.hash_move => {}
                        Some(m) => return Some(m),
                        None => {
                            self.stage = Stage::BadNoisy;
                            self.next = 0;
                        }
                    }
                }
                Stage::BadNoisy => {
                    if !self.prune_bad_captures && self.next < self.bad.len() {
                        self.next += 1;
                        return Some(self.bad[self.next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Selection sort step: swaps the best remaining move to the front and returns it.
    fn pick_best(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        let slice = self.moves.as_mut_slice();
        slice.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(slice[self.next - 1])
    }
}

/// Captures and promotions.
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::EnPassant | MoveKind::Promotion => true,
        MoveKind::Castling => false,
        MoveKind::Normal => pos.piece_on(m.to()).is_some(),
    }
}

/// Most valuable victim first, least valuable attacker breaking ties; promotions add the piece.
/// Scaled so that capture history (±16,384) can reorder captures of neighbouring values only.
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = match m.kind() {
        MoveKind::EnPassant => SEE_VALUE[PieceType::Pawn.index()],
        _ => pos.piece_on(m.to()).map_or(0, |p| SEE_VALUE[p.piece_type().index()]),
    };
    let attacker = pos.piece_on(m.from()).map_or(0, |p| p.piece_type().index() as i32);
    let promotion = m.promotion_piece().map_or(0, |pt| SEE_VALUE[pt.index()]);
    (victim + promotion) * 32 - attacker
}
