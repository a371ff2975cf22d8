//! `tune pbil`: population-based incremental learning over the flat vector. Each generation
//! samples a population from the probability vector, scores it (the Texel loss of every
//! individual, or each individual's games against the starting values), and learns from the best
//! and worst. Logs the best and mean fitness and the vector's entropy per generation, stops at
//! the generation limit or when the entropy says the vector has decided, checkpoints every
//! generation.

use std::time::Instant;

use anyhow::Result;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::args::tune::TuneArgs;
use super::args::verify::VerifyArgs;
use crate::fitness::setup::{FitnessKind, Setup};
use crate::fitness::{step_seed, Games};
use crate::optim::pbil::{Pbil, PbilSettings, Update, NATURAL_LEARNING_RATE};
use crate::play::games::stats::elo_from_score;
use crate::run::Steps;

/// Population-based incremental learning (Baluja 1994): Gray-coded values, a probability per
/// bit, learning toward each generation's best individual and away from its worst.
///
/// The default run is `tune pbil --params params/eval.toml`: every tunable evaluation weight,
/// scored by the Texel loss over the bundled self-play positions, 32 individuals for 1,500
/// generations (about three minutes on 2 cores). Results go to reports/pbil: tuned.toml and
/// eval_params.rs, result.json, log.csv/log.json, trajectory.csv, the report.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct PbilArgs {
    #[command(flatten)]
    pub common: TuneArgs,
    #[command(flatten)]
    pub verify: VerifyArgs,
    /// Generations [default: 1,500 with the Texel loss; with games, --games / (population x
    /// games per individual)].
    #[arg(long)]
    pub generations: Option<usize>,
    /// Individuals per generation.
    #[arg(long, default_value_t = PbilSettings::default().population)]
    pub population: usize,
    /// Games each individual plays against the starting values per generation (game fitnesses;
    /// self-play rounds up to pairs).
    #[arg(long, default_value_t = 2)]
    pub games_per_individual: u32,
    /// Learn from the mean bits of this many of the best (and worst) individuals of each
    /// generation; 1 is Baluja's rule. With games for a fitness a larger elite averages out some
    /// of the luck of a single best, at the price of smaller steps (docs/tuning.md).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub elite: usize,
    /// How a generation's scores move the probabilities: `baluja` (toward the best, or the mean
    /// of --elite, and away from the worst) or `natural` (each bit by the covariance of bit and
    /// score over the whole generation, the natural gradient; for games, where a generation's
    /// best is mostly its luckiest) [default: natural with games for a fitness, baluja with the
    /// Texel loss]. docs/tuning.md has the measurements.
    #[arg(long, value_name = "RULE")]
    pub update: Option<Update>,
    /// Step of the probabilities toward the best individual (Baluja and Caruana 1995: 0.1); with
    /// `--update natural`, the largest step of one generation [default: 0.1 for baluja, 0.15 for
    /// natural].
    #[arg(long)]
    pub learning_rate: Option<f64>,
    /// Extra step toward the best where the worst individual differs (0.075).
    #[arg(long, default_value_t = PbilSettings::default().negative_learning_rate)]
    pub negative_learning_rate: f64,
    /// Chance per bit per generation of a mutation of its probability (0.02).
    #[arg(long, default_value_t = PbilSettings::default().mutation_probability)]
    pub mutation_probability: f64,
    /// Size of a mutation (0.05).
    #[arg(long, default_value_t = PbilSettings::default().mutation_shift)]
    pub mutation_shift: f64,
    /// Initial probability of each bit of the starting values; 0.5 is textbook PBIL (uniform
    /// over the bounds), higher starts near the current values.
    #[arg(long, default_value_t = PbilSettings::default().start_confidence)]
    pub start_confidence: f64,
    /// Integers: code only the 2·W+1 values around each start and move a value's window to its
    /// estimate once its bits have decided (0: the whole range, textbook PBIL).
    #[arg(long, default_value_t = 16, value_name = "W")]
    pub window: u32,
    /// Stop when the mean entropy per bit falls below this (the vector has decided).
    #[arg(long, default_value_t = 0.02)]
    pub converged: f64,
}

/// One generation's log line. Loss columns belong to the Texel fitness, score columns to games;
/// the others are NaN.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PbilLog {
    pub generation: usize,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub best_loss: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub mean_loss: f64,
    /// Objective of the best individual or estimate so far (the result).
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub result_loss: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub result_valid_loss: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub best_score: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub mean_score: f64,
    /// The population's mean score against the start, as Elo.
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub mean_elo: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub entropy: f64,
    /// Values whose window moved this generation.
    pub recentred: usize,
    pub games: u64,
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
    generation: usize,
    pbil: Pbil,
    /// The best individual so far and its loss (Texel fitness).
    best: Option<(Vec<f64>, f64)>,
    games: Games,
    log: Vec<PbilLog>,
    converged: bool,
}

impl PbilArgs {
    /// The settings for a fitness that plays games (`games`) or not: the update rule and its
    /// learning rate default by the fitness, the window also moves at its edge under games.
    fn settings(&self, games: bool) -> PbilSettings {
        let update = self.update.unwrap_or(if games { Update::Natural } else { Update::Baluja });
        let learning_rate = self.learning_rate.unwrap_or(match update {
            Update::Baluja => PbilSettings::default().learning_rate,
            Update::Natural => NATURAL_LEARNING_RATE,
        });
        PbilSettings {
            population: self.population.max(2),
            learning_rate,
            negative_learning_rate: self.negative_learning_rate,
            mutation_probability: self.mutation_probability,
            mutation_shift: self.mutation_shift,
            start_confidence: self.start_confidence,
            window: (self.window > 0).then_some(self.window),
            recentre_at_edge: games,
            update,
        }
    }
}

/// Positions the Texel fitness of `tune pbil` fits on unless `--positions` says otherwise.
pub const PBIL_POSITIONS: u64 = 150_000;

pub fn run(args: &PbilArgs) -> Result<()> {
    let verify = args.verify.settings()?;
    // 1,500 generations of 32 individuals over all of a million-position set would take most
    // of an hour; a sample of whole games keeps the run to minutes.
    let mut common = args.common.clone();
    common.recipe.positions = common.recipe.positions.or(Some(PBIL_POSITIONS));
    let setup = common.setup("pbil", FitnessKind::Texel)?;
    let fitness = &setup.fitness;
    let generations = match (args.generations, args.common.games) {
        (Some(g), _) => g,
        (None, _) if !fitness.plays_games() => 1500,
        (None, Some(games)) => {
            let per =
                args.population.max(2) as u64 * fitness.games_per_trial(args.games_per_individual) as u64;
            games.div_ceil(per) as usize
        }
        (None, None) => 30,
    };
    let state = optimise(args, &setup, generations)?;
    let mut extra = serde_json::json!({
        "fitness": fitness.describe(),
        "generations": state.generation,
        "converged": state.converged,
    });
    // With an exact loss the result is the best point seen; with games, the vector's estimate.
    let values = match (fitness.exact(), &state.best) {
        (Some(exact), Some((x, loss))) => {
            let starts = setup.space.starts();
            extra["start_loss"] = exact.loss(&starts).into();
            extra["loss"] = (*loss).into();
            extra["start_valid_loss"] = exact.valid_loss(&starts).into();
            extra["valid_loss"] = exact.valid_loss(x).into();
            x.clone()
        }
        _ => state.pbil.estimate(),
    };
    if fitness.plays_games() {
        extra["failed_games"] = state.games.failed.into();
        extra["failures"] = state.games.failures_json();
    }
    setup.run.write_meta("pbil", args, args.common.resume, Some(extra.clone()))?;
    crate::export::finish_tuning(
        &setup,
        &args.common.settings(),
        &verify,
        &values,
        state.games.played(),
        extra,
        setup.provenance("pbil", &args.common.params),
    )
}

fn optimise(args: &PbilArgs, setup: &Setup, generations: usize) -> Result<State> {
    let (run, fitness) = (&setup.run, &setup.fitness);
    let mut state = if args.common.resume {
        let state: State = run.load_checkpoint()?;
        eprintln!("resuming at generation {}", state.generation);
        state
    } else {
        State {
            generation: 0,
            pbil: Pbil::new(&setup.space, args.settings(fitness.plays_games())),
            // The start is the best so far: the result is never worse than where the run began.
            best: fitness.exact().map(|exact| (setup.space.starts(), exact.loss(&setup.space.starts()))),
            games: Games::default(),
            log: Vec::new(),
            converged: false,
        }
    };
    run.write_meta("pbil", args, args.common.resume, None)?;
    eprintln!(
        "PBIL: {} values in {} bits, population {}, {generations} generations; fitness: {}",
        setup.space.len(),
        state.pbil.bit_count(),
        state.pbil.settings.population,
        fitness.describe()
    );
    let steps = Steps::begin(
        run,
        "generation",
        generations,
        generations as u64,
        "generation",
        args.common.play.quiet,
    )
    .with_trajectory(
        setup.space.names(),
        &setup.space.starts(),
        args.common.resume.then_some(state.generation),
    )?;
    let stop = steps.stop_flag();
    let bar = &steps.bar;
    bar.set_position(state.generation as u64);
    while state.generation < generations && !state.converged {
        let started = Instant::now();
        let mut rng = ChaCha8Rng::seed_from_u64(step_seed(args.common.play.seed, state.generation as u64));
        let population = state.pbil.sample_population(state.pbil.settings.population, &mut rng);
        let values: Vec<Vec<f64>> =
            population.rows().into_iter().map(|bits| state.pbil.decode(bits)).collect();
        let mut entry = PbilLog {
            generation: state.generation + 1,
            best_loss: f64::NAN,
            mean_loss: f64::NAN,
            result_loss: f64::NAN,
            result_valid_loss: f64::NAN,
            best_score: f64::NAN,
            mean_score: f64::NAN,
            mean_elo: f64::NAN,
            entropy: 0.0,
            recentred: 0,
            games: 0,
            seconds: 0.0,
            candidate_failures: 0,
            opponent_failures: 0,
        };
        let seed = step_seed(args.common.play.seed ^ 0x5eed, state.generation as u64);
        let scored = fitness
            .rank(&values, args.games_per_individual, seed, stop)
            .map_err(|e| steps.resumable(e, format!("generation {}", state.generation)))?;
        let scores: Vec<f64> = scored.iter().map(|s| s.fitness).collect();
        // Best first; ties in the order sampled.
        let mut ranking: Vec<usize> = (0..scores.len()).collect();
        ranking.sort_by(|&i, &j| scores[j].total_cmp(&scores[i]).then(i.cmp(&j)));
        let best = ranking[0];
        if let Some(exact) = fitness.exact() {
            // Keep the best point seen. The vector's own estimate (each bit as its probability
            // leans) often beats every sample: samples pay the L2 pull on every value they jitter.
            let estimate = state.pbil.estimate();
            let estimate_loss = exact.loss(&estimate);
            for (x, loss) in [(values[best].clone(), -scores[best]), (estimate, estimate_loss)] {
                if state.best.as_ref().is_none_or(|(_, low)| loss < *low) {
                    state.best = Some((x, loss));
                }
            }
            let (best_x, best_loss) = state.best.as_ref().expect("set above");
            entry.best_loss = -scores[best];
            entry.mean_loss = -scores.iter().sum::<f64>() / scores.len() as f64;
            entry.result_loss = *best_loss;
            entry.result_valid_loss = exact.valid_loss(best_x);
        }
        if fitness.plays_games() {
            let mut all = Games::default();
            scored.iter().for_each(|s| all.add(&s.games));
            state.games.add(&all);
            entry.best_score = scores[best];
            entry.mean_score = all.score();
            entry.mean_elo = elo_from_score(all.score().clamp(1e-3, 1.0 - 1e-3));
        }
        match state.pbil.settings.update {
            Update::Baluja => {
                let elite = args.elite.min(ranking.len() / 2).max(1);
                let rows = |ids: &[usize]| ids.iter().map(|&i| population.row(i)).collect::<Vec<_>>();
                let (best, worst) = (rows(&ranking[..elite]), rows(&ranking[ranking.len() - elite..]));
                state.pbil.learn_from(&best, &worst, &mut rng);
            }
            Update::Natural => state.pbil.learn_natural(&population, &scores, &mut rng),
        }
        entry.recentred = state.pbil.recentre(0.05);
        state.generation += 1;
        entry.entropy = state.pbil.entropy();
        entry.games = state.games.played();
        entry.seconds = started.elapsed().as_secs_f64();
        entry.candidate_failures = state.games.failures[0].total();
        entry.opponent_failures = state.games.failures[1].total();
        state.converged = entry.entropy < args.converged;
        let current = state.best.as_ref().map(|(x, _)| x.clone()).unwrap_or_else(|| state.pbil.estimate());
        bar.set_message(if fitness.plays_games() {
            format!(
                "mean score {:.3} ({:+.0} Elo), entropy {:.3}",
                entry.mean_score, entry.mean_elo, entry.entropy
            )
        } else {
            format!("best loss {:.6}, entropy {:.3}", entry.result_loss, entry.entropy)
        });
        bar.set_position(state.generation as u64);
        state.log.push(entry);
        steps.end(&state.log, state.generation, &current, &state)?;
    }
    steps.finish();
    if state.converged {
        eprintln!("converged at generation {} (entropy below {})", state.generation, args.converged);
    }
    Ok(state)
}

#[cfg(test)]
#[path = "pbil_tests.rs"]
mod tests;
