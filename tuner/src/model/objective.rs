//! The Texel objective: mean squared error between game results and the sigmoid of the
//! evaluation, E = 1/N Σ (r - σ(K·e/400))², σ(x) = 1 / (1 + 10^-x), with its analytic gradient
//! over the flat value vector, including the chain rule through the king-safety curve
//! curve(u) = scale · (u/100)^(power/100), through the end game's complexity (applied last to
//! the end-game sum, `terms::complexity`) and through the end-game scale factor.
//!
//! Evaluation here is the engine's formula in double precision without rounding:
//! e = (mg·phase + eg·f·(24 - phase)) / 24 with f the scale factor of the better side.
//!
//! Each position is one list of entries, each the slot of an (index, count) key (see `store`).
//! A slot's weights are kept as a quad (mg, eg, units against White, units against Black) times
//! its count, so one loop of additions computes all four sums: a linear coefficient has zeros
//! in the unit lanes, a king feature zeros elsewhere. The gradient goes back through the same
//! quads and is folded into the flat vector, times each slot's count, once per call.
//!
//! Positions go through a batch at a time: the sums of BATCH positions, then their math side by
//! side (`batch`, vectorised), then the scatter of each one's gradient over its entries.
//!
//! Work is split into fixed chunks of positions whose partial sums are added in chunk order, so
//! the result is the same for any number of threads (and a resumed run equals an uninterrupted one).

use std::ops::Range;

use rayon::prelude::*;
use whetstone::eval::baked::idx;
use whetstone::eval::terms::complexity::FEATURES as COMPLEXITY_FEATURES;
use whetstone::params::ParamSet;

use super::batch::{Batch, Curve, Inputs, Totals, BATCH};
use super::kernel::{entry_sum, scatter, Aligned, Kernel};
use super::store::{TraceStore, REGION};

/// Bounds on the positions per chunk of parallel work (see `Model::chunks`).
const MIN_CHUNK: usize = 4096;
const MAX_CHUNK: usize = 1 << 16;
const LN10: f64 = std::f64::consts::LN_10;

/// Where each element's middle-game and end-game values live in the flat value vector.
#[derive(Clone, Debug)]
pub struct Layout {
    pub mg_slot: Vec<u32>,
    pub eg_slot: Vec<u32>,
    pub curve_scale: (usize, usize),
    pub curve_power: usize,
    /// The complexity weights' slots (unphased), in the order of the store's counts.
    pub complexity: [usize; COMPLEXITY_FEATURES],
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
        let complexity = std::array::from_fn(|k| mg_slot[idx::COMPLEXITY_PAWNS + k] as usize);
        Layout { mg_slot, eg_slot, curve_scale, curve_power, complexity, values: slot as usize }
    }

    /// Whether each slot is in centipawns, so that multiplying every such slot by c multiplies
    /// the evaluation by c: all but the king-safety attack-unit weights (the curve's input) and
    /// the curve's exponent.
    pub fn centipawn_slots(&self) -> Vec<bool> {
        let mut centipawns = vec![true; self.values];
        for e in idx::KING_SAFETY_ATTACKERS..idx::KING_SAFETY_CURVE_SCALE {
            centipawns[self.mg_slot[e] as usize] = false;
            centipawns[self.eg_slot[e] as usize] = false;
        }
        centipawns[self.curve_power] = false;
        centipawns
    }
}

/// Where an entry index's weight goes: a linear coefficient's (mg, eg) in lanes 0 and 1, a
/// king feature's unit weight (its element's unphased value) in lane 2 or 3 by the attacked
/// king. Returns (element, region).
fn element_of(index: usize) -> (usize, usize) {
    let region = (index >= REGION[1]) as usize + (index >= REGION[2]) as usize;
    (index - REGION[region], region)
}

/// The flat value vector unpacked per slot of the store as count-scaled quads.
struct Weights {
    quad: Vec<Aligned>,
    curve: Curve,
    complexity: [f64; COMPLEXITY_FEATURES],
}

impl Weights {
    fn new(layout: &Layout, w: &[f64], store: &TraceStore) -> Weights {
        let quad = (0..store.slot_count())
            .map(|slot| {
                let (index, count) = store.slot(slot);
                let (e, region) = element_of(index);
                let (mg, eg) = (w[layout.mg_slot[e] as usize], w[layout.eg_slot[e] as usize]);
                let quad = match region {
                    0 => [mg, eg, 0.0, 0.0],
                    1 => [0.0, 0.0, mg, 0.0],
                    _ => [0.0, 0.0, 0.0, mg],
                };
                Aligned(quad.map(|v| count as f64 * v))
            })
            .collect();
        let curve = Curve {
            scale: [w[layout.curve_scale.0], w[layout.curve_scale.1]],
            power: w[layout.curve_power] / 100.0,
        };
        Weights { quad, curve, complexity: layout.complexity.map(|slot| w[slot]) }
    }
}

/// Gradient per slot (same lanes as [`Weights`], before the count), folded into the flat vector
/// at the end.
struct Gradient {
    quad: Vec<Aligned>,
    /// d/d scale per phase, and d/d power (the slot's value, power × 100).
    curve: Curve,
    /// d/d each complexity weight.
    complexity: [f64; COMPLEXITY_FEATURES],
}

impl Gradient {
    fn new(slots: usize) -> Gradient {
        Gradient {
            quad: vec![Aligned::default(); slots],
            curve: Curve { scale: [0.0; 2], power: 0.0 },
            complexity: [0.0; COMPLEXITY_FEATURES],
        }
    }

    /// Adds `other` lane by lane.
    fn add(&mut self, other: &Gradient) {
        for (Aligned(mine), Aligned(theirs)) in self.quad.iter_mut().zip(&other.quad) {
            for k in 0..4 {
                mine[k] += theirs[k];
            }
        }
        self.curve.scale[0] += other.curve.scale[0];
        self.curve.scale[1] += other.curve.scale[1];
        self.curve.power += other.curve.power;
        for (mine, theirs) in self.complexity.iter_mut().zip(other.complexity) {
            *mine += theirs;
        }
    }

    /// The gradient over the flat value vector, each slot's share times its count, divided by `n`.
    fn fold(&self, layout: &Layout, store: &TraceStore, n: usize) -> Vec<f64> {
        let mut grad = vec![0.0; layout.values];
        for (slot, Aligned(g)) in self.quad.iter().enumerate() {
            let (index, count) = store.slot(slot);
            let (e, region) = element_of(index);
            let (mg, eg) = (layout.mg_slot[e] as usize, layout.eg_slot[e] as usize);
            let count = count as f64;
            match region {
                0 => {
                    grad[mg] += count * g[0];
                    grad[eg] += count * g[1];
                }
                _ => grad[mg] += count * g[1 + region],
            }
        }
        grad[layout.curve_scale.0] += self.curve.scale[0];
        grad[layout.curve_scale.1] += self.curve.scale[1];
        grad[layout.curve_power] += self.curve.power;
        for (&slot, g) in layout.complexity.iter().zip(self.complexity) {
            grad[slot] += g;
        }
        let inv = 1.0 / n.max(1) as f64;
        grad.iter_mut().for_each(|g| *g *= inv);
        grad
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
    super::batch::sigmoid_scaled(k * LN10 / 400.0, eval)
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

impl Model<'_> {
    /// The batch of `positions` (at most BATCH of them) evaluated at `w`: the sums of each
    /// position's entries, then the math of all lanes at once. The sums of a whole batch come
    /// first, so the math runs on independent positions side by side.
    #[inline(always)]
    fn batch<const AVX2: bool>(&self, positions: Range<usize>, w: &Weights) -> Batch {
        let s = self.store;
        let mut inputs = Inputs::new();
        for (i, p) in positions.enumerate() {
            // SAFETY: the store's entries are below its slot count, the table's length (the
            // callers' contract on AVX2 passes through).
            let sums = unsafe { entry_sum::<AVX2>(s.entries(p), &w.quad) };
            for (lane, sum) in inputs.sums.iter_mut().zip(sums) {
                lane[i] = sum;
            }
            inputs.result[i] = s.result_score(p);
            inputs.scale[0][i] = s.scale[p][0] as f64 / 128.0;
            inputs.scale[1][i] = s.scale[p][1] as f64 / 128.0;
            let counts = s.complexity[p];
            inputs.complexity[i] = (0..COMPLEXITY_FEATURES).map(|k| counts[k] as f64 * w.complexity[k]).sum();
            if s.exact[p] == i32::MIN {
                [inputs.mg_weight[i], inputs.eg_phase[i]] = PHASE_WEIGHTS[s.phase[p] as usize];
            } else {
                inputs.exact[i] = s.exact[p] as f64;
            }
        }
        Batch::new(&inputs, w.curve)
    }

    /// `range` cut into batches of BATCH positions, in position order.
    fn batches(range: Range<usize>) -> impl Iterator<Item = Range<usize>> {
        range.clone().step_by(BATCH).map(move |first| first..(first + BATCH).min(range.end))
    }

    /// The evaluation of position `p` (White's view) under the flat values `w` (for tests: it
    /// unpacks the weights on every call).
    #[cfg(test)]
    pub fn evaluate(&self, p: usize, w: &[f64]) -> f64 {
        let w = &Weights::new(self.layout, w, self.store);
        self.batch::<false>(p..p + 1, w).eval[0]
    }

    /// `positions` cut into chunks: 64 of them, of 4,096 to 65,536 positions. Each chunk
    /// zeroes and returns a gradient table, so fewer chunks cost less; 64 still share out well
    /// over the threads. The cut depends on the number of positions only, never on the
    /// threads, so neither does the result.
    fn chunks(positions: Range<usize>) -> Vec<Range<usize>> {
        let size = (positions.len() / 64).clamp(MIN_CHUNK, MAX_CHUNK);
        positions.clone().step_by(size).map(|first| first..(first + size).min(positions.end)).collect()
    }

    /// Mean squared error at sigmoid scale `k`.
    pub fn loss(&self, w: &[f64], k: f64) -> f64 {
        let w = &Weights::new(self.layout, w, self.store);
        let scaled = k * LN10 / 400.0;
        let kernel = Kernel::detect();
        let n = self.store.len();
        let chunks: Vec<f64> =
            Self::chunks(0..n).into_par_iter().map(|c| self.chunk_loss(kernel, c, w, scaled)).collect();
        chunks.iter().sum::<f64>() / n.max(1) as f64
    }

    /// Loss and its gradient over the flat value vector, with the fastest kernel.
    #[cfg(test)]
    pub fn loss_and_gradient(&self, w: &[f64], k: f64) -> (f64, Vec<f64>) {
        self.loss_and_gradient_on(Kernel::detect(), w, k)
    }

    /// Loss and its gradient over the flat value vector, computed by `kernel` (the portable one
    /// where the CPU lacks the asked-for instructions).
    pub fn loss_and_gradient_on(&self, kernel: Kernel, w: &[f64], k: f64) -> (f64, Vec<f64>) {
        self.loss_and_gradient_over(kernel, 0..self.store.len(), w, k)
    }

    /// Mean loss and gradient over the store's `positions` only (a mini-batch).
    pub fn loss_and_gradient_over(
        &self,
        kernel: Kernel,
        positions: Range<usize>,
        w: &[f64],
        k: f64,
    ) -> (f64, Vec<f64>) {
        let weights = &Weights::new(self.layout, w, self.store);
        let scaled = k * LN10 / 400.0;
        let partials: Vec<(f64, Gradient)> = Self::chunks(positions.clone())
            .into_par_iter()
            .map(|c| self.chunk_gradient(kernel, c, weights, scaled))
            .collect();
        // Chunk sums are added in chunk order: the same result for any thread count.
        let mut total = Gradient::new(self.store.slot_count());
        let mut loss = 0.0;
        for (l, g) in &partials {
            loss += l;
            total.add(g);
        }
        let n = positions.len();
        (loss / n.max(1) as f64, total.fold(self.layout, self.store, n))
    }

    /// Squared errors summed over the chunk of positions `c`.
    fn chunk_loss(&self, kernel: Kernel, c: Range<usize>, w: &Weights, scaled: f64) -> f64 {
        match kernel.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `usable` checked that the CPU has AVX2.
            Kernel::Avx2 => unsafe { self.chunk_loss_avx2(c, w, scaled) },
            _ => self.chunk_loss_with::<false>(c, w, scaled),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn chunk_loss_avx2(&self, c: Range<usize>, w: &Weights, scaled: f64) -> f64 {
        self.chunk_loss_with::<true>(c, w, scaled)
    }

    #[inline(always)]
    fn chunk_loss_with<const AVX2: bool>(&self, range: Range<usize>, w: &Weights, scaled: f64) -> f64 {
        let mut totals = Totals::new();
        for batch in Self::batches(range) {
            self.batch::<AVX2>(batch, w).add_squared_errors(scaled, &mut totals);
        }
        Totals::sum(&totals.squared_error)
    }

    /// Squared errors and gradient summed over the chunk of positions `c`.
    fn chunk_gradient(&self, kernel: Kernel, c: Range<usize>, w: &Weights, scaled: f64) -> (f64, Gradient) {
        match kernel.usable() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `usable` checked that the CPU has AVX2.
            Kernel::Avx2 => unsafe { self.chunk_gradient_avx2(c, w, scaled) },
            _ => self.chunk_gradient_with::<false>(c, w, scaled),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn chunk_gradient_avx2(&self, c: Range<usize>, w: &Weights, scaled: f64) -> (f64, Gradient) {
        self.chunk_gradient_with::<true>(c, w, scaled)
    }

    /// The loop body of every kernel: inlined into each, so it is compiled once per instruction set.
    #[inline(always)]
    fn chunk_gradient_with<const AVX2: bool>(
        &self,
        range: Range<usize>,
        w: &Weights,
        scaled: f64,
    ) -> (f64, Gradient) {
        let mut grad = Gradient::new(self.store.slot_count());
        let mut totals = Totals::new();
        for positions in Self::batches(range) {
            let g = self.batch::<AVX2>(positions.clone(), w).gradient(scaled, w.curve, &mut totals);
            for (i, p) in positions.enumerate() {
                for (sum, &n) in grad.complexity.iter_mut().zip(&self.store.complexity[p]) {
                    *sum += g[4][i] * n as f64;
                }
                let quad = [g[0][i], g[1][i], g[2][i], g[3][i]];
                // SAFETY: the store's entries are below its slot count, the table's length (the
                // callers' contract on AVX2 passes through).
                unsafe { scatter::<AVX2>(self.store.entries(p), quad, &mut grad.quad) };
            }
        }
        grad.curve.scale = totals.curve_scale.map(|lanes| Totals::sum(&lanes));
        grad.curve.power = Totals::sum(&totals.power);
        (Totals::sum(&totals.squared_error), grad)
    }

    /// The values of `selected` seen in at least `min_coverage` positions (to tune, by the
    /// counts of `coverage`) and the rest (rare piece-square entries and mobility counts, which
    /// otherwise fit noise). Every Texel-based run selects its values here and then says what it
    /// did with the rare ones (`report_coverage`): the prior's tables hold theirs, the others
    /// stay frozen.
    pub fn keep_covered_by(
        coverage: &[f64],
        selected: &[usize],
        min_coverage: f64,
    ) -> (Vec<usize>, Vec<usize>) {
        selected.iter().partition(|&&i| coverage[i] >= min_coverage)
    }

    /// One line on the terminal for a Texel-based run's selection: how many values are tuned on
    /// evidence, how many rarer ones the prior holds by their neighbours (tuned too), and which
    /// stay frozen, with a few named and their counts. Printed once the frozen set is final, so
    /// the numbers add up to what the run tunes.
    pub fn report_coverage(
        coverage: &[f64],
        min_coverage: f64,
        (tuned, held, frozen): (usize, usize, &[usize]),
        names: &[String],
    ) {
        let examples: Vec<String> =
            frozen.iter().take(6).map(|&i| format!("{} ({:.0})", names[i], coverage[i])).collect();
        let held = if held > 0 {
            format!(", {held} rarer ones are held by their neighbours (the prior) and tuned with them")
        } else {
            String::new()
        };
        let frozen = if frozen.is_empty() {
            ", none stays frozen".to_string()
        } else {
            format!(
                ", {} stay frozen (--min-coverage): {}{}",
                frozen.len(),
                examples.join(", "),
                if frozen.len() > examples.len() { ", ..." } else { "" }
            )
        };
        eprintln!(
            "{tuned} values seen in at least {min_coverage} positions are tuned on evidence{held}{frozen}"
        );
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
            for (index, _) in s.coefficients(p) {
                let (e, region) = element_of(index);
                if region == 0 {
                    let (mg, eg) = (layout.mg_slot[e], layout.eg_slot[e]);
                    if mg == eg {
                        count(mg, 1.0, p); // an unphased value serves the whole position
                    } else {
                        count(mg, mg_weight, p);
                        count(eg, eg_weight, p);
                    }
                } else {
                    king = true;
                    count(layout.mg_slot[e], 1.0, p);
                }
            }
            // Complexity weights act on the end game alone.
            for (k, &n) in s.complexity[p].iter().enumerate() {
                if n != 0 {
                    count(layout.complexity[k] as u32, eg_weight, p);
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
        super::batch::golden_section_min(0.1, 4.0, |k| self.loss(w, k))
    }
}
