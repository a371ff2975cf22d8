//! Whether a legal move gives check: direct checks by the moved (or promoted) piece, discovered
//! checks by sliders behind it, and the special cases of en passant and castling.

use crate::board::castling::{castle_side, king_destination, rook_destination};
use crate::board::Position;
use crate::types::{Bitboard, Move, MoveKind, PieceType};

use crate::attacks::{bishop_attacks, pawn_attacks, piece_attacks, rook_attacks};

/// True if playing the legal move `m` leaves the opponent in check.
pub fn gives_check(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let their_king = pos.king_square(!us);
    let from = m.from();
    let to = m.to();

    // The squares our pieces stand on after the move, and the piece that lands where.
    let (occ, lifted, landed, landed_on) = match m.kind() {
        MoveKind::Castling => {
            let side = castle_side(from, to);
            let king_to = king_destination(us, side);
            let rook_to = rook_destination(us, side);
            let occ = (pos.occupied() ^ from ^ to) | king_to | rook_to;
            (occ, Bitboard::from_square(from) | to, PieceType::Rook, rook_to)
        }
        kind => {
            let mut occ = (pos.occupied() ^ from) | to;
            if kind == MoveKind::EnPassant {
                occ ^= to.relative(us).offset(-8).relative(us);
            }
            let moved = pos.piece_on(from).expect("a move starts on a piece").piece_type();
            (occ, Bitboard::from_square(from), m.promotion_piece().unwrap_or(moved), to)
        }
    };

    let direct = match landed {
        PieceType::Pawn => pawn_attacks(us, landed_on),
        PieceType::King => Bitboard::EMPTY,
        pt => piece_attacks(pt, landed_on, occ),
    };
    if direct.contains(their_king) {
        return true;
    }
    // Discovered: a slider of ours (other than the pieces that moved) now sees the king.
    let diagonal = pos.diagonal_sliders(us) & !lifted;
    let orthogonal = pos.orthogonal_sliders(us) & !lifted;
    (bishop_attacks(their_king, occ) & diagonal).any() || (rook_attacks(their_king, occ) & orthogonal).any()
}
