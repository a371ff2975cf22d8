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
mod tests {
    use super::*;

    #[test]
    fn the_held_out_positions_are_fixed_per_index_and_seed() {
        // Pinned values: a change of the hash would change the validation set of every tuning run
        // (these are the positions the tuners held out before the rule moved here).
        let held = |seed, fraction| -> Vec<u64> {
            (0..100).filter(|&i| HoldOut { fraction, seed }.holds_out(i)).collect()
        };
        assert_eq!(held(1, 0.1), [10, 18, 21, 41, 48, 68, 82, 83]);
        assert_eq!(
            held(7, 0.25),
            [
                0, 3, 6, 11, 12, 14, 17, 26, 34, 39, 42, 47, 51, 52, 53, 56, 58, 59, 64, 66, 67, 68, 71, 79,
                80, 83, 88, 92
            ]
        );
        assert!((0..10_000u64).all(|i| {
            !HoldOut { fraction: 0.0, seed: 7 }.holds_out(i)
                && HoldOut { fraction: 1.0, seed: 7 }.holds_out(i)
        }));
    }

    /// The positions of a game played out move by move, every `step`th one kept.
    fn game(moves: &[&str], step: usize) -> Vec<Position> {
        let mut pos = Position::startpos();
        let mut out = vec![pos.clone()];
        for (i, text) in moves.iter().enumerate() {
            pos.play_uci(text).unwrap();
            if (i + 1) % step == 0 {
                out.push(pos.clone());
            }
        }
        out
    }

    #[test]
    fn consecutive_positions_of_one_game_are_one_game_and_the_next_game_starts_another() {
        let moves =
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6", "d2d4", "e5d4"];
        let mut counter = GameCounter::default();
        let first: Vec<u64> = game(&moves, 1).iter().map(|p| counter.next(GameMark::of(p, 1.0))).collect();
        assert!(first.iter().all(|&g| g == 0), "{first:?}");
        // The next game starts again from the start position: a pawn moved back, a piece regained.
        let second: Vec<u64> = game(&moves, 3).iter().map(|p| counter.next(GameMark::of(p, 1.0))).collect();
        assert!(second.iter().all(|&g| g == 1), "{second:?}");
        // Another result is another game, even for the same position; so is a new file.
        assert_eq!(counter.next(GameMark::of(game(&moves, 3).last().unwrap(), 0.5)), 2);
        counter.new_file();
        assert_eq!(counter.next(GameMark::of(game(&moves, 3).last().unwrap(), 0.5)), 3);
        // Castling regained, or a pawn further back: not the same game.
        let late = GameMark::of(game(&moves, 1).last().unwrap(), 1.0);
        let early = GameMark::of(&game(&moves, 1)[4], 1.0);
        assert!(late.may_follow(&early) && !early.may_follow(&late));
    }

    #[test]
    fn the_share_held_out_follows_the_fraction() {
        for fraction in [0.05, 0.2, 0.5] {
            let rule = HoldOut { fraction, seed: 3 };
            let held = (0..100_000u64).filter(|&i| rule.holds_out(i)).count() as f64 / 100_000.0;
            assert!((held - fraction).abs() < 0.01, "{fraction}: {held}");
        }
    }
}
