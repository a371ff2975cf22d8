//! A smoothness and symmetry prior over the evaluation's tables, so that a value the data barely
//! sees (a king on a8 in the middle game, a queen with 26 moves) borrows from its neighbours
//! instead of being frozen at its start or fitted to noise.
//!
//! The prior is a sum of squared differences between related values of the same table and phase,
//! in the units of the L2 pull, `Σ c·((w_a - w_b)/100)²`:
//! - smoothness (`smooth`): a board square and the squares beside and above it; a list entry
//!   (a mobility count, a rank, a distance) and the next one;
//! - symmetry (`mirror`): a board square and its mirror across the d/e file line (a1 and h1).
//!
//! Elements a term declares `fixed` (they never reach the evaluation) take no part. A value with
//! plenty of data is held by it; a rare one is held by its neighbours: the gradient of the prior
//! pulls it toward their mean, which is what "borrowing" means here. Priors of this kind
//! (Laplacian smoothing of a table) are how Bayesian tuning of piece-square tables is usually
//! regularised; Fruit's shape parameters are the hard version of the same idea.

use anyhow::{bail, Result};
use whetstone::params::{ParamSet, Shape};

/// The tables the prior covers unless told otherwise: every board, and the lists whose index is
/// an ordered quantity (counts, ranks, distances). `king_safety.attackers` is by piece type, so
/// it is left out.
pub const DEFAULT_TERMS: &[&str] = &["pst.*", "mobility.*", "passed.*", "king.shield", "king.storm"];

/// Two values the prior ties together, and how strongly.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Tie {
    a: usize,
    b: usize,
    strength: f64,
}

/// The prior as the list of ties it is made of.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prior {
    ties: Vec<Tie>,
    /// The tables covered, for the log.
    pub tables: Vec<String>,
}

impl Prior {
    /// The prior over the board and list terms of `set` whose names match `terms` (globs). An
    /// error when both strengths are zero is not raised (that is no prior); an error when the
    /// globs name no board or list table is.
    pub fn new(set: &ParamSet, terms: &[String], smooth: f64, mirror: f64) -> Result<Prior> {
        if smooth < 0.0 || mirror < 0.0 {
            bail!("the prior's strengths must not be negative (--smooth {smooth}, --mirror {mirror})");
        }
        if smooth == 0.0 && mirror == 0.0 {
            return Ok(Prior::default());
        }
        let mut globs = globset::GlobSetBuilder::new();
        for t in terms {
            globs.add(globset::Glob::new(t).map_err(|e| anyhow::anyhow!("--prior-terms `{t}`: {e}"))?);
        }
        let globs = globs.build()?;
        let mut prior = Prior::default();
        let mut slot = 0;
        for term in &set.terms {
            let count = term.value_count();
            let covered = matches!(term.shape, Shape::Square | Shape::List) && term.tunable;
            if covered && globs.is_match(&term.name) {
                let phases = if term.phased { 2 } else { 1 };
                let usable = |e: usize| !term.fixed.contains(&e);
                let mut tie = |a: usize, b: usize, strength: f64| {
                    if strength > 0.0 && usable(a) && usable(b) {
                        for phase in 0..phases {
                            prior.ties.push(Tie {
                                a: slot + a * phases + phase,
                                b: slot + b * phases + phase,
                                strength,
                            });
                        }
                    }
                };
                match term.shape {
                    Shape::Square => {
                        for sq in 0..64 {
                            let (file, rank) = (sq % 8, sq / 8);
                            if file < 7 {
                                tie(sq, sq + 1, smooth);
                            }
                            if rank < 7 {
                                tie(sq, sq + 8, smooth);
                            }
                            if file < 4 {
                                tie(sq, sq - file + (7 - file), mirror);
                            }
                        }
                    }
                    _ => (1..term.len()).for_each(|i| tie(i - 1, i, smooth)),
                }
                prior.tables.push(term.name.clone());
            }
            slot += count;
        }
        if prior.tables.is_empty() {
            bail!(
                "the prior names no table: --prior-terms {} matches no tunable board or list term",
                terms.join(" ")
            );
        }
        Ok(prior)
    }

    pub fn is_empty(&self) -> bool {
        self.ties.is_empty()
    }

    /// Whether slot `i` is tied to another: a value the prior can hold when data cannot.
    pub fn covers(&self, i: usize) -> bool {
        self.ties.iter().any(|t| t.a == i || t.b == i)
    }

    /// `Σ c·((w_a - w_b)/100)²` over the flat value vector `w`.
    pub fn penalty(&self, w: &[f64]) -> f64 {
        self.ties.iter().map(|t| t.strength * ((w[t.a] - w[t.b]) / 100.0).powi(2)).sum()
    }

    /// Adds the penalty's gradient to `grad` (over the flat value vector).
    pub fn add_gradient(&self, w: &[f64], grad: &mut [f64]) {
        for t in &self.ties {
            let g = 2.0 * t.strength * (w[t.a] - w[t.b]) / 1e4;
            grad[t.a] += g;
            grad[t.b] -= g;
        }
    }
}

#[cfg(test)]
#[path = "prior_tests.rs"]
mod tests;
