//! What the black-box tuners (`tune pbil`, `clop`, `spsa`) share before their first step: the
//! options that choose what to tune (a params file and search constants chosen by glob, or an
//! OpenBench space file) and where scores come from (Texel loss, self-play games, a command, a UCI
//! engine's options), and the set-up built from them, with every error raised before anything
//! runs.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use whetstone::eval::EvalParamSet;
use whetstone::search::SearchParamSet;

use crate::fitness::command::CommandFitness;
use crate::fitness::engine::{self, EngineFitnessArgs};
use crate::fitness::selfplay::SelfPlay;
use crate::fitness::texel::TexelFitness;
use crate::fitness::tournament::Tournament;
use crate::fitness::Fitness;
use crate::model::recipe::{FitRecipe, RecipeChoice, ScoreK};
use crate::optim::space::Space;
use crate::play::args::PlayArgs;
use crate::play::limit::MoveLimit;
use crate::run::provenance::Provenance;
use crate::run::RunDir;

/// Nodes per move of the self-play fitness when no limit is given.
pub const DEFAULT_NODES: u64 = 5000;
/// The L2 pull of the black-box tuners' Texel fitness when neither the user nor the starting
/// file's recipe sets it: the best PBIL measured in games (docs/tuning.md), +54 Elo against the
/// start, where 0.0003 gained nothing and no pull lost badly.
pub const DEFAULT_L2: f64 = 0.001;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
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
    #[arg(long, value_enum)]
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

/// The data and objective of a Texel fit, for `tune texel` and the black-box tuners' Texel
/// fitness. Without --data, the run continues on the data and recipe the starting params file
/// records in its `[provenance]` (each option given still wins); with --data, the defaults.
#[derive(clap::Args, Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct RecipeArgs {
    /// Labelled positions (EPD with c9 results, `[1.0]` lines, `fen | result`, CSV; .gz too)
    /// [default: the data the starting file's provenance records, else
    /// datasets/whetstone-selfplay-113k.epd].
    #[arg(long, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// With no --data and the starting file's recorded data missing on this machine, tune on
    /// the bundled data with the defaults instead of stopping.
    #[arg(long)]
    pub data_fallback: bool,
    /// Train on targets blended from each position's game result and its search score (EPD `ce`,
    /// written by `tune datagen` and `tune dataset convert` from the games' move comments, or by
    /// `tune dataset rescore` from any engine's search): (1 - W) · result + W · σ(K · score), K
    /// fitted on the results first. 0 is results alone; positions without a score keep their
    /// result. The validation loss stays against the results, so runs with different W compare
    /// [default: the starting file's recipe, else 0].
    #[arg(long, value_name = "W")]
    pub score_weight: Option<f64>,
    /// The K that turns the search scores into targets: `eval`, the evaluation's K (fitted on
    /// the results), right for our own engine's scores; `fit`, fitted on the scores themselves
    /// against the results, for scores in another engine's centipawns [default: the starting
    /// file's recipe, else eval].
    #[arg(long, value_name = "K", value_parser = parse_score_k)]
    pub score_k: Option<ScoreK>,
    /// L2 pull toward the starting values: adds λ·Σ((w - w₀)/100)² to the loss being minimised
    /// (the logged losses stay the plain mean squared error); 0 turns it off [default: the
    /// starting file's recipe, else 0.003 for tune texel and 0.001 for the black-box tuners,
    /// each the best measured in games: docs/tuning.md].
    #[arg(long, value_name = "λ")]
    pub l2: Option<f64>,
    /// Smoothness prior: adds λ·Σ((w_a - w_b)/100)² over neighbouring squares of each board
    /// and neighbouring entries of each ordered list (--prior-terms), so a value the data barely
    /// sees follows its neighbours; values of those tables are then tuned whatever their
    /// coverage. 0 turns it off [default: the starting file's recipe, else 0].
    #[arg(long, value_name = "λ")]
    pub smooth: Option<f64>,
    /// Symmetry prior: adds μ·Σ((w_sq - w_mirror)/100)² over each board's squares and their
    /// mirrors across the d/e line (a1 and h1). 0 turns it off [default: the starting file's
    /// recipe, else 0].
    #[arg(long, value_name = "μ")]
    pub mirror: Option<f64>,
    /// The tables --smooth and --mirror cover, as globs over term names [default: the starting
    /// file's recipe, else pst.* mobility.* passed.* king.shield king.storm].
    #[arg(long, num_args = 1.., value_name = "GLOB")]
    pub prior_terms: Vec<String>,
    /// Fit on at most this many positions of the data: whole games, sampled evenly over the
    /// files (deterministic) [default: all; `tune pbil`: 150,000, so that 1,500 generations
    /// take minutes].
    #[arg(long, value_name = "N")]
    pub positions: Option<u64>,
    /// Leave values seen in fewer than this many (phase-weighted) training positions alone:
    /// rare entries otherwise fit noise [default: the starting file's recipe, else 1000].
    #[arg(long, value_name = "N")]
    pub min_coverage: Option<f64>,
}

/// `eval` or `fit`, as `--score-k` takes it.
fn parse_score_k(text: &str) -> std::result::Result<ScoreK, String> {
    text.parse()
}

impl RecipeArgs {
    /// What the user chose, for [`FitRecipe::resolve`].
    pub fn choice(&self) -> RecipeChoice {
        RecipeChoice {
            data: self.data.clone(),
            score_weight: self.score_weight,
            score_k: self.score_k,
            l2: self.l2,
            smooth: self.smooth,
            mirror: self.mirror,
            prior_terms: self.prior_terms.clone(),
            min_coverage: self.min_coverage,
            positions: self.positions,
            fall_back: self.data_fallback,
        }
    }
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

impl TuneArgs {
    pub fn out(&self, tool: &str) -> PathBuf {
        self.out.clone().unwrap_or_else(|| Path::new("reports").join(tool))
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
                let recipe = FitRecipe::resolve(&self.params, &self.recipe.choice(), DEFAULT_L2, tool)?;
                crate::dataset::check_files("--data", &recipe.data)?;
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
                Box::new(CommandFitness::new(command, space.clone(), self.play.concurrency(), self.retries)?)
            }
            FitnessKind::Engine => {
                let space_file = self.space.as_deref().expect("checked with the space above");
                let out = self.out(tool);
                if self.resume {
                    let identity = self.engine.identity(space_file, self.radius, &self.play)?;
                    engine::check_identity(&out, &identity, true)?;
                }
                let fitness = self.engine.fitness(&space, &self.play, Some(out.join(engine::FAILURE_LOG)))?;
                if !self.resume {
                    let identity = self.engine.identity(space_file, self.radius, &self.play)?;
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
        let mut settings = self.play.settings().or_else(|e| {
            if self.play.nodes.is_none() && self.play.depth.is_none() && self.play.tc.is_none() {
                let mut play = self.play.clone();
                play.nodes = Some(DEFAULT_NODES);
                play.settings()
            } else {
                Err(e)
            }
        })?;
        if let MoveLimit::Clock(_) = settings.limit {
            settings.hang_timeout = std::time::Duration::from_secs(60);
        }
        Ok(SelfPlay {
            space: space.clone(),
            eval: eval.clone(),
            search: search.clone(),
            settings,
            openings: self.play.openings()?.0,
            concurrency: self.play.concurrency(),
            hash_mb: self.play.hash.unwrap_or(8),
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::PathBuf;

    use clap::Parser;

    use super::*;

    /// Any command's arguments on their own, as clap parses them under `tune`.
    #[derive(Parser)]
    struct Cli<T: clap::Args> {
        #[command(flatten)]
        args: T,
    }

    /// A tuner's arguments for a test: `--params params/eval.toml --out OUT --quiet`, then `extra`.
    pub fn tuner_args<T: clap::Args>(out: &std::path::Path, extra: &[&str]) -> T {
        let params = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../params/eval.toml");
        let mut argv = vec![
            "tune".to_string(),
            "--params".into(),
            params.display().to_string(),
            "--out".into(),
            out.display().to_string(),
            "--quiet".into(),
        ];
        argv.extend(extra.iter().map(|s| s.to_string()));
        Cli::<T>::parse_from(argv).args
    }

    fn setup_error(extra: &[&str], kind: FitnessKind) -> String {
        let dir = std::env::temp_dir().join(format!("whetstone-bad-{}", std::process::id()));
        match tuner_args::<TuneArgs>(&dir, extra).setup("test", kind) {
            Ok(_) => panic!("{extra:?} was accepted"),
            Err(e) => format!("{e:#}"),
        }
    }

    #[test]
    fn bad_selections_spaces_and_commands_are_clear_errors() {
        let e = setup_error(&["--only", "tempo", "pst.nope*"], FitnessKind::Selfplay);
        assert!(e.contains("--only `pst.nope*` matches no tunable term"), "{e}");
        let e = setup_error(&["--fitness", "command", "--command", "true"], FitnessKind::Selfplay);
        assert!(e.contains("needs --space"), "{e}");
        let space = std::env::temp_dir().join(format!("whetstone-space-{}.txt", std::process::id()));
        std::fs::write(&space, "a, int, 1, 0, 5, 1, 0.002\nb, int, 1, 0\n").unwrap();
        let e = setup_error(
            &["--fitness", "command", "--command", "true", "--space", space.to_str().unwrap()],
            FitnessKind::Selfplay,
        );
        assert!(e.contains(":2:") && e.contains("expected 7"), "{e}");
        std::fs::write(&space, "a, int, 1, 0, 5, 1, 0.002\n").unwrap();
        let e =
            setup_error(&["--fitness", "command", "--space", space.to_str().unwrap()], FitnessKind::Selfplay);
        assert!(e.contains("needs --command"), "{e}");
        let e = setup_error(&["--search-params", space.to_str().unwrap()], FitnessKind::Selfplay);
        assert!(e.contains(space.to_str().unwrap()), "{e}");
        let data = small_dataset();
        let e = setup_error(
            &["--only", "nmp.base", "--fitness", "texel", "--data", data.to_str().unwrap()],
            FitnessKind::Texel,
        );
        assert!(e.contains("evaluation weights only"), "{e}");
        std::fs::remove_file(&space).ok();
    }

    /// The first 4,000 positions of the bundled TCEC set, written once per test process.
    pub fn small_dataset() -> PathBuf {
        static PATH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
        PATH.get_or_init(|| {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
            let text = std::fs::read_to_string(root.join("datasets/tcec-quiet-50k.epd")).unwrap();
            let lines: Vec<&str> = text.lines().take(4000).collect();
            let path = std::env::temp_dir().join(format!("whetstone-small-{}.epd", std::process::id()));
            std::fs::write(&path, lines.join("\n") + "\n").unwrap();
            path
        })
        .clone()
    }
}
