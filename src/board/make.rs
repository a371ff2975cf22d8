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
mod tests {
    use crate::movegen::legal_moves;
    use crate::Position;

    #[test]
    fn null_move_flips_side_and_restores() {
        let mut pos =
            Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3").unwrap();
        let before = (pos.to_fen(), pos.key());
        pos.make_null_move();
        assert_eq!(pos.to_fen(), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3");
        assert!(pos.is_consistent());
        pos.unmake_null_move();
        assert_eq!((pos.to_fen(), pos.key()), before);
    }

    #[test]
    fn material_key_depends_only_on_piece_counts() {
        let a = Position::from_fen("4k3/8/8/3r4/8/8/8/R3K3 w - - 0 1").unwrap();
        let b = Position::from_fen("r3k3/8/8/8/8/8/5R2/4K3 b - - 0 1").unwrap();
        let c = Position::from_fen("4k3/8/8/3q4/8/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(a.material_key(), b.material_key());
        assert_ne!(a.material_key(), c.material_key());
        assert_ne!(a.key(), b.key());
    }

    #[test]
    fn transpositions_have_equal_keys() {
        let mut a = Position::startpos();
        let mut b = Position::startpos();
        for m in ["g1f3", "g8f6", "b1c3", "b8c6"] {
            a.play_uci(m).unwrap();
        }
        for m in ["b1c3", "b8c6", "g1f3", "g8f6"] {
            b.play_uci(m).unwrap();
        }
        assert_eq!(a.key(), b.key());
        assert_eq!(a.pawn_key(), Position::startpos().pawn_key());
    }

    #[test]
    fn captures_promotions_and_castling_update_rights_and_clocks() {
        let mut pos = Position::from_fen("rn2k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 5 10").unwrap();
        pos.play_uci("b7a8q").unwrap(); // captures the a8 rook: Black loses queen-side castling
        assert_eq!(pos.to_fen(), "Qn2k2r/8/8/8/8/8/8/R3K2R b KQk - 0 10");
        pos.play_uci("e8g8").unwrap();
        assert_eq!(pos.to_fen(), "Qn3rk1/8/8/8/8/8/8/R3K2R w KQ - 1 11");
        assert_eq!(legal_moves(&pos).len(), 35); // python-chess agrees
    }

    #[test]
    fn key_after_predicts_the_key_of_ordinary_moves() {
        use crate::types::MoveKind;
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        let (mut exact, mut total) = (0, 0);
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            for &m in legal_moves(&pos).as_slice() {
                let mut after = pos.clone();
                after.make_move(m);
                let predicted = pos.key_after(m);
                total += 1;
                // Castling, double pushes and moves that touch a rook's or king's first square
                // may change what the guess leaves out; every other move must be exact.
                let simple = m.kind() != MoveKind::Castling
                    && m.kind() != MoveKind::EnPassant
                    && after.en_passant().is_none()
                    && after.castling_rights() == pos.castling_rights();
                if simple {
                    assert_eq!(predicted, after.key(), "{fen}: {m:?}");
                }
                exact += (predicted == after.key()) as usize;
            }
        }
        assert!(exact * 10 >= total * 8, "{exact} of {total} exact");
    }
}
