//! Compact storage of coefficient traces: one entry per non-zero coefficient (u16 element,
//! i8 count) in shared arrays, plus a few bytes per position (offsets, phase, result, scale,
//! known-endgame score). No per-position allocation.

use whetstone::eval::endgame::Verdict;
use whetstone::eval::EvalTrace;

/// All positions of a dataset, as traces.
#[derive(Default, Clone, Debug, PartialEq)]
pub struct TraceStore {
    /// Start of each position's linear coefficients in `index`/`count` (one more entry at the end).
    pub offsets: Vec<u32>,
    pub index: Vec<u16>,
    pub count: Vec<i8>,
    /// Start of each position's king-safety features (one more entry at the end).
    pub king_offsets: Vec<u32>,
    /// How many of a position's king features are White's (the defending side); the rest are Black's.
    pub king_white: Vec<u8>,
    pub king_index: Vec<u16>,
    pub king_count: Vec<i8>,
    pub phase: Vec<u8>,
    /// End-game scale factors (out of 128) when White / Black is better.
    pub scale: Vec<[u8; 2]>,
    /// Exact known-endgame score (White's view), or i32::MIN.
    pub exact: Vec<i32>,
    /// Result from White's view in 254ths: 0 = loss, 127 = draw, 254 = win (soft labels between).
    pub result: Vec<u8>,
}

/// One position's trace, ready to append (built in parallel, appended in order). One allocation:
/// the linear coefficients, then White's and Black's king-safety features.
#[derive(Clone, Debug)]
pub struct Compact {
    entries: Vec<(u16, i8)>,
    linear_len: u16,
    king_white: u8,
    phase: u8,
    scale: [u8; 2],
    exact: i32,
    result: u8,
}

impl Compact {
    /// Compacts an engine trace with its result (1.0 / 0.5 / 0.0, White's view). Counts that do
    /// not fit in an i8 cannot occur in chess (at most 10 pieces of a kind, 27 mobility squares).
    pub fn new(trace: &EvalTrace, result: f32) -> Compact {
        let narrow = |&(i, c): &(u16, i16)| (i, i8::try_from(c).expect("coefficient fits in i8"));
        let [white, black] = &trace.king_features;
        let mut entries = Vec::with_capacity(trace.linear.len() + white.len() + black.len());
        entries.extend(trace.linear.iter().map(narrow));
        entries.extend(white.iter().map(narrow));
        entries.extend(black.iter().map(narrow));
        let (scale, exact) = match trace.context.verdict {
            Some(Verdict::Exact(v)) => ([128, 128], v),
            Some(Verdict::Scale { white, black }) => ([white, black], i32::MIN),
            None => ([128, 128], i32::MIN),
        };
        Compact {
            entries,
            linear_len: trace.linear.len() as u16,
            king_white: white.len() as u8,
            phase: trace.context.phase as u8,
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
            self.king_offsets.push(0);
        }
        let (linear, king) = c.entries.split_at(c.linear_len as usize);
        for &(i, n) in linear {
            self.index.push(i);
            self.count.push(n);
        }
        self.offsets.push(self.index.len() as u32);
        for &(i, n) in king {
            self.king_index.push(i);
            self.king_count.push(n);
        }
        self.king_white.push(c.king_white);
        self.king_offsets.push(self.king_index.len() as u32);
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
            + self.index.len() * 2
            + self.count.len()
            + self.king_offsets.len() * 4
            + self.king_white.len()
            + self.king_index.len() * 2
            + self.king_count.len()
            + self.phase.len()
            + self.scale.len() * 2
            + self.exact.len() * 4
            + self.result.len();
        bytes as f64 / self.len().max(1) as f64
    }

    /// Non-zero linear coefficients in all.
    pub fn coefficient_count(&self) -> usize {
        self.index.len()
    }

    /// The given positions as a store of their own (for train/validation splits).
    pub fn subset(&self, positions: impl Iterator<Item = usize>) -> TraceStore {
        let mut out = TraceStore::default();
        for p in positions {
            let (a, b) = (self.offsets[p] as usize, self.offsets[p + 1] as usize);
            let (ka, kb) = (self.king_offsets[p] as usize, self.king_offsets[p + 1] as usize);
            let white = self.king_white[p] as usize;
            let pairs =
                |idx: &[u16], cnt: &[i8]| idx.iter().copied().zip(cnt.iter().copied()).collect::<Vec<_>>();
            let mut entries = pairs(&self.index[a..b], &self.count[a..b]);
            entries.extend(pairs(&self.king_index[ka..kb], &self.king_count[ka..kb]));
            out.push(&Compact {
                entries,
                linear_len: (b - a) as u16,
                king_white: white as u8,
                phase: self.phase[p],
                scale: self.scale[p],
                exact: self.exact[p],
                result: self.result[p],
            });
        }
        out
    }
}
