//! The board: position representation, FEN, make/unmake, keys, notation.

pub mod castling;
pub mod fen;
mod integrity;
mod make;
mod notation;
mod position;
pub mod zobrist;

pub use fen::{FenError, START_FEN};
pub use notation::MoveParseError;
pub use position::{Position, State};
