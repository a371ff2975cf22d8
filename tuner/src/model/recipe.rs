//! What a Texel fit fits to: the labelled positions and the objective's settings (search-score
//! weight and scale, L2 pull, prior, coverage), resolved from what the user gave, the starting
//! file's provenance and the defaults.
//!
//! A run that names no `--data` continues on the data and recipe its starting params file
//! records (`[provenance.recipe]`): values tuned on one kind of data and scored one way are
//! carried on by the same kind and the same objective, since a lower loss on other data was not
//! a stronger engine (docs/tuning.md, "Trust by default"). A file without a recipe gets the
//! defaults; a recorded file missing on this machine is an error that says how to make it again,
//! unless the run is told to fall back to the bundled data.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

pub use crate::model::traces::ScoreK;
use crate::model::validation;
use crate::run::provenance::{HeldOut, Provenance, Recipe};

/// The labelled positions a fit reads when neither the user nor the starting file names any:
/// positions of today's build's own games, scored by Ethereal 12 at depth 8 (datasets/README.md).
pub const DEFAULT_DATA: &str = "datasets/whetstone-selfplay-113k.epd";

/// A fit's data and objective, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct FitRecipe {
    pub data: Vec<PathBuf>,
    pub score_weight: f64,
    pub score_k: ScoreK,
    pub l2: f64,
    pub smooth: f64,
    pub mirror: f64,
    pub prior_terms: Vec<String>,
    pub min_coverage: f64,
    /// At most this many positions of the data, whole games sampled evenly (`--positions`).
    pub positions: Option<u64>,
    /// Where the data and recipe came from, for the log (`params/eval.toml's provenance`).
    pub source: String,
    /// How to make the data again, carried on from the starting file's provenance.
    pub regenerate: Option<String>,
    /// Which games of `data` are held out, file by file (`model/validation.rs`): after
    /// [`FitRecipe::resolve`], the starting file's own hold-out of its data, which `data` then
    /// begins with; the fit adds its own for the other files.
    pub held_out: Vec<HeldOut>,
}

/// What the user gave (None and empty: not given).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecipeChoice {
    pub data: Vec<PathBuf>,
    pub score_weight: Option<f64>,
    pub score_k: Option<ScoreK>,
    pub l2: Option<f64>,
    pub smooth: Option<f64>,
    pub mirror: Option<f64>,
    pub prior_terms: Vec<String>,
    pub min_coverage: Option<f64>,
    pub positions: Option<u64>,
    /// With no --data and the starting file's recorded data missing: tune on [`DEFAULT_DATA`]
    /// with the defaults instead of stopping.
    pub fall_back: bool,
    /// The params file whose recorded hold-out the fit keeps on that file's data, in place of
    /// the starting file's: for a start copied without its `[provenance]` (the loop's stages).
    pub hold_out_from: Option<PathBuf>,
}

impl FitRecipe {
    /// The defaults: the bundled data, results alone, a pull of `l2` (each tuner has its own).
    pub fn defaults(l2: f64) -> FitRecipe {
        FitRecipe {
            data: vec![PathBuf::from(DEFAULT_DATA)],
            score_weight: 0.0,
            score_k: ScoreK::Eval,
            l2,
            smooth: 0.0,
            mirror: 0.0,
            prior_terms: crate::model::prior::DEFAULT_TERMS.iter().map(|s| s.to_string()).collect(),
            min_coverage: 1000.0,
            positions: None,
            source: "the defaults".into(),
            regenerate: None,
            held_out: Vec::new(),
        }
    }

    /// A recorded recipe with the pull `l2` (each tuner's own: the right pull depends on the
    /// optimiser and the data's size, while the data and the objective say what the values were
    /// fitted to).
    fn recorded(recipe: &Recipe, l2: f64, source: String) -> Result<FitRecipe> {
        let defaults = FitRecipe::defaults(l2);
        Ok(FitRecipe {
            data: recipe.data.iter().map(PathBuf::from).collect(),
            score_weight: recipe.score_weight,
            score_k: recipe.score_k.parse().map_err(anyhow::Error::msg)?,
            l2,
            smooth: recipe.smooth,
            mirror: recipe.mirror,
            prior_terms: if recipe.prior_terms.is_empty() {
                defaults.prior_terms
            } else {
                recipe.prior_terms.clone()
            },
            min_coverage: recipe.min_coverage,
            positions: None,
            source,
            regenerate: recipe.regenerate.clone(),
            held_out: Vec::new(),
        })
    }

    /// The recipe of a fit by `tool` starting from `params`: the user's choices over the recipe
    /// `params` records (when no data is given; its pull only when `tool` made it) over the
    /// defaults (`default_l2` for the pull).
    pub fn resolve(params: &Path, choice: &RecipeChoice, default_l2: f64, tool: &str) -> Result<FitRecipe> {
        let provenance = Provenance::read(params)?;
        let recorded = match &provenance {
            Some(Provenance { recipe: Some(recipe), tool: made_by, .. }) if choice.data.is_empty() => {
                Some((recipe.clone(), made_by == tool))
            }
            _ => None,
        };
        let mut recipe = match recorded {
            Some((recipe, same_tool)) => {
                let l2 = if same_tool { recipe.l2 } else { default_l2 };
                let source = format!("the data and recipe {} records", params.display());
                let resolved = FitRecipe::recorded(&recipe, l2, source)?;
                match resolved.data.iter().find(|p| !p.is_file()) {
                    None => resolved,
                    Some(missing) if choice.fall_back => {
                        eprintln!(
                            "{} records {} as its data, which is not on this machine; --data-fallback: \
                             tuning on {DEFAULT_DATA} with the defaults",
                            params.display(),
                            missing.display()
                        );
                        FitRecipe::defaults(default_l2)
                    }
                    Some(missing) => bail!(
                        "{} was tuned on {} (its [provenance]), which is not on this machine. {}Or give \
                         --data FILE..., or --data-fallback to tune on {DEFAULT_DATA} with the defaults",
                        params.display(),
                        missing.display(),
                        recipe
                            .regenerate
                            .as_ref()
                            .map(|r| format!("Make it again with:\n  {r}\n"))
                            .unwrap_or_default()
                    ),
                }
            }
            None => FitRecipe::defaults(default_l2),
        };
        if !choice.data.is_empty() {
            recipe.data = choice.data.clone();
            recipe.source = "--data".into();
            recipe.regenerate = None;
        }
        recipe.score_weight = choice.score_weight.unwrap_or(recipe.score_weight);
        recipe.score_k = choice.score_k.unwrap_or(recipe.score_k);
        recipe.l2 = choice.l2.unwrap_or(recipe.l2);
        recipe.smooth = choice.smooth.unwrap_or(recipe.smooth);
        recipe.mirror = choice.mirror.unwrap_or(recipe.mirror);
        recipe.min_coverage = choice.min_coverage.unwrap_or(recipe.min_coverage);
        recipe.positions = choice.positions.or(recipe.positions);
        if !choice.prior_terms.is_empty() {
            recipe.prior_terms = choice.prior_terms.clone();
        }
        if !(0.0..=1.0).contains(&recipe.score_weight) {
            bail!("--score-weight {} is not a weight from 0 to 1", recipe.score_weight);
        }
        let hold_out_source = match &choice.hold_out_from {
            Some(file) => Some(Provenance::read(file)?.with_context(|| {
                format!("--hold-out-from {}: it records no [provenance]", file.display())
            })?),
            None => provenance,
        };
        recipe.held_out = validation::start_first(hold_out_source.as_ref(), &mut recipe.data);
        Ok(recipe)
    }

    /// The recipe as a provenance records it.
    pub fn record(&self) -> Recipe {
        Recipe {
            data: self.data.iter().map(|p| p.display().to_string()).collect(),
            regenerate: self.regenerate.clone(),
            score_weight: self.score_weight,
            score_k: self.score_k.to_string(),
            l2: self.l2,
            smooth: self.smooth,
            mirror: self.mirror,
            prior_terms: self.prior_terms.clone(),
            min_coverage: self.min_coverage,
            held_out: self.held_out.clone(),
        }
    }

    /// One line for the log.
    pub fn describe(&self) -> String {
        let mut text = format!(
            "data {} ({}); targets {:.0}% search score (K {}), L2 {}, min coverage {}",
            self.data.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
            self.source,
            self.score_weight * 100.0,
            self.score_k,
            self.l2,
            self.min_coverage
        );
        if let Some(n) = self.positions {
            text += &format!(", at most {n} positions (whole games)");
        }
        if self.smooth > 0.0 || self.mirror > 0.0 {
            text += &format!(
                ", prior smooth {} mirror {} over {}",
                self.smooth,
                self.mirror,
                self.prior_terms.join(" ")
            );
        }
        text
    }
}

#[cfg(test)]
#[path = "recipe_tests.rs"]
mod tests;
