//! Static exchange evaluation: does a capture sequence on one square gain at least a threshold?
//! Both sides recapture with their least valuable attacker, sliders behind the square join as
//! pieces in front of them leave, and either side may stop when continuing would lose.

use crate::attacks::{bishop_attacks, rook_attacks};
use crate::board::Position;
use crate::types::{Bitboard, Move, MoveKind, PieceType};

/// Exchange values (not the evaluation's material weights: SEE needs fixed, ordered values).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// True if the move `m` wins at least `threshold` centipawns of material in the exchange it
/// starts on its destination square (castling counts as 0; promotions count the promoted piece).
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.kind() == MoveKind::Castling {
        return 0 >= threshold;
    }
    let from = m.from();
    let to = m.to();
    let mover = pos.piece_on(from).map_or(PieceType::Pawn, |p| p.piece_type());
    let captured = match m.kind() {
        MoveKind::EnPassant => SEE_VALUE[PieceType::Pawn.index()],
        _ => pos.piece_on(to).map_or(0, |p| SEE_VALUE[p.piece_type().index()]),
    };
    let promotion_gain = m.promotion_piece().map_or(0, |pt| SEE_VALUE[pt.index()] - SEE_VALUE[0]);
    // What we have after the move, if nothing recaptures.
    let mut balance = captured + promotion_gain - threshold;
    if balance < 0 {
        return false;
    }
    // What we have if our moved piece is then lost for nothing.
    let on_square = m.promotion_piece().unwrap_or(mover);
    balance -= SEE_VALUE[on_square.index()];
    if balance >= 0 {
        return true;
    }
    let mut occ = pos.occupied() ^ from | to;
    if m.kind() == MoveKind::EnPassant {
        occ ^= to.relative(pos.side_to_move()).offset(-8).relative(pos.side_to_move());
    }
    let diagonal = pos.pieces_of_type(PieceType::Bishop) | pos.pieces_of_type(PieceType::Queen);
    let orthogonal = pos.pieces_of_type(PieceType::Rook) | pos.pieces_of_type(PieceType::Queen);
    let mut attackers = pos.attackers_to(to, occ) & occ;
    let mut side = !pos.side_to_move();
    loop {
        let ours = attackers & pos.pieces_of(side);
        if ours.is_empty() {
            break;
        }
        // The least valuable attacker recaptures.
        let (pt, sq) = PieceType::ALL
            .iter()
            .find_map(|&pt| {
                let b = ours & pos.pieces_of_type(pt);
                b.any().then(|| (pt, b.lsb()))
            })
            .expect("a non-empty attacker set");
        side = !side;
        // Negamax the balance: it is now from the other side's point of view.
        balance = -balance - 1 - SEE_VALUE[pt.index()];
        if balance >= 0 {
            // A king may only recapture if the square is no longer defended.
            if pt == PieceType::King && (attackers & pos.pieces_of(side) & !Bitboard::from_square(sq)).any() {
                side = !side;
            }
            break;
        }
        occ ^= sq;
        // Uncover sliders behind the piece that just captured.
        if matches!(pt, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
            attackers |= bishop_attacks(to, occ) & diagonal;
        }
        if matches!(pt, PieceType::Rook | PieceType::Queen) {
            attackers |= rook_attacks(to, occ) & orthogonal;
        }
        attackers &= occ;
    }
    // The side to move at the end lost the exchange.
    side != pos.side_to_move()
}

#[cfg(test)]
#[path = "see_tests.rs"]
mod tests;
