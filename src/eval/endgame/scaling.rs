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
mod tests {
    use super::super::probe;
    use super::super::test_support::pos;
    use super::*;

    fn scale_of(fen: &str) -> Option<(u8, u8)> {
        match probe(&pos(fen)) {
            Some(Verdict::Scale { white, black }) => Some((white, black)),
            None => None,
            other => panic!("{fen}: expected a scale factor, got {other:?}"),
        }
    }

    #[test]
    fn opposite_bishops_scale_both_sides() {
        // White bishop e3 (dark), Black bishop e6 (light). Pawns 3 vs 2, then 3 vs 1.
        assert_eq!(scale_of("4k3/p4p2/4b3/8/8/4B3/PP3P2/4K3 w - - 0 1"), Some((32, 32)));
        assert_eq!(scale_of("4k3/p7/4b3/8/8/4B3/PP3P2/4K3 b - - 0 1"), Some((64, 64)));
        // Same-coloured bishops (Black's on d6, dark): no rule.
        assert_eq!(scale_of("4k3/p4p2/3b4/8/8/4B3/PP3P2/4K3 w - - 0 1"), None);
        // A rook each: milder. Unequal rooks or a knight added: no rule.
        assert_eq!(scale_of("r3k3/p4p2/4b3/8/8/4B3/PP3P2/R3K3 w - - 0 1"), Some((96, 96)));
        assert_eq!(scale_of("4k3/p4p2/4b3/8/8/4B3/PP3P2/R3K3 w - - 0 1"), None);
        assert_eq!(scale_of("4k3/p4p2/4b3/8/8/4B3/PP3P2/1N2K3 w - - 0 1"), None);
        // Two bishops against one: no rule.
        assert_eq!(scale_of("4k3/p4p2/4b3/8/8/4BB2/PP3P2/4K3 w - - 0 1"), None);
    }

    #[test]
    fn pawnless_sides_that_cannot_win() {
        // KRKB: White can rarely win (16), Black with a lone bishop never (0).
        assert_eq!(scale_of("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1"), Some((16, 0)));
        // KRKN, KBBKB, KRBKR, KQKR (Black's side only: the queen is more than a minor piece ahead).
        assert_eq!(scale_of("4k3/8/8/3n4/8/8/8/R3K3 w - - 0 1"), Some((16, 0)));
        assert_eq!(scale_of("4k3/8/8/3b4/8/8/8/BB2K3 w - - 0 1"), Some((16, 0)));
        assert_eq!(scale_of("r3k3/8/8/8/8/8/8/RB2K3 w - - 0 1"), Some((16, 16)));
        assert_eq!(scale_of("r3k3/8/8/8/8/8/8/Q3K3 w - - 0 1"), Some((128, 16)));
        // A minor piece against pawns: that side can never win; the pawns keep their chances.
        assert_eq!(scale_of("4k3/pp6/8/8/8/8/8/2B1K3 w - - 0 1"), Some((0, 128)));
        // KRKP: the rook is more than a minor piece ahead, and Black has a pawn: nothing.
        assert_eq!(scale_of("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1"), None);
        // A bare king against pawns cannot win.
        assert_eq!(scale_of("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1"), Some((128, 0)));
        // Pawns on both sides, no bishops: nothing.
        assert_eq!(scale_of("4k2r/p7/8/8/8/8/P7/R3K3 w - - 0 1"), None);
    }

    #[test]
    fn rules_combine_by_minimum() {
        // Opposite bishops, White without pawns: White's factor drops to 0, Black's stays at 32.
        assert_eq!(scale_of("4k3/p7/4b3/8/8/4B3/8/4K3 w - - 0 1"), Some((0, 32)));
    }
}
