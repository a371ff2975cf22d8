//! Sets of squares as 64-bit words: bit `n` is square `n` (a1 = bit 0).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::{Color, Square};

/// A set of squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(!0);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    pub const RANK_1: Bitboard = Bitboard(0xff);
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);
    /// The 28 squares on the edge of the board.
    pub const RIM: Bitboard = Bitboard(0xff81_8181_8181_81ff);
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.index())
    }

    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Self::FILE_A.0 << file)
    }

    #[inline(always)]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(Self::RANK_1.0 << (8 * rank))
    }

    /// `rank` counted from `side`'s own first rank.
    #[inline(always)]
    pub const fn relative_rank(side: Color, rank: u8) -> Bitboard {
        match side {
            Color::White => Self::rank(rank),
            Color::Black => Self::rank(7 - rank),
        }
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square in the set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square of a non-empty set.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// Removes and returns the lowest square of a non-empty set.
    #[inline(always)]
    pub fn pop_lsb(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        sq
    }

    /// The set moved one rank towards `side`'s promotion rank (squares pushed off the board vanish).
    #[inline(always)]
    pub const fn forward(self, side: Color) -> Bitboard {
        match side {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// The set moved one square towards the a-file, dropping squares that would wrap.
    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_A.0) >> 1)
    }

    /// The set moved one square towards the h-file, dropping squares that would wrap.
    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !Self::FILE_H.0) << 1)
    }

    /// Mirrors the set top to bottom (rank 1 <-> rank 8).
    #[inline(always)]
    pub const fn flip_ranks(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// Iterates the squares in the set, lowest first.
    #[inline(always)]
    pub fn iter(self) -> BitIter {
        BitIter(self)
    }
}

/// Iterator over the squares of a bitboard.
pub struct BitIter(Bitboard);

impl Iterator for BitIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lsb())
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    #[inline(always)]
    fn into_iter(self) -> BitIter {
        BitIter(self)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_ops {
    ($($trait:ident $fn:ident $op:tt $assign_trait:ident $assign_fn:ident;)*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $trait<Square> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Square) -> Bitboard { Bitboard(self.0 $op (1u64 << rhs.index())) }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
        impl $assign_trait<Square> for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Square) { self.0 = self.0 $op (1u64 << rhs.index()); }
        }
    )*};
}

bit_ops! {
    BitAnd bitand & BitAndAssign bitand_assign;
    BitOr bitor | BitOrAssign bitor_assign;
    BitXor bitxor ^ BitXorAssign bitxor_assign;
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Prints the set as a board, rank 8 at the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let set = self.contains(Square::from_file_rank(file, rank));
                write!(f, "{}", if set { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
