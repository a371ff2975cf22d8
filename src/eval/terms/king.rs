//! King safety: the pawn shield and pawn storm (linear), and the attack units of the enemy's
//! pieces mapped through the king-safety curve (non-linear; see `Accumulator::king_danger`).

use crate::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use crate::board::Position;
use crate::eval::accumulator::Accumulator;
use crate::eval::baked::idx;
use crate::eval::masks::front_span;
use crate::types::{Bitboard, Color, PieceType, Square};

use super::AttackInfo;

/// The terms that depend on the pawns and `color`'s king square alone (kept in the pawn cache
/// per king square): the shelter and storm, and the distance to the nearest pawn.
pub fn king_pawns<A: Accumulator>(pos: &Position, color: Color, acc: &mut A) {
    pawn_shelter(pos, color, acc);
    pawn_distance(pos, color, acc);
}

/// Shield and storm on the king's file and its neighbours. The shield is scored by rank, refined
/// by the file's distance from the edge and on the king's own file (a pawn on g2 shelters a king
/// on g1 more than one on d2 shelters a king on d1); the storm by rank, refined when an own pawn
/// blocks the storming pawn (it can then not open the file).
pub fn pawn_shelter<A: Accumulator>(pos: &Position, color: Color, acc: &mut A) {
    let king = pos.king_square(color);
    let own = pos.pieces(color, PieceType::Pawn);
    let enemy = pos.pieces(!color, PieceType::Pawn);
    let from = king.file().saturating_sub(1);
    let to = (king.file() + 1).min(7);
    for file in from..=to {
        // Squares on this file from the king's rank forwards.
        let ahead = (front_span(color, Square::from_file_rank(file, king.rank()))
            | Square::from_file_rank(file, king.rank()))
            & Bitboard::file(file);
        let shield = nearest_rank(color, own & ahead);
        let storm = nearest_rank(color, enemy & ahead);
        acc.add(color, idx::KING_SHIELD + shield, 1);
        acc.add(color, idx::KING_STORM + storm, 1);
        let from_edge = file.min(7 - file) as usize;
        acc.add(color, idx::KING_SHIELD_FILE + 8 * from_edge + shield, 1);
        if file == king.file() {
            acc.add(color, idx::KING_SHIELD_KING_FILE + shield, 1);
        }
        if shield > 0 && storm == shield + 1 {
            acc.add(color, idx::KING_STORM_BLOCKED + storm, 1);
        }
    }
}

/// The king's distance to the nearest pawn of either side (kings must reach the pawns in the
/// endgame); nothing without pawns.
pub fn pawn_distance<A: Accumulator>(pos: &Position, color: Color, acc: &mut A) {
    let king = pos.king_square(color);
    let pawns = pos.pieces_of_type(PieceType::Pawn);
    if let Some(distance) = pawns.into_iter().map(|sq| king.distance(sq) as usize).min() {
        acc.add(color, idx::KING_PAWN_DISTANCE + distance.min(7), 1);
    }
}

/// Relative rank (from `color`'s side) of the pawn closest to `color`'s first rank, 0 if none.
fn nearest_rank(color: Color, pawns: Bitboard) -> usize {
    if pawns.is_empty() {
        return 0;
    }
    let sq = match color {
        Color::White => pawns.lsb(),
        Color::Black => Square::new(63 - pawns.0.leading_zeros() as u8),
    };
    sq.relative_rank(color) as usize
}

/// Attack units against `defender`'s king, handed to the accumulator's curve.
pub fn king_danger<A: Accumulator>(pos: &Position, defender: Color, info: &AttackInfo, acc: &mut A) {
    let attacker = !defender;
    let a = attacker.index();
    let king = pos.king_square(defender);
    let occ = pos.occupied();
    // Safe checks: squares from which a piece would check, that it attacks, that the attacker does
    // not occupy and the defender does not attack.
    let safe = !pos.pieces_of(attacker) & !info.all[defender.index()];
    let bishop_checks = bishop_attacks(king, occ);
    let rook_checks = rook_attacks(king, occ);
    let check_squares = [knight_attacks(king), bishop_checks, rook_checks, bishop_checks | rook_checks];
    let mut features = [(0usize, 0i32); 14];
    let mut n = 0;
    for (i, pt) in
        [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen].into_iter().enumerate()
    {
        features[n] = (idx::KING_SAFETY_ATTACKERS + i, info.zone_attackers[a][i]);
        let checks = check_squares[i] & info.by_type[a][pt.index()] & safe;
        features[n + 1] = (idx::KING_SAFETY_SAFE_CHECKS + i, checks.count() as i32);
        n += 2;
    }
    let own_pawns = pos.pieces(defender, PieceType::Pawn);
    let open_files = (king.file().saturating_sub(1)..=(king.file() + 1).min(7))
        .filter(|&f| (Bitboard::file(f) & own_pawns).is_empty())
        .count() as i32;
    features[n] = (idx::KING_SAFETY_INNER_RING, info.inner_attacks[a]);
    features[n + 1] = (idx::KING_SAFETY_OUTER_RING, info.outer_attacks[a]);
    features[n + 2] = (idx::KING_SAFETY_OPEN_FILES, open_files);
    features[n + 3] = (idx::KING_SAFETY_NO_QUEEN, pos.pieces(attacker, PieceType::Queen).is_empty() as i32);
    features[n + 4] = (idx::KING_SAFETY_OFFSET, 1);
    features[n + 5] = (idx::KING_SAFETY_WEAK_SQUARES, weak_squares(defender, info));
    acc.king_danger(defender, &features[..n + 6]);
}

/// Squares next to `defender`'s king that the attacker reaches and that only the king defends
/// (no second defender): the attacker can land on them with support, as Ethereal counts them.
fn weak_squares(defender: Color, info: &AttackInfo) -> i32 {
    let d = defender.index();
    let attacked = info.all[(!defender).index()];
    (info.inner_ring[d] & attacked & !info.twice[d]).count() as i32
}

#[cfg(test)]
#[path = "king_tests.rs"]
mod tests;
