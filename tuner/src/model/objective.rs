//! The Texel objective: mean squared error between game results and the sigmoid of the
//! evaluation, E = 1/N Σ (r - σ(K·e/400))², σ(x) = 1 / (1 + 10^-x), with its analytic gradient
//! over the flat value vector, including the chain rule through the king-safety curve
//! curve(u) = scale · (u/100)^(power/100) and through the end-game scale factor.
//!
//! Evaluation here is the engine's formula in double precision without rounding:
//! e = (mg·phase + eg·f·(24 - phase)) / 24 with f the scale factor of the better side.
//!
//! Each position is one list of (index, count) entries (see `store`); an index's weights are
//! kept as a quad (mg, eg, units against White, units against Black) so one loop computes all
//! four sums: a linear coefficient has zeros in the unit lanes, a king feature zeros elsewhere.
//! The gradient goes back through the same quads.
//!
//! Work is split into fixed chunks of positions whose partial sums are added in chunk order, so
//! the result is the same for any number of threads (and a resumed run equals an uninterrupted one).

use rayon::prelude::*;
use whetstone::eval::baked::idx;
use whetstone::eval::weights::MAX_KING_UNITS;
use whetstone::params::ParamSet;

use super::store::{TraceStore, COUNT_BITS, INDEX_BITS, REGION};

/// Positions per chunk of parallel work.
const CHUNK: usize = 4096;
const LN10: f64 = std::f64::consts::LN_10;

/// Where each element's middle-game and end-game values live in the flat value vector.
#[derive(Clone, Debug)]
pub struct Layout {
    pub mg_slot: Vec<u32>,
    pub eg_slot: Vec<u32>,
    pub curve_scale: (usize, usize),
    pub curve_power: usize,
    pub values: usize,
}

impl Layout {
    pub fn new(set: &ParamSet) -> Layout {
        let (mut mg_slot, mut eg_slot) = (Vec::new(), Vec::new());
        let mut slot = 0u32;
        for t in &set.terms {
            for _ in 0..t.len() {
                mg_slot.push(slot);
                eg_slot.push(if t.phased { slot + 1 } else { slot });
                slot += if t.phased { 2 } else { 1 };
            }
        }
        let curve_scale =
            (mg_slot[idx::KING_SAFETY_CURVE_SCALE] as usize, eg_slot[idx::KING_SAFETY_CURVE_SCALE] as usize);
        let curve_power = mg_slot[idx::KING_SAFETY_CURVE_POWER] as usize;
        Layout { mg_slot, eg_slot, curve_scale, curve_power, values: slot as usize }
    }
}

/// Per entry index: (mg, eg, units against White, units against Black).
type Quad = [f64; 4];

/// Every count field as an f64, indexed by the field's bits: one load instead of a sign
/// extension and a conversion.
static COUNT_F64: [f64; 1 << COUNT_BITS] = {
    let mut table = [0.0; 1 << COUNT_BITS];
    let mut b = 0;
    while b < table.len() {
        table[b] = ((b as u16) << (16 - COUNT_BITS)) as i16 as f64 / (1 << (16 - COUNT_BITS)) as f64;
        b += 1;
    }
    table
};
const COUNT_FIELD: usize = (1 << COUNT_BITS) - 1;

/// Length of the quad tables: every value of the index field, so the inner loops need no
/// bounds check (an entry's index is its top INDEX_BITS bits).
const TABLE_LEN: usize = 1 << INDEX_BITS;

/// An entry's count (as f64) and its quad in `table`.
#[inline(always)]
fn decode(entry: u16) -> (f64, usize) {
    (COUNT_F64[entry as usize & COUNT_FIELD], (entry >> COUNT_BITS) as usize)
}

/// The flat value vector unpacked per entry index as quads.
struct Weights {
    quad: Vec<Quad>,
    curve_scale: [f64; 2],
    power: f64,
}

impl Weights {
    fn new(layout: &Layout, w: &[f64]) -> Weights {
        let mut quad = vec![[0.0; 4]; TABLE_LEN];
        for e in 0..layout.mg_slot.len() {
            let (mg, eg) = (w[layout.mg_slot[e] as usize], w[layout.eg_slot[e] as usize]);
            quad[REGION[0] + e] = [mg, eg, 0.0, 0.0];
            // King features count attack units, weighted by the element's (unphased) value.
            quad[REGION[1] + e] = [0.0, 0.0, mg, 0.0];
            quad[REGION[2] + e] = [0.0, 0.0, 0.0, mg];
        }
        Weights {
            quad,
            curve_scale: [w[layout.curve_scale.0], w[layout.curve_scale.1]],
            power: w[layout.curve_power] / 100.0,
        }
    }
}

/// Gradient per entry index (same lanes as [`Weights`]), folded into the flat vector at the end.
struct Gradient {
    quad: Vec<Quad>,
    curve_scale: [f64; 2],
    power: f64,
}

impl Gradient {
    fn new() -> Gradient {
        Gradient { quad: vec![[0.0; 4]; TABLE_LEN], curve_scale: [0.0; 2], power: 0.0 }
    }
}

/// Σ count · quad over one position's entries. Four independent accumulators keep the
/// additions from waiting on each other.
#[inline(always)]
fn entry_sum(entries: &[u16], w: &Weights) -> Quad {
    let table: &[Quad; TABLE_LEN] = w.quad[..].try_into().expect("table length");
    let mut acc = [[0.0f64; 4]; 4];
    let blocks = entries.chunks_exact(4);
    let tail = blocks.remainder();
    for block in blocks {
        for lane in 0..4 {
            let (c, i) = decode(block[lane]);
            for k in 0..4 {
                acc[lane][k] += c * table[i][k];
            }
        }
    }
    for &entry in tail {
        let (c, i) = decode(entry);
        for k in 0..4 {
            acc[0][k] += c * table[i][k];
        }
    }
    std::array::from_fn(|k| (acc[0][k] + acc[1][k]) + (acc[2][k] + acc[3][k]))
}

/// Adds `count · g` to each entry's gradient quad.
#[inline(always)]
fn scatter(entries: &[u16], g: Quad, grad: &mut Gradient) {
    let table: &mut [Quad; TABLE_LEN] = (&mut grad.quad[..]).try_into().expect("table length");
    for &entry in entries {
        let (c, i) = decode(entry);
        for k in 0..4 {
            table[i][k] += c * g[k];
        }
    }
}

/// The objective over a trace store.
pub struct Model<'a> {
    pub layout: &'a Layout,
    pub store: &'a TraceStore,
}

/// σ(K·e/400) in Texel's base-10 form.
#[cfg(test)]
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    sigmoid_scaled(k * LN10 / 400.0, eval)
}

/// σ with the scale already converted to base e: 1 / (1 + e^(-s·eval)).
#[inline(always)]
fn sigmoid_scaled(s: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-s * eval).exp())
}

/// x^power, with the common quadratic case without `powf`.
#[inline(always)]
fn curve_shape(x: f64, power: f64) -> f64 {
    if power == 2.0 {
        x * x
    } else if x == 0.0 {
        0.0
    } else {
        x.powf(power)
    }
}

/// (phase / 24, (24 - phase) / 24) for phase 0..=24: the weights of the mg and eg parts.
static PHASE_WEIGHTS: [[f64; 2]; 25] = {
    let mut table = [[0.0; 2]; 25];
    let mut phase = 0;
    while phase <= 24 {
        table[phase] = [phase as f64 / 24.0, (24 - phase) as f64 / 24.0];
        phase += 1;
    }
    table
};

/// One defending side's king danger at the current weights.
#[derive(Clone, Copy)]
struct KingDanger {
    /// Attack units before clamping.
    raw: f64,
    /// Clamped units / 100, the curve's argument.
    x: f64,
    /// x^power.
    shape: f64,
}

/// Per-position intermediate values the gradient needs.
struct Parts {
    eval: f64,
    mg_weight: f64,
    eg_weight: f64,
    danger: [KingDanger; 2],
}

impl Model<'_> {
    /// The four sums (mg, eg, units against White, against Black) of position `p`.
    #[inline(always)]
    fn sums(&self, p: usize, w: &Weights) -> Quad {
        let s = self.store;
        entry_sum(&s.entries[s.offsets[p] as usize..s.offsets[p + 1] as usize], w)
    }

    /// The evaluation of position `p` (White's view) from its sums, and the weights of its mg
    /// and eg parts (zero for an exactly known end game).
    #[inline(always)]
    fn parts(&self, p: usize, sums: Quad, w: &Weights) -> Parts {
        let s = self.store;
        let [mg, eg, white_units, black_units] = sums;
        let danger = [white_units, black_units].map(|raw| {
            let x = raw.clamp(0.0, MAX_KING_UNITS as f64) / 100.0;
            KingDanger { raw, x, shape: curve_shape(x, w.power) }
        });
        let exact = s.exact[p];
        if exact != i32::MIN {
            return Parts { eval: exact as f64, mg_weight: 0.0, eg_weight: 0.0, danger };
        }
        // The penalty hurts the defending side: White's view subtracts White's danger.
        let net = danger[0].shape - danger[1].shape;
        let (mg, eg) = (mg - w.curve_scale[0] * net, eg - w.curve_scale[1] * net);
        let [mg_weight, eg_phase] = PHASE_WEIGHTS[s.phase[p] as usize];
        let eg_weight = eg_phase * (s.scale[p][(eg <= 0.0) as usize] as f64 / 128.0);
        Parts { eval: mg * mg_weight + eg * eg_weight, mg_weight, eg_weight, danger }
    }

    /// The evaluation of position `p` (White's view) under the flat values `w` (for tests: it
    /// unpacks the weights on every call).
    #[cfg(test)]
    pub fn evaluate(&self, p: usize, w: &[f64]) -> f64 {
        let w = &Weights::new(self.layout, w);
        self.parts(p, self.sums(p, w), w).eval
    }

    /// Positions of chunk `c`.
    fn chunk(&self, c: usize) -> std::ops::Range<usize> {
        c * CHUNK..((c + 1) * CHUNK).min(self.store.len())
    }

    /// Mean squared error at sigmoid scale `k`.
    pub fn loss(&self, w: &[f64], k: f64) -> f64 {
        let w = &Weights::new(self.layout, w);
        let scaled = k * LN10 / 400.0;
        let n = self.store.len();
        let chunks: Vec<f64> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                self.chunk(c)
                    .map(|p| {
                        let e = self.parts(p, self.sums(p, w), w).eval;
                        let d = self.store.result_score(p) - sigmoid_scaled(scaled, e);
                        d * d
                    })
                    .sum::<f64>()
            })
            .collect();
        chunks.iter().sum::<f64>() / n.max(1) as f64
    }

    /// Loss and its gradient over the flat value vector.
    pub fn loss_and_gradient(&self, w: &[f64], k: f64) -> (f64, Vec<f64>) {
        let weights = &Weights::new(self.layout, w);
        let scaled = k * LN10 / 400.0;
        let n = self.store.len();
        let partials: Vec<(f64, Gradient)> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut grad = Gradient::new();
                let loss = self.chunk(c).map(|p| self.accumulate(p, weights, scaled, &mut grad)).sum::<f64>();
                (loss, grad)
            })
            .collect();
        // Chunk sums are added in chunk order: the same result for any thread count.
        let layout = self.layout;
        let mut grad = vec![0.0; layout.values];
        let mut loss = 0.0;
        for (l, g) in partials {
            loss += l;
            for e in 0..layout.mg_slot.len() {
                let (mg, eg) = (layout.mg_slot[e] as usize, layout.eg_slot[e] as usize);
                grad[mg] += g.quad[REGION[0] + e][0];
                grad[eg] += g.quad[REGION[0] + e][1];
                grad[mg] += g.quad[REGION[1] + e][2] + g.quad[REGION[2] + e][3];
            }
            grad[layout.curve_scale.0] += g.curve_scale[0];
            grad[layout.curve_scale.1] += g.curve_scale[1];
            grad[layout.curve_power] += g.power;
        }
        let inv = 1.0 / n.max(1) as f64;
        grad.iter_mut().for_each(|g| *g *= inv);
        (loss * inv, grad)
    }

    /// Adds position `p`'s gradient to `grad`; returns its squared error.
    #[inline(always)]
    /// `scaled` is the sigmoid's scale in base e, K·ln 10 / 400.
    fn accumulate(&self, p: usize, w: &Weights, scaled: f64, grad: &mut Gradient) -> f64 {
        let s = self.store;
        let parts = self.parts(p, self.sums(p, w), w);
        let sig = sigmoid_scaled(scaled, parts.eval);
        let r = s.result_score(p);
        // dE/de for this position, then split over the mg and eg parts (both zero for an
        // exactly known end game, which makes every term below zero too).
        let g = 2.0 * (sig - r) * sig * (1.0 - sig) * scaled;
        let (gm, ge) = (g * parts.mg_weight, g * parts.eg_weight);
        // King safety: through the curve to its scale, its power and each unit weight. Without
        // danger (x = 0) the curve and its derivatives are zero; the arithmetic gives those zeros
        // without branching (x is floored before dividing by it or taking its logarithm).
        let mut per_unit = [0.0f64; 2];
        for (side, d) in parts.danger.iter().enumerate() {
            let sign = if side == 0 { -1.0 } else { 1.0 }; // the penalty's sign in White's view
            grad.curve_scale[0] += gm * sign * d.shape;
            grad.curve_scale[1] += ge * sign * d.shape;
            let along = gm * sign * w.curve_scale[0] + ge * sign * w.curve_scale[1];
            let x = d.x.max(f64::MIN_POSITIVE);
            grad.power += along * d.shape * x.ln() * 0.01;
            // d(x^p)/du = p * x^p / x / 100 (no second pow); zero where the units are clamped.
            let unclamped = (d.raw < MAX_KING_UNITS as f64) as usize as f64;
            per_unit[side] = unclamped * along * w.power * 0.01 * d.shape / x;
        }
        let entries = &s.entries[s.offsets[p] as usize..s.offsets[p + 1] as usize];
        scatter(entries, [gm, ge, per_unit[0], per_unit[1]], grad);
        (r - sig) * (r - sig)
    }

    /// How much data speaks to each value: per slot, the number of positions where it has a
    /// non-zero coefficient, each weighted by its phase share (a middle-game value counts
    /// phase/24 of a position, an end-game value the rest). King-safety unit weights count whole
    /// positions, and the curve's parameters every position with danger. A value seen in too few
    /// positions is fitted to noise (a king on h6 in the middle game), so `tune texel` freezes
    /// values below `--min-coverage`.
    pub fn coverage(&self) -> Vec<f64> {
        let (s, layout) = (self.store, self.layout);
        let mut cover = vec![0.0; layout.values];
        // The last position that counted for each slot: a slot counts once per position even
        // when several entries reach it (both kings' features, a split count).
        let mut counted = vec![usize::MAX; layout.values];
        let mut count = |slot: u32, weight: f64, p: usize| {
            if counted[slot as usize] != p {
                counted[slot as usize] = p;
                cover[slot as usize] += weight;
            }
        };
        for p in 0..s.len() {
            if s.exact[p] != i32::MIN {
                continue;
            }
            let [mg_weight, eg_weight] = PHASE_WEIGHTS[s.phase[p] as usize];
            let mut king = false;
            for &entry in &s.entries[s.offsets[p] as usize..s.offsets[p + 1] as usize] {
                let index = (entry >> COUNT_BITS) as usize;
                if index < REGION[1] {
                    let (mg, eg) = (layout.mg_slot[index], layout.eg_slot[index]);
                    if mg == eg {
                        count(mg, 1.0, p); // an unphased value serves the whole position
                    } else {
                        count(mg, mg_weight, p);
                        count(eg, eg_weight, p);
                    }
                } else {
                    king = true;
                    count(layout.mg_slot[index - REGION[1 + usize::from(index >= REGION[2])]], 1.0, p);
                }
            }
            if king {
                count(layout.curve_scale.0 as u32, mg_weight, p);
                count(layout.curve_scale.1 as u32, eg_weight, p);
                count(layout.curve_power as u32, 1.0, p);
            }
        }
        cover
    }

    /// The sigmoid scale K minimising the loss at weights `w` (golden-section search).
    pub fn fit_k(&self, w: &[f64]) -> f64 {
        let (mut lo, mut hi) = (0.1f64, 4.0f64);
        let phi = (5f64.sqrt() - 1.0) / 2.0;
        let mut c = hi - phi * (hi - lo);
        let mut d = lo + phi * (hi - lo);
        let (mut fc, mut fd) = (self.loss(w, c), self.loss(w, d));
        for _ in 0..40 {
            if fc < fd {
                hi = d;
                d = c;
                fd = fc;
                c = hi - phi * (hi - lo);
                fc = self.loss(w, c);
            } else {
                lo = c;
                c = d;
                fc = fd;
                d = lo + phi * (hi - lo);
                fd = self.loss(w, d);
            }
        }
        (lo + hi) / 2.0
    }
}
