//! The options of a Texel fit's data and objective (`tune texel`, and the black-box tuners'
//! Texel fitness); they resolve to the library's [`RecipeChoice`].

use std::path::PathBuf;

use crate::model::recipe::{RecipeChoice, ScoreK};

/// The data and objective of a Texel fit, for `tune texel` and the black-box tuners' Texel
/// fitness. Without --data, the run continues on the data and recipe the starting params file
/// records in its `[provenance]` (each option given still wins); with --data, the defaults.
#[derive(clap::Args, Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct RecipeArgs {
    /// Labelled positions (EPD with c9 results, `[1.0]` lines, `fen | result`, CSV; .gz too)
    /// [default: the data the starting file's provenance records, else
    /// datasets/whetstone-selfplay-113k.epd].
    #[arg(long, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// With no --data and the starting file's recorded data missing on this machine, tune on
    /// the bundled data with the defaults instead of stopping.
    #[arg(long)]
    pub data_fallback: bool,
    /// Train on targets blended from each position's game result and its search score (EPD `ce`,
    /// written by `tune datagen` and `tune dataset convert` from the games' move comments, or by
    /// `tune dataset rescore` from any engine's search): (1 - W) · result + W · σ(K · score), K
    /// fitted on the results first. 0 is results alone; positions without a score keep their
    /// result. The validation loss stays against the results, so runs with different W compare
    /// [default: the starting file's recipe, else 0].
    #[arg(long, value_name = "W")]
    pub score_weight: Option<f64>,
    /// The K that turns the search scores into targets: `eval`, the evaluation's K (fitted on
    /// the results), right for our own engine's scores; `fit`, fitted on the scores themselves
    /// against the results, for scores in another engine's centipawns [default: the starting
    /// file's recipe, else eval].
    #[arg(long, value_name = "K", value_parser = parse_score_k)]
    pub score_k: Option<ScoreK>,
    /// L2 pull toward the starting values: adds λ·Σ((w - w₀)/100)² to the loss being minimised
    /// (the logged losses stay the plain mean squared error); 0 turns it off [default: the
    /// starting file's recipe, else 0.003 for tune texel and 0.001 for the black-box tuners,
    /// each the best measured in games: docs/tuning.md].
    #[arg(long, value_name = "λ")]
    pub l2: Option<f64>,
    /// Smoothness prior: adds λ·Σ((w_a - w_b)/100)² over neighbouring squares of each board
    /// and neighbouring entries of each ordered list (--prior-terms), so a value the data barely
    /// sees follows its neighbours; values of those tables are then tuned whatever their
    /// coverage. 0 turns it off [default: the starting file's recipe, else 0].
    #[arg(long, value_name = "λ")]
    pub smooth: Option<f64>,
    /// Symmetry prior: adds μ·Σ((w_sq - w_mirror)/100)² over each board's squares and their
    /// mirrors across the d/e line (a1 and h1). 0 turns it off [default: the starting file's
    /// recipe, else 0].
    #[arg(long, value_name = "μ")]
    pub mirror: Option<f64>,
    /// The tables --smooth and --mirror cover, as globs over term names [default: the starting
    /// file's recipe, else pst.* mobility.* passed.* king.shield king.storm].
    #[arg(long, num_args = 1.., value_name = "GLOB")]
    pub prior_terms: Vec<String>,
    /// Fit on at most this many positions of the data: whole games, sampled evenly over the
    /// files (deterministic) [default: all; `tune pbil`: 150,000, so that 1,500 generations
    /// take minutes].
    #[arg(long, value_name = "N")]
    pub positions: Option<u64>,
    /// Leave values seen in fewer than this many (phase-weighted) training positions alone:
    /// rare entries otherwise fit noise [default: the starting file's recipe, else 1000].
    #[arg(long, value_name = "N")]
    pub min_coverage: Option<f64>,
    /// Keep the hold-out FILE's `[provenance]` records on the data it records (those files come
    /// first, the rest are split by --seed), instead of the starting file's: for a start that was
    /// copied without its provenance, as `tune auto` copies it into its run folder. The validation
    /// loss is then measured on games neither the start nor this fit trained on.
    #[arg(long, value_name = "FILE")]
    pub hold_out_from: Option<PathBuf>,
}

/// `eval` or `fit`, as `--score-k` takes it.
fn parse_score_k(text: &str) -> std::result::Result<ScoreK, String> {
    text.parse()
}

impl RecipeArgs {
    /// What the user chose, for `FitRecipe::resolve`.
    pub fn choice(&self) -> RecipeChoice {
        RecipeChoice {
            data: self.data.clone(),
            score_weight: self.score_weight,
            score_k: self.score_k,
            l2: self.l2,
            smooth: self.smooth,
            mirror: self.mirror,
            prior_terms: self.prior_terms.clone(),
            min_coverage: self.min_coverage,
            positions: self.positions,
            fall_back: self.data_fallback,
            hold_out_from: self.hold_out_from.clone(),
        }
    }
}
