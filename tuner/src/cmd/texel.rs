//! `tune texel`: fit the evaluation to game results.
//!
//! 1. Load the params file and the datasets, tracing every position once (in parallel).
//! 2. Fit the sigmoid scale K on the starting weights and report it.
//! 3. Optimise the selected terms (Adam on analytic gradients, or Texel's local search), logging
//!    train and validation loss per epoch (CSV and JSON) and checkpointing every N epochs and on
//!    Ctrl-C; `--resume` continues from the checkpoint with the same result as an uninterrupted run.
//! 4. Write the tuned params (TOML and the Rust module), a loss-curve PNG and a summary.
//!
//! With `--engine BINARY` the evaluation is another engine's, read through its binary: the
//! command runs `texel_engine.rs` instead (`texel_engine::run_texel` chooses).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};
use whetstone::eval::EvalParamSet;
use whetstone::params::ParamSet;
use whetstone::search::SearchParamSet;

use super::args::engine_eval::EngineEvalArgs;
use super::args::play::PlayArgs;
use super::args::recipe::RecipeArgs;
use super::args::verify::VerifyArgs;
use crate::export::{conclude, conclude_unplayed, finish_run, Found};
use crate::model::prior::Prior;
use crate::model::recipe::FitRecipe;
use crate::model::store::shuffle;
use crate::model::validation::{self, SplitPlan};
use crate::model::{
    blended_targets, load_traces, load_traces_by_file, sample_games, Data, Kernel, Layout, Model,
};
use crate::optim::{local_search_pass, Adam};
use crate::report;
use crate::run::provenance::Provenance;
use crate::run::{EpochLog, RunDir, Steps};
use crate::verify::{Standing, VerifySettings};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Optimizer {
    /// Adam over the full batch with analytic gradients.
    Adam,
    /// Texel's local search: ±1 per value, keep what lowers the error (slow; small sets).
    Local,
}

/// Options of `tune texel`.
#[derive(clap::Args, Debug, Clone, Serialize)]
pub struct TexelArgs {
    #[command(flatten)]
    pub verify: VerifyArgs,
    /// Starting parameters.
    #[arg(long, default_value = "params/eval.toml")]
    pub params: PathBuf,
    /// Search constants (params/search.toml format) both sides play with when --verify plays the
    /// tuned values against the start [default: the built-in ones]. Texel tunes none of them.
    #[arg(long, value_name = "FILE")]
    pub search_params: Option<PathBuf>,
    /// The data and the objective (search-score weight, L2 pull, prior, coverage); without
    /// --data, the ones the starting file's provenance records.
    #[command(flatten)]
    pub recipe: RecipeArgs,
    /// Validation positions; without them a deterministic fraction of --data is held out.
    #[arg(long, num_args = 1..)]
    pub valid: Vec<PathBuf>,
    /// Fraction of --data held out for validation when --valid is not given (whole games: the
    /// positions of one game fall on one side). The data the starting file was fitted on keeps
    /// that fit's own hold-out, so neither fit validates on games the start was fitted on.
    #[arg(long, default_value_t = validation::DEFAULT_FRACTION)]
    pub valid_fraction: f64,
    /// Tune only the terms matching these globs (`pst.*`, `mobility.knight`); default: all tunable.
    #[arg(long, num_args = 1..)]
    pub only: Vec<String>,
    #[arg(long, value_enum, default_value = "adam")]
    pub optimizer: Optimizer,
    /// Epochs (Adam steps over the full batch, or local-search passes).
    #[arg(long, default_value_t = 300)]
    pub epochs: usize,
    /// Adam's mini-batch size in positions: 0 is the full batch (one step per epoch). Otherwise
    /// the training positions are shuffled once (by --seed) and each epoch takes one step per
    /// batch, in an order drawn anew per epoch, so a resumed run still equals an uninterrupted
    /// one. The logged training loss is then the mean over the epoch's batches, each taken
    /// before its step. The local search ignores it.
    #[arg(long, default_value_t = 0)]
    pub batch_size: usize,
    /// Adam's learning rate, in centipawns per step.
    #[arg(long, default_value_t = 1.0)]
    pub learning_rate: f64,
    /// Keep the evaluation's centipawn scale: multiply the tuned centipawn values (all of them,
    /// frozen ones too) by K refitted on them / K, so the sigmoid fits them at the run's K. The
    /// fit is the same (the same evaluation, expressed in the starting scale); what changes is
    /// how the values sit against search margins and time management set in centipawns. Tuning
    /// on draw-heavy data shrinks the evaluation (K refitted 0.86-0.90 against 0.74 on the TCEC
    /// set); rescaled values won more games against the hand-set ones at 1 s + 10 ms.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub keep_scale: bool,
    /// Worker threads for loading and the loss [default: all cores] (`--threads` is accepted too).
    #[arg(long, alias = "threads", value_name = "N")]
    pub concurrency: Option<usize>,
    /// Run folder: logs, checkpoint, tuned params, plots.
    #[arg(long, default_value = "reports/texel")]
    pub out: PathBuf,
    /// Write a checkpoint every this many epochs (and at Ctrl-C).
    #[arg(long, default_value_t = 10)]
    pub checkpoint_every: usize,
    /// Continue from the run folder's checkpoint.
    #[arg(long)]
    pub resume: bool,
    /// Abort on the first broken dataset line instead of skipping it.
    #[arg(long)]
    pub strict: bool,
    /// Seed of the train/validation split (of the data the starting file was not fitted on).
    #[arg(long, default_value_t = validation::DEFAULT_SEED)]
    pub seed: u64,
    /// Hide progress bars.
    #[arg(long, short)]
    pub quiet: bool,
    /// Play the verification even when the tuned values fit the held-out positions no better than
    /// the start. Without it such a run ends unplayed (verdict `no_held_out_gain`, nothing advised
    /// for baking): a clock SPRT costs hours, and the data itself shows no gain to look for.
    #[arg(long)]
    pub verify_flat: bool,
    /// Another engine's evaluation, read through its own binary (`--engine`).
    #[command(flatten)]
    pub external: EngineEvalArgs,
}

/// Everything needed to continue a run exactly.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Checkpoint {
    pub epoch: usize,
    pub k: f64,
    pub weights: Vec<f64>,
    pub adam: Adam,
    pub log: Vec<EpochLog>,
    pub best_loss: f64,
}

pub fn run(args: &TexelArgs) -> Result<()> {
    let threads =
        args.concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    pool.install(|| run_in_pool(args))
}

/// The pull toward the start of `tune texel` when neither the user nor the starting file's recipe
/// sets it: the best measured in games (docs/tuning.md: +67 Elo against the hand-set start; none:
/// -19).
pub const DEFAULT_L2: f64 = 0.003;

fn run_in_pool(args: &TexelArgs) -> Result<()> {
    let verify = args.verify.settings()?;
    let set = EvalParamSet::load(&args.params)?;
    let mut recipe = FitRecipe::resolve(&args.params, &args.recipe.choice(), DEFAULT_L2, "texel")?;
    let search = match &args.search_params {
        Some(path) => SearchParamSet::load(path)?,
        None => SearchParamSet::baked(),
    };
    crate::dataset::reading::check_files("--data", &recipe.data)?;
    crate::dataset::reading::check_files("--valid", &args.valid)?;
    if args.resume {
        crate::run::check_resumable(&args.out)?;
    }
    RunDir::create(&args.out)?;
    let progress = !args.quiet;
    eprintln!("Texel: {}", recipe.describe());
    let (mut all, ends) = load_traces_by_file(&recipe.data, args.strict, progress)?;
    if let Some(max) = recipe.positions {
        all = sample_games(all, max as usize);
    }
    // With --valid every game of --data is trained on; else the start keeps its own hold-out.
    let (plan, mut data) = if args.valid.is_empty() {
        let plan = SplitPlan::new(&recipe.held_out, recipe.data.len(), args.seed, args.valid_fraction);
        if let Some(line) = plan.describe(args.recipe.hold_out_from.as_deref().unwrap_or(&args.params)) {
            eprintln!("{line}");
        }
        let data = plan.split(&all, &ends);
        (plan, data)
    } else {
        let valid = load_traces(&args.valid, args.strict, progress)?;
        (SplitPlan::new(&[], recipe.data.len(), args.seed, 0.0), Data { train: all, valid })
    };
    recipe.held_out = plan.segments;
    if args.batch_size > 0 {
        data.train = data.train.shuffled(args.seed);
    }
    // Same-length positions side by side, within each mini-batch (see `grouped_by_length`).
    let block = if args.batch_size > 0 { args.batch_size } else { usize::MAX };
    data.train = data.train.grouped_by_length(block);
    data.valid = data.valid.grouped_by_length(usize::MAX);
    if data.train.is_empty() {
        bail!("no training positions");
    }
    eprintln!(
        "{} training and {} validation positions, {:.1} bytes per position, {:.1} coefficients per position",
        data.train.len(),
        data.valid.len(),
        data.train.bytes_per_position(),
        data.train.coefficient_count() as f64 / data.train.len() as f64
    );
    let patterns: Vec<&str> = args.only.iter().map(String::as_str).collect();
    let matching = set.select(&patterns)?;
    if matching.is_empty() {
        bail!("no tunable values match {:?}", args.only);
    }
    let model = Model { layout: &Layout::new(&set), store: &data.train };
    let names = set.value_names();
    let coverage = model.coverage();
    let (mut selected, mut rare) = Model::keep_covered_by(&coverage, &matching, recipe.min_coverage);
    if selected.is_empty() {
        bail!("every matching value is below --min-coverage {}", recipe.min_coverage);
    }
    // Rare values of the prior's tables are tuned after all: their neighbours hold them.
    let prior = Prior::new(&set, &recipe.prior_terms, recipe.smooth, recipe.mirror)?;
    let held: Vec<usize>;
    (held, rare) = rare.iter().partition(|&&i| prior.covers(i));
    if !prior.is_empty() {
        eprintln!("prior over {}", prior.tables.join(", "));
    }
    Model::report_coverage(&coverage, recipe.min_coverage, (selected.len(), held.len(), &rare), &names);
    write_coverage(&args.out, &names, &coverage, (&selected, &held, &rare))?;
    selected.extend(held);
    selected.sort_unstable();
    let outcome = optimise(args, &recipe, &set, &data, &selected)?;
    let frozen: Vec<&str> = rare.iter().map(|&i| names[i].as_str()).collect();
    finish(args, (&recipe, &verify), (&set, &search), &data, &outcome, (&selected, &frozen))
}

/// One row of `coverage.csv`.
#[derive(Serialize)]
struct CoverageRow<'a> {
    name: &'a str,
    /// Phase-weighted positions of the training set in which the value has a non-zero coefficient.
    positions: f64,
    /// `evidence` (at least `--min-coverage`), `prior` (rarer, held by its neighbours) or `frozen`.
    tuned: &'static str,
}

/// Writes `coverage.csv` in the run folder: every value the run could select, how often the
/// training positions see it, and how it is tuned, rarest first (what more data should reach).
fn write_coverage(
    out: &std::path::Path,
    names: &[String],
    coverage: &[f64],
    (evidence, prior, frozen): (&[usize], &[usize], &[usize]),
) -> Result<()> {
    let mut rows: Vec<CoverageRow> = [(evidence, "evidence"), (prior, "prior"), (frozen, "frozen")]
        .into_iter()
        .flat_map(|(values, tuned)| {
            values.iter().map(move |&i| CoverageRow {
                name: &names[i],
                positions: (coverage[i] * 10.0).round() / 10.0,
                tuned,
            })
        })
        .collect();
    rows.sort_by(|a, b| a.positions.total_cmp(&b.positions).then_with(|| a.name.cmp(b.name)));
    RunDir::create(out)?.write_csv("coverage.csv", &rows)
}

/// The state at the end of optimisation.
pub struct Optimised {
    pub weights: Vec<f64>,
    pub k: f64,
    pub log: Vec<EpochLog>,
}

/// Runs (or resumes) the epochs; writes logs and checkpoints as it goes.
pub fn optimise(
    args: &TexelArgs,
    recipe: &FitRecipe,
    set: &ParamSet,
    data: &Data,
    selected: &[usize],
) -> Result<Optimised> {
    let layout = Layout::new(set);
    let results = Model { layout: &layout, store: &data.train };
    let valid = Model { layout: &layout, store: &data.valid };
    let bounds = set.value_bounds();
    let prior = Prior::new(set, &recipe.prior_terms, recipe.smooth, recipe.mirror)?;
    let run = RunDir::create(&args.out)?;
    run.write_meta("texel", args, args.resume, None)?;
    let start: Vec<f64> = set.values().iter().map(|&v| v as f64).collect();
    let mut state = if args.resume {
        let c: Checkpoint = run.load_checkpoint()?;
        if c.weights.len() != layout.values {
            bail!(
                "--resume: the checkpoint has {} values, the params file {}",
                c.weights.len(),
                layout.values
            );
        }
        eprintln!("resuming at epoch {} (K = {:.4})", c.epoch, c.k);
        c
    } else {
        let weights: Vec<f64> = set.values().iter().map(|&v| v as f64).collect();
        let start = Instant::now();
        let k = results.fit_k(&weights);
        eprintln!("fitted K = {k:.4} in {:.2} s", start.elapsed().as_secs_f64());
        let adam = Adam::new(layout.values, args.learning_rate);
        Checkpoint { epoch: 0, k, adam, weights, log: Vec::new(), best_loss: f64::INFINITY }
    };
    // K is fitted on the results alone; the targets may then take in the search scores.
    let blended = blended_targets(&data.train, recipe.score_weight, recipe.score_k, state.k)?;
    let train = Model { layout: &layout, store: blended.as_ref().unwrap_or(&data.train) };
    if state.log.is_empty() {
        let loss = train.loss(&state.weights, state.k);
        state.log.push(EpochLog {
            epoch: 0,
            train_loss: loss,
            valid_loss: if data.valid.is_empty() { f64::NAN } else { valid.loss(&state.weights, state.k) },
            k: state.k,
            learning_rate: args.learning_rate,
            seconds: 0.0,
        });
        state.best_loss = loss;
    }

    let steps = Steps::begin(&run, "epoch", args.epochs, args.epochs as u64, "epoch", args.quiet)
        .checkpoint_every(args.checkpoint_every);
    steps.bar.set_position(state.epoch as u64);
    let run_start = Instant::now();
    while state.epoch < args.epochs {
        let epoch_start = Instant::now();
        let train_loss = match args.optimizer {
            Optimizer::Adam => {
                let n = data.train.len();
                // Full batch: one range of all positions.
                let mut batches: Vec<std::ops::Range<usize>> = std::iter::once(0..n).collect();
                if args.batch_size > 0 && args.batch_size < n {
                    batches =
                        (0..n).step_by(args.batch_size).map(|b| b..(b + args.batch_size).min(n)).collect();
                    // A fresh order per epoch, from the seed and the epoch number alone.
                    shuffle(
                        &mut batches,
                        args.seed ^ (state.epoch as u64).wrapping_mul(0x2545_f491_4f6c_dd1d),
                    );
                }
                let mut epoch_loss = 0.0;
                for batch in batches {
                    let share = batch.len() as f64 / n as f64;
                    let (loss, mut grad) =
                        train.loss_and_gradient_over(Kernel::detect(), batch, &state.weights, state.k);
                    if recipe.l2 > 0.0 {
                        for &i in selected {
                            grad[i] += 2.0 * recipe.l2 * (state.weights[i] - start[i]) / 1e4;
                        }
                    }
                    prior.add_gradient(&state.weights, &mut grad);
                    state.adam.update(&mut state.weights, &grad, selected, &bounds);
                    epoch_loss += loss * share;
                }
                epoch_loss
            }
            Optimizer::Local => {
                let k = state.k;
                let (loss, _) = local_search_pass(
                    &mut state.weights,
                    selected,
                    &bounds,
                    1.0,
                    |w| train.loss(w, k),
                    state.best_loss,
                );
                state.best_loss = loss;
                loss
            }
        };
        state.epoch += 1;
        let entry = EpochLog {
            epoch: state.epoch,
            train_loss,
            valid_loss: if data.valid.is_empty() { f64::NAN } else { valid.loss(&state.weights, state.k) },
            k: state.k,
            learning_rate: state.adam.learning_rate,
            seconds: epoch_start.elapsed().as_secs_f64(),
        };
        steps.bar.set_message(format!("train {:.6} valid {:.6}", entry.train_loss, entry.valid_loss));
        steps.bar.set_position(state.epoch as u64);
        state.log.push(entry);
        steps.end(&state.log, state.epoch, &[], &state)?;
    }
    steps.finish();
    eprintln!("{} epochs in {:.1} s", args.epochs, run_start.elapsed().as_secs_f64());
    Ok(Optimised { weights: state.weights, k: state.k, log: state.log })
}

/// Tuned values rounded into the set and written as every tuner's run ends (`export::finish_run`),
/// with texel's own summary and loss curve. `selected` are the slots tuned, `frozen` the ones left.
fn finish(
    args: &TexelArgs,
    (recipe, verify): (&FitRecipe, &VerifySettings),
    (set, search): (&EvalParamSet, &SearchParamSet),
    data: &Data,
    outcome: &Optimised,
    (selected, frozen): (&[usize], &[&str]),
) -> Result<()> {
    let layout = Layout::new(set);
    let train = Model { layout: &layout, store: &data.train };
    // The scale drift: a K refitted on the tuned values above the run's K means the tuned
    // evaluation is smaller in centipawns than the start.
    let refit = train.fit_k(&outcome.weights);
    let mut weights = outcome.weights.clone();
    let factor = refit / outcome.k;
    if args.keep_scale {
        let bounds = set.value_bounds();
        for ((w, centipawns), (lo, hi)) in weights.iter_mut().zip(layout.centipawn_slots()).zip(bounds) {
            if centipawns {
                *w = (*w * factor).clamp(lo as f64, hi as f64);
            }
        }
    }
    let rounded: Vec<i32> = weights.iter().map(|w| w.round() as i32).collect();
    let tuned = set.with_values(&rounded);
    let run = RunDir::create(&args.out)?;
    let start: Vec<f64> = set.values().iter().map(|&v| v as f64).collect();
    let end: Vec<f64> = rounded.iter().map(|&v| v as f64).collect();
    let summary = report::summary(
        set,
        &tuned,
        &outcome.log,
        |w| {
            let m = Model {
                layout: &layout,
                store: if data.valid.is_empty() { &data.train } else { &data.valid },
            };
            m.loss(w, outcome.k)
        },
        &start,
        &end,
    );
    let summary = if args.keep_scale {
        format!(
            "{summary}K refitted on the tuned values: {refit:.4} against the run's {:.4}; centipawn values \
             multiplied by {factor:.4} to keep the starting scale (K refitted after: {:.4})\n",
            outcome.k,
            train.fit_k(&end)
        )
    } else {
        format!(
            "{summary}K refitted on the tuned values: {refit:.4} (the evaluation's scale changed by {:+.1}%; \
             --keep-scale true would undo that)\n",
            (outcome.k / refit - 1.0) * 100.0
        )
    };
    run.write("summary.txt", &summary)?;
    if let Err(e) = report::loss_curve(&args.out.join("loss.png"), &outcome.log) {
        eprintln!("loss curve not drawn: {e:#}");
    }
    let last = outcome.log.last();
    let results = serde_json::json!({
        "k": outcome.k,
        "epochs": last.map(|e| e.epoch),
        "start_train_loss": outcome.log.first().map(|e| e.train_loss),
        "train_loss": last.map(|e| e.train_loss),
        "start_valid_loss": outcome.log.first().map(|e| e.valid_loss).filter(|v| v.is_finite()),
        "valid_loss": last.map(|e| e.valid_loss).filter(|v| v.is_finite()),
        "k_refitted": refit,
    });
    run.write_meta("texel", args, args.resume, Some(results.clone()))?;
    println!("{summary}");
    let names = set.value_names();
    let mut measured = results;
    measured["values_changed"] = end.iter().zip(&start).filter(|(a, b)| a != b).count().into();
    let found = Found {
        start_eval: set.clone(),
        start_search: search.clone(),
        eval: Some(tuned),
        search: None,
        values: selected.iter().map(|&i| (names[i].clone(), end[i])).collect(),
        frozen: frozen.iter().map(|f| f.to_string()).collect(),
        games: 0,
        measured,
        space_moved: false,
        provenance: Provenance::of_run("texel", &args.out, &args.params, Some(recipe.record())),
        engine: None,
    };
    let written = finish_run(&run, &found)?;
    println!(
        "wrote {}, log.csv, log.json, summary.txt, loss.png, run.json in {}",
        written.join(", "),
        args.out.display()
    );
    // The held-out loss of the values as written (rounded, rescaled), against the start's.
    let held_out = (!data.valid.is_empty()).then(|| {
        let m = Model { layout: &layout, store: &data.valid };
        (m.loss(&start, outcome.k), m.loss(&end, outcome.k))
    });
    if let Some(standing) = held_out_gate(args, verify, found.changed() && !under_way(args, &run), held_out) {
        return conclude_unplayed(&run, &found, standing, verify.bake).map(drop);
    }
    let mut play = PlayArgs::defaults();
    (play.concurrency, play.seed, play.quiet) = (args.concurrency, args.seed, args.quiet);
    conclude(&run, &found, verify, &play.settings(), args.resume).map(drop)
}

/// Whether a resumed run's verification has games already (its `verify/` or `verify-clock/`):
/// they were asked for, so the gate below does not stop them.
pub(crate) fn under_way(args: &TexelArgs, run: &RunDir) -> bool {
    args.resume && ["verify", "verify-clock"].iter().any(|folder| run.file(folder).exists())
}

/// A run that moved values, asked for a verification and did not lower the held-out loss
/// (`start` -> `end`) is not played, unless `--verify-flat` says to play it anyway.
pub(crate) fn held_out_gate(
    args: &TexelArgs,
    verify: &VerifySettings,
    changed: bool,
    held_out: Option<(f64, f64)>,
) -> Option<Standing> {
    let (start, end) = held_out.filter(|(s, e)| s.is_finite() && e.is_finite())?;
    (changed && verify.first.is_some() && !args.verify_flat && end >= start)
        .then_some(Standing::NoHeldOutGain { start, end })
}

#[cfg(test)]
#[path = "texel_tests.rs"]
mod tests;
