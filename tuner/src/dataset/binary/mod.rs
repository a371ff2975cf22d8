//! The binary training-data formats, each through the crate that defines it (docs/datasets.md
//! says what each crate covers and what it does not):
//!
//! - [`viri`]: viriformat, Viridithas's game chains (`viriformat` crate): a 32-byte marlinformat
//!   board starting each game, then 4 bytes per move (the move and the search score of the
//!   position it was played from), ended by four zero bytes. Read and written.
//! - [`bullet`]: bulletformat, bullet's 32-byte boards (`bulletformat` crate), stored from the
//!   side to move's view. Read and written.
//! - [`binpack`]: Stockfish's `.binpack` (`sfbinpack` crate). Read.
//!
//! Every reader replays or rebuilds each record as a [`whetstone::Position`] (our FEN parser
//! validates every board, our legality check every move), so a corrupt record is reported with
//! its byte offset instead of reaching the tuner.

pub mod binpack;
pub mod bullet;
pub mod viri;

use whetstone::movegen::legal_moves;
use whetstone::types::{Move, MoveKind};
use whetstone::Position;

/// Our 16-bit move as viriformat's: the same squares and promotion bits (both encode castling
/// as king takes own rook), the kind in the top two bits spelled differently.
pub fn to_viri_bits(m: Move) -> u16 {
    let flags: u16 = match m.kind() {
        MoveKind::Normal => 0b00,
        MoveKind::Promotion => 0b11,
        MoveKind::EnPassant => 0b01,
        MoveKind::Castling => 0b10,
    };
    (m.raw() & 0x3fff) | flags << 14
}

/// Viriformat's 16-bit move as ours (the inverse of [`to_viri_bits`]).
pub fn from_viri_bits(bits: u16) -> Move {
    let kind: u16 = match bits >> 14 {
        0b00 => MoveKind::Normal as u16,
        0b11 => MoveKind::Promotion as u16,
        0b01 => MoveKind::EnPassant as u16,
        _ => MoveKind::Castling as u16,
    };
    Move::from_raw((bits & 0x3fff) | kind << 14)
}

/// The legal move of `from` that leads to `to` (the same board, side, castling rights and move
/// counters; the en-passant square as the FEN writes it), if there is one. Candidates are cut
/// to the moves whose destination holds the mover's piece in `to` first, as FEN comparison is the
/// costly part.
pub fn move_between(from: &mut Position, to: &Position) -> Option<Move> {
    let us = from.side_to_move();
    let target = to.to_fen();
    let candidates: Vec<Move> = legal_moves(from)
        .iter()
        .copied()
        .filter(|m| {
            let landing = if m.kind() == MoveKind::Castling { None } else { Some(m.to()) };
            landing.is_none_or(|sq| to.piece_on(sq).is_some_and(|p| p.color() == us))
                && to.piece_on(m.from()).is_none_or(|_| m.kind() == MoveKind::Castling)
        })
        .collect();
    for m in candidates {
        from.make_move(m);
        let same = from.to_fen() == target;
        from.unmake_move(m);
        if same {
            return Some(m);
        }
    }
    None
}

/// A 4-bit piece code of the 32-byte boards (bulletformat and marlinformat share the layout):
/// the pieces of the occupied squares in square order, two to a byte, low nibble first.
pub fn nibble(pieces: &[u8], i: usize) -> u8 {
    (pieces[i / 2] >> ((i % 2) * 4)) & 0xf
}

#[cfg(test)]
mod tests;
