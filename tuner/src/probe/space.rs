//! What a probe or a trace gives the fit: the columns (each a weight the fit may move: the UCI
//! option holding it, its starting value and bounds) and, per position, its label and its
//! evaluation as a function of the columns.

use serde::{Deserialize, Serialize};

use crate::dataset::Label;

/// One weight of the engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Column {
    /// The name the run folder and reports use: the option's, or `element:mg` for a weight no
    /// option holds.
    pub name: String,
    /// The UCI option holding it (`setoption name <option> value <v>`); `None`: fixed.
    pub option: Option<String>,
    pub start: i32,
    pub min: i32,
    pub max: i32,
}

/// A probed position: its evaluation linearised around the starting values,
/// eval(x) = base + Σ coefficient · (x - start), White's view, centipawns.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbedRow {
    pub fen: String,
    pub label: Label,
    pub base: f64,
    /// (column, d eval / d value), zeros left out.
    pub coefficients: Vec<(u32, f64)>,
}

impl ProbedRow {
    /// The linearised evaluation at `values` (one per column).
    pub fn eval(&self, values: &[f64], start: &[f64]) -> f64 {
        self.base
            + self
                .coefficients
                .iter()
                .map(|&(j, c)| c * (values[j as usize] - start[j as usize]))
                .sum::<f64>()
    }
}

/// How an option's effect looked across the positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Linearity {
    /// The differences on both sides agree: one probe serves the whole fit.
    Linear,
    /// Second differences show curvature: re-probed around the new values between rounds.
    NonLinear,
    /// No position's evaluation changed: left out of the fit.
    NoEffect,
}

/// What the probe found out about one option.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionFinding {
    pub option: String,
    pub start: i32,
    /// The values probed on either side of the start.
    pub probed: [i32; 2],
    /// Positions whose evaluation it changed.
    pub affected: usize,
    /// Positions whose second difference is above the curvature threshold.
    pub curved: usize,
    pub linearity: Linearity,
}
