//! Where generated moves go: a fixed-capacity list, or a counter for bulk-counted perft leaves.

use arrayvec::ArrayVec;

use crate::types::{Bitboard, Move, MoveKind, PieceType, Square};

/// Receives generated moves. Generators report whole target sets where they can, so that a
/// counting sink adds a popcount instead of visiting each move.
pub trait MoveSink {
    fn push(&mut self, m: Move);

    /// A normal move from `from` to every square of `targets`.
    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }

    /// A normal pawn move to every square of `targets`, each from `to - delta`.
    #[inline(always)]
    fn push_pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.push(Move::new(to.offset(-delta), to));
        }
    }

    /// Promotions to each of `pieces` on every square of `targets`, each from `to - delta`.
    #[inline(always)]
    fn push_promotions(&mut self, targets: Bitboard, delta: i8, pieces: &[PieceType]) {
        for to in targets {
            for &pt in pieces {
                self.push(Move::promotion(to.offset(-delta), to, pt));
            }
        }
    }
}

/// Counts moves without storing them: perft's bulk counting at the last ply.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn push_targets(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn push_pawn_moves(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn push_promotions(&mut self, targets: Bitboard, _delta: i8, pieces: &[PieceType]) {
        self.0 += (targets.count() as usize * pieces.len()) as u64;
    }
}

/// The most legal moves any chess position has is 218; 256 leaves room.
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack, its storage left uninitialised until pushed (the search makes
/// several lists per node, and zeroing 512 bytes each showed in profiles).
#[derive(Clone)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList { moves: ArrayVec::new() }
    }

    /// Empties the list (without rewriting its storage).
    #[inline(always)]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }

    #[inline(always)]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keeps only the moves for which `keep` is true, preserving order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        self.moves.retain(|m| keep(*m));
    }

    /// Number of moves of each kind, for tests and diagnostics.
    pub fn count_kind(&self, kind: MoveKind) -> usize {
        self.iter().filter(|m| m.kind() == kind).count()
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.moves.push(m);
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
