//! Where the evaluation's terms go. The evaluation is written once, generic over an
//! [`Accumulator`]; its implementations (`accumulate.rs`) sum weights, trace coefficients, or
//! break the score down per term.

use crate::board::Position;
use crate::types::{Bitboard, Color};

/// The end game's complexity counts (`terms::complexity`): their weights are contiguous from
/// `idx::COMPLEXITY_PAWNS`.
pub const COMPLEXITY_FEATURES: usize = 4;

/// Terms the engine leaves out while every weight of theirs is zero (they would add nothing):
/// how a new term costs no speed until it is tuned. A trace never leaves them out, since the
/// tuner needs their coefficients to move them off zero.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Group {
    /// Weak pawns, overloaded pieces, an attacked queen (Ethereal's, in `terms::threats`).
    EtherealThreats,
    Space,
    Closedness,
}

impl Group {
    pub const ALL: [Group; 3] = [Group::EtherealThreats, Group::Space, Group::Closedness];

    /// The params terms of the group.
    pub fn terms(self) -> &'static [&'static str] {
        match self {
            Group::EtherealThreats => &["threat.weak_pawn", "threat.overloaded", "threat.queen_attacked"],
            Group::Space => &["space.restrict_piece", "space.restrict_empty", "space.center_control"],
            Group::Closedness => &["closedness.knight", "closedness.rook"],
        }
    }
}

pub trait Accumulator {
    /// Whether `group`'s terms may be left out: every weight of theirs is zero. Only the sum of
    /// weights ever says so.
    #[inline(always)]
    fn skips(&self, _group: Group) -> bool {
        false
    }

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
