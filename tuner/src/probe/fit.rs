//! The Texel fit over probed rows: each position's evaluation linearised around the values it
//! was probed at, eval(x) = base + Σ c·(x - start), fitted to the results with the objective of
//! `model::objective` (E = mean (r - σ(K·eval))², K fitted first on the starting values), Adam,
//! an L2 pull toward the start, targets blended with search scores (`score_weight`), values seen
//! in too few positions frozen, and the validation loss on the positions the hold-out rule
//! keeps back. A traced engine needs none of this: its trace is the Texel model's own store.

use std::f64::consts::LN_10;

use crate::dataset::holdout::{GameCounter, GameMark, HoldOut};
use crate::model::batch::{golden_section_min, sigmoid_scaled};
use crate::optim::Adam;

use super::space::{Column, ProbedRow};

/// How to fit.
#[derive(Clone, Debug, PartialEq)]
pub struct FitSettings {
    pub epochs: usize,
    /// Adam's step, centipawns.
    pub learning_rate: f64,
    /// λ in λ·Σ((x - start)/100)², as `tune texel --l2`.
    pub l2: f64,
    /// Columns with a coefficient in fewer positions stay frozen.
    pub min_coverage: usize,
    /// W in (1 - W)·result + W·σ(K·score), as `tune texel --score-weight`.
    pub score_weight: f64,
    pub valid_fraction: f64,
    pub seed: u64,
}

impl Default for FitSettings {
    fn default() -> FitSettings {
        FitSettings {
            epochs: 300,
            learning_rate: 1.0,
            l2: 0.003,
            min_coverage: 100,
            score_weight: 0.0,
            valid_fraction: 0.1,
            seed: 1,
        }
    }
}

/// A fit's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// One value per column (frozen ones at their start).
    pub values: Vec<f64>,
    pub k: f64,
    pub frozen: Vec<usize>,
    /// (train, validation) loss per epoch, epoch 0 at the start.
    pub log: Vec<(f64, f64)>,
}

impl Fitted {
    pub fn start_valid_loss(&self) -> f64 {
        self.log[0].1
    }

    pub fn valid_loss(&self) -> f64 {
        self.log.last().expect("epoch 0").1
    }
}

/// Training and validation rows by the one hold-out rule (`dataset::holdout`): whole games, as
/// consecutive rows tell them.
pub fn split(rows: &[ProbedRow], fraction: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let rule = HoldOut { fraction, seed };
    let mut games = GameCounter::default();
    let held: Vec<bool> = rows
        .iter()
        .map(|row| match whetstone::Position::from_fen(&row.fen) {
            Ok(pos) => rule.holds_out(games.next(GameMark::of(&pos, row.label.outcome))),
            // A row always comes from a position that parsed; a game of its own otherwise.
            Err(_) => {
                games.new_file();
                rule.holds_out(games.next(GameMark::of(&whetstone::Position::startpos(), row.label.outcome)))
            }
        })
        .collect();
    (0..rows.len()).partition(|&i| !held[i])
}

/// The objective over some rows.
pub struct Linear<'a> {
    pub rows: &'a [ProbedRow],
    pub start: Vec<f64>,
    /// The target per row (0 to 1, White's view).
    pub target: Vec<f64>,
}

impl Linear<'_> {
    pub fn new<'a>(rows: &'a [ProbedRow], columns: &[Column]) -> Linear<'a> {
        Linear {
            rows,
            start: columns.iter().map(|c| c.start as f64).collect(),
            target: rows.iter().map(|r| r.label.outcome as f64).collect(),
        }
    }

    /// Mean squared error over `which` at `values`, sigmoid scale `k`.
    pub fn loss(&self, which: &[usize], values: &[f64], k: f64) -> f64 {
        let s = k * LN_10 / 400.0;
        let sum: f64 = which
            .iter()
            .map(|&p| (self.target[p] - sigmoid_scaled(s, self.rows[p].eval(values, &self.start))).powi(2))
            .sum();
        sum / which.len().max(1) as f64
    }

    /// The loss and its gradient over the columns.
    pub fn gradient(&self, which: &[usize], values: &[f64], k: f64) -> (f64, Vec<f64>) {
        let s = k * LN_10 / 400.0;
        let mut grad = vec![0.0; values.len()];
        let mut loss = 0.0;
        for &p in which {
            let row = &self.rows[p];
            let sig = sigmoid_scaled(s, row.eval(values, &self.start));
            let d = sig - self.target[p];
            loss += d * d;
            let g = 2.0 * d * sig * (1.0 - sig) * s;
            for &(j, c) in &row.coefficients {
                grad[j as usize] += g * c;
            }
        }
        let n = which.len().max(1) as f64;
        grad.iter_mut().for_each(|g| *g /= n);
        (loss / n, grad)
    }

    /// The K that minimises the loss over `which` at the starting values.
    pub fn fit_k(&self, which: &[usize]) -> f64 {
        golden_section_min(0.1, 4.0, |k| self.loss(which, &self.start, k))
    }
}

/// Fits the columns to the rows' results.
pub fn fit(rows: &[ProbedRow], columns: &[Column], settings: &FitSettings) -> Fitted {
    let (train, valid) = split(rows, settings.valid_fraction, settings.seed);
    let mut objective = Linear::new(rows, columns);
    let k = objective.fit_k(&train);
    if settings.score_weight > 0.0 {
        // Blended targets train; validation stays against the results.
        let s = k * LN_10 / 400.0;
        for &p in &train {
            if let Some(score) = rows[p].label.score {
                let t = &mut objective.target[p];
                *t = (1.0 - settings.score_weight) * *t
                    + settings.score_weight * sigmoid_scaled(s, score as f64);
            }
        }
    }
    let results = Linear::new(rows, columns);
    let mut coverage = vec![0usize; columns.len()];
    for &p in &train {
        for &(j, _) in &rows[p].coefficients {
            coverage[j as usize] += 1;
        }
    }
    let (selected, frozen): (Vec<usize>, Vec<usize>) = (0..columns.len())
        .partition(|&j| columns[j].option.is_some() && coverage[j] >= settings.min_coverage);
    let bounds: Vec<(i32, i32)> = columns.iter().map(|c| (c.min, c.max)).collect();
    let mut values = objective.start.clone();
    let mut adam = Adam::new(columns.len(), settings.learning_rate);
    let mut log = vec![(objective.loss(&train, &values, k), results.loss(&valid, &values, k))];
    for _ in 0..settings.epochs {
        let (loss, mut grad) = objective.gradient(&train, &values, k);
        for &j in &selected {
            grad[j] += 2.0 * settings.l2 * (values[j] - objective.start[j]) / 1e4;
        }
        adam.update(&mut values, &grad, &selected, &bounds);
        log.push((loss, results.loss(&valid, &values, k)));
    }
    // The last entry's training loss is the one before the last step; take it at the end.
    if let Some(last) = log.last_mut() {
        last.0 = objective.loss(&train, &values, k);
    }
    Fitted { values, k, frozen, log }
}
