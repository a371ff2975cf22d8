//! Generic scaling rules for endgames that the table does not know exactly. Each rule gives a factor per
//! side (out of 128); when several apply, each side gets the smallest.
//!
//! - No pawns, too little extra material: a side without pawns whose non-pawn material (N = B = 3,
//!   R = 5, Q = 9) exceeds the opponent's by at most a minor piece can rarely force mate (KRKB, KRKN,
//!   KBBKB, KRBKR, KQKRB ...): its factor is 16. With only a minor piece or less it cannot win at all
//!   (KBKP, KNKPP, a bare king): 0. This also covers being behind in material.
//! - Opposite-coloured bishops: each side has exactly one bishop, on squares of different colours, and
//!   no knight or queen. With no other pieces the defender blockades on the other colour: both factors
//!   64, or 32 when the pawn counts differ by at most one. With an equal number of rooks added (the
//!   common rook-and-opposite-bishop ending) the drawing tendency is milder: 96. Unequal rooks: no rule.

use super::Verdict;
use crate::board::Position;
use crate::types::{Bitboard, Color, PieceType};

/// The factor that leaves the evaluation unchanged.
const NORMAL: u8 = 128;
/// No pawns and at most a minor piece more, with a rook or more on the board.
const PAWNLESS_HARD_WIN: u8 = 16;
/// Pure opposite-coloured bishops with a pawn-count difference of two or more, and of at most one.
const OPPOSITE_BISHOPS: u8 = 64;
const OPPOSITE_BISHOPS_CLOSE: u8 = 32;
/// Opposite-coloured bishops with one or two rooks each.
const OPPOSITE_BISHOPS_ROOKS: u8 = 96;

/// A minor piece, in pawns.
const MINOR: u32 = 3;

/// The scale factors the generic rules give, or None if no rule applies.
pub(super) fn scale(pos: &Position) -> Option<Verdict> {
    let bishops = opposite_bishops(pos);
    let [white, black] = Color::ALL.map(|side| no_pawns(pos, side).min(bishops));
    (white < NORMAL || black < NORMAL).then_some(Verdict::Scale { white, black })
}

/// The pawnless rule for `side`'s factor (see the module documentation).
fn no_pawns(pos: &Position, side: Color) -> u8 {
    if pos.count(side, PieceType::Pawn) > 0 {
        return NORMAL;
    }
    let ours = non_pawn_material(pos, side);
    if ours > non_pawn_material(pos, !side) + MINOR {
        NORMAL
    } else if ours <= MINOR {
        0
    } else {
        PAWNLESS_HARD_WIN
    }
}

/// Knights, bishops, rooks and queens of `side`, counted in pawns (3, 3, 5, 9).
fn non_pawn_material(pos: &Position, side: Color) -> u32 {
    MINOR * (pos.count(side, PieceType::Knight) + pos.count(side, PieceType::Bishop))
        + 5 * pos.count(side, PieceType::Rook)
        + 9 * pos.count(side, PieceType::Queen)
}

/// The opposite-coloured-bishops rule for both factors (see the module documentation).
fn opposite_bishops(pos: &Position) -> u8 {
    let lone_bishop = |side| {
        pos.count(side, PieceType::Bishop) == 1
            && pos.count(side, PieceType::Knight) == 0
            && pos.count(side, PieceType::Queen) == 0
    };
    if !lone_bishop(Color::White) || !lone_bishop(Color::Black) {
        return NORMAL;
    }
    let on_dark = |side| (pos.pieces(side, PieceType::Bishop) & Bitboard::DARK_SQUARES).any();
    let rooks = pos.count(Color::White, PieceType::Rook);
    if on_dark(Color::White) == on_dark(Color::Black) || rooks != pos.count(Color::Black, PieceType::Rook) {
        return NORMAL;
    }
    if rooks > 0 {
        return OPPOSITE_BISHOPS_ROOKS;
    }
    let pawn_difference =
        pos.count(Color::White, PieceType::Pawn).abs_diff(pos.count(Color::Black, PieceType::Pawn));
    if pawn_difference <= 1 {
        OPPOSITE_BISHOPS_CLOSE
    } else {
        OPPOSITE_BISHOPS
    }
}

#[cfg(test)]
#[path = "scaling_tests.rs"]
mod tests;
