//! The board: position representation, FEN, make/unmake, keys. (Moves as text need the legal
//! moves, so they live above, in `movegen`.)

pub mod castling;
pub mod fen;
mod integrity;
mod make;
mod position;
pub mod zobrist;

pub use fen::{FenError, START_FEN};
pub use position::{Keys, Position, State};
