//! Making and unmaking moves (and the null move), keeping every key incremental.

use crate::types::{Color, Move, MoveKind, Piece, PieceType, Square};

use super::castling::{castle_side, king_destination, rook_destination};
use super::position::is_minor;
use super::zobrist;
use super::Position;

impl Position {
    /// Plays a legal move. The move must come from this position's legal move list (or be
    /// checked with [`Position::is_legal`]); use `play_uci` for untrusted text.
    pub fn make_move(&mut self, m: Move) {
        debug_assert!(!m.is_null());
        self.history.push(self.st);
        let us = self.side;
        let them = !us;
        let from = m.from();
        let to = m.to();

        let st = &mut self.st;
        st.halfmove_clock += 1;
        st.plies_from_null += 1;
        st.last_move = m;
        st.captured = None;
        st.key ^= zobrist::side();
        if let Some(ep) = st.en_passant.take() {
            st.key ^= zobrist::en_passant(ep);
        }

        if m.kind() == MoveKind::Castling {
            self.make_castling(us, from, to);
        } else {
            let piece = self.board[from.index()].expect("a move starts on a piece");
            let capture_sq =
                if m.kind() == MoveKind::EnPassant { to.relative(us).offset(-8).relative(us) } else { to };
            if let Some(captured) = self.board[capture_sq.index()] {
                self.remove_with_keys(captured, capture_sq);
                self.st.captured = Some(captured);
                self.st.halfmove_clock = 0;
            }
            if let Some(pt) = m.promotion_piece() {
                self.remove_with_keys(piece, from);
                self.put_with_keys(Piece::new(us, pt), to);
            } else {
                self.move_piece(piece, from, to);
                let k = zobrist::piece_square(piece, from) ^ zobrist::piece_square(piece, to);
                self.st.key ^= k;
                self.xor_structure_key(piece, k);
            }
            if piece.piece_type() == PieceType::Pawn {
                self.st.halfmove_clock = 0;
                // A double push leaves an en-passant square, if an enemy pawn can use it.
                if from.index() ^ to.index() == 16 {
                    let ep = Square::new(((from.index() + to.index()) / 2) as u8);
                    self.side = them;
                    if self.en_passant_capturable(ep) {
                        self.st.en_passant = Some(ep);
                        self.st.key ^= zobrist::en_passant(ep);
                    }
                    self.side = us;
                }
            }
        }

        let kept = self.castling_config.rights_mask(from) & self.castling_config.rights_mask(to);
        if self.st.castling.0 & !kept != 0 {
            self.st.key ^= zobrist::castling(self.st.castling);
            self.st.castling.0 &= kept;
            self.st.key ^= zobrist::castling(self.st.castling);
        }

        self.side = them;
        self.game_ply += 1;
        self.update_check_info();
        debug_assert!(self.is_consistent(), "after {m:?}: {}", self.integrity_report());
    }

    /// The key the position will have after the legal move `m`, computed without making it, so
    /// the search can ask for the move's table entry early. Exact for most moves; castling, a
    /// new en-passant square and lost castling rights are left out (a wrong guess only wastes
    /// a prefetch).
    pub fn key_after(&self, m: Move) -> u64 {
        let mut key = self.st.key ^ zobrist::side();
        if let Some(ep) = self.st.en_passant {
            key ^= zobrist::en_passant(ep);
        }
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else { return key };
        if m.kind() == MoveKind::Castling {
            return key;
        }
        if let Some(captured) = self.board[to.index()] {
            key ^= zobrist::piece_square(captured, to);
        }
        let landed = m.promotion_piece().map_or(piece, |pt| Piece::new(self.side, pt));
        key ^ zobrist::piece_square(piece, from) ^ zobrist::piece_square(landed, to)
    }

    /// Takes back the last move made with [`Position::make_move`].
    pub fn unmake_move(&mut self, m: Move) {
        self.side = !self.side;
        self.game_ply -= 1;
        let us = self.side;
        let from = m.from();
        let to = m.to();
        if m.kind() == MoveKind::Castling {
            let side = castle_side(from, to);
            let (king_to, rook_to) = (king_destination(us, side), rook_destination(us, side));
            self.remove_piece(Piece::new(us, PieceType::King), king_to);
            self.remove_piece(Piece::new(us, PieceType::Rook), rook_to);
            self.put_piece(Piece::new(us, PieceType::King), from);
            self.put_piece(Piece::new(us, PieceType::Rook), to);
        } else {
            let placed = self.board[to.index()].expect("the moved piece is on its destination");
            self.remove_piece(placed, to);
            let original =
                if m.kind() == MoveKind::Promotion { Piece::new(us, PieceType::Pawn) } else { placed };
            self.put_piece(original, from);
            if let Some(captured) = self.st.captured {
                let capture_sq = if m.kind() == MoveKind::EnPassant {
                    to.relative(us).offset(-8).relative(us)
                } else {
                    to
                };
                self.put_piece(captured, capture_sq);
            }
        }
        self.st = self.history.pop().expect("unmake_move without a move to take back");
        debug_assert!(self.is_consistent(), "after unmaking {m:?}: {}", self.integrity_report());
    }

    /// Passes the turn (for null-move pruning). Not allowed when in check.
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.in_check());
        self.history.push(self.st);
        let st = &mut self.st;
        st.key ^= zobrist::side();
        if let Some(ep) = st.en_passant.take() {
            st.key ^= zobrist::en_passant(ep);
        }
        st.halfmove_clock += 1;
        st.plies_from_null = 0;
        st.captured = None;
        st.last_move = Move::NULL;
        self.side = !self.side;
        self.game_ply += 1;
        self.update_check_info();
        debug_assert!(self.is_consistent(), "after null move: {}", self.integrity_report());
    }

    pub fn unmake_null_move(&mut self) {
        self.side = !self.side;
        self.game_ply -= 1;
        self.st = self.history.pop().expect("unmake_null_move without a null move to take back");
    }

    /// King takes own rook: both land on their castling squares (which may overlap the origins
    /// in Chess960, so both are lifted before either is placed).
    fn make_castling(&mut self, us: Color, king_from: Square, rook_from: Square) {
        let side = castle_side(king_from, rook_from);
        let king = Piece::new(us, PieceType::King);
        let rook = Piece::new(us, PieceType::Rook);
        self.remove_with_keys(king, king_from);
        self.remove_with_keys(rook, rook_from);
        self.put_with_keys(king, king_destination(us, side));
        self.put_with_keys(rook, rook_destination(us, side));
    }

    /// A piece of `piece`'s kind moved on or off squares whose keys XOR to `k`: the pawn key
    /// or its side's non-pawn key changes with it, and the minor-piece key with a minor's.
    #[inline(always)]
    fn xor_structure_key(&mut self, piece: Piece, k: u64) {
        let kind = piece.piece_type();
        if kind == PieceType::Pawn {
            self.st.pawn_key ^= k;
        } else {
            self.st.non_pawn_keys[piece.color().index()] ^= k;
            if is_minor(kind) {
                self.st.minor_key ^= k;
            }
        }
    }

    /// Removes a piece and updates the position, pawn and material keys.
    #[inline(always)]
    fn remove_with_keys(&mut self, piece: Piece, sq: Square) {
        self.remove_piece(piece, sq);
        let k = zobrist::piece_square(piece, sq);
        self.st.key ^= k;
        self.xor_structure_key(piece, k);
        let remaining = self.count(piece.color(), piece.piece_type());
        self.st.material_key ^= zobrist::material(piece, remaining);
    }

    /// Places a piece and updates the position, pawn and material keys.
    #[inline(always)]
    fn put_with_keys(&mut self, piece: Piece, sq: Square) {
        let before = self.count(piece.color(), piece.piece_type());
        self.put_piece(piece, sq);
        let k = zobrist::piece_square(piece, sq);
        self.st.key ^= k;
        self.xor_structure_key(piece, k);
        self.st.material_key ^= zobrist::material(piece, before);
    }
}

#[cfg(test)]
#[path = "make_tests.rs"]
mod tests;
