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
mod tests {
    use super::*;

    /// Key values published with the Polyglot book format specification.
    #[test]
    fn polyglot_keys_match_the_specification() {
        let key = |fen: &str| polyglot_key(&Position::from_fen(fen).unwrap()).unwrap();
        assert_eq!(key(crate::board::START_FEN), 0x463b_9618_1691_fc9c);
        assert_eq!(key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"), 0x823c_9b50_fd11_4196);
        assert_eq!(
            key("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"),
            0x0756_b944_61c5_0fb0
        );
        assert_eq!(
            key("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
            0x22a4_8b5a_8e47_ff78
        );
    }

    #[test]
    fn reads_a_book_and_picks_the_heaviest_move() {
        let start = Position::startpos();
        let key = polyglot_key(&start).unwrap();
        let encode = |from: &str, to: &str| -> u16 {
            let (f, t): (Square, Square) = (from.parse().unwrap(), to.parse().unwrap());
            (f.index() as u16) << 6 | t.index() as u16
        };
        let mut bytes = Vec::new();
        for (k, m, w) in [
            (key - 1, encode("a2", "a3"), 9),
            (key, encode("d2", "d4"), 5),
            (key, encode("e2", "e4"), 7),
            (key + 1, 0, 1),
        ] {
            bytes.extend_from_slice(&u64::to_be_bytes(k));
            bytes.extend_from_slice(&u16::to_be_bytes(m));
            bytes.extend_from_slice(&u16::to_be_bytes(w));
            bytes.extend_from_slice(&[0; 4]);
        }
        let path = std::env::temp_dir().join(format!("whetstone-book-{}.bin", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let moves = book_moves(path.to_str().unwrap(), &start);
        let best = probe(path.to_str().unwrap(), &start).map(|m| start.move_to_uci(m));
        std::fs::remove_file(&path).ok();
        assert_eq!(moves.len(), 2);
        assert_eq!(best.as_deref(), Some("e2e4"));
        assert_eq!(probe("/nonexistent.bin", &start), None);
    }
}
