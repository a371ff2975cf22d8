//! Castling rights as four bits.

use super::Color;

/// One of the four castling rights.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastleSide {
    King = 0,
    Queen = 1,
}

/// Which castling moves are still allowed: bit `2 * colour + side`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(0);
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The index (0..4) of one right: White king side, White queen side, Black king side, Black queen side.
    #[inline(always)]
    pub const fn index(color: Color, side: CastleSide) -> usize {
        color as usize * 2 + side as usize
    }

    #[inline(always)]
    pub const fn single(color: Color, side: CastleSide) -> CastlingRights {
        CastlingRights(1 << Self::index(color, side))
    }

    #[inline(always)]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.0 & Self::single(color, side).0 != 0
    }

    /// Either right of `color`.
    #[inline(always)]
    pub const fn has_any(self, color: Color) -> bool {
        self.0 >> (2 * color as u8) & 3 != 0
    }

    #[inline(always)]
    pub fn add(&mut self, color: Color, side: CastleSide) {
        self.0 |= Self::single(color, side).0;
    }

    /// The same rights with the colours exchanged.
    pub const fn flip_colors(self) -> CastlingRights {
        CastlingRights((self.0 & 3) << 2 | self.0 >> 2)
    }
}
