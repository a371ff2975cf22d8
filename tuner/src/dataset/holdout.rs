//! The one hold-out rule: which positions of a dataset are kept back for validation, a whole
//! game at a time.
//!
//! Positions of one game are neighbours in every set made from games (`tune datagen`, PGN
//! conversion, OpenBench archives), and they share a result and most of their features: held out
//! one position at a time, the validation set is mostly the training set's neighbours, and its
//! loss falls with the training loss even where games say the values got worse (issue 57 measured
//! that). So positions are grouped into games, and a game is held out or kept whole.
//!
//! A game is a run of consecutive positions (in load order: the files in the order given, each
//! file's positions in line order) each of which may follow the one before in one game
//! ([`GameMark::may_follow`]: the same result, no piece or castling right regained, no pawn
//! moved back). That needs nothing but the positions, so it works on any set in game order; a
//! shuffled set makes games of one position, which is the position-wise rule again. Game `g` is
//! held out when a hash of `g` and the seed falls below the fraction, so the same data, fraction
//! and seed hold out the same positions on every machine. The tuners split a loaded trace store
//! by it (`model::split`: `tune texel` without `--valid`, the Texel fitness of `tune
//! pbil|spsa|clop`), and `tune dataset split` writes the same split of one file as two files.

use whetstone::types::{mix64, Bitboard, GOLDEN_GAMMA};
use whetstone::{Color, PieceType, Position};

/// What of a position says whether it may follow another in the same game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameMark {
    /// Pieces of each colour by type (king included).
    counts: [[u8; 6]; 2],
    /// Each colour's pawns.
    pawns: [u64; 2],
    castling: u8,
    /// The label's result, in any fixed coding (a game has one result).
    result: u8,
}

impl GameMark {
    /// The mark of `pos`, whose game ended `result` (White's view, 0 to 1).
    pub fn of(pos: &Position, result: f32) -> GameMark {
        let mut counts = [[0u8; 6]; 2];
        for color in [Color::White, Color::Black] {
            for pt in PieceType::ALL {
                counts[color.index()][pt.index()] = pos.count(color, pt) as u8;
            }
        }
        GameMark {
            counts,
            pawns: [Color::White, Color::Black].map(|c| pos.pieces(c, PieceType::Pawn).0),
            castling: pos.castling_rights().0,
            result: (result * 2.0).round() as u8,
        }
    }

    /// Whether `self` may come after `earlier` in one game: the same result; no castling right
    /// regained; per colour no more pawns, no more pieces than captures and promotions allow,
    /// and no pawn further back (on the ranks up to each rank, counted from the colour's side,
    /// no more pawns than before).
    pub fn may_follow(&self, earlier: &GameMark) -> bool {
        if self.result != earlier.result || self.castling & !earlier.castling != 0 {
            return false;
        }
        let total = |m: &GameMark, c: usize| m.counts[c].iter().map(|&n| n as u32).sum::<u32>();
        for c in 0..2 {
            let pawn = PieceType::Pawn.index();
            let (now, before) = (self.counts[c][pawn], earlier.counts[c][pawn]);
            if now > before || total(self, c) > total(earlier, c) {
                return false;
            }
            for rank in 1..7u8 {
                // Ranks 1..=rank+1 from the colour's own side.
                let behind = (0..=rank).fold(0u64, |bb, r| {
                    bb | Bitboard::relative_rank(if c == 0 { Color::White } else { Color::Black }, r).0
                });
                if (self.pawns[c] & behind).count_ones() > (earlier.pawns[c] & behind).count_ones() {
                    return false;
                }
            }
        }
        true
    }
}

/// Numbers positions by game, in load order.
#[derive(Clone, Debug, Default)]
pub struct GameCounter {
    last: Option<GameMark>,
    /// Games begun so far.
    pub games: u64,
}

impl GameCounter {
    /// The game of the next position, whose mark is `mark`.
    pub fn next(&mut self, mark: GameMark) -> u64 {
        if self.last.is_none_or(|last| !mark.may_follow(&last)) {
            self.games += 1;
        }
        self.last = Some(mark);
        self.games - 1
    }

    /// A new file begins: its first position begins a game.
    pub fn new_file(&mut self) {
        self.last = None;
    }
}

/// A deterministic share of a dataset's positions, kept back for validation.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct HoldOut {
    /// The expected share of positions held out, in [0, 1].
    pub fraction: f64,
    /// Another seed, another split.
    pub seed: u64,
}

impl HoldOut {
    /// Whether game `index` (0-based, in load order; see [`GameCounter`]) is held out.
    pub fn holds_out(&self, index: u64) -> bool {
        // 1 holds out everything: the hash's largest values would round to 1.0 below.
        if self.fraction >= 1.0 {
            return true;
        }
        let z = mix64(index.wrapping_add(self.seed.wrapping_mul(GOLDEN_GAMMA)));
        (z as f64 / u64::MAX as f64) < self.fraction
    }
}

#[cfg(test)]
#[path = "holdout_tests.rs"]
mod tests;
