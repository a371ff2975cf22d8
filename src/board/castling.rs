//! Where castling rooks stand and what each castling move needs, fixed when a position is set up.
//! Standard chess and Chess960 share this: the king always lands on the g- or c-file and the rook
//! on the f- or d-file; only the starting squares differ.

use crate::attacks::between;
use crate::types::{Bitboard, CastleSide, CastlingRights, Color, Square};

use super::Position;

#[derive(Clone, Copy, Debug)]
pub struct CastlingConfig {
    /// The castling rook's starting square, per right (see [`CastlingRights::index`]).
    rook: [Square; 4],
    /// Rights kept when a piece moves from or to a square: AND-ed into the rights on every move.
    rights_mask: [u8; 64],
    /// Squares that must be empty: everything the king and rook cross, except the two themselves.
    empty_path: [Bitboard; 4],
    /// Squares the king crosses or lands on: none may be attacked (its origin is the in-check test).
    king_path: [Bitboard; 4],
}

impl Default for CastlingConfig {
    fn default() -> CastlingConfig {
        CastlingConfig {
            rook: [Square::H1, Square::A1, Square::H8, Square::A8],
            rights_mask: [CastlingRights::ALL.0; 64],
            empty_path: [Bitboard::EMPTY; 4],
            king_path: [Bitboard::EMPTY; 4],
        }
    }
}

/// The king's destination when castling to `side`.
pub fn king_destination(color: Color, side: CastleSide) -> Square {
    match side {
        CastleSide::King => Square::G1,
        CastleSide::Queen => Square::C1,
    }
    .relative(color)
}

/// The rook's destination when castling to `side`.
pub fn rook_destination(color: Color, side: CastleSide) -> Square {
    match side {
        CastleSide::King => Square::F1,
        CastleSide::Queen => Square::D1,
    }
    .relative(color)
}

/// Which wing a castling move (king takes own rook) goes to.
#[inline(always)]
pub fn castle_side(king: Square, rook: Square) -> CastleSide {
    if rook.file() > king.file() {
        CastleSide::King
    } else {
        CastleSide::Queen
    }
}

impl CastlingConfig {
    /// Builds the configuration for the kings of `pos` and the given rook squares (one per right
    /// that exists; `None` for a right that is absent).
    pub fn new(pos: &Position, rooks: [Option<Square>; 4]) -> CastlingConfig {
        let mut config = CastlingConfig::default();
        for color in Color::ALL {
            for side in [CastleSide::King, CastleSide::Queen] {
                let i = CastlingRights::index(color, side);
                let Some(rook) = rooks[i] else { continue };
                let king = pos.king_square(color);
                let king_to = king_destination(color, side);
                let rook_to = rook_destination(color, side);
                let king_and_rook = Bitboard::from_square(king) | rook;
                config.rook[i] = rook;
                config.empty_path[i] =
                    (between(king, king_to) | between(rook, rook_to) | king_to | rook_to) & !king_and_rook;
                config.king_path[i] = (between(king, king_to) | king_to) & !Bitboard::from_square(king);
                config.rights_mask[king.index()] &= !(CastlingRights::single(color, CastleSide::King).0
                    | CastlingRights::single(color, CastleSide::Queen).0);
                config.rights_mask[rook.index()] &= !CastlingRights::single(color, side).0;
            }
        }
        config
    }

    #[inline(always)]
    pub fn rook_square(&self, color: Color, side: CastleSide) -> Square {
        self.rook[CastlingRights::index(color, side)]
    }

    #[inline(always)]
    pub fn empty_path(&self, color: Color, side: CastleSide) -> Bitboard {
        self.empty_path[CastlingRights::index(color, side)]
    }

    #[inline(always)]
    pub fn king_path(&self, color: Color, side: CastleSide) -> Bitboard {
        self.king_path[CastlingRights::index(color, side)]
    }

    /// The rights that survive a move touching `sq` (as origin or destination).
    #[inline(always)]
    pub fn rights_mask(&self, sq: Square) -> u8 {
        self.rights_mask[sq.index()]
    }
}
