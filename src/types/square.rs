//! Squares, files and ranks. a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file mapping).

use std::fmt;
use std::str::FromStr;

use super::Color;

/// One of the 64 squares; valid by construction (0..64).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const NUM: usize = 64;

    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const E8: Square = Square(60);
    pub const H8: Square = Square(63);

    /// The square with this index; `index` must be below 64.
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    /// The square on `file` (0 = a) and `rank` (0 = 1st), both below 8.
    #[inline(always)]
    pub const fn from_file_rank(file: u8, rank: u8) -> Square {
        Square::new(rank * 8 + file)
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The same square seen from the other side of the board (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The same square mirrored left-right (a1 <-> h1).
    #[inline(always)]
    pub const fn flip_file(self) -> Square {
        Square(self.0 ^ 7)
    }

    /// This square from `side`'s point of view: unchanged for White, rank-flipped for Black.
    #[inline(always)]
    pub const fn relative(self, side: Color) -> Square {
        match side {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// The rank from `side`'s point of view (0 = its own first rank).
    #[inline(always)]
    pub const fn relative_rank(self, side: Color) -> u8 {
        self.relative(side).rank()
    }

    /// The square `delta` steps further in index order, if it is on the board. Callers guard wraps.
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Square {
        Square::new((self.0 as i8 + delta) as u8)
    }

    /// Chebyshev (king-move) distance between two squares.
    pub const fn distance(self, other: Square) -> u8 {
        let df = (self.file() as i8 - other.file() as i8).unsigned_abs();
        let dr = (self.rank() as i8 - other.rank() as i8).unsigned_abs();
        if df > dr {
            df
        } else {
            dr
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A square name that is not `a1`..`h8`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a square (expected a1..h8)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square::from_file_rank(f - b'a', r - b'1')),
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}
