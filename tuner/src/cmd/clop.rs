//! `tune clop`: Coulom's Confident Local Optimization over game outcomes (self-play or a
//! command), and `--problem`, the paper's artificial test problems with the expected simple
//! regret. Samples are drawn in batches and played in parallel; each game's outcome is recorded
//! against the point it was played at; the estimate is the weighted mean of the samples.

use std::time::Instant;

use anyhow::{bail, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::args::tune::TuneArgs;
use super::args::verify::VerifyArgs;
use crate::fitness::setup::{FitnessKind, Setup};
use crate::fitness::{step_seed, Games};
use crate::optim::clop::{Clop, ClopSettings, Correlations};
use crate::optim::clop_problems::{simple_regret, Problem};
use crate::play::games::stats::elo_from_score;
use crate::run::Steps;

/// CLOP (Coulom, ACG 2011): a quadratic logistic regression of the game outcome over the
/// parameters, samples drawn where the regression is confident the optimum may be, and the
/// weighted mean of those samples as the estimate. For a few parameters at a time (it fits
/// (n+1)(n+2)/2 coefficients with full correlations), over games: --fitness selfplay (default)
/// or command.
///
/// `tune clop --problem log --games 10000 --runs 100` runs the paper's test problems instead and
/// prints the expected simple regret.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct ClopArgs {
    #[command(flatten)]
    pub common: TuneArgs,
    #[command(flatten)]
    pub verify: VerifyArgs,
    /// Quadratic terms: all cross-terms (`all`) or none (`diagonal`, for more parameters).
    #[arg(long, value_enum, default_value = "all")]
    pub correlations: CorrelationsArg,
    /// Confidence of the sampling region in standard deviations (the paper's H).
    #[arg(long, default_value_t = ClopSettings::default().h)]
    pub h: f64,
    /// Samples per batch, played in parallel from the same state (fixed, so a run does not
    /// depend on the thread count).
    #[arg(long, default_value_t = 8)]
    pub batch: u64,
    /// Run an artificial test problem of the paper instead of tuning: `--games` per run,
    /// `--runs` runs; prints the expected simple regret.
    #[arg(long, value_name = "NAME")]
    pub problem: Option<String>,
    /// Runs of --problem.
    #[arg(long, default_value_t = 100)]
    pub runs: usize,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CorrelationsArg {
    All,
    Diagonal,
}

/// One batch's log line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClopLog {
    pub samples: u64,
    pub games: u64,
    /// The regression's expected win rate at the estimate, with its interval.
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub win_rate: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub win_rate_low: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub win_rate_high: f64,
    /// The win rate as Elo against the reference.
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub elo: f64,
    /// The score of all games so far.
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub score: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub seconds: f64,
    /// Games lost so far by a failure (crash, time forfeit, illegal move) of the candidate's side
    /// (plus, in a duel) and of the other side (minus, or the reference or --opponent).
    #[serde(default)]
    pub candidate_failures: u64,
    #[serde(default)]
    pub opponent_failures: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct State {
    clop: Clop,
    games: Games,
    log: Vec<ClopLog>,
}

impl ClopArgs {
    fn settings(&self) -> ClopSettings {
        ClopSettings {
            correlations: match self.correlations {
                CorrelationsArg::All => Correlations::All,
                CorrelationsArg::Diagonal => Correlations::Diagonal,
            },
            h: self.h,
            ..ClopSettings::default()
        }
    }
}

pub fn run(args: &ClopArgs) -> Result<()> {
    let verify = args.verify.settings()?;
    if let Some(name) = &args.problem {
        return problem(args, name);
    }
    let setup = args.common.setup("clop", FitnessKind::Selfplay)?;
    if !setup.fitness.plays_games() {
        bail!("CLOP fits game outcomes: use --fitness selfplay, command or engine (PBIL and SPSA take the Texel loss)");
    }
    let budget = args.common.games.unwrap_or(2000);
    let state = optimise(args, &setup, budget, None)?;
    let estimate = state.clop.estimate();
    let proposed = setup.space.unit_to_values(&estimate.mean);
    // Every sample played the starting values (self-play, or an engine against itself at its
    // defaults), so the regression's win rate at the estimate is its expected score against the
    // start: an estimate it does not expect to beat the start is not a result.
    let against_start = match args.common.fitness.unwrap_or(FitnessKind::Selfplay) {
        FitnessKind::Selfplay => true,
        FitnessKind::Engine => args.common.engine.opponent.is_none(),
        _ => false,
    };
    let keep_start = against_start && estimate.win_rate <= 0.5;
    let values = if keep_start { setup.space.starts() } else { proposed.clone() };
    let extra = serde_json::json!({
        "fitness": setup.fitness.describe(),
        "proposed": proposed,
        "kept_start": keep_start,
        "samples": estimate.samples,
        "win_rate": estimate.win_rate,
        "win_rate_interval": [estimate.win_rate_low, estimate.win_rate_high],
        "elo": elo_from_score(estimate.win_rate.clamp(1e-3, 1.0 - 1e-3)),
        "wins": state.games.wld.wins,
        "losses": state.games.wld.losses,
        "draws": state.games.wld.draws,
        "failed_games": state.games.failed,
        "failures": state.games.failures_json(),
    });
    println!(
        "estimate: win rate {:.3} [{:.3}, {:.3}] against the start over {} samples",
        estimate.win_rate, estimate.win_rate_low, estimate.win_rate_high, estimate.samples
    );
    if keep_start {
        println!(
            "CLOP's own model does not expect its estimate ({}) to beat the start (win rate {:.3}, not above \
             0.5): the run keeps the starting values",
            setup.space.names().iter().zip(&proposed).map(|(n, v)| format!("{n} {v:.0}")).collect::<Vec<_>>().join(", "),
            estimate.win_rate
        );
    }
    setup.run.write_meta("clop", args, args.common.resume, Some(extra.clone()))?;
    crate::export::finish_tuning(
        &setup,
        &args.common.settings(),
        &verify,
        &values,
        state.games.played(),
        extra,
        setup.provenance("clop", &args.common.params),
    )
}

/// Plays until `budget` games (or `halt_at`, as a kill would, in tests).
fn optimise(args: &ClopArgs, setup: &Setup, budget: u64, halt_at: Option<u64>) -> Result<State> {
    let (run, fitness) = (&setup.run, &setup.fitness);
    let mut state = if args.common.resume {
        let state: State = run.load_checkpoint()?;
        eprintln!("resuming after {} samples", state.clop.samples());
        state
    } else {
        State {
            clop: Clop::new(setup.space.len(), args.settings()),
            games: Games::default(),
            log: Vec::new(),
        }
    };
    run.write_meta("clop", args, args.common.resume, None)?;
    eprintln!("CLOP: {} values, {budget} games; fitness: {}", setup.space.len(), fitness.describe());
    let steps = Steps::begin(run, "samples", usize::MAX, budget, "games", args.common.play.quiet)
        .with_trajectory(
            setup.space.names(),
            &setup.space.starts(),
            args.common.resume.then_some(state.clop.samples()),
        )?;
    let stop = steps.stop_flag();
    let bar = &steps.bar;
    let games_done = |s: &State| s.games.played() + s.games.failed;
    bar.set_position(games_done(&state));
    let per_sample = fitness.games_per_trial(1) as u64;
    while games_done(&state) < halt_at.unwrap_or(budget).min(budget) {
        let started = Instant::now();
        let first = state.clop.samples() as u64;
        let left = (budget - games_done(&state)).div_ceil(per_sample);
        let points: Vec<Vec<f64>> = (0..args.batch.max(1).min(left))
            .map(|i| {
                state.clop.sample(&mut ChaCha8Rng::seed_from_u64(step_seed(args.common.play.seed, first + i)))
            })
            .collect();
        let candidates: Vec<Vec<f64>> = points.iter().map(|u| setup.space.unit_to_values(u)).collect();
        let results = fitness
            .outcomes(&candidates, step_seed(args.common.play.seed ^ 0x5eed, first), stop)
            .map_err(|e| steps.resumable(e, format!("{} samples", state.clop.samples())))?;
        for (u, games) in points.iter().zip(&results) {
            for score in games.outcomes() {
                state.clop.record(u, score);
            }
            state.games.add(games);
        }
        let estimate = state.clop.estimate();
        state.log.push(ClopLog {
            samples: state.clop.samples() as u64,
            games: state.games.played(),
            win_rate: estimate.win_rate,
            win_rate_low: estimate.win_rate_low,
            win_rate_high: estimate.win_rate_high,
            elo: elo_from_score(estimate.win_rate.clamp(1e-3, 1.0 - 1e-3)),
            score: state.games.score(),
            seconds: started.elapsed().as_secs_f64(),
            candidate_failures: state.games.failures[0].total(),
            opponent_failures: state.games.failures[1].total(),
        });
        bar.set_position(games_done(&state));
        bar.set_message(format!(
            "expected win rate {:.3} [{:.3}, {:.3}]",
            estimate.win_rate, estimate.win_rate_low, estimate.win_rate_high
        ));
        let values = setup.space.unit_to_values(&estimate.mean);
        steps.end(&state.log, state.clop.samples(), &values, &state)?;
    }
    steps.finish();
    Ok(state)
}

/// `--problem`: the expected simple regret of CLOP on one of the paper's test problems.
fn problem(args: &ClopArgs, name: &str) -> Result<()> {
    let problem = Problem::parse(name)?;
    let games = args.common.games.unwrap_or(10_000);
    let started = Instant::now();
    let r = simple_regret(&problem, &args.settings(), games, args.runs.max(1), args.common.play.seed)?;
    println!(
        "{name} ({} dimensions), {games} games, {} runs: expected simple regret {:.5} ± {:.5} (median {:.5}) in {:.1} s",
        problem.dims(),
        r.runs,
        r.mean_regret,
        r.std_error,
        r.median_regret,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
#[path = "clop_tests.rs"]
mod tests;
