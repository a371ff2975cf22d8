//! Material, piece-square tables, mobility, and the minor/major piece terms (bishop pair, rooks on
//! open files, knight outposts).

use crate::board::Position;
use crate::eval::accumulate::Accumulator;
use crate::eval::baked::idx;
use crate::eval::masks::{attack_span, pawn_attacks_all};
use crate::movegen::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::types::{Bitboard, Color, PieceType};

use super::AttackInfo;

/// Where each piece type's piece-square table starts.
const PST: [usize; 6] =
    [idx::PST_PAWN, idx::PST_KNIGHT, idx::PST_BISHOP, idx::PST_ROOK, idx::PST_QUEEN, idx::PST_KING];

/// Material and piece-square tables (Black reads the rank-mirrored square).
pub fn material_and_placement<A: Accumulator>(pos: &Position, color: Color, acc: &mut A) {
    for pt in PieceType::ALL {
        let pieces = pos.pieces(color, pt);
        if pt != PieceType::King && pieces.any() {
            acc.add(color, idx::MATERIAL + pt.index(), pieces.count() as i32);
        }
        for sq in pieces {
            acc.add(color, PST[pt.index()] + sq.relative(color).index(), 1);
        }
    }
}

/// Mobility (squares reachable in the mobility area: not own pawns or king, not attacked by enemy
/// pawns), bishop pair, rook files, knight outposts; records attacks for king safety.
pub fn pieces<A: Accumulator>(pos: &Position, color: Color, info: &mut AttackInfo, acc: &mut A) {
    let them = !color;
    let occ = pos.occupied();
    let own_pawns = pos.pieces(color, PieceType::Pawn);
    let their_pawns = pos.pieces(them, PieceType::Pawn);
    let enemy_pawn_attacks = info.by_type[them.index()][PieceType::Pawn.index()];
    let area = !(own_pawns | pos.pieces(color, PieceType::King) | enemy_pawn_attacks);
    let own_pawn_attacks = pawn_attacks_all(color, own_pawns);

    for sq in pos.pieces(color, PieceType::Knight) {
        let attacks = knight_attacks(sq);
        info.record(color, PieceType::Knight, attacks);
        acc.add(color, idx::MOBILITY_KNIGHT + (attacks & area).count() as usize, 1);
        let rank = sq.relative_rank(color);
        if (3..=5).contains(&rank)
            && own_pawn_attacks.contains(sq)
            && (attack_span(color, sq) & their_pawns).is_empty()
        {
            acc.add(color, idx::KNIGHT_OUTPOST, 1);
        }
    }
    let bishops = pos.pieces(color, PieceType::Bishop);
    for sq in bishops {
        let attacks = bishop_attacks(sq, occ);
        info.record(color, PieceType::Bishop, attacks);
        acc.add(color, idx::MOBILITY_BISHOP + (attacks & area).count() as usize, 1);
    }
    if bishops.more_than_one() {
        acc.add(color, idx::BISHOP_PAIR, 1);
    }
    for sq in pos.pieces(color, PieceType::Rook) {
        let attacks = rook_attacks(sq, occ);
        info.record(color, PieceType::Rook, attacks);
        acc.add(color, idx::MOBILITY_ROOK + (attacks & area).count() as usize, 1);
        let file = Bitboard::file(sq.file());
        if (file & own_pawns).is_empty() {
            let open = (file & their_pawns).is_empty();
            acc.add(color, if open { idx::ROOK_OPEN_FILE } else { idx::ROOK_SEMI_OPEN_FILE }, 1);
        }
    }
    for sq in pos.pieces(color, PieceType::Queen) {
        let attacks = queen_attacks(sq, occ);
        info.record(color, PieceType::Queen, attacks);
        acc.add(color, idx::MOBILITY_QUEEN + (attacks & area).count() as usize, 1);
    }
}
