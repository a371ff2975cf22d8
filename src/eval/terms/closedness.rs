//! Closedness (Ethereal's): knights gain and rooks lose as the pawns ram and the files close.
//! One number says how closed the position is, from the pawns on the board, the rammed pairs and
//! the open files; each knight and rook is then scored by that number.

use crate::board::Position;
use crate::eval::accumulator::Accumulator;
use crate::eval::baked::idx;
use crate::types::{Bitboard, Color, PieceType};

/// Levels of closedness: 0 (open) to 8 (closed).
pub const LEVELS: usize = 9;

/// How closed the position is: (pawns + 3 · rammed pairs - 4 · files without a pawn) / 3,
/// clamped to 0..=8.
pub fn closedness(pos: &Position) -> usize {
    let white = pos.pieces(Color::White, PieceType::Pawn);
    let black = pos.pieces(Color::Black, PieceType::Pawn);
    let rammed = (white & black.forward(Color::Black)).count() as i32;
    let pawns = (white | black).count() as i32;
    let raw = pawns + 3 * rammed - 4 * open_files(white | black) as i32;
    (raw / 3).clamp(0, LEVELS as i32 - 1) as usize
}

/// Files with no pawn on them.
fn open_files(pawns: Bitboard) -> u32 {
    let mut files = pawns.0;
    files |= files >> 32;
    files |= files >> 16;
    files |= files >> 8;
    8 - (files & 0xff).count_ones()
}

/// Adds `color`'s knights and rooks by the closedness `level` (the same for both sides).
pub fn closedness_pieces<A: Accumulator>(pos: &Position, color: Color, level: usize, acc: &mut A) {
    let knights = pos.pieces(color, PieceType::Knight).count() as i32;
    if knights > 0 {
        acc.add(color, idx::CLOSEDNESS_KNIGHT + level, knights);
    }
    let rooks = pos.pieces(color, PieceType::Rook).count() as i32;
    if rooks > 0 {
        acc.add(color, idx::CLOSEDNESS_ROOK + level, rooks);
    }
}

#[cfg(test)]
#[path = "closedness_tests.rs"]
mod tests;
