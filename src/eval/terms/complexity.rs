//! The end game's complexity (Ethereal's, after Stockfish's initiative): how likely an end-game
//! advantage is to be converted. Many pawns, pawns on both flanks and a pure pawn ending make it
//! likelier; the offset, usually negative, pulls a bare advantage toward a draw.
//!
//! The complexity c is the weighted sum of a few counts (unphased weights, in end-game
//! centipawns). It moves the end-game score eg away from zero by c, or toward zero by at most
//! |eg| (it never turns the side ahead into the side behind):
//! eg + sign(eg) · max(c, -|eg|). Not linear in the weights, so the accumulator applies it
//! after every other term ([`Accumulator::complexity`]) and the tuner's model follows it.

use crate::board::Position;
use crate::eval::accumulator::Accumulator;
/// The counts, in the order of their weights from `idx::COMPLEXITY_PAWNS` on.
pub use crate::eval::accumulator::COMPLEXITY_FEATURES as FEATURES;
use crate::eval::baked::idx;
use crate::eval::weights::Weights;
use crate::types::{Bitboard, PieceType};
const _: () = assert!(idx::COMPLEXITY_OFFSET == idx::COMPLEXITY_PAWNS + FEATURES - 1, "contiguous weights");

/// Files a to d, and e to h.
const QUEEN_SIDE: Bitboard = Bitboard(0x0f0f_0f0f_0f0f_0f0f);
const KING_SIDE: Bitboard = Bitboard(0xf0f0_f0f0_f0f0_f0f0);

/// The position's complexity counts: pawns on the board, pawns on both flanks, kings and pawns
/// only, and the constant 1.
pub fn complexity<A: Accumulator>(pos: &Position, acc: &mut A) {
    acc.complexity(counts(pos));
}

/// See [`complexity`].
pub fn counts(pos: &Position) -> [i32; FEATURES] {
    let pawns = pos.pieces_of_type(PieceType::Pawn);
    let both_flanks = (pawns & QUEEN_SIDE).any() && (pawns & KING_SIDE).any();
    let kings = pos.pieces_of_type(PieceType::King);
    let pawns_only = (pos.occupied() & !pawns & !kings).is_empty();
    [pawns.count() as i32, both_flanks as i32, pawns_only as i32, 1]
}

/// The complexity of `counts` under `weights` (end-game centipawns).
#[inline]
pub fn value(weights: &Weights, counts: [i32; FEATURES]) -> i32 {
    (0..FEATURES).map(|k| weights.mg[idx::COMPLEXITY_PAWNS + k] * counts[k]).sum()
}

/// What complexity `c` adds to the end-game score `eg` (White's view): `sign(eg) · max(c, -|eg|)`.
#[inline]
pub fn adjustment(eg: i32, c: i32) -> i32 {
    eg.signum() * c.max(-eg.abs())
}

#[cfg(test)]
#[path = "complexity_tests.rs"]
mod tests;
