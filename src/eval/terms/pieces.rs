//! Material, piece-square tables, mobility, material imbalance (knights and rooks by the own pawn
//! count), and the minor/major piece terms (bishop pair, rooks on open files, outposts, minor
//! pieces behind pawns, a minor piece's distance to its king, bishops hemmed in by rammed pawns or
//! on a long diagonal, bishops and rooks aimed at the enemy king past pieces, the queen's relative
//! pins, the king's minor-piece and pawn defenders).

use crate::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::board::Position;
use crate::eval::accumulator::Accumulator;
use crate::eval::baked::idx;
use crate::eval::masks::{attack_span, pawn_attacks_all};
use crate::types::{Bitboard, Color, PieceType, Square};

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
    // Kaufman's imbalance: a knight is worth more with many pawns, a rook with few.
    let extra_pawns = pos.count(color, PieceType::Pawn) as i32 - 5;
    if extra_pawns != 0 {
        let knights = pos.count(color, PieceType::Knight) as i32;
        let rooks = pos.count(color, PieceType::Rook) as i32;
        if knights > 0 {
            acc.add(color, idx::IMBALANCE_KNIGHT_PAWNS, knights * extra_pawns);
        }
        if rooks > 0 {
            acc.add(color, idx::IMBALANCE_ROOK_PAWNS, rooks * extra_pawns);
        }
    }
}

/// The two long diagonals (a1-h8, a8-h1) and the four centre squares.
const LONG_DIAGONALS: Bitboard = Bitboard(0x8040_2010_0804_0201 | 0x0102_0408_1020_4080);
const CENTRE: Bitboard = Bitboard(0x0000_0018_1800_0000);

/// A minor piece on the relative fourth to sixth rank, defended by an own pawn, where no enemy
/// pawn can ever attack it.
fn is_outpost(color: Color, sq: Square, own_pawn_attacks: Bitboard, their_pawns: Bitboard) -> bool {
    (3..=5).contains(&sq.relative_rank(color))
        && own_pawn_attacks.contains(sq)
        && (attack_span(color, sq) & their_pawns).is_empty()
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
    // Minor pieces with an own pawn in front: sheltered from frontal attack, and the pawn's
    // advance is covered.
    let minors = pos.pieces(color, PieceType::Knight) | pos.pieces(color, PieceType::Bishop);
    let behind_pawn = (minors.forward(color) & own_pawns).count() as i32;
    if behind_pawn > 0 {
        acc.add(color, idx::MINOR_BEHIND_PAWN, behind_pawn);
    }
    // Minor pieces far from their king defend it less (Stockfish's king protector).
    let king = pos.king_square(color);
    for sq in minors {
        acc.add(color, idx::MINOR_KING_DISTANCE + (king.distance(sq) as usize).min(7), 1);
    }
    // Knights, bishops and pawns next to the king shield it and cover the squares around it.
    let defenders = ((minors | own_pawns) & info.inner_ring[color.index()]).count() as usize;
    acc.add(color, idx::KING_DEFENDERS + defenders.min(7), 1);
    // Own pawns an enemy pawn blocks: fixed on their square, they hem in a bishop of that colour.
    let rammed = own_pawns & their_pawns.forward(them);
    let pawns = own_pawns | their_pawns;
    // The enemy king's zone, and the squares next to it that a slider aimed past pieces (but not
    // pawns) would reach once those pieces move (Stockfish's bishop and rook on the king ring).
    let their_zone = info.inner_ring[them.index()] | info.outer_ring[them.index()];
    let their_ring = info.inner_ring[them.index()];

    for sq in pos.pieces(color, PieceType::Knight) {
        let attacks = knight_attacks(sq);
        info.record(color, PieceType::Knight, attacks);
        acc.add(color, idx::MOBILITY_KNIGHT + (attacks & area).count() as usize, 1);
        if is_outpost(color, sq, own_pawn_attacks, their_pawns) {
            acc.add(color, idx::KNIGHT_OUTPOST, 1);
        }
    }
    let bishops = pos.pieces(color, PieceType::Bishop);
    for sq in bishops {
        let attacks = bishop_attacks(sq, occ);
        info.record(color, PieceType::Bishop, attacks);
        acc.add(color, idx::MOBILITY_BISHOP + (attacks & area).count() as usize, 1);
        if is_outpost(color, sq, own_pawn_attacks, their_pawns) {
            acc.add(color, idx::BISHOP_OUTPOST, 1);
        }
        let own_colour = if Bitboard::DARK_SQUARES.contains(sq) {
            Bitboard::DARK_SQUARES
        } else {
            !Bitboard::DARK_SQUARES
        };
        let hemmed = (rammed & own_colour).count() as i32;
        if hemmed > 0 {
            acc.add(color, idx::BISHOP_RAMMED_PAWNS, hemmed);
        }
        // On a long diagonal off the centre, seeing both of its centre squares past any pieces but
        // pawns: the bishop bears on the centre and on the far corner.
        let through_pieces = || bishop_attacks(sq, pawns);
        if (LONG_DIAGONALS & !CENTRE).contains(sq) && (through_pieces() & CENTRE).more_than_one() {
            acc.add(color, idx::BISHOP_LONG_DIAGONAL, 1);
        }
        if (attacks & their_zone).is_empty() && (through_pieces() & their_ring).any() {
            acc.add(color, idx::BISHOP_KING_RING, 1);
        }
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
        if (attacks & their_zone).is_empty() && (rook_attacks(sq, pawns) & their_ring).any() {
            acc.add(color, idx::ROOK_KING_RING, 1);
        }
    }
    for sq in pos.pieces(color, PieceType::Queen) {
        let attacks = queen_attacks(sq, occ);
        info.record(color, PieceType::Queen, attacks);
        acc.add(color, idx::MOBILITY_QUEEN + (attacks & area).count() as usize, 1);
        if relatively_pinned(pos, them, sq) {
            acc.add(color, idx::QUEEN_RELATIVE_PIN, 1);
        }
    }
}

/// Whether an enemy (`them`) bishop or rook stands on a line with the piece on `sq`, along a line
/// it moves on, with exactly one piece of either colour between (a pin, or a discovered attack).
fn relatively_pinned(pos: &Position, them: Color, sq: Square) -> bool {
    let occ = pos.occupied();
    let rooks = pos.pieces(them, PieceType::Rook);
    let bishops = pos.pieces(them, PieceType::Bishop);
    // Each line's first piece taken away: what the line then reaches beyond it. Most queens share
    // no empty-board line with an enemy slider, so that is checked first (it is cheaper).
    let on_line = |attacks: fn(Square, Bitboard) -> Bitboard, sliders: Bitboard| {
        if (attacks(sq, Bitboard::EMPTY) & sliders).is_empty() {
            return false;
        }
        let direct = attacks(sq, occ);
        (attacks(sq, occ & !direct) & !direct & sliders).any()
    };
    on_line(rook_attacks, rooks) || on_line(bishop_attacks, bishops)
}

#[cfg(test)]
#[path = "pieces_tests.rs"]
mod tests;
