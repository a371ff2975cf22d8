//! Moves packed into 16 bits.
//!
//! Layout: bits 0-5 origin, 6-11 destination, 12-13 promotion piece (knight, bishop, rook, queen),
//! 14-15 kind. A castling move is encoded as "king takes own rook" (origin = king square,
//! destination = the castling rook's square), which serves standard chess and Chess960 alike;
//! [`crate::board::Position::move_to_uci`] prints it in the notation the GUI expects.

use std::fmt;

use super::{PieceType, Square};

/// What kind of move this is, beyond origin and destination.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Normal = 0,
    Promotion = 1,
    EnPassant = 2,
    Castling = 3,
}

/// A move; `Move::NULL` (a1a1) is never a legal move and marks "no move" and the null move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    #[inline(always)]
    pub const fn with_kind(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(Move::new(from, to).0 | (kind as u16) << 14)
    }

    /// A promotion to `piece` (knight, bishop, rook or queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: PieceType) -> Move {
        debug_assert!(matches!(
            piece,
            PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen
        ));
        Move(Move::with_kind(from, to, MoveKind::Promotion).0 | ((piece as u16).wrapping_sub(1) & 3) << 12)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The piece a promotion creates, if this is a promotion.
    #[inline(always)]
    pub const fn promotion_piece(self) -> Option<PieceType> {
        match self.kind() {
            MoveKind::Promotion => Some(PieceType::ALL[(self.0 >> 12 & 3) as usize + 1]),
            _ => None,
        }
    }

    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The raw 16 bits, for hash tables and packed storage.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }
}

impl fmt::Debug for Move {
    /// Raw coordinates (castling shows king-takes-rook); use the position to print proper UCI.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return write!(f, "0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion_piece() {
            write!(f, "{}", p.letter())?;
        }
        Ok(())
    }
}
