//! Pawn structure (doubled, isolated, backward, connected), passed pawns (by rank, free path,
//! blocked, safe next square, king distances, protected, connected) and candidate passed pawns.
//!
//! [`structure`] holds the terms that depend on the pawns alone (the pawn cache may stand in for
//! it); [`passed_pieces`] the passed-pawn terms that also depend on pieces and kings.

use crate::attacks::pawn_attacks;
use crate::board::Position;
use crate::eval::accumulator::Accumulator;
use crate::eval::baked::idx;
use crate::eval::masks::{adjacent_files, attack_span, front_span, passed_span, pawn_attacks_all};
use crate::types::{Bitboard, Color, PieceType, Square};

use super::AttackInfo;

/// The passed pawns of `color`.
pub fn passed_pawns(pos: &Position, color: Color) -> Bitboard {
    let theirs = pos.pieces(!color, PieceType::Pawn);
    let mut passed = Bitboard::EMPTY;
    for sq in pos.pieces(color, PieceType::Pawn) {
        if (passed_span(color, sq) & theirs).is_empty() {
            passed |= sq;
        }
    }
    passed
}

/// [`structure`] for both sides: the passed pawns of [White, Black].
pub fn structure_both<A: Accumulator>(pos: &Position, acc: &mut A) -> [Bitboard; 2] {
    Color::ALL.map(|color| structure(pos, color, acc))
}

/// The pawn-only terms of `color`; returns its passed pawns. Reads nothing but the pawns.
pub fn structure<A: Accumulator>(pos: &Position, color: Color, acc: &mut A) -> Bitboard {
    let them = !color;
    let ours = pos.pieces(color, PieceType::Pawn);
    let theirs = pos.pieces(them, PieceType::Pawn);
    let their_attacks = pawn_attacks_all(them, theirs);
    let passed = passed_pawns(pos, color);

    for sq in ours {
        let rank = sq.relative_rank(color) as usize;
        let neighbours = ours & adjacent_files(sq.file());
        // Connected: defended by an own pawn, or beside one (a phalanx); such pawns defend each
        // other's advance, which no piece-square table can see.
        let phalanx = neighbours & Bitboard::rank(sq.rank());
        if (phalanx | (pawn_attacks(!color, sq) & ours)).any() {
            acc.add(color, idx::PAWNS_CONNECTED + rank, 1);
        }
        if (front_span(color, sq) & ours).any() {
            acc.add(color, idx::PAWNS_DOUBLED, 1);
        }
        if neighbours.is_empty() {
            acc.add(color, idx::PAWNS_ISOLATED, 1);
        } else {
            // Backward: every neighbour is further advanced, and the stop square is attacked.
            let level_or_behind = neighbours & !attack_span(color, sq);
            let stop = sq.relative(color).offset(8).relative(color);
            if level_or_behind.is_empty() && their_attacks.contains(stop) {
                acc.add(color, idx::PAWNS_BACKWARD, 1);
            }
        }
        if passed.contains(sq) {
            acc.add(color, idx::PASSED_RANK + rank, 1);
            if (pawn_attacks(!color, sq) & ours).any() {
                acc.add(color, idx::PASSED_PROTECTED, 1);
            }
            if (adjacent_files(sq.file()) & passed).any() {
                acc.add(color, idx::PASSED_CONNECTED, 1);
            }
        } else if (front_span(color, sq) & theirs).is_empty() {
            // Candidate: an open file ahead, and at least as many supporters (own pawns beside or
            // behind on adjacent files) as sentries (enemy pawns ahead on adjacent files).
            let sentries = (attack_span(color, sq) & theirs).count();
            let supporters = (neighbours & !attack_span(color, sq)).count();
            if supporters >= sentries {
                acc.add(color, idx::PASSED_CANDIDATE + rank, 1);
            }
        }
    }
    passed
}

/// The terms of `color`'s passed pawns that depend on the other pieces and the kings; `info`
/// must hold both sides' attacks.
pub fn passed_pieces<A: Accumulator>(
    pos: &Position,
    color: Color,
    passed: Bitboard,
    info: &AttackInfo,
    acc: &mut A,
) {
    for sq in passed {
        let rank = sq.relative_rank(color) as usize;
        let promotion = Square::from_file_rank(sq.file(), 7).relative(color);
        let stop = sq.relative(color).offset(8).relative(color);
        if (front_span(color, sq) & pos.occupied()).is_empty() {
            acc.add(color, idx::PASSED_FREE_PATH + rank, 1);
        }
        if pos.pieces_of(!color).contains(stop) {
            acc.add(color, idx::PASSED_BLOCKED, 1);
        }
        if !pos.occupied().contains(stop) && !info.all[(!color).index()].contains(stop) {
            acc.add(color, idx::PASSED_SAFE_STOP + rank, 1);
        }
        let own_distance = pos.king_square(color).distance(promotion) as usize;
        let enemy_distance = pos.king_square(!color).distance(promotion) as usize;
        acc.add(color, idx::PASSED_OWN_KING_DISTANCE + own_distance.min(7), 1);
        acc.add(color, idx::PASSED_ENEMY_KING_DISTANCE + enemy_distance.min(7), 1);
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::baked::idx;
    use crate::eval::tests::coefficient;

    #[test]
    fn phalanx_and_defended_pawns_are_connected_by_rank() {
        // d4-e4 side by side (rank index 3), c3 defends d4 (c3 itself is neither).
        let fen = "4k3/8/8/8/3PP3/2P5/8/4K3 w - - 0 1";
        assert_eq!(coefficient(fen, idx::PAWNS_CONNECTED + 3), 2);
        assert_eq!(coefficient(fen, idx::PAWNS_CONNECTED + 2), 0);
        // Colours swapped: Black's count, negative.
        let swapped = "4k3/8/2p5/3pp3/8/8/8/4K3 b - - 0 1";
        assert_eq!(coefficient(swapped, idx::PAWNS_CONNECTED + 3), -2);
        let apart = "4k3/8/8/8/2P1P3/8/8/1N2K3 w - - 0 1";
        assert_eq!(coefficient(apart, idx::PAWNS_CONNECTED + 3), 0);
    }

    #[test]
    fn a_passed_pawn_has_a_safe_stop_square_only_when_nothing_guards_it() {
        // The e5 pawn's stop square e6: free; then guarded by a rook on a6; then occupied.
        let free = "6nk/8/8/4P3/8/8/8/KN6 w - - 0 1";
        assert_eq!(coefficient(free, idx::PASSED_SAFE_STOP + 4), 1);
        let guarded = "6nk/8/r7/4P3/8/8/8/KN6 w - - 0 1";
        assert_eq!(coefficient(guarded, idx::PASSED_SAFE_STOP + 4), 0);
        let blocked = "6nk/8/4n3/4P3/8/8/8/KN6 w - - 0 1";
        assert_eq!(coefficient(blocked, idx::PASSED_SAFE_STOP + 4), 0);
    }

    #[test]
    fn a_pawn_on_the_seventh_is_always_passed_so_never_a_candidate() {
        // Why `passed.candidate` declares index 6 fixed: no enemy pawn can stand ahead of it,
        // even with enemy pawns on the sixth beside it. A pawn on the sixth with a sentry is one.
        let seventh = "7k/3P4/2p1p3/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(coefficient(seventh, idx::PASSED_RANK + 6), 1);
        assert_eq!(coefficient(seventh, idx::PASSED_CANDIDATE + 6), 0);
        let sixth = "4k3/2p5/3P4/4P3/8/8/8/4K3 w - - 0 1";
        assert_eq!(coefficient(sixth, idx::PASSED_CANDIDATE + 5), 1);
    }
}
