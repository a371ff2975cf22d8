//! `tune spsa`: simultaneous perturbation over self-play game pairs (or a command's games, or the
//! Texel loss), as fishtest and OpenBench run it. Iterations run in batches of pairs played in
//! parallel, all perturbed around the theta at the batch's start and applied in order, so a run
//! is the same at any thread count. Reads and writes OpenBench's SPSA input lines, so a tuning
//! can move to OpenBench's workers and come back.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use whetstone::eval::EvalParamSet;
use whetstone::search::SearchParamSet;

use super::args::tune::TuneArgs;
use super::args::verify::VerifyArgs;
use crate::export::Found;
use crate::fitness::setup::{FitnessKind, Setup};
use crate::fitness::{step_seed, Games};
use crate::optim::clop_problems::{simple_regret, Problem};
use crate::optim::openbench::import_openbench;
use crate::optim::spsa::{Perturbation, Spsa, SpsaProblem};
use crate::run::provenance::Provenance;
use crate::run::{RunDir, Steps};
use crate::verify::VerifySettings;

/// Simultaneous perturbation stochastic approximation: every iteration perturbs all selected
/// values at once by ±c_k, plays the plus vector against the minus vector (a game pair), and
/// moves each value toward the winner.
///
/// Its main use is search constants: `tune spsa --search-params params/search.toml --only
/// 'lmr.*' 'nmp.*' --games 20000 --tc 2+0.02`. Each value's final perturbation c_end and learning
/// rate r_end follow OpenBench (defaults: c_end about a tenth of the value, r_end 0.02, measured
/// better than OpenBench's 0.002 for runs of a few thousand games; set them with --c-end/--r-end or
/// edit them through --export-openbench / --space).
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct SpsaArgs {
    #[command(flatten)]
    pub common: TuneArgs,
    #[command(flatten)]
    pub verify: VerifyArgs,
    /// Iterations [default: --games / (2 × --pairs-per), or 2,000; 300 with the Texel loss].
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Pairs per batch: played in parallel from the same theta, then applied in order.
    #[arg(long, default_value_t = 8)]
    pub batch: u64,
    /// Game pairs per iteration: all played with the iteration's perturbation, their results
    /// summed into one update, as OpenBench's Pairs-Per (8 there). 1: every pair has its own
    /// perturbation. The iterations (and so the schedule) count iterations, not pairs.
    #[arg(long, default_value_t = 1, value_name = "P")]
    pub pairs_per: u64,
    /// The final learning rate r_end of every value [default: 0.02 for values from params files;
    /// OpenBench's 0.002 suits fine-tuning over tens of thousands of games].
    #[arg(long, value_name = "R")]
    pub r_end: Option<f64>,
    /// The final perturbation c_end of every value, in its units [default: per value, about a
    /// tenth of it plus 2, at most a twentieth of its range, at least 1].
    #[arg(long, value_name = "C")]
    pub c_end: Option<f64>,
    /// Keep only the values the games pushed: those whose drift from the start is at least Z
    /// times the random walk of their own steps (the evidence, |z|); the others go back to their
    /// start before the result is written, verified and baked. Also on a finished run's
    /// `--resume`, which then only writes and verifies the kept values.
    #[arg(long, value_name = "Z")]
    pub min_evidence: Option<f64>,
    /// Write the selected values as OpenBench SPSA input lines to FILE and stop.
    #[arg(long, value_name = "FILE")]
    pub export_openbench: Option<std::path::PathBuf>,
    /// Read the values an OpenBench SPSA tune reports into the params: its "Copy SPSA Outputs"
    /// text (`name, value`), its digest (`Name,Curr,...`, as CSV or copied from the page) or SPSA
    /// input lines (a local run's openbench.txt). Writes --out/tuned.toml and/or search.toml,
    /// result.json and the report, then verifies (--verify) and bakes (--bake) as after a run.
    #[arg(long, value_name = "FILE")]
    pub import_openbench: Option<std::path::PathBuf>,
    /// Run one of CLOP's artificial test problems instead of tuning (as `tune clop --problem`):
    /// `--games` per run (10,000), `--runs` runs, `--pairs-per`, `--c-end` (0.1 of the [-1, 1]
    /// range) and `--r-end`; prints the expected simple regret.
    #[arg(long, value_name = "NAME")]
    pub problem: Option<String>,
    /// Runs of --problem.
    #[arg(long, default_value_t = 100)]
    pub runs: usize,
}

/// One batch's log line: the plus side's games so far (or the loss of theta, Texel fitness).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaLog {
    pub iteration: u64,
    pub games: u64,
    pub plus_wins: u64,
    pub plus_losses: u64,
    pub draws: u64,
    /// Training loss of theta (Texel fitness; NaN otherwise).
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub loss: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub valid_loss: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub seconds: f64,
    /// Games lost so far by a failure (crash, time forfeit, illegal move) of the candidate's side
    /// (plus, in a duel) and of the other side (minus, or the reference or --opponent).
    #[serde(default)]
    pub candidate_failures: u64,
    #[serde(default)]
    pub opponent_failures: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct State {
    spsa: Spsa,
    games: Games,
    log: Vec<SpsaLog>,
    /// --pairs-per of the run (checkpoints before the option held one pair per iteration).
    #[serde(default = "one_pair")]
    pairs_per: u64,
}

fn one_pair() -> u64 {
    1
}

pub fn run(args: &SpsaArgs) -> Result<()> {
    let verify = args.verify.settings()?;
    if let Some(path) = &args.import_openbench {
        return import(args, path, &verify);
    }
    if args.r_end.is_some_and(|r| r <= 0.0) || args.c_end.is_some_and(|c| c <= 0.0) {
        bail!("--r-end and --c-end must be positive");
    }
    if args.pairs_per == 0 {
        bail!("--pairs-per must be at least 1");
    }
    if let Some(name) = &args.problem {
        return problem(args, name);
    }
    let mut setup = args.common.setup("spsa", FitnessKind::Selfplay)?;
    for d in &mut setup.space.dims {
        d.r_end = args.r_end.unwrap_or(d.r_end);
        d.c_end = args.c_end.unwrap_or(d.c_end);
    }
    if let Some(path) = &args.export_openbench {
        std::fs::write(path, setup.space.to_openbench(&setup.space.starts()))
            .with_context(|| format!("writing {}", path.display()))?;
        println!("wrote {} OpenBench SPSA lines to {}", setup.space.len(), path.display());
        return Ok(());
    }
    let iterations = match (args.iterations, args.common.games) {
        (Some(n), _) => n,
        (None, Some(games)) => games.div_ceil(2 * args.pairs_per),
        (None, None) if setup.fitness.plays_games() => 2000,
        (None, None) => 300,
    };
    if args.min_evidence.is_some_and(|z| z.is_nan() || z < 0.0) {
        bail!("--min-evidence must be a z score of 0 or more");
    }
    let state = optimise(args, &setup, iterations.max(1), None)?;
    let starts = setup.space.starts();
    let mut extra = serde_json::json!({
        "fitness": setup.fitness.describe(),
        "iterations": state.spsa.iteration,
        "plus_wins": state.games.wld.wins,
        "plus_losses": state.games.wld.losses,
        "draws": state.games.wld.draws,
        "failed_games": state.games.failed,
        "failures": state.games.failures_json(),
        "theta": state.spsa.values(),
    });
    let names = setup.space.names();
    if let Some(z) = state.spsa.evidence(&starts) {
        extra["evidence"] = names
            .iter()
            .zip(&z)
            .map(|(n, z)| (n.clone(), serde_json::json!((z * 100.0).round() / 100.0)))
            .collect();
        let mut pushed: Vec<(&String, f64)> = names.iter().zip(z).filter(|(_, z)| z.abs() >= 2.0).collect();
        pushed.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
        let pushed: Vec<String> = pushed.iter().map(|(n, z)| format!("{n} {z:+.1}")).collect();
        eprintln!(
            "evidence (drift against the random walk of the value's own steps, |z| >= 2): {}",
            if pushed.is_empty() { "none".to_string() } else { pushed.join(", ") }
        );
    }
    let values = match args.min_evidence {
        None => state.spsa.values().to_vec(),
        Some(min) => {
            let kept = state.spsa.kept(&starts, min).context(
                "--min-evidence: the run kept no walk of its steps (a checkpoint from before it was \
                 kept, without its trajectory.csv)",
            )?;
            let moved: Vec<String> = names
                .iter()
                .zip(kept.iter().zip(&starts))
                .filter(|(_, (k, s))| k != s)
                .map(|(n, _)| n.clone())
                .collect();
            eprintln!(
                "--min-evidence {min}: keeps {} of {} values ({}); the others go back to their start",
                moved.len(),
                names.len(),
                if moved.is_empty() { "none".to_string() } else { moved.join(", ") }
            );
            extra["min_evidence"] = min.into();
            extra["kept"] = moved.into();
            kept
        }
    };
    if let Some(exact) = setup.fitness.exact() {
        extra["start_loss"] = exact.loss(&starts).into();
        extra["loss"] = exact.loss(&values).into();
    }
    setup.run.write_meta("spsa", args, args.common.resume, Some(extra.clone()))?;
    crate::export::finish_tuning(
        &setup,
        &args.common.settings(),
        &verify,
        &values,
        state.games.played(),
        extra,
        setup.provenance("spsa", &args.common.params),
    )
}

/// --import-openbench: the values an OpenBench tune reports, ended like a run of our own
/// (result.json, tuned.toml and/or search.toml, the report), then --verify/--bake as after one.
fn import(args: &SpsaArgs, path: &std::path::Path, verify: &VerifySettings) -> Result<()> {
    let start_eval = EvalParamSet::load(&args.common.params)?;
    let start_search = match &args.common.search_params {
        Some(p) => SearchParamSet::load(p)?,
        None => SearchParamSet::baked(),
    };
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let (mut eval, mut search) = (start_eval.clone(), start_search.clone());
    let done = import_openbench(&text, &path.display().to_string(), &mut eval, &mut search)?;
    let run = RunDir::create(&args.common.out("spsa"))?;
    let measured = serde_json::json!({ "imported": path, "format": done.format.to_string() });
    run.write_meta("spsa", args, args.common.resume, Some(measured.clone()))?;
    let found = Found {
        start_eval,
        start_search,
        eval: done.eval.then_some(eval),
        search: done.search.then_some(search),
        values: done.values.clone(),
        frozen: Vec::new(),
        games: 0,
        space_moved: false,
        measured,
        provenance: Provenance::of_run("spsa", run.path(), &args.common.params, None),
        engine: None,
    };
    let written = crate::export::finish_run(&run, &found)?;
    println!(
        "{} values from {} ({}): wrote {} in {}",
        done.values.len(),
        path.display(),
        done.format,
        written.join(", "),
        run.path().display()
    );
    // --resume continues a killed verification from its journal.
    crate::export::conclude(&run, &found, verify, &args.common.play.settings(), args.common.resume).map(drop)
}

/// `--problem`: the expected simple regret of SPSA on one of CLOP's test problems.
fn problem(args: &SpsaArgs, name: &str) -> Result<()> {
    let problem = Problem::parse(name)?;
    let games = args.common.games.unwrap_or(10_000);
    let settings = SpsaProblem {
        pairs_per: args.pairs_per,
        c_end: args.c_end.unwrap_or(0.1),
        r_end: args.r_end.unwrap_or(crate::optim::space::DEFAULT_R_END),
    };
    let started = Instant::now();
    let r = simple_regret(&problem, &settings, games, args.runs.max(1), args.common.play.seed)?;
    println!(
        "{name} ({} dimensions), {games} games, {} runs, {} pairs per perturbation, c_end {}, r_end {}: \
         expected simple regret {:.5} ± {:.5} (median {:.5}) in {:.1} s",
        problem.dims(),
        r.runs,
        settings.pairs_per,
        settings.c_end,
        settings.r_end,
        r.mean_regret,
        r.std_error,
        r.median_regret,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A checkpoint written before the walk was kept gets it back from the run's trajectory.csv (the
/// values after each batch, up to the checkpoint's iteration), so that its evidence can be read.
fn rebuild_walk(run: &RunDir, spsa: &mut Spsa) -> Result<()> {
    let path = run.file("trajectory.csv");
    if spsa.keeps_walk() || !path.is_file() {
        return Ok(());
    }
    let table = crate::report::run_plots::read_numeric_csv(&path)?;
    let Some((steps, values)) = table.columns.split_first() else { return Ok(()) };
    let rows: Vec<Vec<f64>> = (0..steps.len())
        .filter(|&r| steps[r] <= spsa.iteration as f64)
        .map(|r| values.iter().map(|column| column[r]).collect::<Vec<f64>>())
        .filter(|row| row.iter().all(|x| x.is_finite()))
        .collect();
    if spsa.rebuild_walk(&rows) {
        eprintln!(
            "the checkpoint kept no walk of the steps: rebuilt from {} ({} batches) for the evidence",
            path.display(),
            rows.len().saturating_sub(1)
        );
    }
    Ok(())
}

/// Runs (or resumes) the iterations; `halt_at` stops early as a kill would (tests).
fn optimise(args: &SpsaArgs, setup: &Setup, iterations: u64, halt_at: Option<u64>) -> Result<State> {
    let run = &setup.run;
    let per = args.pairs_per.max(1);
    let mut state = if args.common.resume {
        let mut state: State = run.load_checkpoint()?;
        if state.spsa.iterations != iterations {
            bail!("--resume: the run was planned for {} iterations, not {iterations}", state.spsa.iterations);
        }
        if state.pairs_per != per {
            bail!("--resume: the run plays {} pairs per iteration, not {per} (--pairs-per)", state.pairs_per);
        }
        eprintln!("resuming at iteration {}", state.spsa.iteration);
        rebuild_walk(run, &mut state.spsa)?;
        state
    } else {
        State {
            spsa: Spsa::new(&setup.space, iterations),
            games: Games::default(),
            log: Vec::new(),
            pairs_per: per,
        }
    };
    run.write_meta("spsa", args, args.common.resume, None)?;
    eprintln!(
        "SPSA: {} values, {iterations} iterations; fitness: {}",
        setup.space.len(),
        setup.fitness.describe()
    );
    let steps =
        Steps::begin(run, "iteration", iterations as usize, iterations, "iteration", args.common.play.quiet)
            .with_trajectory(
                setup.space.names(),
                &setup.space.starts(),
                args.common.resume.then_some(state.spsa.iteration as usize),
            )?;
    let stop = steps.stop_flag();
    let bar = &steps.bar;
    bar.set_position(state.spsa.iteration);
    while state.spsa.iteration < halt_at.unwrap_or(iterations).min(iterations) {
        let started = Instant::now();
        let first = state.spsa.iteration + 1;
        // A batch is about --batch pairs: that many iterations of one pair, or fewer of more.
        let last = (first + (args.batch / per).max(1) - 1).min(iterations);
        let perturbations: Vec<Perturbation> = (first..=last)
            .map(|k| {
                state.spsa.perturb(k, &mut ChaCha8Rng::seed_from_u64(step_seed(args.common.play.seed, k)))
            })
            .collect();
        let pairs: Vec<(Vec<f64>, Vec<f64>)> = perturbations
            .iter()
            .flat_map(|p| std::iter::repeat_n((p.plus.clone(), p.minus.clone()), per as usize))
            .collect();
        let compared = setup
            .fitness
            .compare(&pairs, step_seed(args.common.play.seed ^ 0x5eed, first), stop)
            .map_err(|e| steps.resumable(e, format!("iteration {}", state.spsa.iteration)))?;
        for (p, pairs) in perturbations.iter().zip(compared.chunks(per as usize)) {
            state.spsa.update(p, pairs.iter().map(|c| c.result).sum());
            for c in pairs {
                state.games.add(&c.games);
            }
        }
        let (loss, valid_loss) = match setup.fitness.exact() {
            Some(exact) => (exact.loss(state.spsa.values()), exact.valid_loss(state.spsa.values())),
            None => (f64::NAN, f64::NAN),
        };
        state.log.push(SpsaLog {
            iteration: state.spsa.iteration,
            games: state.games.played(),
            plus_wins: state.games.wld.wins,
            plus_losses: state.games.wld.losses,
            draws: state.games.wld.draws,
            loss,
            valid_loss,
            seconds: started.elapsed().as_secs_f64(),
            candidate_failures: state.games.failures[0].total(),
            opponent_failures: state.games.failures[1].total(),
        });
        bar.set_position(state.spsa.iteration);
        bar.set_message(if loss.is_nan() {
            format!("plus side {}-{}-{}", state.games.wld.wins, state.games.wld.losses, state.games.wld.draws)
        } else {
            format!("loss {loss:.6}")
        });
        let step = state.spsa.iteration as usize;
        steps.end(&state.log, step, state.spsa.values(), &state)?;
    }
    steps.finish();
    Ok(state)
}

#[cfg(test)]
#[path = "spsa_tests.rs"]
mod tests;
