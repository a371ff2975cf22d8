//! Polyglot opening books (`.bin`): 16-byte big-endian entries (key, move, weight, learn) sorted
//! by key. Keys are Polyglot's Zobrist hashes, computed with the `shakmaty` crate (which
//! implements the Polyglot key) from the position's FEN.

use std::path::Path;

use shakmaty::fen::Fen;
use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{CastlingMode, Chess, EnPassantMode};

use crate::board::Position;
use crate::types::{Move, Square};

/// The Polyglot key of a position.
pub fn polyglot_key(pos: &Position) -> Option<u64> {
    let fen: Fen = pos.to_fen().parse().ok()?;
    let chess: Chess = fen.into_position(CastlingMode::Chess960).ok()?;
    Some(chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0)
}

/// The book's moves for `pos` with their weights (empty if none, or the book cannot be read).
pub fn book_moves(path: &str, pos: &Position) -> Vec<(Move, u16)> {
    let (Some(key), Ok(bytes)) = (polyglot_key(pos), std::fs::read(Path::new(path))) else {
        return Vec::new();
    };
    let entries = bytes.len() / 16;
    let entry = |i: usize| {
        let e = &bytes[i * 16..i * 16 + 16];
        let key = u64::from_be_bytes(e[0..8].try_into().unwrap());
        (key, u16::from_be_bytes([e[8], e[9]]), u16::from_be_bytes([e[10], e[11]]))
    };
    // Binary search for the first entry with this key.
    let (mut lo, mut hi) = (0, entries);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if entry(mid).0 < key {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let mut moves = Vec::new();
    for i in lo..entries {
        let (k, raw, weight) = entry(i);
        if k != key {
            break;
        }
        if let Some(m) = decode(pos, raw) {
            moves.push((m, weight));
        }
    }
    moves
}

/// Polyglot move bits: to (0-5), from (6-11), promotion (12-14: none, n, b, r, q). Castling is
/// written king-takes-rook, which our parser accepts.
fn decode(pos: &Position, raw: u16) -> Option<Move> {
    let to = Square::new((raw & 63) as u8);
    let from = Square::new((raw >> 6 & 63) as u8);
    let promotion = ["", "n", "b", "r", "q"].get((raw >> 12 & 7) as usize)?;
    pos.parse_uci_move(&format!("{from}{to}{promotion}")).ok()
}

/// The book move to play: the highest-weighted one (deterministic, so matches reproduce).
pub fn probe(path: &str, pos: &Position) -> Option<Move> {
    if path.is_empty() {
        return None;
    }
    book_moves(path, pos).into_iter().max_by_key(|&(_, w)| w).map(|(m, _)| m)
}

#[cfg(test)]
#[path = "book_tests.rs"]
mod tests;
