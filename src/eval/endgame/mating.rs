//! Won endgames against a lone king (KQK, KRK, KBNK) and the dead draws.
//!
//! A won position scores [`KNOWN_WIN`] plus a material constant plus bonuses that grow as the mate comes
//! closer: the weak king pushed to the edge (KQK, KRK) or to a corner of the bishop's colour (KBNK), and
//! the strong king close to it. The search only has to find moves that raise the score, and the material
//! constant keeps a queen above a rook so that promotions and captures convert into the bigger win.

use super::KNOWN_WIN;
use crate::board::Position;
use crate::movegen;
use crate::types::{Bitboard, Color, PieceType, Square};

/// Material constants, so that KQK > KRK > KBNK > any won KPK.
const QUEEN_WIN: i32 = 900;
const ROOK_WIN: i32 = 500;
const BISHOP_KNIGHT_WIN: i32 = 300;

/// Per step of the weak king's distance from the centre (0..6): at most 120.
const EDGE_WEIGHT: i32 = 20;
/// Per step of the weak king's distance from the a8-h1 diagonal in KBNK (0..7, after orienting the board
/// so that the bishop is dark-squared): at most 280. Larger than the edge weight because the king has to
/// be walked along the edge into one particular pair of corners.
const CORNER_WEIGHT: i32 = 40;
/// Per step of king proximity (7 - distance between the kings, at most 5 since kings are never adjacent):
/// smaller than the edge weights so that pushing the king back never loses to keeping the kings close.
const CLOSE_WEIGHT: i32 = 10;

/// KQK: a win unless the lone king, to move, is stalemated or takes the queen.
pub(super) fn kqk(pos: &Position, strong: Color) -> i32 {
    drive_to_edge(pos, strong, QUEEN_WIN)
}

/// KRK: a win unless the lone king, to move, is stalemated or takes the rook.
pub(super) fn krk(pos: &Position, strong: Color) -> i32 {
    drive_to_edge(pos, strong, ROOK_WIN)
}

/// KBNK: a win unless the lone king, to move, is stalemated or takes a piece. Mate is only forced in a
/// corner of the bishop's colour, so the weak king is driven there rather than to any edge: a wrong
/// corner scores like the centre, the right corners score highest.
pub(super) fn kbnk(pos: &Position, strong: Color) -> i32 {
    if lone_king_draws_at_once(pos, strong) {
        return 0;
    }
    let bishop_on_dark = (pos.pieces(strong, PieceType::Bishop) & Bitboard::DARK_SQUARES).any();
    let weak_king = pos.king_square(!strong);
    // Mirroring the files swaps the colour of every square, so a light-squared bishop's corners
    // (a8, h1) land on the dark ones (h8, a1).
    let oriented = if bishop_on_dark { weak_king } else { weak_king.flip_file() };
    KNOWN_WIN
        + BISHOP_KNIGHT_WIN
        + CORNER_WEIGHT * dark_corner_closeness(oriented)
        + CLOSE_WEIGHT * kings_closeness(pos, strong)
}

/// KK, KNK, KBK, KNNK: no mate can be forced (KNNK mates only if the defender helps; a position that is
/// already mate never reaches the evaluation).
pub(super) fn dead_draw(_pos: &Position, _strong: Color) -> i32 {
    0
}

/// Queen or rook against a lone king: push the king to the edge, bring the strong king near.
fn drive_to_edge(pos: &Position, strong: Color, material: i32) -> i32 {
    if lone_king_draws_at_once(pos, strong) {
        return 0;
    }
    KNOWN_WIN
        + material
        + EDGE_WEIGHT * centre_distance(pos.king_square(!strong))
        + CLOSE_WEIGHT * kings_closeness(pos, strong)
}

/// Whether the lone king, to move, draws on the spot: it has no legal move and is not in check
/// (stalemate), or it can take a piece. Only valid for endgames where losing any one piece leaves too
/// little to mate with (KQK, KRK, KBNK). Uses the real move generator: cheap for a lone king, and only
/// reached in these endgames.
fn lone_king_draws_at_once(pos: &Position, strong: Color) -> bool {
    if pos.side_to_move() == strong {
        return false;
    }
    let moves = movegen::legal_moves(pos);
    if moves.is_empty() {
        return !pos.in_check();
    }
    moves.iter().any(|m| pos.piece_on(m.to()).is_some_and(|p| p.color() == strong))
}

/// Manhattan distance from the four centre squares: 0 on d4-e5, 3 in the middle of an edge, 6 in a corner.
fn centre_distance(sq: Square) -> i32 {
    let from_centre = |x: u8| (2 * i32::from(x) - 7).abs() / 2;
    from_centre(sq.file()) + from_centre(sq.rank())
}

/// Distance from the a8-h1 diagonal: 7 in the dark corners a1 and h8, 0 on the light long diagonal
/// (including the light corners a8 and h1 and the centre squares d5 and e4).
fn dark_corner_closeness(sq: Square) -> i32 {
    (7 - i32::from(sq.file()) - i32::from(sq.rank())).abs()
}

/// 7 minus the king distance: larger when the strong king has come close to help with the mate.
fn kings_closeness(pos: &Position, strong: Color) -> i32 {
    7 - i32::from(pos.king_square(strong).distance(pos.king_square(!strong)))
}

#[cfg(test)]
#[path = "mating_tests.rs"]
mod tests;
