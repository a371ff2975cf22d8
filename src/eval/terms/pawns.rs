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
#[path = "pawns_tests.rs"]
mod tests;
