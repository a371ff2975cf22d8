//! Whether an arbitrary 16-bit move (from the transposition table, a killer slot, a book) is
//! legal in a position, without generating the move list: the piece must be able to make the
//! move, and the move must respect the position's checkers and pins.

use crate::board::Position;
use crate::types::{Bitboard, Color, Move, MoveKind, PieceType};

use super::generate::{castling_moves, en_passant_moves};
use super::movelist::MoveList;
use crate::attacks::{between, line, pawn_attacks, piece_attacks};

/// True exactly when `m` is in the legal move list of `pos`.
pub fn is_legal_move(pos: &Position, m: Move) -> bool {
    // Only promotions use the promotion bits; any other word with them set is not a move we make.
    if m.is_null() || (m.kind() != MoveKind::Promotion && m.raw() & 0x3000 != 0) {
        return false;
    }
    let us = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_on(from) else { return false };
    if piece.color() != us {
        return false;
    }
    match m.kind() {
        // The rare kinds are checked against their own generators.
        MoveKind::Castling => {
            let mut list = MoveList::new();
            if piece.piece_type() == PieceType::King && !pos.in_check() {
                castling_moves(pos, &mut list);
            }
            return list.contains(m);
        }
        MoveKind::EnPassant => {
            let mut list = MoveList::new();
            if piece.piece_type() == PieceType::Pawn && pos.en_passant() == Some(to) {
                en_passant_moves(pos, to, &mut list);
            }
            return list.contains(m);
        }
        MoveKind::Normal | MoveKind::Promotion => {}
    }
    if pos.pieces_of(us).contains(to) {
        return false;
    }
    let occ = pos.occupied();
    let pt = piece.piece_type();
    if pt == PieceType::Pawn {
        let last_rank = Bitboard::relative_rank(us, 7).contains(to);
        if last_rank != (m.kind() == MoveKind::Promotion) || !pawn_can_reach(pos, us, m) {
            return false;
        }
    } else if m.kind() == MoveKind::Promotion || !piece_attacks(pt, from, occ).contains(to) {
        return false;
    }
    // Legality: the king must not step into an attack; other pieces must answer a check and
    // stay on their pin line.
    let king = pos.king_square(us);
    if pt == PieceType::King {
        return !pos.is_attacked_by(to, !us, occ ^ from);
    }
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return false;
    }
    if checkers.any() && !between(king, checkers.lsb()).contains(to) {
        return false;
    }
    !pos.pinned().contains(from) || line(king, from).contains(to)
}

/// A pawn's push, double push or capture from `m.from()` to `m.to()` (promotion rank checked by the caller).
fn pawn_can_reach(pos: &Position, us: Color, m: Move) -> bool {
    let (from, to) = (m.from(), m.to());
    let occ = pos.occupied();
    if pawn_attacks(us, from).contains(to) {
        return pos.pieces_of(!us).contains(to);
    }
    let one = from.relative(us).offset(8).relative(us);
    if to == one {
        return !occ.contains(to);
    }
    if from.relative_rank(us) != 1 {
        return false;
    }
    let two = from.relative(us).offset(16).relative(us);
    to == two && !occ.contains(one) && !occ.contains(to)
}

#[cfg(test)]
#[path = "legality_tests.rs"]
mod tests;
