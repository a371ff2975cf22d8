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
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    /// Along pseudo-random games from positions rich in pins, castling, en passant and
    /// promotions, both tests agree with making the move and looking at the king, for every move.
    #[test]
    fn check_info_agrees_with_making_the_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let (mut checks, mut moves) = (0, 0);
        for fen in fens {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..60 {
                let list = legal_moves(&pos);
                if list.is_empty() {
                    break;
                }
                let info = CheckInfo::new(&pos);
                for &m in list.as_slice() {
                    let mut after = pos.clone();
                    after.make_move(m);
                    let truth = after.in_check();
                    assert_eq!(gives_check(&pos, m), truth, "{}: {m:?}", pos.to_fen());
                    assert_eq!(info.gives_check(&pos, m), truth, "{}: {m:?}", pos.to_fen());
                    checks += truth as usize;
                    moves += 1;
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let m = list.as_slice()[(seed >> 33) as usize % list.len()];
                pos.make_move(m);
            }
        }
        assert!(moves > 5_000 && checks > 200, "{checks} checks among {moves} moves");
    }

    #[test]
    fn discovered_checks_need_the_blocker_to_leave_the_line() {
        let cases = [
            ("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4c5", true),
            ("4k3/8/8/8/8/8/4K3/4R3 w - - 0 1", "e2d2", true),
            ("4k3/8/8/8/8/8/4K3/4R3 w - - 0 1", "e2e3", false),
            ("4k3/8/8/8/8/4P3/8/4R1K1 w - - 0 1", "e3e4", false),
            ("7k/8/8/8/3N4/8/1Q6/K7 w - - 0 1", "d4f5", true),
        ];
        for (fen, uci, expected) in cases {
            let pos = Position::from_fen(fen).unwrap();
            let m = pos.parse_uci_move(uci).unwrap();
            assert_eq!(CheckInfo::new(&pos).gives_check(&pos, m), expected, "{fen} {uci}");
            assert_eq!(gives_check(&pos, m), expected, "{fen} {uci}");
        }
    }
}
