//! Compact storage of coefficient traces: one two-byte entry per non-zero coefficient (index and
//! count packed in a u16) in one shared array, plus a few bytes per position (offset, phase,
//! result, scale, known-endgame score). No per-position allocation.
//!
//! Linear coefficients and king-safety features share one entry list per position: an entry's
//! index says what it is. Below [`ELEMENTS`] it is a linear coefficient of that element; in
//! the next two regions it is a king-safety feature (attack units) of that element against
//! White's or Black's king. One list means one loop per position in the objective.

use whetstone::eval::baked::idx::COUNT as ELEMENTS;
use whetstone::eval::endgame::Verdict;
#[cfg(test)]
use whetstone::eval::EvalTrace;
use whetstone::eval::{EvalContext, Tracer};

/// Where each kind of entry's indices start: linear, king features against White, against Black.
pub const REGION: [usize; 3] = [0, ELEMENTS, 2 * ELEMENTS];
/// The number of distinct entry indices.
pub const INDICES: usize = 3 * ELEMENTS;

/// An entry packs its index in the high bits and its count, two's complement, in the low ones.
/// The index gets the bits it needs, the count the rest; a count too large for them is stored as
/// several entries with the same index (the evaluation is linear in the count).
pub const INDEX_BITS: u32 = usize::BITS - (INDICES - 1).leading_zeros();
pub const COUNT_BITS: u32 = 16 - INDEX_BITS;
const _: () = assert!(COUNT_BITS >= 4, "too many parameters for two-byte entries");
const COUNT_MIN: i32 = -(1 << (COUNT_BITS - 1));
const COUNT_MAX: i32 = (1 << (COUNT_BITS - 1)) - 1;

/// The entry for `index` with `count` (which must be within the count field's range).
fn pack(index: usize, count: i32) -> u16 {
    debug_assert!(index < INDICES && (COUNT_MIN..=COUNT_MAX).contains(&count));
    ((index as u16) << COUNT_BITS) | (count as u16 & ((1 << COUNT_BITS) - 1))
}

/// An entry's index.
#[inline(always)]
pub fn entry_index(entry: u16) -> usize {
    (entry >> COUNT_BITS) as usize
}

/// An entry's count (the objective decodes it through a table).
#[cfg(test)]
pub fn entry_count(entry: u16) -> i32 {
    ((entry << INDEX_BITS) as i16 >> INDEX_BITS) as i32
}

/// Appends entries for `count` of `index`, split if the count does not fit one entry.
fn push_entries(out: &mut Vec<u16>, index: usize, mut count: i32) {
    while count != 0 {
        let part = count.clamp(COUNT_MIN, COUNT_MAX);
        out.push(pack(index, part));
        count -= part;
    }
}

/// All positions of a dataset, as traces.
#[derive(Default, Clone, Debug, PartialEq)]
pub struct TraceStore {
    /// Start of each position's entries (one more entry at the end).
    pub offsets: Vec<u32>,
    /// Packed (index, count) entries, see [`entry_index`] and [`entry_count`].
    pub entries: Vec<u16>,
    pub phase: Vec<u8>,
    /// End-game scale factors (out of 128) when White / Black is better.
    pub scale: Vec<[u8; 2]>,
    /// Exact known-endgame score (White's view), or i32::MIN.
    pub exact: Vec<i32>,
    /// Result from White's view in 254ths: 0 = loss, 127 = draw, 254 = win (soft labels between).
    pub result: Vec<u8>,
}

/// One position's trace, ready to append (built in parallel, appended in order). One allocation.
#[derive(Clone, Debug)]
pub struct Compact {
    entries: Vec<u16>,
    phase: u8,
    scale: [u8; 2],
    exact: i32,
    result: u8,
}

impl Compact {
    /// Compacts an engine trace with its result (1.0 / 0.5 / 0.0, White's view).
    #[cfg(test)]
    pub fn new(trace: &EvalTrace, result: f32) -> Compact {
        Compact::from_lists(&trace.linear, &trace.king_features, &trace.context, result)
    }

    /// Compacts a tracer's lists (see `whetstone::eval::trace_into`) with the result.
    pub fn from_tracer(tracer: &Tracer, context: &EvalContext, result: f32) -> Compact {
        Compact::from_lists(&tracer.linear, &tracer.king_features, context, result)
    }

    fn from_lists(
        linear: &[(u16, i16)],
        king_features: &[Vec<(u16, i16)>; 2],
        context: &EvalContext,
        result: f32,
    ) -> Compact {
        let [white, black] = king_features;
        let mut entries = Vec::with_capacity(linear.len() + white.len() + black.len());
        for (region, list) in [linear, white, black].into_iter().enumerate() {
            for &(i, c) in list {
                push_entries(&mut entries, REGION[region] + i as usize, c as i32);
            }
        }
        let (scale, exact) = match context.verdict {
            Some(Verdict::Exact(v)) => ([128, 128], v),
            Some(Verdict::Scale { white, black }) => ([white, black], i32::MIN),
            None => ([128, 128], i32::MIN),
        };
        Compact {
            entries,
            phase: context.phase as u8,
            scale,
            exact,
            result: (result * 254.0).round().clamp(0.0, 254.0) as u8,
        }
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
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.entries.extend_from_slice(&c.entries);
        self.offsets.push(self.entries.len() as u32);
        self.phase.push(c.phase);
        self.scale.push(c.scale);
        self.exact.push(c.exact);
        self.result.push(c.result);
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
        self.result[p] as f64 / 254.0
    }

    /// Bytes used per position, all arrays counted.
    pub fn bytes_per_position(&self) -> f64 {
        let bytes = self.offsets.len() * 4
            + self.entries.len() * 2
            + self.phase.len()
            + self.scale.len() * 2
            + self.exact.len() * 4
            + self.result.len();
        bytes as f64 / self.len().max(1) as f64
    }

    /// Entries in all: linear coefficients and king-safety features (a coefficient too large
    /// for one entry counts as the entries it takes).
    pub fn coefficient_count(&self) -> usize {
        self.entries.len()
    }

    /// King-safety features among them.
    pub fn king_feature_count(&self) -> usize {
        self.entries.iter().filter(|&&e| entry_index(e) >= REGION[1]).count()
    }

    /// The given positions as a store of their own (for train/validation splits).
    /// The positions in a random order fixed by `seed`, so contiguous
    /// mini-batches are samples of the whole set even when the file is ordered by game.
    pub fn shuffled(&self, seed: u64) -> TraceStore {
        let mut order: Vec<usize> = (0..self.len()).collect();
        shuffle(&mut order, seed);
        self.subset(order.into_iter())
    }

    pub fn subset(&self, positions: impl Iterator<Item = usize>) -> TraceStore {
        let mut out = TraceStore::default();
        for p in positions {
            let (a, b) = (self.offsets[p] as usize, self.offsets[p + 1] as usize);
            out.push(&Compact {
                entries: self.entries[a..b].to_vec(),
                phase: self.phase[p],
                scale: self.scale[p],
                exact: self.exact[p],
                result: self.result[p],
            });
        }
        out
    }
}

/// Fisher-Yates shuffle in an order fixed by `seed`.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed;
    for i in (1..items.len()).rev() {
        items.swap(i, (splitmix(&mut state) % (i as u64 + 1)) as usize);
    }
}

/// SplitMix64: a small, well-mixed generator for deterministic shuffles.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_every_index_and_count() {
        for index in [0, 1, ELEMENTS - 1, REGION[1], REGION[2] + 7, INDICES - 1] {
            for count in COUNT_MIN..=COUNT_MAX {
                let e = pack(index, count);
                assert_eq!((entry_index(e), entry_count(e)), (index, count));
            }
        }
    }

    #[test]
    fn large_counts_split_into_entries_that_add_up() {
        for count in [-100, -17, COUNT_MIN - 1, COUNT_MAX + 1, 40, 127] {
            let mut out = Vec::new();
            push_entries(&mut out, 5, count);
            assert!(out.len() > 1);
            assert!(out.iter().all(|&e| entry_index(e) == 5));
            assert_eq!(out.iter().map(|&e| entry_count(e)).sum::<i32>(), count);
        }
    }
}
