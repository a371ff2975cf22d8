//! `tune bayes`: Bayesian optimisation over a Gaussian process, as chess-tuning-tools runs it, over
//! any fitness (self-play games, a command, a UCI engine, or the Texel loss), and `--problem`, the
//! expected simple regret on CLOP's artificial test problems. Each step plays a batch of points
//! (each a few games against the start) in parallel, records them in the model, and logs the
//! model's optimum with its predicted Elo, interval and the regions within one and two standard
//! deviations; with each step's checkpoint it writes `bayes.json` (the data of the report's
//! partial-dependence plots), so the report of a stopped run can be drawn. The run ends with the
//! optimum's values and the shared end of every tuner.

use std::time::Instant;

use anyhow::{bail, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::args::tune::TuneArgs;
use super::args::verify::VerifyArgs;
use crate::fitness::setup::{FitnessKind, Setup};
use crate::fitness::{step_seed, Games};
use crate::optim::acquisition::Acquisition;
use crate::optim::bayes::{Bayes, BayesSettings, Estimate, MetricKind};
use crate::optim::clop_problems::{simple_regret, Problem};
use crate::optim::space::Space;
use crate::play::games::stats::elo_from_score;
use crate::report::bayes::{BayesPlots, Dependence, Pair, Region};
use crate::run::Steps;

/// Bayesian optimisation (as chess-tuning-tools): a Gaussian process (Matérn 5/2, a full metric
/// up to 3 parameters and a length scale per parameter above, each point's noise from its games)
/// models the score over the parameter box; batches of points are chosen by the knowledge
/// gradient (or Thompson sampling, MES, EI, PVRS), each played for a few games against the start; the estimate is the maximum of the model's mean, reported with its
/// predicted Elo and the region within one and two standard deviations. For a handful of
/// parameters (search constants, a few evaluation terms) at long time controls.
///
/// `tune bayes --problem log --games 1000 --runs 100` runs CLOP's test problems instead and
/// prints the expected simple regret.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct BayesArgs {
    #[command(flatten)]
    pub common: TuneArgs,
    #[command(flatten)]
    pub verify: VerifyArgs,
    /// The acquisition function: kg (knowledge gradient), ts (Thompson sampling), mes (max-value entropy search), ei
    /// (expected improvement), pvrs (predictive variance reduction search) or kg (knowledge gradient).
    #[arg(long, default_value = BayesSettings::default().acquisition.name(), value_name = "NAME")]
    pub acq_function: String,
    /// Points of the initial design (a Latin hypercube that includes the start).
    #[arg(long, default_value_t = BayesSettings::default().initial_points)]
    pub n_initial_points: usize,
    /// Points per step, played in parallel (fixed, so a run does not depend on the thread count).
    #[arg(long, default_value_t = BayesSettings::default().batch)]
    pub batch: usize,
    /// Games per point (self-play rounds up to game pairs) before replication.
    #[arg(long, default_value_t = BayesSettings::default().games_per_point)]
    pub games_per_point: u32,
    /// Every N points played, each new point gets --games-per-point more games, so a long run
    /// keeps the model small (0: never).
    #[arg(long, value_name = "N", default_value_t = BayesSettings::default().replication)]
    pub replication: usize,
    /// The kernel's metric: `full` learns its principal directions (correlated values, a
    /// diagonal ridge), `axes` has one length scale per value, `auto` is full up to 3 values.
    #[arg(long, value_name = "auto|axes|full", default_value = BayesSettings::default().metric.name())]
    pub metric: String,
    /// Warp each value by a learnt Kumaraswamy distribution function before the kernel (an
    /// optimum steeper on one side than the other).
    #[arg(long, value_name = "BOOL", default_value_t = BayesSettings::default().warp_inputs, action = clap::ArgAction::Set)]
    pub warp_inputs: bool,
    /// Candidates the acquisition function chooses from each step.
    #[arg(long, default_value_t = BayesSettings::default().candidates)]
    pub candidates: usize,
    /// Stop after this many points [default: --games decides for game fitnesses; 200 points
    /// for the Texel loss].
    #[arg(long)]
    pub points: Option<usize>,
    /// Run an artificial test problem of CLOP's paper instead of tuning: `--games` per run,
    /// `--runs` runs; prints the expected simple regret.
    #[arg(long, value_name = "NAME")]
    pub problem: Option<String>,
    /// Runs of --problem.
    #[arg(long, default_value_t = 100)]
    pub runs: usize,
}

/// One step's log line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BayesLog {
    pub step: u64,
    pub points: u64,
    pub games: u64,
    pub games_per_point: u64,
    /// The model's predicted Elo against the start at its optimum, with a 95% interval (games).
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub elo: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub elo_low: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub elo_high: f64,
    /// The loss at the optimum (Texel fitness; NaN otherwise).
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub loss: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub valid_loss: f64,
    /// The shortest length scale (unit coordinates: the box is 2 wide).
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub shortest_length: f64,
    /// Time to fit the model and find its optimum, and the whole step.
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub model_seconds: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub seconds: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct State {
    bayes: Bayes,
    games: Games,
    step: usize,
    log: Vec<BayesLog>,
    /// The optimum and its regions after every step (values).
    history: Vec<Region>,
    /// The last estimate (unit coordinates).
    estimate: Option<Estimate>,
}

impl BayesArgs {
    fn settings(&self) -> Result<BayesSettings> {
        let settings = BayesSettings {
            acquisition: Acquisition::parse(&self.acq_function)
                .map_err(|e| anyhow::anyhow!("--acq-function: {e}"))?,
            initial_points: self.n_initial_points,
            batch: self.batch,
            games_per_point: self.games_per_point,
            replication: self.replication,
            candidates: self.candidates,
            metric: MetricKind::parse(&self.metric).map_err(|e| anyhow::anyhow!("--metric: {e}"))?,
            warp_inputs: self.warp_inputs,
            ..BayesSettings::default()
        };
        settings.check()?;
        Ok(settings)
    }
}

pub fn run(args: &BayesArgs) -> Result<()> {
    let verify = args.verify.settings()?;
    let settings = args.settings()?;
    if let Some(name) = &args.problem {
        return problem(args, &settings, name);
    }
    if args.points == Some(0) {
        bail!("--points 0: nothing to play");
    }
    let setup = args.common.setup("bayes", FitnessKind::Selfplay)?;
    let state = optimise(args, &settings, &setup, None)?;
    let Some(estimate) = &state.estimate else { bail!("the run ended before its first step") };
    let values = setup.space.unit_to_values(&estimate.x);
    let plays = setup.fitness.plays_games();
    let region = region(state.step as u64, &setup.space, estimate);
    let mut extra = serde_json::json!({
        "fitness": setup.fitness.describe(),
        "acq_function": settings.acquisition.name(),
        "points": state.bayes.observations().len(),
        "length_scales": setup.space.names().iter().zip(&estimate.lengths).map(|(n, l)| (n.clone(), serde_json::json!(l))).collect::<serde_json::Map<_, _>>(),
        "within_1sd": named(&region, &setup.space.names(), 1),
        "within_2sd": named(&region, &setup.space.names(), 2),
        "wins": state.games.wld.wins,
        "losses": state.games.wld.losses,
        "draws": state.games.wld.draws,
        "failed_games": state.games.failed,
        "pentanomial": state.games.pairs.0,
    });
    if let Some(last) = state.log.last() {
        if plays {
            extra["elo"] = last.elo.into();
            extra["elo_interval"] = serde_json::json!([last.elo_low, last.elo_high]);
            println!(
                "optimum: {:+.1} Elo [{:+.1}, {:+.1}] (95%) against the start, predicted from {} points over {} games",
                last.elo, last.elo_low, last.elo_high, last.points, last.games
            );
        } else {
            extra["loss"] = last.loss.into();
            extra["valid_loss"] = last.valid_loss.into();
            if let Some(exact) = setup.fitness.exact() {
                extra["start_loss"] = exact.loss(&setup.space.starts()).into();
            }
        }
    }
    print!("{}", describe(&region, &setup.space));
    if !setup.run.file("bayes.json").exists() {
        // Written with each checkpoint; missing only when a run of an older build stopped
        // after its last step.
        let mut bayes = state.bayes.clone();
        let plots = plot_data(&mut bayes, &setup, estimate, &state.history, plays, args.common.play.seed)?;
        setup.run.write_json("bayes.json", &plots)?;
    }
    setup.run.write_meta("bayes", args, args.common.resume, Some(extra.clone()))?;
    crate::export::finish_tuning(
        &setup,
        &args.common.settings(),
        &verify,
        &values,
        state.games.played(),
        extra,
        setup.provenance("bayes", &args.common.params),
    )
}

/// The estimate's optimum and regions in values.
fn region(step: u64, space: &Space, estimate: &Estimate) -> Region {
    let side = |ranges: &[(f64, f64)], high: bool| -> Vec<f64> {
        space.unit_to_values(&ranges.iter().map(|r| if high { r.1 } else { r.0 }).collect::<Vec<f64>>())
    };
    Region {
        step,
        optimum: space.unit_to_values(&estimate.x),
        low_1sd: side(&estimate.within_1sd, false),
        high_1sd: side(&estimate.within_1sd, true),
        low_2sd: side(&estimate.within_2sd, false),
        high_2sd: side(&estimate.within_2sd, true),
    }
}

/// A region by parameter name, for result.json: `{name: [low, high]}` within `sds` deviations.
fn named(region: &Region, names: &[String], sds: u32) -> serde_json::Value {
    let (low, high) =
        if sds == 1 { (&region.low_1sd, &region.high_1sd) } else { (&region.low_2sd, &region.high_2sd) };
    names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), serde_json::json!([low[i], high[i]])))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The optimum and its regions, one line per parameter, as the run ends (as played: integers
/// rounded).
fn describe(region: &Region, space: &Space) -> String {
    let names = space.names();
    let width = names.iter().map(String::len).max().unwrap_or(0);
    let (optimum, low1, high1, low2, high2) = (
        space.playable(&region.optimum),
        space.playable(&region.low_1sd),
        space.playable(&region.high_1sd),
        space.playable(&region.low_2sd),
        space.playable(&region.high_2sd),
    );
    let f = crate::run::format_value;
    let mut out =
        format!("{:<width$}  {:>10}  {:>23}  {:>23}\n", "parameter", "optimum", "within 1 sd", "within 2 sd");
    for (i, name) in names.iter().enumerate() {
        out.push_str(&format!(
            "{name:<width$}  {:>10}  {:>23}  {:>23}\n",
            f(optimum[i]),
            format!("[{}, {}]", f(low1[i]), f(high1[i])),
            format!("[{}, {}]", f(low2[i]), f(high2[i])),
        ));
    }
    out
}

/// The model's prediction in the unit the log and plots show: Elo for games, the fitness itself
/// (minus the loss) otherwise.
fn shown(value: f64, plays: bool) -> f64 {
    if plays {
        elo_from_score(value.clamp(1e-4, 1.0 - 1e-4))
    } else {
        value
    }
}

/// Plays until the budget (or `halt_at` steps, as a kill would, in tests).
fn optimise(
    args: &BayesArgs,
    settings: &BayesSettings,
    setup: &Setup,
    halt_at: Option<usize>,
) -> Result<State> {
    let (run, fitness, space) = (&setup.run, &setup.fitness, &setup.space);
    let plays = fitness.plays_games();
    let seed = args.common.play.seed;
    let budget = args.common.games.unwrap_or(2000);
    let max_points = args.points.unwrap_or(if plays { usize::MAX } else { 200 });
    let mut state = if args.common.resume {
        let state: State = run.load_checkpoint()?;
        if state.bayes.settings() != settings {
            bail!("--resume: the run was started with other settings (acquisition, design, batch or games per point)");
        }
        eprintln!("resuming after step {} ({} points)", state.step, state.bayes.observations().len());
        state
    } else {
        let start = space.to_unit(&space.starts());
        State {
            bayes: Bayes::new(space.len(), settings.clone(), !plays, seed, Some(&start))?,
            games: Games::default(),
            step: 0,
            log: Vec::new(),
            history: Vec::new(),
            estimate: None,
        }
    };
    run.write_meta("bayes", args, args.common.resume, None)?;
    eprintln!(
        "Bayesian optimisation ({}): {} values, {}; fitness: {}",
        settings.acquisition.name(),
        space.len(),
        if plays { format!("{budget} games") } else { format!("{max_points} points") },
        fitness.describe()
    );
    let (bar_len, unit) = if plays { (budget, "games") } else { (max_points as u64, "points") };
    let steps = Steps::begin(run, "step", usize::MAX, bar_len, unit, args.common.play.quiet)
        .with_trajectory(space.names(), &space.starts(), args.common.resume.then_some(state.step))?;
    let stop = steps.stop_flag();
    let games_done = |s: &State| s.games.played() + s.games.failed;
    let progress = |s: &State| if plays { games_done(s) } else { s.bayes.observations().len() as u64 };
    steps.bar.set_position(progress(&state));
    loop {
        let points_done = state.bayes.observations().len();
        if (plays && games_done(&state) >= budget)
            || points_done >= max_points
            || halt_at.is_some_and(|h| state.step >= h)
        {
            break;
        }
        let started = Instant::now();
        let step = state.step + 1;
        let mut rng = ChaCha8Rng::seed_from_u64(step_seed(seed, step as u64));
        let mut games_each = state.bayes.games_per_point();
        let per_point = fitness.games_per_trial(games_each) as u64;
        let left = budget.saturating_sub(games_done(&state));
        let room = if plays { left.div_ceil(per_point) as usize } else { usize::MAX };
        let count = settings.batch.min(room).min(max_points - points_done);
        if plays && count as u64 * per_point > left {
            // The last step: fewer games per point, so the run ends at its budget (each point's
            // noise follows its own games).
            games_each = ((left / count as u64) as u32).max(1);
        }
        let suggested = state.bayes.suggest(count, &mut rng)?;
        // The model learns where the games were played: integer values are rounded.
        let candidates: Vec<Vec<f64>> =
            suggested.iter().map(|u| space.playable(&space.unit_to_values(u))).collect();
        let scored = fitness
            .rank(&candidates, games_each, step_seed(seed ^ 0x5eed, step as u64), stop)
            .map_err(|e| steps.resumable(e, format!("step {}", state.step)))?;
        if plays && scored.iter().all(|s| s.games.played() == 0) {
            bail!("every game of step {step} failed: see the errors above");
        }
        for (values, s) in candidates.iter().zip(&scored) {
            let u = space.to_unit(values);
            if plays && s.games.all_in_pairs() {
                state.bayes.record_paired_games(&u, s.games.wld, s.games.pairs)?;
            } else if plays {
                state.bayes.record_games(&u, s.games.wld)?;
            } else {
                state.bayes.record_value(&u, s.fitness)?;
            }
            state.games.add(&s.games);
        }
        let modelled = Instant::now();
        let estimate = state.bayes.estimate(&mut rng)?;
        let model_seconds = modelled.elapsed().as_secs_f64();
        let values = space.unit_to_values(&estimate.x);
        let (loss, valid_loss) = match fitness.exact() {
            Some(exact) => (exact.loss(&values), exact.valid_loss(&values)),
            None => (f64::NAN, f64::NAN),
        };
        let z = 1.959_963_984_540_054;
        let game_elo = |v: f64| if plays { shown(v, true) } else { f64::NAN };
        state.step = step;
        state.log.push(BayesLog {
            step: step as u64,
            points: state.bayes.observations().len() as u64,
            games: state.games.played(),
            games_per_point: fitness.games_per_trial(games_each) as u64,
            elo: game_elo(estimate.value),
            elo_low: game_elo(estimate.value - z * estimate.sd),
            elo_high: game_elo(estimate.value + z * estimate.sd),
            loss,
            valid_loss,
            shortest_length: estimate.lengths.iter().copied().fold(f64::INFINITY, f64::min),
            model_seconds,
            seconds: started.elapsed().as_secs_f64(),
        });
        state.history.push(region(step as u64, space, &estimate));
        // The report's data with every checkpoint, so a killed run's report can be drawn.
        let plots = plot_data(&mut state.bayes.clone(), setup, &estimate, &state.history, plays, seed)?;
        run.write_json("bayes.json", &plots)?;
        state.estimate = Some(estimate);
        steps.bar.set_position(progress(&state));
        let last = state.log.last().expect("pushed above");
        steps.bar.set_message(if plays {
            format!("optimum {:+.1} Elo [{:+.1}, {:+.1}]", last.elo, last.elo_low, last.elo_high)
        } else {
            format!("loss at the optimum {loss:.6}")
        });
        steps.end(&state.log, step, &values, &state)?;
    }
    steps.finish();
    Ok(state)
}

/// The report's data: partial dependence on each parameter and on pairs of the most influential
/// ones (the shortest length scales), the points played, the optimum and its regions by step.
fn plot_data(
    bayes: &mut Bayes,
    setup: &Setup,
    estimate: &Estimate,
    history: &[Region],
    plays: bool,
    seed: u64,
) -> Result<BayesPlots> {
    const GRID: usize = 41;
    const PAIR_GRID: usize = 25;
    const SAMPLES: usize = 64;
    const MAX_PAIRED: usize = 6;
    let space = &setup.space;
    let mut rng = ChaCha8Rng::seed_from_u64(step_seed(seed ^ 0x9107, 0));
    let to_value = |d: usize, u: f64| {
        let dim = &space.dims[d];
        dim.min + (u.clamp(-1.0, 1.0) + 1.0) / 2.0 * (dim.max - dim.min)
    };
    let mut dependence = Vec::new();
    for d in 0..space.len() {
        let (grid, pd, mean, sd) = bayes.dependence_1d(d, &estimate.x, GRID, SAMPLES, &mut rng)?;
        dependence.push(Dependence {
            name: space.dims[d].name.clone(),
            grid: grid.iter().map(|&u| to_value(d, u)).collect(),
            partial: pd.iter().map(|&v| shown(v, plays)).collect(),
            slice: mean.iter().map(|&v| shown(v, plays)).collect(),
            slice_low: mean.iter().zip(&sd).map(|(m, s)| shown(m - 2.0 * s, plays)).collect(),
            slice_high: mean.iter().zip(&sd).map(|(m, s)| shown(m + 2.0 * s, plays)).collect(),
            length: estimate.lengths[d],
        });
    }
    let mut by_length: Vec<usize> = (0..space.len()).collect();
    by_length.sort_by(|&a, &b| estimate.lengths[a].total_cmp(&estimate.lengths[b]));
    by_length.truncate(MAX_PAIRED);
    by_length.sort();
    let mut pairs = Vec::new();
    for (a, &i) in by_length.iter().enumerate() {
        for &j in &by_length[a + 1..] {
            let z = bayes.dependence_2d(i, j, PAIR_GRID, SAMPLES / 2, &mut rng)?;
            pairs.push(Pair {
                x: i,
                y: j,
                values: z.iter().map(|row| row.iter().map(|&v| shown(v, plays)).collect()).collect(),
            });
        }
    }
    Ok(BayesPlots {
        names: space.names(),
        unit: if plays { "Elo against the start".into() } else { "fitness (minus the loss)".into() },
        bounds: space.dims.iter().map(|d| (d.min, d.max)).collect(),
        optimum: space.unit_to_values(&estimate.x),
        dependence,
        paired: by_length,
        pairs,
        points: bayes.observations().iter().map(|o| space.unit_to_values(&o.x)).collect(),
        history: history.to_vec(),
    })
}

/// `--problem`: the expected simple regret of the Bayesian optimiser on one of CLOP's test problems.
fn problem(args: &BayesArgs, settings: &BayesSettings, name: &str) -> Result<()> {
    let problem = Problem::parse(name)?;
    let games = args.common.games.unwrap_or(1_000);
    let started = Instant::now();
    let r = simple_regret(&problem, settings, games, args.runs.max(1), args.common.play.seed)?;
    println!(
        "{name} ({} dimensions), {games} games, {} runs, {}: expected simple regret {:.5} ± {:.5} (median {:.5}) in {:.1} s",
        problem.dims(),
        r.runs,
        settings.acquisition.name(),
        r.mean_regret,
        r.std_error,
        r.median_regret,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
#[path = "bayes_tests.rs"]
mod tests;
