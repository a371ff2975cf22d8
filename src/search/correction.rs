//! Static-evaluation correction history: how far searches found the static evaluation off, kept
//! per pawn structure, per placement of each side's other pieces, per placement of the minor
//! pieces, and per pair of moves that led to the position, and added back to the evaluation the
//! search prunes by. The evaluation misjudges some structures the same way every time (a blockade
//! it does not see, a king attack it underrates); the search sees it, and these tables carry what
//! it saw to the next node with the same structure.

use super::piece_to::{PieceTo, NO_PIECE_TO};
use super::prefetch::prefetch;
use crate::board::Position;
use crate::types::Color;

/// Entries per side to move in each keyed table (indexed by a key's low bits).
const SIZE: usize = 16_384;
/// Entries are kept in 1/256 cp, so small steps of the running average are not lost to rounding.
const GRAIN: i32 = 256;
/// No single search result moves a table by more than this (cp), and no entry grows beyond it.
const LIMIT_CP: i32 = 128;
/// Rows and columns of the continuation table: every piece-to index (the piece carries the side).
const PIECE_TOS: usize = NO_PIECE_TO;

pub struct Correction {
    /// pawn[side to move][pawn key slot]
    pawn: Vec<[i32; SIZE]>,
    /// non_pawn[side to move][colour of the pieces][that colour's non-pawn key slot]
    non_pawn: Vec<[[i32; SIZE]; 2]>,
    /// minor[side to move][minor-piece key slot]
    minor: Vec<[i32; SIZE]>,
    /// continuation[piece-to two plies back][piece-to of the last move]
    continuation: Vec<[i32; PIECE_TOS]>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            pawn: vec![[0; SIZE]; 2],
            non_pawn: vec![[[0; SIZE]; 2]; 2],
            minor: vec![[0; SIZE]; 2],
            continuation: vec![[0; PIECE_TOS]; PIECE_TOS],
        }
    }
}

fn slot(key: u64) -> usize {
    (key % SIZE as u64) as usize
}

/// How much of each table the correction uses, in percent (the search constants `corr.pawn`,
/// `corr.non_pawn`, `corr.minor` and `corr.continuation`; 0 turns a table off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrectionWeights {
    pub pawn: i32,
    pub non_pawn: i32,
    pub minor: i32,
    pub continuation: i32,
}

impl CorrectionWeights {
    pub fn is_off(self) -> bool {
        self == CorrectionWeights::default()
    }
}

/// The moves that led to a position, as piece-to indices: `[last move, the move before it]`
/// (`NO_PIECE_TO` for none, or a null move).
pub type LastMoves = [PieceTo; 2];

impl Correction {
    /// The correction (cp) to add to `pos`'s static evaluation; `last` are the moves that led
    /// to it.
    pub fn value(&self, pos: &Position, last: LastMoves, weights: CorrectionWeights) -> i32 {
        if weights.is_off() {
            return 0;
        }
        let stm = pos.side_to_move().index();
        let pawn = self.pawn[stm][slot(pos.pawn_key())];
        let non_pawn: i32 =
            Color::ALL.iter().map(|&c| self.non_pawn[stm][c.index()][slot(pos.non_pawn_key(c))]).sum();
        // Tables turned off are not read (the continuation table is large: a read is a cache miss).
        let minor = if weights.minor == 0 { 0 } else { self.minor[stm][slot(pos.minor_key())] };
        let continuation =
            if weights.continuation == 0 { 0 } else { self.continuation_entry(last).map_or(0, |e| *e) };
        (pawn * weights.pawn
            + non_pawn * weights.non_pawn
            + minor * weights.minor
            + continuation * weights.continuation)
            / (100 * GRAIN)
    }

    /// Starts loading the entries [`Correction::value`] will read for `pos`, so that the static
    /// evaluation computed meanwhile hides their latency: the tables are read at random and most
    /// reads missed the cache (5% of `bench`'s time was this function waiting for them).
    #[inline]
    pub fn prefetch(&self, pos: &Position, weights: CorrectionWeights) {
        if weights.is_off() {
            return;
        }
        let stm = pos.side_to_move().index();
        prefetch(&self.pawn[stm][slot(pos.pawn_key())]);
        for c in Color::ALL {
            prefetch(&self.non_pawn[stm][c.index()][slot(pos.non_pawn_key(c))]);
        }
        if weights.minor != 0 {
            prefetch(&self.minor[stm][slot(pos.minor_key())]);
        }
    }

    /// A search of `depth` found `pos` (reached by `last`) worth `error` cp more than its
    /// corrected static evaluation: move every table's entry towards it, faster after deeper
    /// searches (they are surer). Tables turned off in `weights` are left alone.
    pub fn update(
        &mut self,
        pos: &Position,
        last: LastMoves,
        weights: CorrectionWeights,
        depth: i32,
        error: i32,
    ) {
        let stm = pos.side_to_move().index();
        let step = error.clamp(-LIMIT_CP, LIMIT_CP) * GRAIN * (depth + 1).min(16) / 256;
        let limit = LIMIT_CP * GRAIN;
        let nudge = |entry: &mut i32| *entry = (*entry + step).clamp(-limit, limit);
        nudge(&mut self.pawn[stm][slot(pos.pawn_key())]);
        for c in Color::ALL {
            nudge(&mut self.non_pawn[stm][c.index()][slot(pos.non_pawn_key(c))]);
        }
        if weights.minor != 0 {
            nudge(&mut self.minor[stm][slot(pos.minor_key())]);
        }
        if weights.continuation != 0 {
            if let Some(entry) = self.continuation_entry_mut(last) {
                nudge(entry);
            }
        }
    }

    fn continuation_entry(&self, [last, before]: LastMoves) -> Option<&i32> {
        (last != NO_PIECE_TO && before != NO_PIECE_TO).then(|| &self.continuation[before][last])
    }

    fn continuation_entry_mut(&mut self, [last, before]: LastMoves) -> Option<&mut i32> {
        (last != NO_PIECE_TO && before != NO_PIECE_TO).then(|| &mut self.continuation[before][last])
    }
}

#[cfg(test)]
#[path = "correction_tests.rs"]
mod tests;
