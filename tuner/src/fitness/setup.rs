//! What the black-box tuners (`tune pbil`, `clop`, `spsa`) share before their first step: the
//! settings that choose what to tune (a params file and search constants chosen by glob, or an
//! OpenBench space file) and where scores come from (Texel loss, self-play games, a command, a UCI
//! engine's options), and the set-up built from them, with every error raised before anything
//! runs.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use whetstone::eval::EvalParamSet;
use whetstone::search::SearchParamSet;

use crate::fitness::command::CommandFitness;
use crate::fitness::engine::{self, EngineFitnessSettings};
use crate::fitness::selfplay::SelfPlay;
use crate::fitness::texel::TexelFitness;
use crate::fitness::tournament::Tournament;
use crate::fitness::Fitness;
use crate::model::recipe::{FitRecipe, RecipeChoice};
use crate::optim::space::Space;
use crate::play::limit::MoveLimit;
use crate::play::runs::settings::MatchSettings;
use crate::run::provenance::Provenance;
use crate::run::RunDir;

/// Nodes per move of the self-play fitness when no limit is given.
pub const DEFAULT_NODES: u64 = 5000;
/// The L2 pull of the black-box tuners' Texel fitness when neither the user nor the starting
/// file's recipe sets it: the best PBIL measured in games (docs/tuning.md), +54 Elo against the
/// start, where 0.0003 gained nothing and no pull lost badly.
pub const DEFAULT_L2: f64 = 0.001;

/// Where a black-box tuner's scores come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum FitnessKind {
    /// The Texel loss over --data (evaluation weights only; milliseconds per candidate).
    Texel,
    /// Games of our engine in this process against the starting values, at --nodes/--tc.
    Selfplay,
    /// Any program by CLOP's connection-script contract (--command, --space).
    Command,
    /// PBIL only: each generation's individuals play each other in a small tournament (random
    /// pairings, a game pair each, as iCE and Maverick tuned), self-play at --nodes/--tc.
    Tournament,
    /// Games of a UCI engine (--engine) with the options named by --space set to the candidate's
    /// values, against itself at the space's defaults or --opponent, at --tc, --nodes or --depth.
    Engine,
}

impl FitnessKind {
    pub const ALL: [FitnessKind; 5] = [
        FitnessKind::Texel,
        FitnessKind::Selfplay,
        FitnessKind::Command,
        FitnessKind::Tournament,
        FitnessKind::Engine,
    ];

    /// The fitness's name, as `--fitness` takes it.
    pub fn name(self) -> &'static str {
        match self {
            FitnessKind::Texel => "texel",
            FitnessKind::Selfplay => "selfplay",
            FitnessKind::Command => "command",
            FitnessKind::Tournament => "tournament",
            FitnessKind::Engine => "engine",
        }
    }
}

impl std::fmt::Display for FitnessKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for FitnessKind {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<FitnessKind, String> {
        FitnessKind::ALL
            .into_iter()
            .find(|k| k.name() == text)
            .ok_or_else(|| format!("`{text}` is no fitness (texel, selfplay, command, tournament or engine)"))
    }
}

/// What a black-box tuner's run tunes and where its scores come from: what the tuners' shared
/// options resolve to (`cmd/args/tune.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSettings {
    /// Evaluation params file: starting values and bounds.
    pub params: PathBuf,
    /// Search constants; without `only`, these are what is tuned.
    pub search_params: Option<PathBuf>,
    /// Globs over the terms of both sets [default: every tunable evaluation weight, or every
    /// search constant when `search_params` is given].
    pub only: Vec<String>,
    /// [default: the tuner's own]
    pub fitness: Option<FitnessKind>,
    /// The Texel fitness's data and objective.
    pub recipe: RecipeChoice,
    /// Fraction of the data held out, by game.
    pub valid_fraction: f64,
    /// Search each value only within this distance of its start.
    pub radius: Option<f64>,
    /// The command fitness's program and first arguments, split as a shell splits words.
    pub command: Option<String>,
    /// The command or engine fitness's space (OpenBench's SPSA lines).
    pub space: Option<PathBuf>,
    /// Further attempts at a game whose command failed.
    pub retries: u32,
    /// Run folder [default: reports/<tuner>].
    pub out: Option<PathBuf>,
    /// Continue the run in the run folder from its checkpoint.
    pub resume: bool,
    pub engine: EngineFitnessSettings,
    /// How the game fitnesses play (and the threads, seed and progress display of every one).
    pub play: MatchSettings,
    /// The game options as the command line gave them (their serde form): a resumed engine-fitness
    /// run must have played with the same ones, and engine-fitness.json records them by flag.
    pub game_options: serde_json::Value,
}

/// A tuner's run folder: `out`, or reports/<tool>.
pub fn run_folder(out: Option<&Path>, tool: &str) -> PathBuf {
    out.map_or_else(|| Path::new("reports").join(tool), Path::to_path_buf)
}

/// What a tuner run starts from.
pub struct Setup {
    pub space: Space,
    pub eval: EvalParamSet,
    pub search: SearchParamSet,
    pub fitness: Box<dyn Fitness>,
    pub run: RunDir,
    /// Whether the space came from the params files (so the result is written back as params).
    pub from_params: bool,
    /// Selected values left as they are (seen in too few positions for the Texel fitness).
    pub frozen: Vec<String>,
    /// The Texel fitness's data and objective (None for the game fitnesses).
    pub recipe: Option<FitRecipe>,
}

impl Setup {
    /// The provenance of this run's result: `tool` from the params file `start`, with the Texel
    /// fitness's recipe.
    pub fn provenance(&self, tool: &str, start: &Path) -> Provenance {
        Provenance::of_run(tool, self.run.path(), start, self.recipe.as_ref().map(FitRecipe::record))
    }
}

impl TuneSettings {
    pub fn out(&self, tool: &str) -> PathBuf {
        run_folder(self.out.as_deref(), tool)
    }

    /// The space, the fitness and the run folder; every error before anything runs.
    pub fn setup(&self, tool: &str, default_fitness: FitnessKind) -> Result<Setup> {
        let kind = self.fitness.unwrap_or(default_fitness);
        if kind == FitnessKind::Tournament && tool != "pbil" {
            bail!(
                "--fitness tournament ranks a population (tune pbil); `tune {tool}` compares candidates \
                 with the start: use --fitness selfplay"
            );
        }
        if self.resume {
            crate::run::check_resumable(&self.out(tool))?;
        }
        let recipe = match kind {
            FitnessKind::Texel => {
                let recipe = FitRecipe::resolve(&self.params, &self.recipe, DEFAULT_L2, tool)?;
                crate::dataset::reading::check_files("--data", &recipe.data)?;
                Some(recipe)
            }
            _ if !self.recipe.data.is_empty() => bail!("--data belongs to --fitness texel"),
            _ => None,
        };
        if kind != FitnessKind::Engine && self.engine.given() {
            bail!("--engine, --engine-option, --opponent and --opponent-option belong to --fitness engine");
        }
        // A --space run tunes another program's values: our params files play no part (and need
        // not be where the default --params points, when it runs outside the repository).
        let space_run = matches!(kind, FitnessKind::Command | FitnessKind::Engine);
        let eval = if space_run { EvalParamSet::baked() } else { EvalParamSet::load(&self.params)? };
        let search = match &self.search_params {
            Some(path) if !space_run => SearchParamSet::load(path)?,
            _ => SearchParamSet::baked(),
        };
        let (mut space, from_params) = if space_run {
            let Some(path) = &self.space else {
                let name = if kind == FitnessKind::Command { "command" } else { "engine" };
                bail!("--fitness {name} needs --space FILE (OpenBench SPSA lines)")
            };
            let text =
                std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            (Space::parse_openbench(&text, &path.display().to_string())?, false)
        } else {
            (self.select(&eval, &search)?, true)
        };
        if let Some(r) = self.radius {
            if r <= 0.0 {
                bail!("--radius must be positive");
            }
            for d in &mut space.dims {
                (d.min, d.max) = (d.min.max(d.start - r), d.max.min(d.start + r));
            }
        }
        let mut frozen = Vec::new();
        let fitness: Box<dyn Fitness> = match kind {
            FitnessKind::Texel => {
                let recipe = recipe.as_ref().expect("resolved above for the Texel fitness");
                eprintln!("Texel loss: {}", recipe.describe());
                let mut texel = TexelFitness::load(
                    &eval,
                    &space,
                    recipe,
                    self.valid_fraction,
                    self.play.seed,
                    !self.play.quiet,
                )?;
                let (covered, rare) = texel.keep_covered(recipe.min_coverage, &eval.value_names());
                if covered.dims.is_empty() {
                    bail!("every selected value is below --min-coverage {}", recipe.min_coverage);
                }
                space = covered;
                frozen = rare;
                Box::new(texel)
            }
            FitnessKind::Selfplay => Box::new(self.selfplay(&space, &eval, &search)?),
            FitnessKind::Tournament => {
                Box::new(Tournament { source: self.selfplay(&space, &eval, &search)? })
            }
            FitnessKind::Command => {
                let Some(command) = &self.command else {
                    bail!("--fitness command needs --command 'PROGRAM ARGS...'")
                };
                Box::new(CommandFitness::new(command, space.clone(), self.play.concurrency, self.retries)?)
            }
            FitnessKind::Engine => {
                let space_file = self.space.as_deref().expect("checked with the space above");
                let out = self.out(tool);
                if self.resume {
                    let identity = self.engine.identity(space_file, self.radius, &self.game_options)?;
                    engine::check_identity(&out, &identity, true)?;
                }
                let fitness = self.engine.fitness(&space, &self.play, Some(out.join(engine::FAILURE_LOG)))?;
                if !self.resume {
                    let identity = self.engine.identity(space_file, self.radius, &self.game_options)?;
                    engine::record_identity(&RunDir::create(&out)?, &identity)?;
                }
                Box::new(fitness)
            }
        };
        let run = RunDir::create(&self.out(tool))?;
        Ok(Setup { space, eval, search, fitness, run, from_params, frozen, recipe })
    }

    /// The values to tune: --only globs over both sets' term names; each glob must match.
    fn select(&self, eval: &EvalParamSet, search: &SearchParamSet) -> Result<Space> {
        let (eval_slots, search_slots) = if self.only.is_empty() {
            if self.search_params.is_some() {
                (vec![], search.select(&[])?)
            } else {
                (eval.select(&[])?, vec![])
            }
        } else {
            for glob in &self.only {
                if eval.select(&[glob])?.is_empty() && search.select(&[glob])?.is_empty() {
                    bail!(
                        "--only `{glob}` matches no tunable term of {} or the search constants{}",
                        self.params.display(),
                        self.search_params
                            .as_ref()
                            .map(|p| format!(" ({})", p.display()))
                            .unwrap_or_default()
                    );
                }
            }
            let globs: Vec<&str> = self.only.iter().map(String::as_str).collect();
            (eval.select(&globs)?, search.select(&globs)?)
        };
        let space = Space::from_sets(eval, &eval_slots, Some((search, &search_slots)));
        if space.dims.is_empty() {
            bail!("nothing to tune: no tunable values are selected");
        }
        Ok(space)
    }

    fn selfplay(&self, space: &Space, eval: &EvalParamSet, search: &SearchParamSet) -> Result<SelfPlay> {
        let mut settings = self.play.game_settings_at(self.play.limit.resolve_or_nodes(DEFAULT_NODES)?);
        if let MoveLimit::Clock(_) = settings.limit {
            settings.hang_timeout = std::time::Duration::from_secs(60);
        }
        Ok(SelfPlay {
            space: space.clone(),
            eval: eval.clone(),
            search: search.clone(),
            settings,
            openings: self.play.openings()?.0,
            concurrency: self.play.concurrency,
            hash_mb: self.play.hash_mb.unwrap_or(8),
        })
    }
}

#[cfg(test)]
#[path = "setup_tests.rs"]
mod tests;
