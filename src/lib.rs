//! Whetstone: a UCI chess engine whose evaluation is a flat, tunable parameter vector.
//!
//! Modules mirror the architecture: `types` → `attacks` → `board` → `movegen` → (eval → search) →
//! `uci`; `params` sits beside `board`, below the evaluation and search that declare its layouts.

pub mod attacks;
pub mod bench;
pub mod board;
pub mod config;
pub mod eval;
pub mod movegen;
pub mod params;
pub mod search;
pub mod types;
pub mod uci;

pub use board::{FenError, Position};
pub use types::{Bitboard, Color, Move, Piece, PieceType, Square};
