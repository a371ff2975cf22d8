//! The two sides.

use std::ops::Not;

/// A side: White moves first; `Color as usize` indexes per-colour arrays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];
    pub const NUM: usize = 2;

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for White, -1 for Black: the sign of a White-relative score seen from this side.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// The FEN letter of the side to move.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}
