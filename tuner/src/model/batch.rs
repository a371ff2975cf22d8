//! The per-position math of the objective, a batch of positions at a time: from each
//! position's four sums to its evaluation, its squared error and the gradient quad the kernel
//! scatters over its entries.
//!
//! Values are kept lane by lane (one array per quantity, one lane per position) and every step
//! is a loop over the lanes without branches, exponential and logarithm included (`vmath`),
//! so the compiler turns each into vector code: four positions per AVX2 instruction. Done one
//! position at a time, with libm's `exp` and `ln`, this math took twice as long as the
//! per-entry loops.
//!
//! Lanes past the end of a short batch hold zero sums, zero phase weights and a result of
//! one half: their evaluation is 0, σ(0) is exactly one half, and every quantity they add is
//! exactly zero.

// Lanes are indexed in step across several arrays: an index loop says so more plainly than zips.
#![allow(clippy::needless_range_loop)]

use whetstone::eval::weights::MAX_KING_UNITS;

use super::vmath::{exp, ln};

/// Positions per batch: two AVX2 registers per quantity. With 16 the math no longer fit the
/// 16 AVX2 registers and a one-thread epoch on the 1M set took 51 ms instead of 46-47; with 4,
/// 55 ms.
pub const BATCH: usize = 8;

/// One value per position of a batch.
pub type Lanes = [f64; BATCH];

/// The king-safety curve's parameters: curve(u) = scale · (u/100)^power, scale per phase.
#[derive(Clone, Copy, Debug)]
pub struct Curve {
    pub scale: [f64; 2],
    pub power: f64,
}

/// What a batch's evaluation needs besides its sums, filled position by position.
pub struct Inputs {
    /// Sums over the entries: mg, eg, attack units against White, against Black.
    pub sums: [Lanes; 4],
    /// Phase / 24, zero for an exactly known end game.
    pub mg_weight: Lanes,
    /// (24 - phase) / 24, zero for an exactly known end game.
    pub eg_phase: Lanes,
    /// End-game scale factor (out of 1) when White / Black is better.
    pub scale: [Lanes; 2],
    /// The known end game's exact score, or zero.
    pub exact: Lanes,
    /// The end game's complexity c (its weighted counts), zero in a known end game.
    pub complexity: Lanes,
    /// Game result, White's view, 0 to 1.
    pub result: Lanes,
}

impl Inputs {
    /// An empty batch: every lane contributes exactly nothing (see the module comment).
    pub fn new() -> Inputs {
        Inputs {
            sums: [[0.0; BATCH]; 4],
            mg_weight: [0.0; BATCH],
            eg_phase: [0.0; BATCH],
            scale: [[0.0; BATCH]; 2],
            exact: [0.0; BATCH],
            complexity: [0.0; BATCH],
            result: [0.5; BATCH],
        }
    }
}

/// A batch's evaluation and the intermediate values its gradient needs.
pub struct Batch {
    /// Per attacked king (White's, Black's): attack units, the curve's argument x (clamped
    /// units / 100, floored at the smallest normal double so ln x and 1/x stay finite), ln x,
    /// and x^power as e^(power · ln x) (ln x serves the power's gradient too), zero without
    /// danger.
    units: [Lanes; 2],
    x: [Lanes; 2],
    ln_x: [Lanes; 2],
    shape: [Lanes; 2],
    mg_weight: Lanes,
    /// The eg part's weight: (24 - phase) / 24 times the better side's scale factor.
    eg_weight: Lanes,
    /// d eg / d (the eg sum): 1, or 0 where complexity drew the end game to zero.
    eg_pass: Lanes,
    /// d eg / d complexity: the sign of the eg sum where it passes, else 0.
    eg_by_complexity: Lanes,
    /// White's view.
    pub eval: Lanes,
    result: Lanes,
}

/// Per-lane sums over a chunk's batches (added lane-wise, so they vectorise too; the lanes
/// are added together once, in order, at the end of the chunk).
#[derive(Clone, Copy)]
pub struct Totals {
    pub squared_error: Lanes,
    pub curve_scale: [Lanes; 2],
    pub power: Lanes,
}

impl Totals {
    pub fn new() -> Totals {
        Totals { squared_error: [0.0; BATCH], curve_scale: [[0.0; BATCH]; 2], power: [0.0; BATCH] }
    }

    /// The sum of the lanes of `lanes`, in lane order.
    pub fn sum(lanes: &Lanes) -> f64 {
        lanes.iter().sum()
    }
}

impl Batch {
    /// Evaluates the batch at the curve `curve`.
    #[inline(always)]
    pub fn new(inputs: &Inputs, curve: Curve) -> Batch {
        let max_units = MAX_KING_UNITS as f64;
        let mut batch = Batch {
            units: [inputs.sums[2], inputs.sums[3]],
            x: [[0.0; BATCH]; 2],
            ln_x: [[0.0; BATCH]; 2],
            shape: [[0.0; BATCH]; 2],
            mg_weight: inputs.mg_weight,
            eg_weight: [0.0; BATCH],
            eg_pass: [0.0; BATCH],
            eg_by_complexity: [0.0; BATCH],
            eval: [0.0; BATCH],
            result: inputs.result,
        };
        for side in 0..2 {
            for i in 0..BATCH {
                let units = batch.units[side][i];
                let clamped = if units < max_units { units } else { max_units };
                let x = clamped / 100.0;
                let x = if x > f64::MIN_POSITIVE { x } else { f64::MIN_POSITIVE };
                let ln_x = ln(x);
                batch.x[side][i] = x;
                batch.ln_x[side][i] = ln_x;
                batch.shape[side][i] = if units > 0.0 { exp(curve.power * ln_x) } else { 0.0 };
            }
        }
        for i in 0..BATCH {
            // The penalty hurts the defending side: White's view subtracts White's danger.
            let net = batch.shape[0][i] - batch.shape[1][i];
            let mg = inputs.sums[0][i] - curve.scale[0] * net;
            let eg = inputs.sums[1][i] - curve.scale[1] * net;
            // Complexity, last: eg + sign(eg) · max(c, -|eg|) (`terms::complexity`).
            let sign = super::vmath::sign(eg);
            let floor = -eg.abs();
            let c = inputs.complexity[i];
            let pass = c > floor;
            let eg = eg + sign * if pass { c } else { floor };
            batch.eg_pass[i] = if pass { 1.0 } else { 0.0 };
            batch.eg_by_complexity[i] = if pass { sign } else { 0.0 };
            let scale = if eg <= 0.0 { inputs.scale[1][i] } else { inputs.scale[0][i] };
            let eg_weight = inputs.eg_phase[i] * scale;
            batch.eg_weight[i] = eg_weight;
            // An exactly known end game has zero weights and its score in `exact`; any other
            // position adds an exact zero.
            batch.eval[i] = mg * batch.mg_weight[i] + eg * eg_weight + inputs.exact[i];
        }
        batch
    }

    /// Adds the squared errors at sigmoid scale `scaled` (K · ln 10 / 400) to `totals`.
    #[inline(always)]
    pub fn add_squared_errors(&self, scaled: f64, totals: &mut Totals) {
        for i in 0..BATCH {
            let d = self.result[i] - sigmoid_scaled(scaled, self.eval[i]);
            totals.squared_error[i] += d * d;
        }
    }

    /// Adds the squared errors and the curve's gradient to `totals`, and returns the gradient
    /// quad (d/d mg sum, d/d eg sum, d/d units against White, against Black) of each lane, and
    /// d/d complexity.
    #[inline(always)]
    pub fn gradient(&self, scaled: f64, curve: Curve, totals: &mut Totals) -> [Lanes; 5] {
        let mut out = [[0.0; BATCH]; 5];
        for i in 0..BATCH {
            let sig = sigmoid_scaled(scaled, self.eval[i]);
            let r = self.result[i];
            totals.squared_error[i] += (r - sig) * (r - sig);
            // dE/de for this position, then split over the mg and eg parts.
            let g = 2.0 * (sig - r) * sig * (1.0 - sig) * scaled;
            out[0][i] = g * self.mg_weight[i];
            out[1][i] = g * self.eg_weight[i] * self.eg_pass[i];
            out[4][i] = g * self.eg_weight[i] * self.eg_by_complexity[i];
        }
        let max_units = MAX_KING_UNITS as f64;
        for side in 0..2 {
            let sign = if side == 0 { -1.0 } else { 1.0 }; // the penalty's sign in White's view
            for i in 0..BATCH {
                let (gm, ge) = (out[0][i], out[1][i]);
                let shape = self.shape[side][i];
                totals.curve_scale[0][i] += gm * sign * shape;
                totals.curve_scale[1][i] += ge * sign * shape;
                let along = gm * sign * curve.scale[0] + ge * sign * curve.scale[1];
                totals.power[i] += along * shape * self.ln_x[side][i] * 0.01;
                // d(x^p)/du = p · x^p / x / 100 (no second power); zero where the units are
                // clamped, and zero without danger (the shape is zero, x is floored).
                let per_unit = along * curve.power * 0.01 * shape / self.x[side][i];
                out[2 + side][i] = if self.units[side][i] < max_units { per_unit } else { 0.0 };
            }
        }
        out
    }
}

/// σ with the scale already converted to base e: 1 / (1 + e^(-s·eval)).
#[inline(always)]
pub fn sigmoid_scaled(s: f64, eval: f64) -> f64 {
    1.0 / (1.0 + exp(-s * eval))
}

/// The x in `[lo, hi]` minimising a unimodal `f`, by golden-section search (40 steps narrow the
/// interval by a factor of about 10^8): how the sigmoid scales K are fitted.
pub fn golden_section_min(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = hi - phi * (hi - lo);
    let mut d = lo + phi * (hi - lo);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            hi = d;
            d = c;
            fd = fc;
            c = hi - phi * (hi - lo);
            fc = f(c);
        } else {
            lo = c;
            c = d;
            fc = fd;
            d = lo + phi * (hi - lo);
            fd = f(d);
        }
    }
    (lo + hi) / 2.0
}
