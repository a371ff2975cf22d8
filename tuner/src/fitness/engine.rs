//! Any UCI engine's options as a fitness (`--fitness engine`): the space (OpenBench's SPSA lines)
//! names options of `--engine`; a candidate is that engine with those options set by `setoption`,
//! playing game pairs against the engine at the space's defaults (or against `--opponent`), or,
//! in a duel, against another candidate, at `--tc`, `--nodes` or `--depth`, with the book and
//! adjudication of `tune match`.
//!
//! Before any game, the engine is started once and the space checked against what it declares:
//! every name an option (case ignored, as UCI says), an `int` dimension a `spin` whose own range
//! holds the space's, a `float` dimension a `string` option. UCI has no real-valued option type;
//! OpenBench sends a float as the plain text of the number, which only a `string` option can
//! take, so that is what a float dimension needs (sent as a decimal, `0.35`); a spin is refused
//! for it (declare the dimension `int`). A missing option, a range the engine does not allow, an
//! engine that does not start or never answers `uciok` is an error naming it, from set-up.
//!
//! The engine processes live as long as the fitness: the games run on the match runner's worker
//! pool (`play/games/pool.rs`), but with seats of their own rather than the runner's players:
//! each worker keeps its two seats (the tuned engine and its opponent) from one call to the next
//! and sets the next pair's values with `setoption` before `ucinewgame`, so a run pays for a
//! process start once per seat rather than once per game pair (Stockfish takes 0.2 s to start
//! here, as long as a short game). An engine must therefore take its options between games, as
//! UCI allows (`setoption` while idle); one that died is restarted with the values it should have.
//!
//! A crash, a time forfeit or an illegal move loses the game for the side that failed, as
//! cutechess scores it, so tuning pushes away from values that crash; each is printed with its
//! side and reason, appended to the run folder's `engine-failures.log`, and counted per side in
//! [`Games::failures`] (the run's log.csv and result.json).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use whetstone::Color;

use super::{GameFitness, Games, Trial};
use crate::optim::space::{Dim, Space};
use crate::play::engines::engine_process::EngineSpec;
use crate::play::engines::external::External;
use crate::play::engines::player::Player;
use crate::play::engines::uci_engine::UciEngine;
use crate::play::engines::uci_option::{find_option, same_name, OptionKind, UciOption};
use crate::play::games::book::{self, BookOrder, Opening};
use crate::play::games::game::{play_game, GameRecord, GameSettings};
use crate::play::games::identity::RunIdentity;
use crate::play::games::pool::{self, Flow};
use crate::play::games::runner::Contestant;
use crate::play::games::tally::GameSummary;
use crate::play::runs::settings::MatchSettings;
use crate::run::{format_value, RunDir};

/// How long an engine may take to start and answer `uci` and `isready` (as the match runner).
pub const START_TIMEOUT: Duration = Duration::from_secs(10);
/// The run folder's record of what an engine-fitness run plays, compared on `--resume`.
pub const IDENTITY_FILE: &str = "engine-fitness.json";
/// The run folder's log of engine failures, one line each.
pub const FAILURE_LOG: &str = "engine-failures.log";

/// The engine a `--fitness engine` run tunes, and its opponent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineFitnessSettings {
    /// The UCI engine binary whose options the space names.
    pub engine: Option<PathBuf>,
    /// Fixed UCI options of the engine, `Name=Value`, set on every side it plays.
    pub engine_option: Vec<String>,
    /// An engine binary played instead of the engine at the space's defaults (no duels then).
    pub opponent: Option<PathBuf>,
    /// UCI options of the opponent, `Name=Value`.
    pub opponent_option: Vec<String>,
}

impl EngineFitnessSettings {
    /// Whether any of the engine or opponent was given (they apply to `--fitness engine` only).
    pub fn given(&self) -> bool {
        self.engine.is_some()
            || self.opponent.is_some()
            || !self.engine_option.is_empty()
            || !self.opponent_option.is_empty()
    }

    /// The engine (and the opponent, if any) as started for games: the path and options as
    /// `tune match` takes them, with --hash as their `Hash`.
    fn specs(&self, play: &MatchSettings) -> Result<(EngineSpec, Option<EngineSpec>)> {
        let Some(engine) = &self.engine else { bail!("--fitness engine needs --engine PATH (a UCI binary)") };
        if self.opponent.is_none() && !self.opponent_option.is_empty() {
            bail!("--opponent-option without --opponent: the engine plays itself at the space's defaults");
        }
        let spec = |flag: &str, path: &Path, options: &[String]| -> Result<EngineSpec> {
            match play
                .contestant(path, None, options)
                .with_context(|| format!("{flag} {}", path.display()))?
            {
                Contestant::External(spec) => Ok(spec),
                Contestant::InProcess(_) => {
                    bail!("{flag} {}: a params file; --fitness engine tunes a UCI binary", path.display())
                }
            }
        };
        let opponent = match &self.opponent {
            Some(path) => Some(spec("--opponent", path, &self.opponent_option)?),
            None => None,
        };
        Ok((spec("--engine", engine, &self.engine_option)?, opponent))
    }

    /// What a resumed run must share with the run it continues: the engine and opponent binaries
    /// (by content) and their options, the space file (by content), the radius and the game
    /// options as the command line gave them, `game_options` (not the thread count or the progress
    /// display).
    pub fn identity(
        &self,
        space: &Path,
        radius: Option<f64>,
        game_options: &serde_json::Value,
    ) -> Result<RunIdentity> {
        let options = serde_json::json!({
            "engine": self.engine,
            "engine_option": self.engine_option,
            "opponent": self.opponent,
            "opponent_option": self.opponent_option,
            "space": space,
            "radius": radius,
            "play": game_options,
        });
        RunIdentity::from_options(
            &options,
            &["concurrency", "quiet"],
            &["engine", "opponent", "space", "book"],
        )
    }

    /// The fitness, after starting the engine (and the opponent) once and checking the space
    /// against the engine's options. `failure_log` is where failures are appended.
    pub fn fitness(
        &self,
        space: &Space,
        play: &MatchSettings,
        failure_log: Option<PathBuf>,
    ) -> Result<EngineFitness> {
        let (engine, opponent) = self.specs(play)?;
        let settings = play.game_settings().context("--fitness engine")?;
        check_engine(&engine, space, START_TIMEOUT)?;
        if let Some(opponent) = &opponent {
            drop(UciEngine::start(opponent, START_TIMEOUT).context("--opponent: starting it")?);
        }
        Ok(EngineFitness {
            engine,
            opponent,
            space: space.clone(),
            settings,
            openings: play.openings()?.0,
            concurrency: play.concurrency,
            start_timeout: START_TIMEOUT,
            failure_log,
            idle_seats: Mutex::new(Vec::new()),
        })
    }
}

/// Checked before anything runs: with `resume`, the identity recorded in `dir` must equal
/// `identity` (each difference is named); otherwise nothing to check.
pub fn check_identity(dir: &Path, identity: &RunIdentity, resume: bool) -> Result<()> {
    if !resume {
        return Ok(());
    }
    let path = dir.join(IDENTITY_FILE);
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("--resume: reading {} (is this an engine-fitness run?)", path.display()))?;
    let recorded: RunIdentity =
        serde_json::from_str(&text).with_context(|| format!("--resume: {} is damaged", path.display()))?;
    let differences = recorded.differences(identity);
    if !differences.is_empty() {
        bail!("--resume: the run in {} played other games: {}", dir.display(), differences.join("; "));
    }
    Ok(())
}

/// Records `identity` in a fresh run folder.
pub fn record_identity(run: &RunDir, identity: &RunIdentity) -> Result<()> {
    run.write_json(IDENTITY_FILE, identity)
}

/// Starts `spec` once and checks every dimension of `space` against its declared options (and
/// that none is also fixed by the spec's own options); the error names every problem.
pub fn check_engine(spec: &EngineSpec, space: &Space, timeout: Duration) -> Result<()> {
    let what = format!("--engine {}", spec.command.display());
    let engine = UciEngine::start(spec, timeout)
        .with_context(|| format!("{what}: starting it and reading its options (`uci` ... `uciok`)"))?;
    let declared = engine.declared_options().to_vec();
    engine.quit(Duration::from_secs(1));
    let mut problems: Vec<String> = space.dims.iter().filter_map(|d| check_dim(&declared, d).err()).collect();
    for d in &space.dims {
        if spec.options.iter().any(|(name, _)| same_name(name, &d.name)) {
            problems.push(format!("`{}` is tuned by --space and fixed by --engine-option", d.name));
        }
    }
    if !problems.is_empty() {
        bail!("{what}: the space does not fit the engine's options: {}", problems.join("; "));
    }
    Ok(())
}

/// Whether dimension `d` can set one of `declared`, or why not.
fn check_dim(declared: &[UciOption], d: &Dim) -> Result<(), String> {
    let Some(option) = find_option(declared, &d.name) else {
        return Err(format!("`{}` is not an option of the engine", d.name));
    };
    let (name, kind) = (&option.name, option.kind);
    match (kind, d.integer) {
        (OptionKind::Spin, true) => {
            let (min, max) = (option.min.unwrap_or(i64::MIN), option.max.unwrap_or(i64::MAX));
            if d.min < min as f64 || d.max > max as f64 {
                return Err(format!(
                    "`{name}`: the space's range {}..{} is not within the engine's {min}..{max}",
                    format_value(d.min),
                    format_value(d.max)
                ));
            }
            Ok(())
        }
        (OptionKind::Spin, false) => {
            Err(format!("`{name}` is a spin (integers only): declare it `int` in the space, not `float`"))
        }
        (OptionKind::Text, false) => Ok(()),
        (OptionKind::Text, true) => Err(format!(
            "`{name}` is a string option, whose range the engine does not declare: an `int` needs a spin \
             (a `float` dimension may set a string option, sent as a decimal)"
        )),
        (kind, _) => Err(format!("`{name}` is a {} option, not a number", kind.word())),
    }
}

/// Games of a UCI engine with candidate option values; see the module docs.
pub struct EngineFitness {
    /// The engine tuned, with its fixed options (--engine-option, --hash).
    engine: EngineSpec,
    /// --opponent with its options; `None`: the engine at the space's defaults.
    opponent: Option<EngineSpec>,
    space: Space,
    settings: GameSettings,
    openings: Vec<Opening>,
    concurrency: usize,
    start_timeout: Duration,
    /// Where each failure is appended, besides the terminal.
    failure_log: Option<PathBuf>,
    /// The seats of workers that ended, kept between calls for the next call's workers.
    idle_seats: Mutex<Vec<Seats>>,
}

/// One worker's engines: the tuned engine and the side it plays.
#[derive(Default)]
struct Seats {
    tuned: Option<External>,
    other: Option<External>,
}

/// A worker's seats, taken from the fitness's idle ones (or new) and given back when the worker
/// ends, however it ends, so the next call plays on the same engine processes.
struct Lease<'a> {
    seats: Seats,
    idle: &'a Mutex<Vec<Seats>>,
}

impl<'a> Lease<'a> {
    fn take(idle: &'a Mutex<Vec<Seats>>) -> Lease<'a> {
        let seats = idle.lock().unwrap_or_else(PoisonError::into_inner).pop().unwrap_or_default();
        Lease { seats, idle }
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        let seats = std::mem::take(&mut self.seats);
        self.idle.lock().unwrap_or_else(PoisonError::into_inner).push(seats);
    }
}

/// One game pair: a trial's candidate against its opponent from one opening.
struct Job {
    trial: usize,
    fen: String,
}

impl EngineFitness {
    /// The `setoption` values of the point `x` of the space: integers rounded, floats as decimals.
    fn values(&self, x: &[f64]) -> Vec<(String, String)> {
        self.space
            .playable(x)
            .into_iter()
            .zip(&self.space.dims)
            .map(|(v, d)| (d.name.clone(), format_value(v)))
            .collect()
    }

    /// Job `job` (a pair of `trials`) on a worker's `seats`; None when `stop` cut it short.
    /// `reference` is the option values at the space's defaults.
    fn play_pair(
        &self,
        seats: &mut Seats,
        job: &Job,
        trials: &[Trial],
        reference: &[(String, String)],
        stop: &AtomicBool,
    ) -> Result<Option<[GameRecord; 2]>> {
        let trial = &trials[job.trial];
        let other_values = match (&trial.opponent, &self.opponent) {
            (Some(x), _) => self.values(x),
            // --opponent keeps the options it was started with.
            (None, Some(_)) => Vec::new(),
            (None, None) => reference.to_vec(),
        };
        let other_spec = self.opponent.as_ref().unwrap_or(&self.engine);
        let Seats { tuned, other } = seats;
        let tuned = self.seat(tuned, &self.engine, &self.values(&trial.candidate))?;
        let other = self.seat(other, other_spec, &other_values)?;
        let mut games = Vec::with_capacity(2);
        for swap in [false, true] {
            let (white, black): (&mut dyn Player, &mut dyn Player) =
                if swap { (&mut *other, &mut *tuned) } else { (&mut *tuned, &mut *other) };
            match play_game(white, black, &job.fen, &self.settings, stop) {
                Some(game) => games.push(game),
                None => return Ok(None),
            }
        }
        let games: [GameRecord; 2] = games.try_into().map_err(|_| anyhow!("a pair has two games"))?;
        Ok(Some(games))
    }

    /// The engine in `slot` with `values` set: started from `spec` the first time.
    fn seat<'a>(
        &self,
        slot: &'a mut Option<External>,
        spec: &EngineSpec,
        values: &[(String, String)],
    ) -> Result<&'a mut External> {
        let player = match slot {
            Some(player) => player,
            None => slot.insert(External::start(spec.clone(), self.start_timeout)?),
        };
        player.set_options(values)?;
        Ok(player)
    }

    /// Counts one finished pair into its trial's games and pairs (the tuned side had White in the
    /// first game) and reports its failures.
    fn record(
        &self,
        games: &mut Games,
        duel: bool,
        (pair, pairs): (usize, usize),
        records: &[GameRecord; 2],
    ) {
        let [first, second] = GameSummary::of_games(records);
        games.record_pair(first.score, second.score);
        for (game, tuned) in records.iter().zip([Color::White, Color::Black]) {
            let Some(culprit) = game.culprit else { continue };
            let side = usize::from(culprit != tuned);
            if !games.failures[side].count(game.termination) {
                continue;
            }
            let who = match (side, duel, &self.opponent) {
                (0, _, _) => "the candidate",
                (_, true, _) => "the other candidate",
                (_, false, Some(_)) => "the opponent",
                (_, false, None) => "the reference",
            };
            let name = if culprit == Color::White { &game.white } else { &game.black };
            let line = format!(
                "engine failure, game pair {} of {pairs} of this step: {who} ({name}) lost by {}: {}",
                pair + 1,
                game.termination,
                game.reason
            );
            eprintln!("{line}");
            if let Some(path) = &self.failure_log {
                let appended = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .and_then(|mut file| writeln!(file, "{} {line}", crate::run::now()));
                if let Err(e) = appended {
                    eprintln!("could not append to {}: {e}", path.display());
                }
            }
        }
    }
}

impl GameFitness for EngineFitness {
    fn describe(&self) -> String {
        let against = match &self.opponent {
            Some(opponent) => format!("--opponent {}", opponent.command.display()),
            None => "itself at the space's defaults".to_string(),
        };
        format!(
            "UCI engine {} ({} options from the space) against {against}, game pairs at {}, {} threads",
            self.engine.command.display(),
            self.space.len(),
            self.settings.limit,
            self.concurrency
        )
    }

    fn duels(&self) -> bool {
        self.opponent.is_none()
    }

    fn engine_under_test(&self) -> Option<&EngineSpec> {
        Some(&self.engine)
    }

    fn games_per_trial(&self, games: u32) -> u32 {
        2 * games.div_ceil(2).max(1)
    }

    fn play(
        &self,
        trials: &[Trial],
        seed: u64,
        stop: &AtomicBool,
        on_games: &mut dyn FnMut(u64),
    ) -> Result<Vec<Games>> {
        if self.opponent.is_some() && trials.iter().any(|t| t.opponent.is_some()) {
            bail!("with --opponent every candidate plays it; two candidates cannot play each other");
        }
        let pairs: usize = trials.iter().map(|t| self.games_per_trial(t.games) as usize / 2).sum();
        let schedule = book::schedule(self.openings.len(), pairs, BookOrder::Random, seed, 0);
        let mut jobs = Vec::with_capacity(pairs);
        for (t, trial) in trials.iter().enumerate() {
            for _ in 0..self.games_per_trial(trial.games) / 2 {
                jobs.push(Job { trial: t, fen: self.openings[schedule[jobs.len()]].fen.clone() });
            }
        }
        let mut results = vec![Games::default(); trials.len()];
        let mut finished = 0;
        let reference = self.values(&self.space.starts());
        pool::run_jobs(
            jobs.len(),
            self.concurrency,
            stop,
            || Lease::take(&self.idle_seats),
            |lease, index| {
                let games = self.play_pair(&mut lease.seats, &jobs[index], trials, &reference, stop)?;
                Ok(games.map(|games| (index, games)))
            },
            |(index, records)| {
                let trial = &trials[jobs[index].trial];
                let pair = (index, jobs.len());
                self.record(&mut results[jobs[index].trial], trial.opponent.is_some(), pair, &records);
                finished += 1;
                on_games(2);
                Ok(Flow::Continue)
            },
        )?;
        if finished < jobs.len() {
            bail!("interrupted with {finished} of {} game pairs played", jobs.len());
        }
        Ok(results)
    }
}

#[cfg(test)]
#[path = "engine_tests.rs"]
pub(crate) mod tests;
