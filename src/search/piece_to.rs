//! A move as the continuation tables see it (the continuation history and the correction history
//! keyed by the moves that led to a position): the moving piece and its destination.

use crate::board::Position;
use crate::types::Move;

/// Moving piece * 64 + destination.
pub type PieceTo = usize;
/// No previous move (the root, or a null move): a row of the table that always reads 0.
pub const NO_PIECE_TO: PieceTo = 12 * 64;

/// The piece-to index of a move about to be made in `pos`.
pub fn piece_to(pos: &Position, m: Move) -> PieceTo {
    pos.piece_on(m.from()).map_or(NO_PIECE_TO, |p| p.index() * 64 + m.to().index())
}
