//! Whether a legal move gives check: direct checks by the moved (or promoted) piece, discovered
//! checks by sliders behind it, and the special cases of en passant and castling.

use crate::board::castling::{castle_side, king_destination, rook_destination};
use crate::board::Position;
use crate::types::{Bitboard, Move, MoveKind, PieceType, Square};

use crate::attacks::{
    between, bishop_attacks, knight_attacks, line, pawn_attacks, piece_attacks, rook_attacks,
};

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

/// What makes a move give check in one position, worked out once for all its moves (the search
/// asks about every move it tries, quiescence about every quiet move): the squares from which
/// each kind of piece would attack the enemy king, and our pieces that stand alone between one
/// of our sliders and that king, so that moving them off the line uncovers a check.
pub struct CheckInfo {
    king: Square,
    /// By piece type: the squares attacking the enemy king (the king's own entry is empty).
    squares: [Bitboard; PieceType::NUM],
    discoverers: Bitboard,
}

impl CheckInfo {
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let king = pos.king_square(!us);
        let occ = pos.occupied();
        let bishop = bishop_attacks(king, occ);
        let rook = rook_attacks(king, occ);
        let squares =
            [pawn_attacks(!us, king), knight_attacks(king), bishop, rook, bishop | rook, Bitboard::EMPTY];
        let snipers = (bishop_attacks(king, Bitboard::EMPTY) & pos.diagonal_sliders(us))
            | (rook_attacks(king, Bitboard::EMPTY) & pos.orthogonal_sliders(us));
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & !Bitboard::from_square(sniper) & occ;
            if blockers.any() && !blockers.more_than_one() {
                discoverers |= blockers;
            }
        }
        CheckInfo { king, squares, discoverers: discoverers & pos.pieces_of(us) }
    }

    /// [`gives_check`] for a legal move of the position this was made for. A piece moving to
    /// a square that attacks the king checks (the square sets were taken with the piece still
    /// on its old square, which can only matter if it gave check already, and the enemy king
    /// is never in check with us to move); a lone blocker leaving its line uncovers one.
    /// Castling, en passant and promotions take the full test.
    #[inline]
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        if m.kind() != MoveKind::Normal {
            return gives_check(pos, m);
        }
        let (from, to) = (m.from(), m.to());
        let moved = pos.piece_on(from).expect("a move starts on a piece").piece_type();
        self.squares[moved.index()].contains(to)
            || (self.discoverers.contains(from) && !line(from, to).contains(self.king))
    }
}

#[cfg(test)]
#[path = "checks_tests.rs"]
mod tests;
