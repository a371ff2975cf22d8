//! Small value types shared by every module: colours, squares, pieces, bitboards, moves.

mod bitboard;
mod castling;
mod chess_move;
mod color;
mod piece;
mod splitmix;
mod square;

pub use bitboard::{BitIter, Bitboard};
pub use castling::{CastleSide, CastlingRights};
pub use chess_move::{Move, MoveKind};
pub use color::Color;
pub use piece::{Piece, PieceType};
pub use splitmix::{mix64, SplitMix64, GOLDEN_GAMMA};
pub use square::{ParseSquareError, Square};
