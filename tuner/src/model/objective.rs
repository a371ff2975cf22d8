//! The Texel objective: mean squared error between game results and the sigmoid of the
//! evaluation, E = 1/N Σ (r - σ(K·e/400))², σ(x) = 1 / (1 + 10^-x), with its analytic gradient
//! over the flat value vector, including the chain rule through the king-safety curve
//! curve(u) = scale · (u/100)^(power/100) and through the end-game scale factor.
//!
//! Evaluation here is the engine's formula in double precision without rounding:
//! e = (mg·phase + eg·f·(24 - phase)) / 24 with f the scale factor of the better side.
//!
//! Work is split into fixed chunks of positions whose partial sums are added in chunk order, so
//! the result is the same for any number of threads (and a resumed run equals an uninterrupted one).

use rayon::prelude::*;
use whetstone::eval::baked::idx;
use whetstone::eval::weights::MAX_KING_UNITS;
use whetstone::params::ParamSet;

use super::store::TraceStore;

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

/// The flat value vector unpacked per element (middle game, end game), so the inner loops read
/// weights directly by element instead of through the slot tables.
struct ElementWeights {
    mg: Vec<f64>,
    eg: Vec<f64>,
    scale_mg: f64,
    scale_eg: f64,
    power: f64,
}

impl ElementWeights {
    fn new(layout: &Layout, w: &[f64]) -> ElementWeights {
        ElementWeights {
            mg: layout.mg_slot.iter().map(|&s| w[s as usize]).collect(),
            eg: layout.eg_slot.iter().map(|&s| w[s as usize]).collect(),
            scale_mg: w[layout.curve_scale.0],
            scale_eg: w[layout.curve_scale.1],
            power: w[layout.curve_power] / 100.0,
        }
    }
}

/// Gradient per element, folded into the flat vector's slots at the end.
struct ElementGradient {
    mg: Vec<f64>,
    eg: Vec<f64>,
    scale_mg: f64,
    scale_eg: f64,
    power: f64,
}

/// The objective over a trace store.
pub struct Model<'a> {
    pub layout: &'a Layout,
    pub store: &'a TraceStore,
}

/// x^power, with the common quadratic case without `powf`.
#[inline]
fn curve_shape(x: f64, power: f64) -> f64 {
    if power == 2.0 {
        x * x
    } else {
        x.powf(power)
    }
}

/// σ(K·e/400) in Texel's base-10 form.
#[inline]
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Per-position intermediate values the gradient needs.
struct Parts {
    eval: f64,
    mg_weight: f64,
    eg_weight: f64,
}

impl Model<'_> {
    /// The evaluation of position `p` (White's view) and the weights of its mg and eg parts.
    #[inline]
    fn evaluate_parts(&self, p: usize, w: &ElementWeights) -> Parts {
        let s = self.store;
        let exact = s.exact[p];
        if exact != i32::MIN {
            return Parts { eval: exact as f64, mg_weight: 0.0, eg_weight: 0.0 };
        }
        let (a, b) = (s.offsets[p] as usize, s.offsets[p + 1] as usize);
        let (mut mg, mut eg) = (0.0, 0.0);
        for (&e, &c) in s.index[a..b].iter().zip(&s.count[a..b]) {
            mg += c as f64 * w.mg[e as usize];
            eg += c as f64 * w.eg[e as usize];
        }
        let (kmg, keg) = self.king_safety(p, w);
        mg += kmg;
        eg += keg;
        let phase = s.phase[p] as f64;
        let scale = s.scale[p][if eg > 0.0 { 0 } else { 1 }] as f64 / 128.0;
        let mg_weight = phase / 24.0;
        let eg_weight = (24.0 - phase) / 24.0 * scale;
        Parts { eval: mg * mg_weight + eg * eg_weight, mg_weight, eg_weight }
    }

    /// Attack units of each defending side's king-feature range: (units, range) pairs.
    #[inline]
    fn king_ranges(&self, p: usize) -> [std::ops::Range<usize>; 2] {
        let s = self.store;
        let (ka, kb) = (s.king_offsets[p] as usize, s.king_offsets[p + 1] as usize);
        let split = ka + s.king_white[p] as usize;
        [ka..split, split..kb]
    }

    #[inline]
    fn units(&self, range: std::ops::Range<usize>, w: &ElementWeights) -> f64 {
        let s = self.store;
        range.map(|j| s.king_count[j] as f64 * w.mg[s.king_index[j] as usize]).sum()
    }

    /// King-safety (mg, eg) contribution, White's view.
    #[inline]
    fn king_safety(&self, p: usize, w: &ElementWeights) -> (f64, f64) {
        let (mut mg, mut eg) = (0.0, 0.0);
        for (side, range) in self.king_ranges(p).into_iter().enumerate() {
            if range.is_empty() {
                continue;
            }
            let u = self.units(range, w).clamp(0.0, MAX_KING_UNITS as f64);
            let shape = curve_shape(u / 100.0, w.power);
            let sign = if side == 0 { 1.0 } else { -1.0 };
            mg -= sign * w.scale_mg * shape;
            eg -= sign * w.scale_eg * shape;
        }
        (mg, eg)
    }

    /// The evaluation of position `p` (White's view) under the flat values `w` (for tests: it
    /// unpacks the weights on every call).
    #[cfg(test)]
    pub fn evaluate(&self, p: usize, w: &[f64]) -> f64 {
        self.evaluate_parts(p, &ElementWeights::new(self.layout, w)).eval
    }

    /// Mean squared error at sigmoid scale `k`.
    pub fn loss(&self, w: &[f64], k: f64) -> f64 {
        let w = &ElementWeights::new(self.layout, w);
        let n = self.store.len();
        let chunks: Vec<f64> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                (c * CHUNK..((c + 1) * CHUNK).min(n))
                    .map(|p| {
                        let e = self.evaluate_parts(p, w).eval;
                        let d = self.store.result_score(p) - sigmoid(k, e);
                        d * d
                    })
                    .sum::<f64>()
            })
            .collect();
        chunks.iter().sum::<f64>() / n.max(1) as f64
    }

    /// Loss and its gradient over the flat value vector.
    pub fn loss_and_gradient(&self, w: &[f64], k: f64) -> (f64, Vec<f64>) {
        let ew = &ElementWeights::new(self.layout, w);
        let n = self.store.len();
        let elements = self.layout.mg_slot.len();
        let partials: Vec<(f64, ElementGradient)> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut grad = ElementGradient {
                    mg: vec![0.0; elements],
                    eg: vec![0.0; elements],
                    scale_mg: 0.0,
                    scale_eg: 0.0,
                    power: 0.0,
                };
                let mut loss = 0.0;
                for p in c * CHUNK..((c + 1) * CHUNK).min(n) {
                    loss += self.accumulate(p, ew, k, &mut grad);
                }
                (loss, grad)
            })
            .collect();
        // Chunk sums are added in chunk order: the same result for any thread count.
        let mut grad = vec![0.0; self.layout.values];
        let mut loss = 0.0;
        for (l, g) in partials {
            loss += l;
            for e in 0..elements {
                grad[self.layout.mg_slot[e] as usize] += g.mg[e];
                grad[self.layout.eg_slot[e] as usize] += g.eg[e];
            }
            grad[self.layout.curve_scale.0] += g.scale_mg;
            grad[self.layout.curve_scale.1] += g.scale_eg;
            grad[self.layout.curve_power] += g.power;
        }
        let inv = 1.0 / n.max(1) as f64;
        grad.iter_mut().for_each(|g| *g *= inv);
        (loss * inv, grad)
    }

    /// Adds position `p`'s gradient to `grad`; returns its squared error.
    #[inline]
    fn accumulate(&self, p: usize, w: &ElementWeights, k: f64, grad: &mut ElementGradient) -> f64 {
        let s = self.store;
        let parts = self.evaluate_parts(p, w);
        let sig = sigmoid(k, parts.eval);
        let r = s.result_score(p);
        let loss = (r - sig) * (r - sig);
        if s.exact[p] != i32::MIN {
            return loss;
        }
        // dE/de for this position.
        let g = 2.0 * (sig - r) * sig * (1.0 - sig) * k * LN10 / 400.0;
        let (gm, ge) = (g * parts.mg_weight, g * parts.eg_weight);
        let (a, b) = (s.offsets[p] as usize, s.offsets[p + 1] as usize);
        for (&e, &c) in s.index[a..b].iter().zip(&s.count[a..b]) {
            grad.mg[e as usize] += gm * c as f64;
            grad.eg[e as usize] += ge * c as f64;
        }
        // King safety: through the curve to its scale, its power and each unit weight.
        for (side, range) in self.king_ranges(p).into_iter().enumerate() {
            if range.is_empty() {
                continue;
            }
            let sign = if side == 0 { -1.0 } else { 1.0 }; // the penalty's sign in White's view
            let raw = self.units(range.clone(), w);
            let x = raw.clamp(0.0, MAX_KING_UNITS as f64) / 100.0;
            if x == 0.0 {
                continue; // no danger: the curve and its derivatives are zero here
            }
            let shape = curve_shape(x, w.power);
            grad.scale_mg += gm * sign * shape;
            grad.scale_eg += ge * sign * shape;
            let along = gm * sign * w.scale_mg + ge * sign * w.scale_eg;
            grad.power += along * shape * x.ln() / 100.0;
            if raw < MAX_KING_UNITS as f64 {
                // d(x^p)/du = p * x^p / x / 100: no second pow.
                let dshape_du = w.power * shape / x / 100.0;
                for j in range {
                    grad.mg[s.king_index[j] as usize] += along * dshape_du * s.king_count[j] as f64;
                }
            }
        }
        loss
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
