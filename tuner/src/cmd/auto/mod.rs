//! `tune auto`: the whole loop, unattended, in one run folder. A cycle runs the chosen stages in
//! order (by default: datagen with the current values, Texel on every position generated so far,
//! SPSA of the search constants over self-play); every tuning stage ends with its own SPRT
//! against the values it started from, and only a passed stage's values go on. Cycles repeat
//! while the budget lasts; `--bake` then bakes what passed.
//!
//! Each stage is the command a user would type (`tune datagen`, `dataset rescore`, `texel`, `spsa`,
//! `pbil`), parsed from a command line `stages.rs` builds and recorded with it, in its own folder
//! under the run (`cycle-1/texel`, ...): a stage's folder is an ordinary run folder that `tune
//! report` reads, and its command line reruns it by hand. This is the one command built from commands rather
//! than from the library's layers: a stage *is* a run of that command, and composing the commands
//! keeps one code path for a stage typed by hand and one run by the loop.
//!
//! Resumable at any point: `auto.json` records, after each stage and before the next starts, what
//! the next stage starts from and the stage in progress; `--resume` continues that stage with its
//! own `--resume` (a datagen stage keeps its finished pairs, a tuner its checkpoint, a
//! verification its journal) and the loop after it. `--resume --hours H` with a larger H extends
//! the budget.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use whetstone::eval::EvalParamSet;
use whetstone::search::SearchParamSet;

mod engine;
mod ledger;
mod record;
mod stages;
mod texel_plan;

use crate::cmd::args::parse_args;
use crate::cmd::args::play::PlayArgs;
use crate::cmd::args::verify::{VerifyArgs, VerifyGames};
use crate::export::bake::{bake, Bake};
use crate::export::play_verification;
use crate::play::runs::datagen::POSITIONS_FILE;
use crate::run::RunDir;
use crate::verify::{Contenders, Standing, VerifySettings, CLOCK};
use record::{describe, finished_stage, load_state, save, write_results, State};
use stages::{budget, expected_seconds, parse_stage, resumable, run_stage, spsa_only, stage_words};

/// A stage of a cycle.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Self-play games of the current values: labelled positions for the Texel stages.
    Datagen,
    /// The last datagen stage's positions scored by a stronger UCI engine (--rescore-engine),
    /// for the Texel stages after it: they learn that engine's judgement (`tune texel
    /// --score-weight`) instead of our own search's at the games' nodes.
    Rescore,
    /// Texel tuning of the evaluation on every position the run generated so far (and --data).
    Texel,
    /// SPSA of the search constants over self-play (what no dataset can teach).
    Spsa,
    /// PBIL over self-play of the evaluation terms named by --pbil-only (terms Texel cannot fit).
    Pbil,
}

impl Stage {
    fn name(self) -> &'static str {
        match self {
            Stage::Datagen => "datagen",
            Stage::Rescore => "rescore",
            Stage::Texel => "texel",
            Stage::Spsa => "spsa",
            Stage::Pbil => "pbil",
        }
    }

    fn tunes(self) -> bool {
        !matches!(self, Stage::Datagen | Stage::Rescore)
    }

    /// The `tune` subcommand that runs the stage.
    fn command(self) -> &'static str {
        match self {
            Stage::Rescore => "dataset rescore",
            stage => stage.name(),
        }
    }
}

/// Nodes per move of the stages' verifications unless --verify-tc is given.
const VERIFY_NODES: &str = "5000";

/// Options of `tune auto`.
#[derive(clap::Args, Debug, Clone, Serialize)]
#[command(
    mut_arg("verify_nodes", |a| a.default_value(VERIFY_NODES)
        .help("Nodes per move of each stage's verification, unless --verify-tc is given")),
    mut_arg("verify_tc", |a| a.help("Clock of each stage's verification instead of --verify-nodes, \
        seconds + increment per move (3+0.03: about 12 games a minute on 2 cores)")),
)]
pub struct AutoArgs {
    /// Evaluation params file the loop starts from.
    #[arg(long, default_value = "params/eval.toml")]
    pub params: PathBuf,
    /// Search constants the loop starts from (params/search.toml format) [default: the built-in
    /// ones].
    #[arg(long, value_name = "FILE")]
    pub search_params: Option<PathBuf>,
    /// The budget, in hours of work over every sitting of the run. A stage starts only when the
    /// time it took last (or, before it has run, an estimate from its games and nodes) fits what
    /// is left, so a run ends within about one stage of it.
    #[arg(long, value_name = "H")]
    pub hours: f64,
    /// The stages of a cycle, in order, comma-separated; cycles repeat while the budget lasts.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "datagen,texel,spsa")]
    pub stages: Vec<Stage>,
    /// At most this many cycles [default: as many as the budget allows].
    #[arg(long, value_name = "N")]
    pub cycles: Option<usize>,
    /// Labelled positions every Texel stage reads beside the run's own.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// Games of each datagen stage (about 50 positions kept per game at 5,000 nodes).
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub datagen_games: u64,
    /// Nodes per move of the datagen games.
    #[arg(long, default_value_t = 5000, value_name = "N")]
    pub datagen_nodes: u64,
    /// The UCI engine that scores each rescore stage's positions (Stockfish, say: a stronger
    /// teacher than our own search at the games' nodes; docs/tuning.md, "A stronger teacher").
    #[arg(long, value_name = "FILE")]
    pub rescore_engine: Option<PathBuf>,
    /// Search depth per position of the rescore stages.
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub rescore_depth: u32,
    /// Epochs of each Texel stage. Its other options: on a start that records how it was tuned
    /// (`[provenance]`), that recipe and its data beside the run's, and the first Texel stage
    /// tunes the start's new terms (every value zero) alone; else `tune texel`'s defaults.
    #[arg(long, default_value_t = 300, value_name = "N")]
    pub texel_epochs: usize,
    /// Games of each SPSA or PBIL stage.
    #[arg(long, default_value_t = 4000, value_name = "N")]
    pub tune_games: u64,
    /// Nodes per move of the SPSA and PBIL games, unless --tune-tc gives a clock.
    #[arg(long, default_value_t = 5000, value_name = "N")]
    pub tune_nodes: u64,
    /// Clock of the SPSA and PBIL games instead of --tune-nodes, seconds + increment per move
    /// (2+0.02: about 20 games a minute on 2 cores). Search constants tuned at fixed nodes did not
    /// always hold at a clock (a stage's values were +30 at 5,000 nodes and -12 at 3 s + 0.03 s),
    /// and the time constants (`time.*`) can only be tuned at one.
    #[arg(long, value_name = "TC")]
    pub tune_tc: Option<String>,
    /// Search constants the SPSA stage tunes [default: all but the features switched off and the offsets at 0,
    /// the on/off switches (0 to 1) and `time.*`, which games at fixed nodes cannot measure; `time.*` too with
    /// --tune-tc].
    #[arg(long, num_args = 1.., value_name = "GLOB")]
    pub spsa_only: Vec<String>,
    /// Evaluation terms the PBIL stage tunes over self-play (needed by the pbil stage).
    #[arg(long, num_args = 1.., value_name = "GLOB")]
    pub pbil_only: Vec<String>,
    /// More options of every datagen stage, as `tune datagen` takes them (`--datagen-args
    /// '--random-plies 8'`).
    #[arg(long, value_name = "'OPTIONS'", allow_hyphen_values = true)]
    pub datagen_args: Option<String>,
    /// More options of every rescore stage, as `tune dataset rescore` takes them
    /// (`--rescore-args '--engine-option Threads=1 --hash 16'`).
    #[arg(long, value_name = "'OPTIONS'", allow_hyphen_values = true)]
    pub rescore_args: Option<String>,
    /// More options of every Texel stage (`--texel-args '--l2 0.001 --only pst.*'`).
    #[arg(long, value_name = "'OPTIONS'", allow_hyphen_values = true)]
    pub texel_args: Option<String>,
    /// More options of every SPSA stage (`--spsa-args '--r-end 0.01'`).
    #[arg(long, value_name = "'OPTIONS'", allow_hyphen_values = true)]
    pub spsa_args: Option<String>,
    /// More options of every PBIL stage.
    #[arg(long, value_name = "'OPTIONS'", allow_hyphen_values = true)]
    pub pbil_args: Option<String>,
    /// Each tuning stage's verification: an SPRT against the values before it, at fixed nodes by
    /// default (an unattended loop shares its machine, and a verdict at fixed nodes does not move
    /// with the load); --verify-tc plays at a clock instead (about 12 games a minute at 3+0.03 on
    /// 2 cores).
    #[command(flatten)]
    pub verify: VerifyGames,
    /// At the end, bake the values of the passed stages into the engine build (src/eval/baked.rs,
    /// src/search/baked.rs, engine.toml); with no stage passed the build is left untouched.
    #[arg(long)]
    pub bake: bool,
    /// The repository whose engine build --bake writes (where engine.toml is).
    #[arg(long, default_value = ".", hide = true)]
    pub root: PathBuf,
    /// Run folder: auto.json, log.csv, result.json, the stages' folders, the report.
    #[arg(long, default_value = "reports/auto")]
    pub out: PathBuf,
    /// Continue the run in --out where it stopped.
    #[arg(long)]
    pub resume: bool,
    /// Worker threads of every stage [default: the number of cores].
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Seed of the first cycle; cycle n uses seed + n - 1 (new games, new openings order).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hide progress bars.
    #[arg(long, short)]
    pub quiet: bool,
    /// The loop on another UCI engine (`--engine`).
    #[command(flatten)]
    pub external: engine::AutoEngineArgs,
}

/// The values the run started from, in its folder.
const START_EVAL: &str = "start-eval.toml";
const START_SEARCH: &str = "start-search.toml";

impl AutoArgs {
    /// A game-tuning stage's budget and verification (in process or on an engine): its games
    /// at fixed nodes or at --tune-tc's clock, then the SPRT.
    fn tuning_words(&self) -> Vec<String> {
        let mut words = vec!["--games".to_string(), self.tune_games.to_string()];
        match &self.tune_tc {
            Some(tc) => words.extend(["--tc".into(), tc.clone()]),
            None => words.extend(["--nodes".into(), self.tune_nodes.to_string()]),
        }
        words.extend(self.verify.words());
        words
    }
}

pub fn run(args: &AutoArgs) -> Result<()> {
    run_sitting(args, None)
}

/// The loop, stopping (as Ctrl-C stops it, resumable) once `halt_after` stages have finished in
/// this sitting: how the tests end a sitting at a chosen point.
fn run_sitting(args: &AutoArgs, halt_after: Option<usize>) -> Result<()> {
    // A resumed run starts from the values it first started from, kept in its folder.
    let (eval_file, search_file) = (args.out.join(START_EVAL), args.out.join(START_SEARCH));
    let start_eval = if args.resume && eval_file.is_file() {
        EvalParamSet::load(&eval_file)?
    } else if args.external.engine.is_some() && !args.params.is_file() {
        // An --engine run tunes none of our params: the built-in ones stand in, unused.
        EvalParamSet::baked()
    } else {
        EvalParamSet::load(&args.params)?
    };
    let start_search = match &args.search_params {
        _ if args.resume && search_file.is_file() => SearchParamSet::load(&search_file)?,
        Some(path) => SearchParamSet::load(path)?,
        None => SearchParamSet::baked(),
    };
    check(args, &start_search)?;
    if !args.resume {
        let first = expected_seconds(args, &State::start(&args.params, &args.params, &args.stages), 0);
        if first > budget(args) {
            bail!(
                "--hours {} ({:.0} minutes) cannot fit one stage: the {} stage is expected to take about \
                 {:.0} minutes here (raise --hours, or lower the stage's games)",
                args.hours,
                budget(args) / 60.0,
                args.stages[0].name(),
                first / 60.0
            );
        }
    }
    let run = RunDir::create(&args.out)?;
    let mut state = if args.resume {
        let mut state = load_state(&run)?;
        if state.plan.is_empty() {
            state.plan = args.stages.clone();
        }
        if state.plan != args.stages {
            bail!(
                "--resume: the run's stages are {}; --stages must name the same",
                state.plan.iter().map(|s| s.name()).collect::<Vec<_>>().join(",")
            );
        }
        state
    } else {
        // The start's values, in the run folder: every stage names files, and the run stays
        // readable when params/ changes later.
        run.write(START_EVAL, &start_eval.to_toml())?;
        run.write(START_SEARCH, &start_search.to_toml())?;
        State::start(&run.file(START_EVAL), &run.file(START_SEARCH), &args.stages)
    };
    state.ended = None;
    run.write_meta("auto", args, args.resume, None)?;
    let stop = crate::run::interrupt_flag();
    let mut finished_here = 0;
    loop {
        if halt_after == Some(finished_here) {
            save(&run, &state)?;
            println!("halted after {finished_here} stages: tune auto --resume continues");
            return Ok(());
        }
        if args.cycles.is_some_and(|max| state.cycle > max) {
            state.ended = Some(format!("the --cycles limit ({}) reached", state.cycle - 1));
            break;
        }
        if !state.started {
            let need = expected_seconds(args, &state, state.next);
            if state.seconds + need > budget(args) {
                state.ended = Some(format!(
                    "budget: {:.0} of {:.0} minutes used, and the next stage ({}) is expected to take {:.0}",
                    state.seconds / 60.0,
                    budget(args) / 60.0,
                    args.stages[state.next].name(),
                    need / 60.0
                ));
                break;
            }
        }
        let resume = state.started;
        state.started = true;
        save(&run, &state)?;
        let stage = args.stages[state.next];
        let dir = args.out.join(format!("cycle-{}", state.cycle)).join(stage.name());
        let search = SearchParamSet::load(&state.search)?;
        if stage == Stage::Spsa && args.external.engine.is_some() {
            engine::write_space(args, &state, &dir)?;
        }
        let words = stage_words(args, &state, stage, &dir, &search, resume && resumable(stage, &dir))?;
        let command =
            format!("tune {} {}", stage.command(), shlex::try_join(words.iter().map(String::as_str))?);
        println!(
            "\n== cycle {}, {} stage ({:.0} of {:.0} minutes used)",
            state.cycle,
            stage.name(),
            state.seconds / 60.0,
            budget(args) / 60.0
        );
        println!("{command}");
        if stage == Stage::Texel && args.external.engine.is_none() {
            if let Some(line) = texel_plan::TexelPlan::of(args, &state)?.describe() {
                println!("{line}");
            }
        }
        let sitting = Instant::now();
        let result = run_stage(stage, &words);
        let elapsed = sitting.elapsed().as_secs_f64();
        state.seconds += elapsed;
        if stop.load(Ordering::Relaxed) {
            state.partial_seconds += elapsed;
            save(&run, &state)?;
            println!(
                "interrupted in cycle {}, {} stage: tune auto --resume --out {} continues it (nothing finished is lost)",
                state.cycle,
                stage.name(),
                args.out.display()
            );
            return Ok(());
        }
        if let Err(e) = result {
            state.partial_seconds += elapsed;
            save(&run, &state)?;
            return Err(e.context(format!(
                "cycle {}, {} stage (in {}); tune auto --resume continues from it",
                state.cycle,
                stage.name(),
                dir.display()
            )));
        }
        let seconds = state.partial_seconds + elapsed;
        let record = finished_stage(&mut state, stage, &dir, command, seconds)?;
        println!("{}", describe(&record));
        state.stages.push(record);
        finished_here += 1;
        (state.started, state.partial_seconds) = (false, 0.0);
        state.next += 1;
        if state.next == args.stages.len() {
            (state.next, state.cycle) = (0, state.cycle + 1);
        }
        save(&run, &state)?;
        write_results(&run, &state, &start_eval, &start_search, None)?;
    }
    finish(args, &run, &mut state, &start_eval, &start_search)
}

/// Every check that needs no work, before any starts.
fn check(args: &AutoArgs, start_search: &SearchParamSet) -> Result<()> {
    if !(args.hours > 0.0 && args.hours.is_finite()) {
        bail!("--hours must be a positive number of hours");
    }
    if args.stages.is_empty() {
        bail!("--stages names no stage");
    }
    if args.cycles == Some(0) {
        bail!("--cycles must be at least 1");
    }
    crate::dataset::reading::check_files("--data", &args.data)?;
    let first_texel = args.stages.iter().position(|&s| s == Stage::Texel);
    let first_datagen = args.stages.iter().position(|&s| s == Stage::Datagen);
    if let Some(t) = first_texel {
        if args.data.is_empty() && first_datagen.is_none_or(|d| d > t) {
            bail!("the texel stage needs positions: a datagen stage before it, or --data FILE");
        }
    }
    if let Some(r) = args.stages.iter().position(|&s| s == Stage::Rescore) {
        match &args.rescore_engine {
            None => bail!(
                "the rescore stage needs --rescore-engine FILE: the UCI engine that scores the positions"
            ),
            Some(engine) if !engine.is_file() => {
                bail!("--rescore-engine {}: no such file", engine.display())
            }
            Some(_) => {}
        }
        if first_datagen.is_none_or(|d| d > r) {
            bail!("the rescore stage scores the positions of a datagen stage before it in --stages");
        }
    }
    if args.rescore_engine.is_some() && !args.stages.contains(&Stage::Rescore) {
        bail!("--rescore-engine scores the rescore stages' positions: add rescore after datagen in --stages");
    }
    if args.stages.contains(&Stage::Pbil) && args.pbil_only.is_empty() {
        bail!("the pbil stage needs --pbil-only GLOB...: the evaluation terms it tunes over self-play");
    }
    if let Some(binary) = &args.external.engine {
        engine::check(args, binary)?;
    } else if args.stages.contains(&Stage::Spsa) && spsa_only(args, start_search).is_empty() {
        bail!("the spsa stage has no search constant to tune");
    }
    if [args.datagen_games, args.tune_games].contains(&0) || args.texel_epochs == 0 {
        bail!("--datagen-games, --tune-games and --texel-epochs must be at least 1");
    }
    // The stages' own checks of the options passed through (the SPRT's bounds, the clock).
    let verify: VerifyArgs = parse_args(&args.verify.words())?;
    verify.settings()?;
    // Every stage's command line parses, with the --<stage>-args given.
    let mut state =
        State::start(&args.params, args.search_params.as_deref().unwrap_or(&args.params), &args.stages);
    state.positions.push(args.out.join("cycle-1").join("datagen").join(POSITIONS_FILE));
    for &stage in &args.stages {
        let words = stage_words(args, &state, stage, &args.out, start_search, false)?;
        parse_stage(stage, &words).with_context(|| format!("the {} stage's options", stage.name()))?;
    }
    if args.resume {
        let path = args.out.join("auto.json");
        if !path.is_file() {
            bail!("--resume: no auto.json in {} (no tune auto run to resume there)", args.out.display());
        }
    }
    Ok(())
}

/// The loop's end: the final values beside the start's, the report (the stages, the cumulative
/// curve, the tables that changed), and with --bake the build baked when a stage passed.
fn finish(
    args: &AutoArgs,
    run: &RunDir,
    state: &mut State,
    start_eval: &EvalParamSet,
    start_search: &SearchParamSet,
) -> Result<()> {
    save(run, state)?;
    let eval = EvalParamSet::load(&state.eval)?;
    let search = SearchParamSet::load(&state.search)?;
    run.write("tuned.toml", &eval.to_toml())?;
    run.write("search.toml", &search.to_toml())?;
    let kept = state.stages.iter().filter(|r| r.kept).count();
    let mut clock_verdict = None;
    let baked = if args.bake {
        if kept == 0 {
            eprintln!("not baked: no stage passed its SPRT; the engine build is untouched");
            Some(false)
        } else if !clock_confirms(
            args,
            run,
            (start_eval, start_search),
            (&eval, &search),
            &mut clock_verdict,
        )? {
            Some(false)
        } else {
            bake(&Bake {
                params: (eval.values() != start_eval.values()).then(|| run.file("tuned.toml")),
                search_params: (search.values() != start_search.values()).then(|| run.file("search.toml")),
                root: args.root.clone(),
                toml: run.file("baked-eval.toml"),
                search_toml: run.file("baked-search.toml"),
                no_build: false,
            })?;
            Some(true)
        }
    } else {
        None
    };
    if args.external.engine.is_some() {
        engine::write_options(run, state)?;
    }
    let mut result = write_results(run, state, start_eval, start_search, baked)?;
    if let Some(verdict) = &clock_verdict {
        let verdict = serde_json::to_value(verdict)?;
        run.add_result("clock_verdict", &verdict)?;
        result["clock_verdict"] = verdict;
    }
    run.write_meta("auto", args, true, Some(result))?;
    let clock = clock_verdict.as_ref().map(|v| (v, run, (&eval, &search)));
    log_tests(args, run, state, clock, baked == Some(true))?;
    crate::export::write_report(run, &eval, Some(start_eval.set()));
    println!(
        "\n{} stages in {:.1} hours; {}",
        state.stages.len(),
        state.seconds / 3600.0,
        state.ended.as_deref().unwrap_or("")
    );
    for record in &state.stages {
        println!("  {}", describe(record));
    }
    let last = state.stages.last();
    let values = if args.external.engine.is_some() {
        format!("the engine's options in {}", run.file("options.txt").display())
    } else {
        format!("values in {} and {}", run.file("tuned.toml").display(), run.file("search.toml").display())
    };
    println!(
        "{kept} stages kept: {:+.1} ± {:.1} Elo cumulative (the sum of the kept stages' SPRT estimates); {values}",
        last.map_or(0.0, |r| r.cumulative_elo),
        last.map_or(0.0, |r| r.cumulative_error),
    );
    Ok(())
}

/// The run's SPRTs as rows of a tests table: in the run folder's `tests.md`, and with `--bake`
/// in the repository's `reports/tests.md` too, where a hand-made change's test is listed.
fn log_tests(
    args: &AutoArgs,
    run: &RunDir,
    state: &State,
    clock: Option<(&crate::verify::Verdict, &RunDir, (&EvalParamSet, &SearchParamSet))>,
    baked: bool,
) -> Result<()> {
    let build = ledger::Build::of(&args.root, args.external.engine.is_none());
    let rows = ledger::rows(&state.stages, &build, clock, baked)?;
    if rows.is_empty() {
        return Ok(());
    }
    ledger::write_run_table(run, &rows)?;
    let table = args.root.join(ledger::TABLE);
    if !args.bake || !table.is_file() {
        return Ok(());
    }
    // The bake is done: a table that cannot take the rows costs a warning, not the run.
    match ledger::insert_rows(&table, &rows) {
        Ok(numbers) if !numbers.is_empty() => {
            eprintln!("the loop's tests are rows {numbers:?} of {}", table.display())
        }
        Ok(_) => {}
        Err(e) => eprintln!(
            "warning: the loop's tests were not added to {} ({e:#}); they are in {}",
            table.display(),
            run.file("tests.md").display()
        ),
    }
    Ok(())
}

/// `--bake` bakes only what passed at a clock: stages verified at a clock (`--verify-tc`) did;
/// stages verified at fixed nodes only screened, so the final values play the start in an SPRT
/// at 3+0.03 first (in `verify-clock/`, resumable), and only a pass bakes.
fn clock_confirms(
    args: &AutoArgs,
    run: &RunDir,
    (start_eval, start_search): (&EvalParamSet, &SearchParamSet),
    (eval, search): (&EvalParamSet, &SearchParamSet),
    played: &mut Option<crate::verify::Verdict>,
) -> Result<bool> {
    if args.verify.verify_tc.is_some() {
        return Ok(true);
    }
    let clock = args.verify.confirm_tc.as_deref().unwrap_or(CLOCK);
    eprintln!(
        "the kept stages passed screens at fixed nodes; --bake needs a pass at a clock, so the final values play the start at {clock}"
    );
    let contenders = Contenders {
        start_eval: start_eval.clone(),
        start_search: start_search.clone(),
        eval: (eval.values() != start_eval.values()).then(|| eval.clone()),
        search: (search.values() != start_search.values()).then(|| search.clone()),
    };
    let settings = VerifySettings { first: Some(args.verify.confirmation()?), confirm: None, bake: true };
    let mut play = PlayArgs::defaults();
    (play.concurrency, play.seed, play.quiet) = (args.concurrency, args.seed, args.quiet);
    let verdict = play_verification(run, &contenders.into(), &settings, &play.settings(), true)?;
    println!("{}", verdict.lines());
    *played = Some(verdict.clone());
    let passed = Standing::Verified(verdict);
    if !passed.bakeable() {
        eprintln!("not baked: the final values {}; the engine build is untouched", passed.describe());
    }
    Ok(passed.bakeable())
}

#[cfg(test)]
mod tests;
