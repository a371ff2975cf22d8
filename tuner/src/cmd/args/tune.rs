//! The options every black-box tuner shares (`tune pbil`, `clop`, `spsa`, `bayes`): what to tune
//! and where scores come from, including `--fitness engine`'s; they resolve to the library's
//! [`TuneSettings`].

use std::path::PathBuf;

use anyhow::Result;

use super::choices;
use super::play::PlayArgs;
use super::recipe::RecipeArgs;
use crate::fitness::engine::EngineFitnessSettings;
use crate::fitness::setup::{run_folder, FitnessKind, Setup, TuneSettings};

/// Options every black-box tuner shares.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct TuneArgs {
    /// Evaluation params file: starting values and bounds.
    #[arg(long, default_value = "params/eval.toml")]
    pub params: PathBuf,
    /// Search constants (params/search.toml format). Without --only, these are what is tuned.
    #[arg(long, value_name = "FILE")]
    pub search_params: Option<PathBuf>,
    /// Terms to tune, by name or glob over the terms of --params and --search-params (`pst.*`,
    /// `mobility.knight`, `nmp.*`) [default: every tunable evaluation weight, or every search
    /// constant when --search-params is given].
    #[arg(long, num_args = 1.., value_name = "GLOB")]
    pub only: Vec<String>,
    /// Where scores come from [default: texel for PBIL, selfplay for CLOP and SPSA].
    #[arg(long, value_parser = choices::fitness_kind())]
    pub fitness: Option<FitnessKind>,
    /// --fitness texel: what the loss is over (the data and the objective's settings).
    #[command(flatten)]
    pub recipe: RecipeArgs,
    /// Fraction of --data held out (its loss is logged, never tuned on), by game.
    #[arg(long, default_value_t = 0.1)]
    pub valid_fraction: f64,
    /// Search each value only within this distance of its start (and its declared bounds);
    /// CLOP samples its whole box, so a narrow radius saves it games.
    #[arg(long, value_name = "R")]
    pub radius: Option<f64>,
    /// --fitness command: the program and its first arguments, split as a shell splits words.
    /// It is run once per game as `PROGRAM ARGS... <worker-id> <seed> <name1> <value1> ...` and
    /// must print W, L or D (the tuned side's result) on its last line.
    #[arg(long, value_name = "'PROGRAM ARGS...'")]
    pub command: Option<String>,
    /// --fitness command or engine: the parameters, in OpenBench's SPSA input format, one per
    /// line: `name, int|float, default, min, max, c_end, r_end` (for an engine, each name one of
    /// its UCI options).
    #[arg(long, value_name = "FILE")]
    pub space: Option<PathBuf>,
    /// --fitness command: further attempts at a game whose command failed; a game that fails
    /// every attempt is counted as failed and reported.
    #[arg(long, default_value_t = 2)]
    pub retries: u32,
    /// The budget in games for the game fitnesses (self-play, command).
    #[arg(long)]
    pub games: Option<u64>,
    /// Run folder [default: reports/<tuner>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the run in --out from its checkpoint.
    #[arg(long)]
    pub resume: bool,
    /// --fitness engine: the engine, its opponent and their options.
    #[command(flatten)]
    #[serde(flatten)]
    pub engine: EngineFitnessArgs,
    /// Game options (self-play and engine fitnesses) and --concurrency, --seed, --quiet for every
    /// fitness.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// The options of `--fitness engine` (flattened into every black-box tuner's options).
#[derive(clap::Args, Debug, Clone, Default, serde::Serialize)]
pub struct EngineFitnessArgs {
    /// --fitness engine: the UCI engine binary whose options --space names (a relative path is
    /// taken from the current directory).
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// --fitness engine: a fixed UCI option of --engine, `Name=Value` (repeatable), set on every
    /// side it plays.
    #[arg(long, value_name = "NAME=VALUE")]
    pub engine_option: Vec<String>,
    /// --fitness engine: play this engine binary instead of --engine at the space's defaults (no
    /// duels then: SPSA's plus and minus each play it).
    #[arg(long, value_name = "PATH")]
    pub opponent: Option<PathBuf>,
    /// --fitness engine: a UCI option of --opponent, `Name=Value` (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    pub opponent_option: Vec<String>,
}

impl TuneArgs {
    /// The settings these options give.
    pub fn settings(&self) -> TuneSettings {
        TuneSettings {
            params: self.params.clone(),
            search_params: self.search_params.clone(),
            only: self.only.clone(),
            fitness: self.fitness,
            recipe: self.recipe.choice(),
            valid_fraction: self.valid_fraction,
            radius: self.radius,
            command: self.command.clone(),
            space: self.space.clone(),
            retries: self.retries,
            out: self.out.clone(),
            resume: self.resume,
            engine: self.engine.settings(),
            play: self.play.settings(),
            // A struct of plain fields always serialises.
            game_options: serde_json::to_value(&self.play).expect("the game options serialise"),
        }
    }

    /// The run folder of `tool`'s run.
    pub fn out(&self, tool: &str) -> PathBuf {
        run_folder(self.out.as_deref(), tool)
    }

    /// The space, the fitness and the run folder; every error before anything runs.
    pub fn setup(&self, tool: &str, default_fitness: FitnessKind) -> Result<Setup> {
        self.settings().setup(tool, default_fitness)
    }
}

impl EngineFitnessArgs {
    pub fn settings(&self) -> EngineFitnessSettings {
        EngineFitnessSettings {
            engine: self.engine.clone(),
            engine_option: self.engine_option.clone(),
            opponent: self.opponent.clone(),
            opponent_option: self.opponent_option.clone(),
        }
    }
}
