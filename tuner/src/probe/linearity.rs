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
mod tests {
    use super::*;

    #[test]
    fn second_differences_tell_curves_from_rounding() {
        let mut linear = Differences::default();
        let mut curved = Differences::default();
        for p in 0..100 {
            // Rounding moves a linear weight's second difference by a centipawn or two.
            linear.add(0.5, Some((p % 3) as f64 - 1.0), 2.5);
            // A square's: 2 d^2 = 8 at d = 2.
            curved.add(1.0 + p as f64 / 10.0, Some(8.0), 2.5);
        }
        assert_eq!(classify(&linear, 0.05), Linearity::Linear);
        assert_eq!(classify(&curved, 0.05), Linearity::NonLinear);
        assert_eq!(classify(&Differences::default(), 0.05), Linearity::NoEffect);
        // A kink in a few positions (a clamp at zero) is not a curve.
        let mut kinked = linear;
        kinked.add(1.0, Some(12.0), 2.5);
        assert_eq!(classify(&kinked, 0.05), Linearity::Linear);
    }
}
