//! Static-evaluation correction history: how far searches found the static evaluation off, kept
//! per pawn structure and per placement of each side's other pieces, and added back to the
//! evaluation the search prunes by. The evaluation misjudges some structures the same way every
//! time (a blockade it does not see, a king attack it underrates); the search sees it, and this
//! table carries what it saw to the next node with the same structure.

use crate::board::Position;
use crate::types::Color;

/// Entries per side to move in each table (indexed by a key's low bits).
const SIZE: usize = 16_384;
/// Entries are kept in 1/256 cp, so small steps of the running average are not lost to rounding.
const GRAIN: i32 = 256;
/// No single search result moves a table by more than this (cp), and no entry grows beyond it.
const LIMIT_CP: i32 = 128;

pub struct Correction {
    /// pawn[side to move][pawn key slot]
    pawn: Vec<[i32; SIZE]>,
    /// non_pawn[side to move][colour of the pieces][that colour's non-pawn key slot]
    non_pawn: Vec<[[i32; SIZE]; 2]>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction { pawn: vec![[0; SIZE]; 2], non_pawn: vec![[[0; SIZE]; 2]; 2] }
    }
}

fn slot(key: u64) -> usize {
    (key % SIZE as u64) as usize
}

/// How much of each table the correction uses, in percent (the search constants `corr.pawn`
/// and `corr.non_pawn`; 0 turns a table off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionWeights {
    pub pawn: i32,
    pub non_pawn: i32,
}

impl CorrectionWeights {
    pub fn is_off(self) -> bool {
        self.pawn == 0 && self.non_pawn == 0
    }
}

impl Correction {
    /// The correction (cp) to add to `pos`'s static evaluation.
    pub fn value(&self, pos: &Position, weights: CorrectionWeights) -> i32 {
        if weights.is_off() {
            return 0;
        }
        let stm = pos.side_to_move().index();
        let pawn = self.pawn[stm][slot(pos.pawn_key())];
        let non_pawn: i32 =
            Color::ALL.iter().map(|&c| self.non_pawn[stm][c.index()][slot(pos.non_pawn_key(c))]).sum();
        (pawn * weights.pawn + non_pawn * weights.non_pawn) / (100 * GRAIN)
    }

    /// A search of `depth` found `pos` worth `error` cp more than its corrected static evaluation:
    /// move every table's entry towards it, faster after deeper searches (they are surer).
    pub fn update(&mut self, pos: &Position, depth: i32, error: i32) {
        let stm = pos.side_to_move().index();
        let step = error.clamp(-LIMIT_CP, LIMIT_CP) * GRAIN * (depth + 1).min(16) / 256;
        let limit = LIMIT_CP * GRAIN;
        let nudge = |entry: &mut i32| *entry = (*entry + step).clamp(-limit, limit);
        nudge(&mut self.pawn[stm][slot(pos.pawn_key())]);
        for c in Color::ALL {
            nudge(&mut self.non_pawn[stm][c.index()][slot(pos.non_pawn_key(c))]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOTH: CorrectionWeights = CorrectionWeights { pawn: 100, non_pawn: 50 };

    #[test]
    fn repeated_errors_pull_the_correction_towards_them_and_no_further() {
        let pos = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K2R w K - 0 1").unwrap();
        let mut c = Correction::default();
        assert_eq!(c.value(&pos, BOTH), 0);
        for _ in 0..200 {
            let error = 40 - c.value(&pos, BOTH);
            c.update(&pos, 10, error);
        }
        let v = c.value(&pos, BOTH);
        assert!((38..=40).contains(&v), "converged to {v}, not the 40 cp the searches kept finding");
        // Turned off, the tables are not read.
        assert_eq!(c.value(&pos, CorrectionWeights { pawn: 0, non_pawn: 0 }), 0);
    }

    #[test]
    fn corrections_belong_to_the_side_to_move_and_the_structure() {
        let white = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K2R w K - 0 1").unwrap();
        let black = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K2R b K - 0 1").unwrap();
        let other = Position::from_fen("2k5/p7/8/8/8/8/PP6/3QK3 w - - 0 1").unwrap();
        let mut c = Correction::default();
        for _ in 0..50 {
            c.update(&white, 12, 100);
        }
        assert!(c.value(&white, BOTH) > 50);
        assert_eq!(c.value(&black, BOTH), 0);
        assert_eq!(c.value(&other, BOTH), 0);
        // The limit holds however often a result repeats.
        assert!(c.value(&white, BOTH) <= 2 * LIMIT_CP);
    }
}
