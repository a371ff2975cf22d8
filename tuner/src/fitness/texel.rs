//! The Texel loss as a fitness: the mean squared error between game results and the sigmoid of
//! the evaluation, over a dataset traced once (the trace store `tune texel` uses), so one
//! evaluation of 50,000 positions costs milliseconds. K is fitted once on the starting values.
//!
//! Regularised as `tune texel` is, because a lower error alone made a weaker engine: an L2 pull
//! toward the starting values, λ·Σ((x - x₀)/100)², is added to the training error, and values
//! seen in too few positions are not tuned (`covered`).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Result};
use whetstone::params::ParamSet;

use super::{Compared, ExactLoss, Fitness, Games, Scored};

use crate::model::prior::Prior;
use crate::model::recipe::FitRecipe;
use crate::model::{blended_targets, load_traces, sample_games, split, Data};
use crate::model::{Layout, Model};
use crate::optim::space::{Slot, Space};

pub struct TexelFitness {
    layout: Layout,
    data: Data,
    space: Space,
    /// The starting evaluation's full value vector; candidates overwrite their slots.
    base: Vec<f64>,
    pub k: f64,
    /// The L2 strength λ.
    pub l2: f64,
    /// The smoothness and symmetry prior over tables (empty: none).
    pub prior: Prior,
    files: Vec<PathBuf>,
}

impl TexelFitness {
    /// Traces the recipe's data (holding out `valid_fraction` by game and `seed`), fits K on the
    /// starting values against the results, and blends the training targets with the search
    /// scores when the recipe weighs them (validation stays against the results).
    pub fn load(
        eval: &ParamSet,
        space: &Space,
        recipe: &FitRecipe,
        valid_fraction: f64,
        seed: u64,
        progress: bool,
    ) -> Result<TexelFitness> {
        if let Some(d) = space.dims.iter().find(|d| !matches!(d.slot, Slot::Eval(_))) {
            bail!(
                "--fitness texel tunes evaluation weights only; `{}` is not one (use --fitness selfplay)",
                d.name
            );
        }
        let mut store = load_traces(&recipe.data, false, progress)?;
        if let Some(max) = recipe.positions {
            store = sample_games(store, max as usize);
        }
        let mut data_split = split(&store, valid_fraction, seed);
        if data_split.train.is_empty() {
            bail!(
                "no training positions in {}",
                recipe.data.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
            );
        }
        let layout = Layout::new(eval);
        let base: Vec<f64> = eval.values().iter().map(|&v| v as f64).collect();
        let k = Model { layout: &layout, store: &data_split.train }.fit_k(&base);
        if let Some(blended) = blended_targets(&data_split.train, recipe.score_weight, recipe.score_k, k)? {
            data_split.train = blended;
        }
        Ok(TexelFitness {
            layout,
            data: data_split,
            space: space.clone(),
            base,
            k,
            l2: recipe.l2,
            prior: Prior::new(eval, &recipe.prior_terms, recipe.smooth, recipe.mirror)?,
            files: recipe.data.clone(),
        })
    }

    /// The space without the values seen in fewer than `min_coverage` training positions
    /// (phase-weighted, as `tune texel --min-coverage`); the fitness tunes that space from now on.
    pub fn keep_covered(&mut self, min_coverage: f64, names: &[String]) -> (Space, Vec<String>) {
        let model = Model { layout: &self.layout, store: &self.data.train };
        let evals: Vec<usize> = self
            .space
            .dims
            .iter()
            .filter_map(|d| if let Slot::Eval(i) = d.slot { Some(i) } else { None })
            .collect();
        let coverage = model.coverage();
        let (covered, rare) = Model::keep_covered_by(&coverage, &evals, min_coverage);
        // Rare values the prior ties to their neighbours are tuned: the prior holds them.
        let (held, rare): (Vec<usize>, Vec<usize>) = rare.into_iter().partition(|&i| self.prior.covers(i));
        Model::report_coverage(&coverage, min_coverage, (covered.len(), held.len(), &rare), names);
        let rare: std::collections::HashSet<usize> = rare.into_iter().collect();
        let (kept, frozen): (Vec<_>, Vec<_>) = self
            .space
            .dims
            .iter()
            .cloned()
            .partition(|d| !matches!(d.slot, Slot::Eval(i) if rare.contains(&i)));
        self.space = Space { dims: kept };
        // Named by `ParamSet::value_names` (`pst_pawn_a1_mg`), as everywhere else.
        let frozen = frozen.into_iter().filter_map(|d| {
            if let Slot::Eval(i) = d.slot {
                Some(names[i].clone())
            } else {
                None
            }
        });
        (self.space.clone(), frozen.collect())
    }

    fn describe_data(&self) -> String {
        format!(
            "Texel loss (L2 {}) over {} ({} training, {} validation positions, K = {:.4})",
            self.l2,
            self.files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
            self.data.train.len(),
            self.data.valid.len(),
            self.k
        )
    }

    fn weights(&self, x: &[f64]) -> Vec<f64> {
        let mut w = self.base.clone();
        for (v, d) in self.space.playable(x).into_iter().zip(&self.space.dims) {
            if let Slot::Eval(i) = d.slot {
                w[i] = v;
            }
        }
        w
    }

    /// The objective: training error plus the L2 pull toward the start and the prior (lower is
    /// better).
    pub fn training_loss(&self, x: &[f64]) -> f64 {
        let w = self.weights(x);
        let error =
            Model { layout: &self.layout, store: &self.data.train }.loss(&w, self.k) + self.prior.penalty(&w);
        let pull: f64 = self
            .space
            .playable(x)
            .iter()
            .zip(&self.space.dims)
            .map(|(v, d)| ((v - d.start) / 100.0).powi(2))
            .sum();
        error + self.l2 * pull
    }

    /// Validation error, without the L2 term (NaN without validation positions).
    pub fn validation_loss(&self, x: &[f64]) -> f64 {
        if self.data.valid.is_empty() {
            return f64::NAN;
        }
        Model { layout: &self.layout, store: &self.data.valid }.loss(&self.weights(x), self.k)
    }
}

impl ExactLoss for TexelFitness {
    fn loss(&self, x: &[f64]) -> f64 {
        self.training_loss(x)
    }

    fn valid_loss(&self, x: &[f64]) -> f64 {
        self.validation_loss(x)
    }
}

impl Fitness for TexelFitness {
    fn describe(&self) -> String {
        self.describe_data()
    }

    fn plays_games(&self) -> bool {
        false
    }

    /// Minus each loss; one at a time, because each loss already spreads its positions over
    /// every core.
    fn rank(
        &self,
        candidates: &[Vec<f64>],
        _games: u32,
        _seed: u64,
        _stop: &AtomicBool,
    ) -> Result<Vec<Scored>> {
        Ok(candidates
            .iter()
            .map(|x| Scored { fitness: -self.training_loss(x), games: Games::default() })
            .collect())
    }

    /// As if the side with the lower loss had won a game pair (±2; 0 on a tie), the scale of a
    /// game-pair result, so SPSA's gains mean the same with either fitness.
    fn compare(
        &self,
        pairs: &[(Vec<f64>, Vec<f64>)],
        _seed: u64,
        _stop: &AtomicBool,
    ) -> Result<Vec<Compared>> {
        Ok(pairs
            .iter()
            .map(|(plus, minus)| {
                let (plus, minus) = (self.training_loss(plus), self.training_loss(minus));
                let result = match plus.total_cmp(&minus) {
                    std::cmp::Ordering::Less => 2.0,
                    std::cmp::Ordering::Greater => -2.0,
                    std::cmp::Ordering::Equal => 0.0,
                };
                Compared { result, games: Games::default() }
            })
            .collect())
    }

    fn outcomes(&self, _candidates: &[Vec<f64>], _seed: u64, _stop: &AtomicBool) -> Result<Vec<Games>> {
        bail!("the Texel loss plays no games: use --fitness selfplay or --fitness command")
    }

    fn exact(&self) -> Option<&dyn ExactLoss> {
        Some(self)
    }
}
