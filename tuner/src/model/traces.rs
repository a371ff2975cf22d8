//! Labelled positions as traces: every file of a dataset loaded in parallel, each position traced
//! once by the evaluation's tracer into the compact store, and the store split into training and
//! validation positions by the dataset's hold-out rule (`dataset/holdout.rs`). Shared by `tune
//! texel`, the Texel fitness of the black-box tuners and `tune bench`.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

use anyhow::{Context, Result};
use whetstone::eval::{trace_into, Tracer};

use crate::dataset::holdout::{GameCounter, GameMark, HoldOut};
use crate::dataset::{self, LoadOptions};
use crate::model::store::{Compact, TraceStore};

thread_local! {
    /// One reusable tracer per loading thread.
    static TRACER: std::cell::RefCell<Tracer> = std::cell::RefCell::new(Tracer::new(whetstone::eval::baked::idx::COUNT));
}

/// Which sigmoid scale turns search scores into targets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreK {
    /// The evaluation's K, fitted on the results: right for our own engine's scores.
    #[default]
    Eval,
    /// Fitted on the search scores against the results: for another engine's centipawns.
    Fit,
}

impl FromStr for ScoreK {
    type Err = String;

    fn from_str(text: &str) -> Result<ScoreK, String> {
        match text {
            "eval" => Ok(ScoreK::Eval),
            "fit" => Ok(ScoreK::Fit),
            _ => Err(format!("'{text}' is not a score scale (eval or fit)")),
        }
    }
}

impl fmt::Display for ScoreK {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScoreK::Eval => "eval",
            ScoreK::Fit => "fit",
        })
    }
}

/// Traced datasets, split into training and validation sets.
pub struct Data {
    pub train: TraceStore,
    pub valid: TraceStore,
}

/// Loads files into one trace store, printing rates and problems; positions are numbered by
/// game across the files ([`GameCounter`]), for the hold-out.
pub fn load_traces(paths: &[PathBuf], strict: bool, progress: bool) -> Result<TraceStore> {
    load_traces_by_file(paths, strict, progress).map(|(store, _)| store)
}

/// [`load_traces`], with the number of games begun by the end of each file (the games of file i
/// are numbered from `ends[i - 1]` to `ends[i]`), for a hold-out that differs by file.
pub fn load_traces_by_file(
    paths: &[PathBuf],
    strict: bool,
    progress: bool,
) -> Result<(TraceStore, Vec<u64>)> {
    let mut compacts = Vec::new();
    let mut games = GameCounter::default();
    let mut ends = Vec::with_capacity(paths.len());
    for path in paths {
        let start = Instant::now();
        let (items, summary) =
            dataset::load::load_labelled(path, &LoadOptions { strict, progress }, |pos, label| {
                TRACER.with(|t| {
                    let tracer = &mut t.borrow_mut();
                    let context = trace_into(pos, tracer);
                    (Compact::from_tracer(tracer, &context, label), GameMark::of(pos, label.outcome))
                })
            })
            .with_context(|| format!("loading {}", path.display()))?;
        let secs = start.elapsed().as_secs_f64();
        let games_before = games.games;
        games.new_file();
        for (mut compact, mark) in items {
            compact.set_game(games.next(mark) as u32);
            compacts.push(compact);
        }
        eprintln!(
            "{}: {} positions of {} games (as far as consecutive positions tell) in {:.2} s ({:.0}/s); {} lines skipped",
            path.display(),
            summary.loaded,
            games.games - games_before,
            secs,
            summary.loaded as f64 / secs.max(1e-9),
            summary.skipped
        );
        for problem in summary.problems.iter().take(5) {
            eprintln!("  {problem}");
        }
        ends.push(games.games);
    }
    Ok((TraceStore::from_compacts(&compacts), ends))
}

/// At most about `max` positions of `store`: whole games, each kept by a hash of its number (so
/// the sample spreads over the files and the same data gives the same sample); all of it when it
/// is no larger.
pub fn sample_games(store: TraceStore, max: usize) -> TraceStore {
    if store.len() <= max {
        return store;
    }
    // Another seed than the hold-out's, so the sample does not favour one side of the split.
    let rule = HoldOut { fraction: max as f64 / store.len() as f64, seed: 0x5a4d_91e3 };
    let kept: Vec<usize> = (0..store.len()).filter(|&i| rule.holds_out(store.game[i] as u64)).collect();
    eprintln!("sampled {} of {} positions (whole games) to fit on", kept.len(), store.len());
    store.subset(kept.into_iter())
}

/// Splits a store into training and validation positions by the one hold-out rule
/// ([`HoldOut`]: game g, numbered in load order, is held out whole by a hash of g and the
/// seed), so `tune dataset split` writes the same split of a file as two files.
pub fn split(store: &TraceStore, fraction: f64, seed: u64) -> Data {
    let rule = HoldOut { fraction, seed };
    let held: Vec<bool> = store.game.iter().map(|&g| rule.holds_out(g as u64)).collect();
    Data {
        train: store.subset((0..store.len()).filter(|&i| !held[i])),
        valid: store.subset((0..store.len()).filter(|&i| held[i])),
    }
}

/// The training positions with targets blended from results and search scores at sigmoid scale
/// `k` (`--score-weight`), or None to train on the results as loaded: (1 - W) · result + W ·
/// σ(K' · score), K' being `k` (`eval`) or fitted on the scores against the results (`fit`).
pub fn blended_targets(
    train: &TraceStore,
    weight: f64,
    score_k: ScoreK,
    k: f64,
) -> Result<Option<TraceStore>> {
    if weight == 0.0 {
        return Ok(None);
    }
    let scored = train.scored();
    if scored == 0 {
        anyhow::bail!(
            "--score-weight {weight}: no training position has a search score (EPD `ce`; `tune datagen` and \
             `tune dataset convert` write them from the games' move comments, `tune dataset rescore` from \
             any engine's search)"
        );
    }
    let score_k = match score_k {
        ScoreK::Eval => k,
        // Some position has a score (checked above), so the fit has data.
        ScoreK::Fit => train.fit_score_k().unwrap_or(k),
    };
    eprintln!(
        "targets: {:.0}% result, {:.0}% search score (K {score_k:.3}; the evaluation's {k:.3}) for the {scored} \
         of {} training positions that have one",
        100.0 * (1.0 - weight),
        100.0 * weight,
        train.len()
    );
    Ok(Some(train.blended(weight, score_k)))
}

#[cfg(test)]
#[path = "traces_tests.rs"]
mod tests;
