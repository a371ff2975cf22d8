//! Where the evaluation's terms go. The evaluation is written once, generic over an
//! [`Accumulator`]; its implementations (`accumulate.rs`) sum weights, trace coefficients, or
//! break the score down per term.

use crate::board::Position;
use crate::types::{Bitboard, Color};

/// The end game's complexity counts (`terms::complexity`): their weights are contiguous from
/// `idx::COMPLEXITY_PAWNS`.
pub const COMPLEXITY_FEATURES: usize = 4;

pub trait Accumulator {
    /// `count` times element `index` for `color` (White's count adds, Black's subtracts).
    fn add(&mut self, color: Color, index: usize, count: i32);

    /// The king-safety penalty of `defender`: its attack units are the weighted sum of the
    /// features (element, count), mapped through the king-safety curve.
    fn king_danger(&mut self, defender: Color, features: &[(usize, i32)]);

    /// The end game's complexity from its counts (`terms::complexity`): applied last, to the
    /// end-game score of every other term.
    fn complexity(&mut self, counts: [i32; COMPLEXITY_FEATURES]);

    /// Both sides' pawn-only terms (`terms::pawns::structure_both`, called with this
    /// accumulator); returns the passed pawns of [White, Black]. An accumulator with a pawn cache
    /// may answer from it instead. (No default body: the pawn terms sit above this trait, which
    /// every term's file uses.)
    fn pawn_structure(&mut self, pos: &Position) -> [Bitboard; 2]
    where
        Self: Sized;

    /// `color`'s king-and-pawn terms (`terms::king::king_pawns`, called with this accumulator):
    /// they depend on the pawns and that king's square alone, so an accumulator with a pawn cache
    /// may answer from it instead.
    fn king_pawns(&mut self, pos: &Position, color: Color)
    where
        Self: Sized;
}
