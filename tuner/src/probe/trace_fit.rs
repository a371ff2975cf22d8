//! The Texel fit of a traced engine. A trace is the Texel model's own store over the engine's
//! declared weights, so the fit is `tune texel`'s objective on it (K fitted on the results at
//! the declared values, Adam, the L2 pull toward the start, targets blended with search scores,
//! weights seen in too few positions frozen), with the validation loss on whole games held out
//! by the one hold-out rule. Weights that no option holds (a declared term the engine cannot
//! take back) stay where they are.

use anyhow::Result;

use super::fit::FitSettings;
use super::trace_run::Traced;
use crate::dataset::holdout::{GameCounter, GameMark};
use crate::model::recipe::ScoreK;
use crate::model::{blended_targets, split, Kernel, Model};
use crate::optim::Adam;

/// What the fit of a traced engine found.
#[derive(Clone, Debug)]
pub struct TracedFit {
    /// The options' values at the start and after the fit (rounded, within bounds), by option.
    pub start: Vec<(String, i32)>,
    pub values: Vec<(String, i32)>,
    pub k: f64,
    /// (train, validation) loss per epoch, epoch 0 at the start; validation is NaN without
    /// held-out positions.
    pub log: Vec<(f64, f64)>,
    /// Options seen in fewer than `min_coverage` training positions, left at their start.
    pub frozen: Vec<String>,
}

/// Numbers the traced positions by game (consecutive positions of one game, as the dataset
/// holds them), so that the hold-out keeps whole games apart.
fn number_games(traced: &Traced) -> Vec<u32> {
    let mut games = GameCounter::default();
    traced
        .fens
        .iter()
        .zip(&traced.store.result)
        .map(|(fen, &result)| {
            let outcome = f32::from(result) / 254.0;
            let game = match whetstone::Position::from_fen(fen) {
                Ok(pos) => games.next(GameMark::of(&pos, outcome)),
                Err(_) => {
                    games.new_file();
                    games.next(GameMark::of(&whetstone::Position::startpos(), outcome))
                }
            };
            game.min(u64::from(u32::MAX - 1)) as u32
        })
        .collect()
}

/// Fits the traced engine's option-held weights to the positions' results.
pub fn fit_traced(traced: &Traced, settings: &FitSettings) -> Result<TracedFit> {
    let mut store = traced.store.clone();
    store.game = number_games(traced);
    let data = split(&store, settings.valid_fraction, settings.seed);
    let layout = &traced.layout;
    let columns = &traced.columns;
    let results = Model { layout, store: &data.train };
    let valid = Model { layout, store: &data.valid };
    let start: Vec<f64> = columns.iter().map(|c| c.start as f64).collect();
    let k = results.fit_k(&start);
    // Targets may take in the search scores (the engine's own: its K is the evaluation's).
    let blended = blended_targets(&data.train, settings.score_weight, ScoreK::Eval, k)?;
    let train = Model { layout, store: blended.as_ref().unwrap_or(&data.train) };
    let coverage = results.coverage();
    let (selected, frozen): (Vec<usize>, Vec<usize>) = (0..columns.len())
        .filter(|&j| columns[j].option.is_some())
        .partition(|&j| coverage[j] >= settings.min_coverage as f64);
    let bounds: Vec<(i32, i32)> = columns.iter().map(|c| (c.min, c.max)).collect();
    let valid_loss = |w: &[f64]| if data.valid.is_empty() { f64::NAN } else { valid.loss(w, k) };
    let mut values = start.clone();
    let mut adam = Adam::new(values.len(), settings.learning_rate);
    let mut log = vec![(train.loss(&values, k), valid_loss(&values))];
    for _ in 0..settings.epochs {
        let (loss, mut grad) =
            train.loss_and_gradient_over(Kernel::detect(), 0..data.train.len(), &values, k);
        for &j in &selected {
            grad[j] += 2.0 * settings.l2 * (values[j] - start[j]) / 1e4;
        }
        adam.update(&mut values, &grad, &selected, &bounds);
        log.push((loss, valid_loss(&values)));
    }
    // The last entry's training loss is the one before the last step; take it at the end.
    if let Some(last) = log.last_mut() {
        last.0 = train.loss(&values, k);
    }
    let by_option = |w: &[f64]| -> Vec<(String, i32)> {
        columns
            .iter()
            .zip(w)
            .filter_map(|(c, &v)| {
                let option = c.option.as_ref()?;
                Some((option.clone(), (v.round() as i64).clamp(c.min as i64, c.max as i64) as i32))
            })
            .collect()
    };
    Ok(TracedFit {
        start: by_option(&start),
        values: by_option(&values),
        k,
        log,
        frozen: frozen.iter().filter_map(|&j| columns[j].option.clone()).collect(),
    })
}
