//! Which options act linearly on the evaluation, from their second differences
//! e(x + d) - 2 e(x) + e(x - d): zero, up to an integer evaluation's rounding, for a weight that
//! enters the evaluation linearly (material, a table entry, a mobility weight); not zero in
//! many positions for one that enters through a curve (king-safety units, a curve's exponent)
//! or a clamp. Those are re-linearised: probed again around the values of each round's fit.

use super::space::Linearity;

/// Counts over the positions for one option.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Differences {
    /// Positions whose evaluation the option changed.
    pub affected: usize,
    /// Of those, positions whose second difference was above the threshold.
    pub curved: usize,
}

impl Differences {
    /// Takes one position's first difference (the coefficient) and second difference (`None`
    /// when a bound made the steps unequal).
    pub fn add(&mut self, coefficient: f64, second: Option<f64>, threshold_cp: f64) {
        let moved = coefficient != 0.0 || second.is_some_and(|s| s != 0.0);
        self.affected += moved as usize;
        self.curved += second.is_some_and(|s| s.abs() > threshold_cp) as usize;
    }
}

/// No effect, curved in more than `share` of the positions it affects, or linear.
pub fn classify(d: &Differences, share: f64) -> Linearity {
    if d.affected == 0 {
        Linearity::NoEffect
    } else if d.curved as f64 > share * d.affected as f64 {
        Linearity::NonLinear
    } else {
        Linearity::Linear
    }
}

#[cfg(test)]
#[path = "linearity_tests.rs"]
mod tests;
