//! Compact storage of coefficient traces: one two-byte entry per non-zero coefficient in one
//! shared array, plus a few bytes per position (offset, phase, result, scale, known-endgame
//! score). No per-position allocation.
//!
//! A coefficient is a key: its index and its count packed in a u16. Linear coefficients and
//! king-safety features share one key space and one entry list per position: below
//! [`ELEMENTS`] an index is a linear coefficient of that element; in the next two regions it
//! is a king-safety feature (attack units) of that element against White's or Black's king.
//!
//! An entry is not the key itself but the number of the key's *slot*: each distinct key of the
//! dataset gets one, in order of first appearance (a million TCEC positions use about 1,600).
//! The objective keeps count × weights per slot, so its loops add a slot's values without
//! decoding a count or multiplying by it, and the gradient of a slot is folded into its
//! element once per epoch instead of once per entry.

use whetstone::eval::baked::idx::COUNT as ELEMENTS;
use whetstone::eval::endgame::Verdict;
use whetstone::eval::terms::complexity::FEATURES as COMPLEXITY_FEATURES;
#[cfg(test)]
use whetstone::eval::EvalTrace;
use whetstone::eval::{EvalContext, Tracer};

use crate::dataset::Label;

/// Where each kind of entry's indices start: linear, king features against White, against Black.
pub const REGION: [usize; 3] = [0, ELEMENTS, 2 * ELEMENTS];
/// The number of distinct entry indices.
pub const INDICES: usize = 3 * ELEMENTS;

/// A key packs its index in the high bits and its count, two's complement, in the low ones.
/// The index gets the bits it needs, the count the rest; a count too large for them is stored as
/// several keys with the same index (the evaluation is linear in the count).
const INDEX_BITS: u32 = usize::BITS - (INDICES - 1).leading_zeros();
const COUNT_BITS: u32 = 16 - INDEX_BITS;
const _: () = assert!(COUNT_BITS >= 4, "too many parameters for two-byte entries");
const COUNT_MIN: i32 = -(1 << (COUNT_BITS - 1));
const COUNT_MAX: i32 = (1 << (COUNT_BITS - 1)) - 1;

/// The key for `index` with `count` (which must be within the count field's range).
fn pack(index: usize, count: i32) -> u16 {
    debug_assert!(index < INDICES && (COUNT_MIN..=COUNT_MAX).contains(&count));
    ((index as u16) << COUNT_BITS) | (count as u16 & ((1 << COUNT_BITS) - 1))
}

/// A key's index.
fn key_index(key: u16) -> usize {
    (key >> COUNT_BITS) as usize
}

/// A key's count.
fn key_count(key: u16) -> i32 {
    ((key << INDEX_BITS) as i16 >> INDEX_BITS) as i32
}

/// Appends keys for `count` of `index`, split if the count does not fit one entry.
fn push_keys(out: &mut Vec<u16>, index: usize, mut count: i32) {
    while count != 0 {
        let part = count.clamp(COUNT_MIN, COUNT_MAX);
        out.push(pack(index, part));
        count -= part;
    }
}

/// No slot for this key yet.
const NO_SLOT: u32 = u32::MAX;

/// All positions of a dataset, as traces.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceStore {
    /// Start of each position's entries (one more entry at the end).
    offsets: Vec<u32>,
    /// The slot number of each coefficient. Invariants the objective's kernels rely on: every
    /// entry is below `slot_keys.len()` (they index their slot tables without a check), and no
    /// position names a slot twice (the AVX2 scatter updates four slots at once).
    entries: Vec<u16>,
    /// The key of each slot (index and count packed, see [`key_index`]).
    slot_keys: Vec<u16>,
    /// The first slot of each key, or NO_SLOT.
    slot_of: Vec<u32>,
    /// Per slot: the next slot with the same key, or NO_SLOT (see `unused_slot`).
    next_alias: Vec<u32>,
    /// Per slot: the last position given it while building.
    used_by: Vec<u32>,
    pub phase: Vec<u8>,
    /// End-game scale factors (out of 128) when White / Black is better.
    pub scale: Vec<[u8; 2]>,
    /// Exact known-endgame score (White's view), or i32::MIN.
    pub exact: Vec<i32>,
    /// Result from White's view in 254ths: 0 = loss, 127 = draw, 254 = win (soft labels between).
    pub result: Vec<u8>,
    /// The search score of the move played from the position (centipawns, White's view), or
    /// [`NO_SCORE`].
    pub score: Vec<i16>,
    /// The end game's complexity counts (`whetstone::eval::terms::complexity`): a few small
    /// numbers per position, kept beside the entries since complexity is not linear.
    pub complexity: Vec<Complexity>,
    /// The game each position came from, numbered in load order (`dataset::holdout`): the
    /// validation split holds out whole games.
    pub game: Vec<u32>,
}

/// One position's complexity counts (pawns: at most 16; the rest 0 or 1).
pub type Complexity = [u8; COMPLEXITY_FEATURES];

/// A target score (0 to 1, White's view) in the store's 254ths.
fn result_byte(score: f64) -> u8 {
    (score * 254.0).round().clamp(0.0, 254.0) as u8
}

/// A position without a search score.
pub const NO_SCORE: i16 = i16::MIN;

impl Default for TraceStore {
    fn default() -> TraceStore {
        TraceStore {
            offsets: vec![0],
            entries: Vec::new(),
            slot_keys: Vec::new(),
            slot_of: vec![NO_SLOT; 1 << 16],
            next_alias: Vec::new(),
            used_by: Vec::new(),
            phase: Vec::new(),
            scale: Vec::new(),
            exact: Vec::new(),
            result: Vec::new(),
            score: Vec::new(),
            complexity: Vec::new(),
            game: Vec::new(),
        }
    }
}

/// One position's trace, ready to append (built in parallel, appended in order). One allocation.
#[derive(Clone, Debug)]
pub struct Compact {
    /// Packed keys (index and count).
    keys: Vec<u16>,
    info: PositionInfo,
}

/// What the store keeps per position besides its entries (one value of each of its arrays).
#[derive(Clone, Copy, Debug)]
struct PositionInfo {
    phase: u8,
    scale: [u8; 2],
    exact: i32,
    result: u8,
    score: i16,
    complexity: Complexity,
    game: u32,
}

impl Compact {
    /// Puts the position in game `game` (by default each position is its own game).
    pub fn set_game(&mut self, game: u32) {
        self.info.game = game;
    }

    /// Compacts an engine trace with its result (1.0 / 0.5 / 0.0, White's view).
    #[cfg(test)]
    pub fn new(trace: &EvalTrace, result: f32) -> Compact {
        Compact::from_lists(
            &trace.linear,
            &trace.king_features,
            trace.complexity,
            &trace.context,
            Label { outcome: result, score: None },
        )
    }

    /// Compacts a tracer's lists (see `whetstone::eval::trace_into`) with the position's labels.
    pub fn from_tracer(tracer: &Tracer, context: &EvalContext, label: Label) -> Compact {
        Compact::from_lists(&tracer.linear, &tracer.king_features, tracer.complexity, context, label)
    }

    /// Compacts a trace that came from outside this process (`probe::trace_client`: an engine
    /// answering the trace protocol), in the same lists as the tracer's: linear (element,
    /// count) sorted by element, king features per defending colour, complexity counts.
    pub fn from_parts(
        linear: &[(u16, i16)],
        king_features: &[Vec<(u16, i16)>; 2],
        complexity: [i16; COMPLEXITY_FEATURES],
        context: &EvalContext,
        label: Label,
    ) -> Compact {
        Compact::from_lists(linear, king_features, complexity, context, label)
    }

    fn from_lists(
        linear: &[(u16, i16)],
        king_features: &[Vec<(u16, i16)>; 2],
        complexity: [i16; COMPLEXITY_FEATURES],
        context: &EvalContext,
        label: Label,
    ) -> Compact {
        let [white, black] = king_features;
        let mut keys = Vec::with_capacity(linear.len() + white.len() + black.len());
        for (region, list) in [linear, white, black].into_iter().enumerate() {
            for &(i, c) in list {
                push_keys(&mut keys, REGION[region] + i as usize, c as i32);
            }
        }
        let (scale, exact) = match context.verdict {
            Some(Verdict::Exact(v)) => ([128, 128], v),
            Some(Verdict::Scale { white, black }) => ([white, black], i32::MIN),
            None => ([128, 128], i32::MIN),
        };
        let info = PositionInfo {
            phase: context.phase as u8,
            scale,
            exact,
            result: result_byte(label.outcome as f64),
            score: label.score.map_or(NO_SCORE, |s| s.clamp(-i16::MAX as i32, i16::MAX as i32) as i16),
            complexity: complexity.map(|n| n.clamp(0, u8::MAX as i16) as u8),
            game: u32::MAX,
        };
        Compact { keys, info }
    }
}

impl TraceStore {
    pub fn len(&self) -> usize {
        self.result.len()
    }

    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    pub fn push(&mut self, c: &Compact) {
        let position = self.len() as u32;
        for &key in &c.keys {
            let slot = self.unused_slot(key, position);
            self.entries.push(slot as u16);
        }
        self.push_position(c.info);
    }

    /// A slot for `key` that `position` does not use yet, made if need be. A key a position
    /// holds twice (a count split over two entries) gets a second slot with the same key, so
    /// no position names a slot twice: the AVX2 scatter updates four slots at once.
    fn unused_slot(&mut self, key: u16, position: u32) -> u32 {
        let mut link = self.slot_of[key as usize];
        let mut last = NO_SLOT;
        while link != NO_SLOT {
            if self.used_by[link as usize] != position {
                self.used_by[link as usize] = position;
                return link;
            }
            last = link;
            link = self.next_alias[link as usize];
        }
        let new = self.slot_keys.len() as u32;
        assert!(new <= u16::MAX as u32, "more than 65,536 distinct coefficient slots");
        self.slot_keys.push(key);
        self.next_alias.push(NO_SLOT);
        self.used_by.push(position);
        if last == NO_SLOT {
            self.slot_of[key as usize] = new;
        } else {
            self.next_alias[last as usize] = new;
        }
        new
    }

    /// Closes a position whose entries are already in place.
    fn push_position(&mut self, info: PositionInfo) {
        let PositionInfo { phase, scale, exact, result, score, complexity, game } = info;
        // A position given no game is a game of its own.
        let game = if game == u32::MAX { self.len() as u32 } else { game };
        self.game.push(game);
        self.offsets.push(self.entries.len() as u32);
        self.complexity.push(complexity);
        self.phase.push(phase);
        self.scale.push(scale);
        self.exact.push(exact);
        self.result.push(result);
        self.score.push(score);
    }

    pub fn from_compacts(items: &[Compact]) -> TraceStore {
        let mut store = TraceStore::default();
        for c in items {
            store.push(c);
        }
        store
    }

    /// Result of position `p` as a score: 1.0 / 0.5 / 0.0 (or a soft label in between).
    #[inline]
    pub fn result_score(&self, p: usize) -> f64 {
        // A table: the objective reads a result per position, and a division takes longer.
        static SCORES: [f64; 256] = {
            let mut table = [0.0; 256];
            let mut r = 0;
            while r < 256 {
                table[r] = r as f64 / 254.0;
                r += 1;
            }
            table
        };
        SCORES[self.result[p] as usize]
    }

    /// Positions with a search score.
    pub fn scored(&self) -> usize {
        self.score.iter().filter(|&&s| s != NO_SCORE).count()
    }

    /// The sigmoid scale K at which the search scores best predict the results: the K
    /// minimising the mean squared error of σ(K · score) against the scored positions' results
    /// (golden-section search, as [`super::objective::Model::fit_k`] for the evaluation). Scores
    /// of another engine come in its own centipawns, whose scale need not be the evaluation's.
    /// None without a scored position.
    pub fn fit_score_k(&self) -> Option<f64> {
        let pairs: Vec<(f64, f64)> = (0..self.result.len())
            .filter(|&p| self.score[p] != NO_SCORE)
            .map(|p| (self.score[p] as f64, self.result_score(p)))
            .collect();
        if pairs.is_empty() {
            return None;
        }
        let loss = |k: f64| {
            let scaled = k * std::f64::consts::LN_10 / 400.0;
            pairs.iter().map(|&(s, r)| (r - super::batch::sigmoid_scaled(scaled, s)).powi(2)).sum::<f64>()
        };
        Some(super::batch::golden_section_min(0.01, 10.0, loss))
    }

    /// The store with each scored position's target blended from its result and its search
    /// score: (1 - weight) · result + weight · σ(K · score), σ the objective's sigmoid at scale
    /// `k`. A search score is a less noisy label than one game's result (the result of a won
    /// position thrown away later counts it as lost); positions without one keep their result.
    pub fn blended(&self, weight: f64, k: f64) -> TraceStore {
        let mut out = self.clone();
        let scaled = k * std::f64::consts::LN_10 / 400.0;
        for (result, &score) in out.result.iter_mut().zip(&self.score) {
            if score != NO_SCORE {
                let from_score = super::batch::sigmoid_scaled(scaled, score as f64);
                *result = result_byte((1.0 - weight) * (*result as f64 / 254.0) + weight * from_score);
            }
        }
        out
    }

    /// Position `p`'s entries: distinct slot numbers, each below [`TraceStore::slot_count`].
    #[inline(always)]
    pub fn entries(&self, p: usize) -> &[u16] {
        &self.entries[self.offsets[p] as usize..self.offsets[p + 1] as usize]
    }

    /// The number of slots (distinct keys).
    pub fn slot_count(&self) -> usize {
        self.slot_keys.len()
    }

    /// The index and count of slot `slot`.
    pub fn slot(&self, slot: usize) -> (usize, i32) {
        let key = self.slot_keys[slot];
        (key_index(key), key_count(key))
    }

    /// Position `p`'s coefficients as (index, count).
    pub fn coefficients(&self, p: usize) -> impl Iterator<Item = (usize, i32)> + '_ {
        self.entries(p).iter().map(|&slot| self.slot(slot as usize))
    }

    /// Bytes used per position, all arrays counted (the slot dictionary too).
    pub fn bytes_per_position(&self) -> f64 {
        let bytes = self.offsets.len() * 4
            + self.entries.len() * 2
            + self.slot_keys.len() * 10
            + self.slot_of.len() * 4
            + self.phase.len()
            + self.scale.len() * 2
            + self.exact.len() * 4
            + self.result.len()
            + self.score.len() * 2
            + self.game.len() * 4
            + self.complexity.len() * COMPLEXITY_FEATURES;
        bytes as f64 / self.len().max(1) as f64
    }

    /// Entries in all: linear coefficients and king-safety features (a coefficient too large
    /// for one entry counts as the entries it takes).
    pub fn coefficient_count(&self) -> usize {
        self.entries.len()
    }

    /// King-safety features among them.
    pub fn king_feature_count(&self) -> usize {
        let king: Vec<bool> = (0..self.slot_count()).map(|s| self.slot(s).0 >= REGION[1]).collect();
        self.entries.iter().filter(|&&slot| king[slot as usize]).count()
    }

    /// The given positions as a store of their own (for train/validation splits).
    /// The positions in a random order fixed by `seed`, so contiguous
    /// mini-batches are samples of the whole set even when the file is ordered by game.
    pub fn shuffled(&self, seed: u64) -> TraceStore {
        let mut order: Vec<usize> = (0..self.len()).collect();
        shuffle(&mut order, seed);
        self.subset(order.into_iter())
    }

    /// The same positions, each block of `block` consecutive ones ordered by entry count
    /// (stably). The objective's loops over a position's entries then run as many times as
    /// for the position before, which the branch predictor learns: a one-thread epoch on the
    /// 1M set took 65-69 ms instead of 77-82. A block's positions stay the same, so a
    /// mini-batch (one block) is the same sample, and the loss over a block is the same sum in
    /// another order.
    pub fn grouped_by_length(&self, block: usize) -> TraceStore {
        let mut order: Vec<usize> = (0..self.len()).collect();
        for positions in order.chunks_mut(block.max(1)) {
            positions.sort_by_key(|&p| self.entries(p).len());
        }
        self.subset(order.into_iter())
    }

    pub fn subset(&self, positions: impl Iterator<Item = usize>) -> TraceStore {
        // The same slots: entries are copied as they are.
        let mut out = TraceStore {
            slot_keys: self.slot_keys.clone(),
            slot_of: self.slot_of.clone(),
            next_alias: self.next_alias.clone(),
            used_by: vec![NO_SLOT; self.slot_count()],
            ..TraceStore::default()
        };
        for p in positions {
            out.entries.extend_from_slice(self.entries(p));
            out.push_position(PositionInfo {
                phase: self.phase[p],
                scale: self.scale[p],
                exact: self.exact[p],
                result: self.result[p],
                score: self.score[p],
                complexity: self.complexity[p],
                game: self.game[p],
            });
        }
        out
    }
}

/// A shuffle in an order fixed by `seed` (ChaCha8: the same order on every machine).
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    items.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
