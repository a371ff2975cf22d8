//! The board integrity check: every redundant representation agrees with every other.
//! Asserted after each make/unmake in debug and test builds.

use crate::types::{Bitboard, CastleSide, Color, Piece, PieceType, Square};

use super::Position;

impl Position {
    /// True when [`Position::integrity_report`] finds nothing wrong.
    pub fn is_consistent(&self) -> bool {
        self.integrity_problems().is_empty()
    }

    /// A readable list of every inconsistency, or "consistent".
    pub fn integrity_report(&self) -> String {
        let problems = self.integrity_problems();
        if problems.is_empty() {
            "consistent".to_string()
        } else {
            problems.join("; ")
        }
    }

    fn integrity_problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        // Square array and bitboards describe the same placement.
        for sq in Square::all() {
            let from_bitboards: Vec<Piece> = Color::ALL
                .iter()
                .flat_map(|&c| PieceType::ALL.iter().map(move |&pt| Piece::new(c, pt)))
                .filter(|p| self.pieces(p.color(), p.piece_type()).contains(sq))
                .collect();
            let on_square: Vec<Piece> = self.piece_on(sq).into_iter().collect();
            if from_bitboards != on_square {
                problems.push(format!("{sq}: array says {on_square:?}, bitboards say {from_bitboards:?}"));
            }
        }
        // Colour occupancies are the union of that colour's pieces and do not overlap.
        let mut union = [Bitboard::EMPTY; 2];
        for sq in Square::all() {
            if let Some(p) = self.piece_on(sq) {
                union[p.color().index()] |= sq;
            }
        }
        for color in Color::ALL {
            if union[color.index()] != self.pieces_of(color) {
                problems.push(format!("{color:?} occupancy disagrees with the pieces"));
            }
        }
        if (self.pieces_of(Color::White) & self.pieces_of(Color::Black)).any() {
            problems.push("the colour occupancies overlap".to_string());
        }
        let typed = PieceType::ALL.iter().fold(Bitboard::EMPTY, |b, &pt| b | self.pieces_of_type(pt));
        if typed != self.occupied() {
            problems.push("piece-type bitboards disagree with the occupancy".to_string());
        }
        for color in Color::ALL {
            if self.count(color, PieceType::King) != 1 {
                problems.push(format!("{color:?} has {} kings", self.count(color, PieceType::King)));
                return problems; // the checks below need one king each
            }
        }
        // Castling rights agree with the king and rook squares.
        for color in Color::ALL {
            for side in [CastleSide::King, CastleSide::Queen] {
                if self.st.castling.has(color, side) {
                    let rook = self.castling_config.rook_square(color, side);
                    if self.piece_on(rook) != Some(Piece::new(color, PieceType::Rook)) {
                        problems.push(format!("{color:?} {side:?}-side right but no rook on {rook}"));
                    }
                    if self.king_square(color).relative_rank(color) != 0 {
                        problems.push(format!("{color:?} {side:?}-side right but the king left its rank"));
                    }
                }
            }
        }
        // En passant square (when set) is usable and behind a just-pushed pawn.
        if let Some(ep) = self.st.en_passant {
            let pusher = ep.relative(self.side).offset(-8).relative(self.side);
            if ep.relative_rank(self.side) != 5
                || self.piece_on(pusher) != Some(Piece::new(!self.side, PieceType::Pawn))
                || !self.en_passant_capturable(ep)
            {
                problems.push(format!("en-passant square {ep} is impossible"));
            }
        }
        // Incremental keys equal keys computed from scratch.
        let keys = self.keys_from_scratch();
        if keys.key != self.st.key {
            problems.push(format!("key {:#x} != recomputed {:#x}", self.st.key, keys.key));
        }
        if keys.pawn != self.st.pawn_key {
            problems.push("pawn key differs from the recomputed one".to_string());
        }
        if keys.non_pawn != self.st.non_pawn_keys {
            problems.push("non-pawn keys differ from the recomputed ones".to_string());
        }
        if keys.minor != self.st.minor_key {
            problems.push("minor-piece key differs from the recomputed one".to_string());
        }
        if keys.material != self.st.material_key {
            problems.push("material key differs from the recomputed one".to_string());
        }
        // Check and pin information matches the placement.
        let us = self.side;
        let checkers = self.attackers_to(self.king_square(us), self.occupied()) & self.pieces_of(!us);
        if checkers != self.st.checkers {
            problems.push("checkers are stale".to_string());
        }
        if self.pinned_pieces(us) != self.st.pinned {
            problems.push("pinned pieces are stale".to_string());
        }
        if self.is_attacked_by(self.king_square(!us), us, self.occupied()) {
            problems.push("the side not to move is in check".to_string());
        }
        problems
    }
}
