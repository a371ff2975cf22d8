//! The weights the evaluation reads: the flat parameter vector as middle-game and end-game arrays
//! indexed by element (see `baked::idx`), plus the king-safety curve tabulated from its two
//! parameters.

use crate::eval::EvalParamSet;
use crate::params::ParamsError;

use super::accumulator::Group;
use super::baked::idx;
use super::score::S;

/// Attack units beyond this all get the curve's last value.
pub const MAX_KING_UNITS: usize = 800;

/// Evaluation weights, built from an [`EvalParamSet`] (whose layout is the baked one).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub mg: Vec<i32>,
    pub eg: Vec<i32>,
    /// The same weights as (mg, eg) pairs: the engine's sum reads one pair per element instead of
    /// two separate arrays.
    pub packed: Vec<S>,
    /// King-safety penalty by attack units (0..=MAX_KING_UNITS), middle game and end game.
    pub curve_mg: Vec<i32>,
    pub curve_eg: Vec<i32>,
    /// Per [`Group`] (by its index): every weight of its terms is zero, so the engine's sum
    /// leaves the group out.
    pub inert: [bool; Group::ALL.len()],
}

impl Default for Weights {
    /// The weights the engine was built with.
    fn default() -> Weights {
        Weights::from_params(&EvalParamSet::baked())
    }
}

impl Weights {
    /// The weights of a parameter set, element by element in `idx` order.
    pub fn from_params(set: &EvalParamSet) -> Weights {
        let mg: Vec<i32> = set.terms.iter().flat_map(|t| t.mg.iter().copied()).collect();
        let eg: Vec<i32> = set.terms.iter().flat_map(|t| t.eg.iter().copied()).collect();
        debug_assert_eq!(mg.len(), idx::COUNT);
        let power = mg[idx::KING_SAFETY_CURVE_POWER];
        let (curve_mg, curve_eg) = (
            king_curve(mg[idx::KING_SAFETY_CURVE_SCALE], power),
            king_curve(eg[idx::KING_SAFETY_CURVE_SCALE], power),
        );
        let packed = mg.iter().zip(&eg).map(|(&m, &e)| S(m, e)).collect();
        let zero = |name: &str| set.term(name).is_none_or(|t| t.mg.iter().chain(&t.eg).all(|&v| v == 0));
        let inert = Group::ALL.map(|g| g.terms().iter().all(|name| zero(name)));
        Weights { mg, eg, packed, curve_mg, curve_eg, inert }
    }

    /// Loads a params file and builds its weights; errors name the file and the term.
    pub fn load(path: &std::path::Path) -> Result<Weights, ParamsError> {
        Ok(Weights::from_params(&EvalParamSet::load(path)?))
    }
}

/// curve(u) = scale * (u / 100) ^ (power / 100), rounded, for u = 0..=MAX_KING_UNITS.
/// The tuner differentiates the same formula; the engine and the trace both read this table.
pub fn king_curve(scale: i32, power_hundredths: i32) -> Vec<i32> {
    let p = power_hundredths as f64 / 100.0;
    (0..=MAX_KING_UNITS).map(|u| (scale as f64 * (u as f64 / 100.0).powf(p)).round() as i32).collect()
}
