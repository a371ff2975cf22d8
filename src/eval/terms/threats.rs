//! Threats: enemy pieces attacked by our pawns, minor pieces and rooks (by victim), enemy pieces
//! attacked and not defended (hanging, and by the king), weak pawns, overloaded pieces, an attacked
//! queen, pawn pushes that would attack a piece, and heavy pieces on the seventh rank. Read after every piece's attacks are recorded in [`AttackInfo`].

use crate::board::Position;
use crate::eval::accumulator::{Accumulator, Group};
use crate::eval::baked::idx;
use crate::eval::masks::pawn_attacks_all;
use crate::types::{Bitboard, Color, PieceType};

use super::AttackInfo;

/// Adds `color`'s threats against the other side.
pub fn threats<A: Accumulator>(pos: &Position, color: Color, info: &AttackInfo, acc: &mut A) {
    let them = !color;
    let (us_i, them_i) = (color.index(), them.index());
    let attacks = &info.by_type[us_i];
    let enemies = pos.pieces_of(them) & !pos.pieces(them, PieceType::King);
    let enemy_pawns = pos.pieces(them, PieceType::Pawn);

    let by_minor = attacks[PieceType::Knight.index()] | attacks[PieceType::Bishop.index()];
    for victim in PieceType::ALL.into_iter().filter(|&pt| pt != PieceType::King) {
        let targets = pos.pieces(them, victim);
        if targets.is_empty() {
            continue;
        }
        let add = |acc: &mut A, start: usize, attacked: Bitboard| {
            let n = (targets & attacked).count() as i32;
            if n > 0 {
                acc.add(color, start + victim.index(), n);
            }
        };
        if victim != PieceType::Pawn {
            add(acc, idx::THREAT_BY_PAWN, attacks[PieceType::Pawn.index()]);
        }
        add(acc, idx::THREAT_BY_MINOR, by_minor);
        add(acc, idx::THREAT_BY_ROOK, attacks[PieceType::Rook.index()]);
    }

    // Hanging: attacked and not defended at all (pawns only when no other defence applies).
    let undefended = enemies & !info.all[them_i];
    let hanging = (undefended & info.all[us_i]).count() as i32;
    if hanging > 0 {
        acc.add(color, idx::THREAT_HANGING, hanging);
    }
    // Undefended pieces and pawns the king attacks (mostly an endgame matter).
    let by_king = (undefended & attacks[PieceType::King.index()]).count() as i32;
    if by_king > 0 {
        acc.add(color, idx::THREAT_BY_KING, by_king);
    }

    if !acc.skips(Group::EtherealThreats) {
        ethereal_threats(pos, color, info, acc);
    }

    // Safe pawn pushes (one step, to a square no enemy pawn attacks and that is defended or not
    // attacked) after which the pawn would attack an enemy piece.
    let empty = !pos.occupied();
    let pushes = pos.pieces(color, PieceType::Pawn).forward(color) & empty;
    let safe = pushes & !info.by_type[them_i][PieceType::Pawn.index()] & (info.all[us_i] | !info.all[them_i]);
    let threatened = (pawn_attacks_all(color, safe) & (enemies & !enemy_pawns)).count() as i32;
    if threatened > 0 {
        acc.add(color, idx::THREAT_PAWN_PUSH, threatened);
    }

    // Rooks and queens on the seventh rank, when the enemy king is on its back rank or enemy
    // pawns are still on their starting rank.
    let seventh = Bitboard::relative_rank(color, 6);
    let eighth = Bitboard::relative_rank(color, 7);
    if (enemy_pawns & seventh).any() || (pos.pieces(them, PieceType::King) & eighth).any() {
        let rooks = (pos.pieces(color, PieceType::Rook) & seventh).count() as i32;
        if rooks > 0 {
            acc.add(color, idx::ROOK_SEVENTH, rooks);
        }
        let queens = (pos.pieces(color, PieceType::Queen) & seventh).count() as i32;
        if queens > 0 {
            acc.add(color, idx::QUEEN_SEVENTH, queens);
        }
    }
}

/// Ethereal's weak pawns, overloaded pieces and attacked queen, for `color` against the other side.
fn ethereal_threats<A: Accumulator>(pos: &Position, color: Color, info: &AttackInfo, acc: &mut A) {
    let them = !color;
    let (us_i, them_i) = (color.index(), them.index());
    let attacks = &info.by_type[us_i];
    let enemies = pos.pieces_of(them) & !pos.pieces(them, PieceType::King);
    let enemy_pawns = pos.pieces(them, PieceType::Pawn);

    // Ethereal's weak pawns: enemy pawns none of our pawns attack, but that we attack and they do
    // not defend, or attack twice while they defend once at most and with no pawn.
    let poorly_defended = (info.all[us_i] & !info.all[them_i])
        | (info.twice[us_i] & !info.twice[them_i] & !info.by_type[them_i][PieceType::Pawn.index()]);
    let weak_pawns = (enemy_pawns & !attacks[PieceType::Pawn.index()] & poorly_defended).count() as i32;
    if weak_pawns > 0 {
        acc.add(color, idx::THREAT_WEAK_PAWN, weak_pawns);
    }
    // Pieces attacked once and defended once: the one defender is tied to them.
    let overloaded = (enemies & !enemy_pawns)
        & info.all[us_i]
        & !info.twice[us_i]
        & info.all[them_i]
        & !info.twice[them_i];
    let overloaded = overloaded.count() as i32;
    if overloaded > 0 {
        acc.add(color, idx::THREAT_OVERLOADED, overloaded);
    }
    // An attacked queen costs its side a tempo whatever attacks it.
    let queens_attacked = (pos.pieces(them, PieceType::Queen) & info.all[us_i]).count() as i32;
    if queens_attacked > 0 {
        acc.add(color, idx::THREAT_QUEEN_ATTACKED, queens_attacked);
    }
}

#[cfg(test)]
#[path = "threats_tests.rs"]
mod tests;
