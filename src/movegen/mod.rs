//! Legal move generation (all moves, check evasions, the search's stages), perft, and moves as
//! text (UCI and SAN, which need the legal moves). The attack tables are below, in [`crate::attacks`].

mod checks;
mod generate;
mod legality;
mod movelist;
mod notation;
pub mod perft;

pub use checks::{gives_check, CheckInfo};
pub use generate::{generate, kind};
pub use legality::is_legal_move;
pub use movelist::{MoveCounter, MoveList, MoveSink, MAX_MOVES};
pub use notation::MoveParseError;

use crate::board::Position;

/// Every legal move of the position.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate::<{ kind::ALL }, _>(pos, &mut list);
    list
}

/// The number of legal moves, counted without listing them.
#[inline]
pub fn count_legal_moves(pos: &Position) -> u64 {
    let mut counter = MoveCounter::default();
    generate::<{ kind::ALL }, _>(pos, &mut counter);
    counter.0
}

/// Search stage 1: captures and queen promotions (capture-promotions to any piece included).
pub fn noisy_moves(pos: &Position, list: &mut MoveList) {
    generate::<{ kind::NOISY }, _>(pos, list);
}

/// Search stage 2: quiet moves that give check.
pub fn quiet_checks(pos: &Position, list: &mut MoveList) {
    let mut quiets = MoveList::new();
    generate::<{ kind::QUIET }, _>(pos, &mut quiets);
    let checks = CheckInfo::new(pos);
    for &m in quiets.iter().filter(|&&m| checks.gives_check(pos, m)) {
        list.push(m);
    }
}

/// Search stage 3: quiet moves that do not give check.
pub fn quiet_non_checks(pos: &Position, list: &mut MoveList) {
    let mut quiets = MoveList::new();
    generate::<{ kind::QUIET }, _>(pos, &mut quiets);
    let checks = CheckInfo::new(pos);
    for &m in quiets.iter().filter(|&&m| !checks.gives_check(pos, m)) {
        list.push(m);
    }
}
