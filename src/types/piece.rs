//! Piece types and coloured pieces.

use std::fmt;

use super::Color;

/// What a piece is, regardless of colour. `PieceType as usize` indexes per-type arrays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceType {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];
    pub const NUM: usize = 6;

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter as in FEN and UCI promotions (`p n b r q k`).
    pub const fn letter(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    pub fn from_letter(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        })
    }
}

/// A coloured piece, encoded as `colour * 6 + type` (0..12) so it indexes Zobrist and PST arrays.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    pub const NUM: usize = 12;

    #[inline(always)]
    pub const fn new(color: Color, piece_type: PieceType) -> Piece {
        Piece(color as u8 * 6 + piece_type as u8)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline(always)]
    pub const fn piece_type(self) -> PieceType {
        PieceType::ALL[(self.0 % 6) as usize]
    }

    /// The same piece type in the other colour.
    pub const fn flip_color(self) -> Piece {
        Piece::new(
            match self.color() {
                Color::White => Color::Black,
                Color::Black => Color::White,
            },
            self.piece_type(),
        )
    }

    /// FEN letter: upper case for White.
    pub fn fen_char(self) -> char {
        let c = self.piece_type().letter();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        PieceType::from_letter(c).map(|pt| Piece::new(color, pt))
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}
