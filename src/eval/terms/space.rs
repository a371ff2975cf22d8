//! Space (Ethereal's): squares where the enemy outnumbers our attackers and no pawn of ours
//! helps (our pieces there are restricted, our moves there unsafe), and the big centre held
//! without contest while enough pieces remain for it to matter. Read after every piece's attacks
//! are recorded in [`AttackInfo`].

use crate::board::Position;
use crate::eval::accumulator::Accumulator;
use crate::eval::baked::idx;
use crate::types::{Bitboard, Color, PieceType};

use super::AttackInfo;

/// Files c to f, ranks 3 to 6.
const CENTER_BIG: Bitboard = Bitboard(0x0000_3c3c_3c3c_0000);

/// Minors plus twice the rooks and queens of both sides above which the centre counts: in an
/// end game one rook or queen holds many uncontested squares, so the term would mislead.
const CENTER_MIN_PIECES: u32 = 12;

/// Adds `color`'s space terms.
pub fn space<A: Accumulator>(pos: &Position, color: Color, info: &AttackInfo, acc: &mut A) {
    let (us, them) = (color.index(), (!color).index());

    // Squares we attack where the enemy has more attackers and no pawn of ours defends.
    let outnumbered =
        info.twice[them] & info.all[us] & !info.twice[us] & !info.by_type[us][PieceType::Pawn.index()];
    let occupied = pos.occupied();
    let on_pieces = (outnumbered & occupied).count() as i32;
    if on_pieces > 0 {
        acc.add(color, idx::SPACE_RESTRICT_PIECE, on_pieces);
    }
    let on_empty = (outnumbered & !occupied).count() as i32;
    if on_empty > 0 {
        acc.add(color, idx::SPACE_RESTRICT_EMPTY, on_empty);
    }

    let minors = pos.pieces_of_type(PieceType::Knight) | pos.pieces_of_type(PieceType::Bishop);
    let majors = pos.pieces_of_type(PieceType::Rook) | pos.pieces_of_type(PieceType::Queen);
    if minors.count() + 2 * majors.count() > CENTER_MIN_PIECES {
        let held = !info.all[them] & (info.all[us] | pos.pieces_of(color)) & CENTER_BIG;
        let held = held.count() as i32;
        if held > 0 {
            acc.add(color, idx::SPACE_CENTER_CONTROL, held);
        }
    }
}

#[cfg(test)]
#[path = "space_tests.rs"]
mod tests;
