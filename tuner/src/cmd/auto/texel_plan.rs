//! What a Texel stage fits and tunes where the user's `--texel-args` do not say, on a start that
//! is already tuned (its params file records how: `[provenance]`).
//!
//! Why: on a tuned build, a fit of every value on the loop's own positions with `tune texel`'s
//! default objective moved hundreds of values by noise and won nothing at the clock (docs/tuning.md,
//! "The whole loop on a tuned build"). So the stage
//! - continues the recipe its values record: their data beside the run's own positions, their
//!   objective (search-score weight and scale, L2 pull, prior, coverage), as `tune texel` does when
//!   no `--data` is named. The objective comes only with its data: when a recorded file is not on
//!   the machine, the stage keeps `tune texel`'s defaults and says how to make the file again;
//! - in the run's first Texel stage, tunes the start's new terms only: tunable terms whose every
//!   value is zero, as an engine author declares a term before any tuning. They are where the
//!   evidence to move is, while the other values already sit where the same data put them. Later
//!   Texel stages tune every value.
//!
//! A start without provenance (hand-set values, material only) gets `tune texel`'s defaults and
//! every value, as before.

use std::path::{Path, PathBuf};

use anyhow::Result;
use whetstone::params::ParamSet;

use super::record::State;
use super::{AutoArgs, Stage, START_EVAL};
use crate::run::provenance::Provenance;

/// The recipe options a recorded recipe fills, as `tune texel` spells them.
const RECIPE_OPTIONS: [&str; 7] =
    ["--score-weight", "--score-k", "--l2", "--smooth", "--mirror", "--prior-terms", "--min-coverage"];

/// What the loop adds to a Texel stage's command line: recorded data and objective, and the
/// terms it tunes.
#[derive(Debug, Default, PartialEq)]
pub(super) struct TexelPlan {
    /// The recorded data files found on this machine (read beside the run's positions).
    pub(super) data: Vec<PathBuf>,
    /// Recorded data files that are not on this machine (the stage goes on without them).
    pub(super) missing: Vec<PathBuf>,
    /// Options of the recorded objective the user's --texel-args do not give (none when some
    /// recorded data is missing).
    pub(super) words: Vec<String>,
    /// How to make the missing data again, as the start records it.
    pub(super) regenerate: Option<String>,
    /// The new terms the stage tunes alone (empty: every value, or the user's --only).
    pub(super) only: Vec<String>,
    /// The file whose recorded hold-out the stage keeps on the recorded data (`--hold-out-from`):
    /// the stage's start is a copy without provenance, and a split of its own would validate on
    /// games the start was fitted on, which favours the start.
    pub(super) hold_out_from: Option<PathBuf>,
}

impl TexelPlan {
    /// The plan of the next Texel stage of `state`.
    pub(super) fn of(args: &AutoArgs, state: &State) -> Result<TexelPlan> {
        let user = user_words(args);
        let mut plan = TexelPlan::default();
        let source = recipe_source(args, state);
        let Some(provenance) = Provenance::read(source)? else {
            return Ok(plan);
        };
        if let Some(recipe) = &provenance.recipe {
            for file in recipe.data.iter().map(PathBuf::from) {
                if state.positions.contains(&file) || args.data.contains(&file) {
                    continue;
                }
                if file.is_file() {
                    plan.data.push(file);
                } else {
                    plan.missing.push(file);
                }
            }
            // The objective belongs to its data: without all of it (a results-only --data, say,
            // cannot take a search-score weight), the stage keeps `tune texel`'s defaults.
            let complete = plan.missing.is_empty();
            if !complete {
                plan.regenerate = recipe.regenerate.clone();
                plan.data.clear();
            }
            let given =
                |option: &str| user.iter().any(|w| w == option || w.starts_with(&format!("{option}=")));
            let mut add = |option: &str, values: Vec<String>| {
                if complete && !given(option) && !values.is_empty() {
                    plan.words.push(option.to_string());
                    plan.words.extend(values);
                }
            };
            add(RECIPE_OPTIONS[0], vec![recipe.score_weight.to_string()]);
            add(RECIPE_OPTIONS[1], vec![recipe.score_k.clone()]);
            // The pull is the recording tool's own: another tuner's pull suits its optimiser.
            if provenance.tool == "texel" {
                add(RECIPE_OPTIONS[2], vec![recipe.l2.to_string()]);
            }
            add(RECIPE_OPTIONS[3], vec![recipe.smooth.to_string()]);
            add(RECIPE_OPTIONS[4], vec![recipe.mirror.to_string()]);
            add(RECIPE_OPTIONS[5], recipe.prior_terms.clone());
            add(RECIPE_OPTIONS[6], vec![recipe.min_coverage.to_string()]);
            if complete && !given("--hold-out-from") {
                plan.hold_out_from = Some(source.to_path_buf());
            }
        }
        let first_texel = !state.stages.iter().any(|r| r.stage == Stage::Texel);
        if first_texel && !user.iter().any(|w| w == "--only" || w.starts_with("--only=")) {
            plan.only = new_terms(&ParamSet::load(&state.eval)?);
        }
        Ok(plan)
    }

    /// One line for the loop's log, when the plan adds anything.
    pub(super) fn describe(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.words.is_empty() || !self.data.is_empty() {
            parts.push(format!("continues the recipe the start records ({})", self.words.join(" ")));
        }
        if !self.missing.is_empty() {
            let missing: Vec<_> = self.missing.iter().map(|p| p.display().to_string()).collect();
            parts.push(format!(
                "the data the start records ({}) is not on this machine, so the stage fits the run's positions \
                 and --data with tune texel's defaults{}",
                missing.join(", "),
                self.regenerate.as_ref().map(|r| format!(" (make the data again with: {r})")).unwrap_or_default()
            ));
        }
        if !self.only.is_empty() {
            parts.push(format!(
                "the first Texel stage tunes the start's new terms only: {}",
                self.only.join(" ")
            ));
        }
        (!parts.is_empty()).then(|| format!("texel: {}", parts.join("; ")))
    }
}

/// The file whose provenance the next Texel stage continues: the file the run started from
/// (its copy in the run folder keeps the values only), else the last kept stage's values.
fn recipe_source<'a>(args: &'a AutoArgs, state: &'a State) -> &'a Path {
    if state.eval == args.out.join(START_EVAL) {
        &args.params
    } else {
        &state.eval
    }
}

/// The words of the user's --texel-args (unparsable quotes are reported when the stage is built).
fn user_words(args: &AutoArgs) -> Vec<String> {
    args.texel_args.as_deref().and_then(shlex::split).unwrap_or_default()
}

/// Tunable terms whose every value (but the fixed elements) is zero, in declaration order.
pub(super) fn new_terms(set: &ParamSet) -> Vec<String> {
    set.terms
        .iter()
        .filter(|t| t.tunable)
        .filter(|t| {
            (0..t.len()).filter(|i| !t.fixed.contains(i)).all(|i| t.mg[i] == 0 && t.eg[i] == 0)
                && (0..t.len()).any(|i| !t.fixed.contains(&i))
        })
        .map(|t| t.name.clone())
        .collect()
}

#[cfg(test)]
#[path = "texel_plan_tests.rs"]
mod tests;
