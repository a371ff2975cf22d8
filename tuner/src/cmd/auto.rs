//! `tune auto`: the whole loop, unattended, in one run folder. A cycle runs the chosen stages in
//! order (by default: datagen with the current values, Texel on every position generated so far,
//! SPSA of the search constants over self-play); every tuning stage ends with its own SPRT
//! against the values it started from, and only a passed stage's values go on. Cycles repeat
//! while the budget lasts; `--bake` then bakes what passed.
//!
//! Each stage is the command a user would type (`tune datagen`, `texel`, `spsa`, `pbil`), parsed
//! from a command line this file builds and recorded with it, in its own folder under the run
//! (`cycle-1/texel`, ...): a stage's folder is an ordinary run folder that `tune report` reads,
//! and its command line reruns it by hand. This is the one command built from commands rather
//! than from the library's layers: a stage *is* a run of that command, and composing the commands
//! keeps one code path for a stage typed by hand and one run by the loop.
//!
//! Resumable at any point: `auto.json` records, after each stage and before the next starts, what
//! the next stage starts from and the stage in progress; `--resume` continues that stage with its
//! own `--resume` (a datagen stage keeps its finished pairs, a tuner its checkpoint, a
//! verification its journal) and the loop after it. `--resume --hours H` with a larger H extends
//! the budget.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use whetstone::params::{EvalParamSet, SearchParamSet};

use super::{datagen, pbil, spsa, texel};
use crate::export::bake::{bake, Bake};
use crate::export::verify::{VerifyArgs, VerifyGames};
use crate::play::datagen::POSITIONS_FILE;
use crate::run::{parse_args, RunDir};

/// A stage of a cycle.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Self-play games of the current values: labelled positions for the Texel stages.
    Datagen,
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
            Stage::Texel => "texel",
            Stage::Spsa => "spsa",
            Stage::Pbil => "pbil",
        }
    }

    fn tunes(self) -> bool {
        self != Stage::Datagen
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
    /// Games of each datagen stage (about 26 positions kept per game at 5,000 nodes).
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub datagen_games: u64,
    /// Nodes per move of the datagen games.
    #[arg(long, default_value_t = 5000, value_name = "N")]
    pub datagen_nodes: u64,
    /// Epochs of each Texel stage (its other options are `tune texel`'s defaults, the best
    /// measured recipe).
    #[arg(long, default_value_t = 300, value_name = "N")]
    pub texel_epochs: usize,
    /// Games of each SPSA or PBIL stage.
    #[arg(long, default_value_t = 4000, value_name = "N")]
    pub tune_games: u64,
    /// Nodes per move of the SPSA and PBIL games.
    #[arg(long, default_value_t = 5000, value_name = "N")]
    pub tune_nodes: u64,
    /// Search constants the SPSA stage tunes [default: all but `time.*`, which games at fixed
    /// nodes cannot measure].
    #[arg(long, num_args = 1.., value_name = "GLOB")]
    pub spsa_only: Vec<String>,
    /// Evaluation terms the PBIL stage tunes over self-play (needed by the pbil stage).
    #[arg(long, num_args = 1.., value_name = "GLOB")]
    pub pbil_only: Vec<String>,
    /// More options of every datagen stage, as `tune datagen` takes them (`--datagen-args
    /// '--random-plies 8'`).
    #[arg(long, value_name = "'OPTIONS'", allow_hyphen_values = true)]
    pub datagen_args: Option<String>,
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
}

/// The loop's checkpoint (`auto.json`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct State {
    /// The stages of every cycle (--stages).
    #[serde(default)]
    plan: Vec<Stage>,
    /// The values the next stage starts from: the start's, or the last passed stage's.
    eval: PathBuf,
    search: PathBuf,
    /// The next stage: its cycle (from 1) and its place in --stages.
    cycle: usize,
    next: usize,
    /// Whether the next stage had started (its folder holds a run to resume).
    started: bool,
    /// Seconds of work over every sitting, and those of the next stage's earlier sittings.
    seconds: f64,
    partial_seconds: f64,
    /// The datagen stages' positions.
    positions: Vec<PathBuf>,
    stages: Vec<StageRecord>,
    /// Why the loop ended (None while it runs).
    ended: Option<String>,
}

impl State {
    /// A new run's state: the first stage of the first cycle next, from these files.
    fn start(eval: &Path, search: &Path, plan: &[Stage]) -> State {
        State {
            plan: plan.to_vec(),
            eval: eval.to_path_buf(),
            search: search.to_path_buf(),
            cycle: 1,
            next: 0,
            started: false,
            seconds: 0.0,
            partial_seconds: 0.0,
            positions: Vec::new(),
            stages: Vec::new(),
            ended: None,
        }
    }
}

/// A finished stage, as result.json's `stages` and log.csv list them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct StageRecord {
    cycle: usize,
    stage: Stage,
    dir: PathBuf,
    command: String,
    seconds: f64,
    /// Games played: the datagen games, or the tuner's games and its verification's.
    games: u64,
    /// Positions the datagen stage added.
    positions: Option<u64>,
    /// passed, failed, undecided; "unchanged" when the tuner moved nothing (nothing to verify).
    verdict: Option<String>,
    elo: Option<f64>,
    elo_error: Option<f64>,
    llr: Option<f64>,
    /// Whether the next stages start from this stage's values.
    kept: bool,
    /// The Elo of every kept stage so far, summed, and the 95% half-width of that sum.
    cumulative_elo: f64,
    cumulative_error: f64,
}

/// log.csv's row: numbers the report charts (Elo of each stage, the cumulative curve).
#[derive(Serialize)]
struct LogRow<'a> {
    step: usize,
    stage: &'a str,
    verdict: &'a str,
    games: u64,
    elo: Option<f64>,
    elo_low: Option<f64>,
    elo_high: Option<f64>,
    cumulative_elo: f64,
    cumulative_elo_low: f64,
    cumulative_elo_high: f64,
    seconds: f64,
}

/// The values the run started from, in its folder.
const START_EVAL: &str = "start-eval.toml";
const START_SEARCH: &str = "start-search.toml";

/// Plies of a game at fixed nodes (measured: 93 in self-play at 5,000 nodes) and the speed of
/// an in-process game here (2.4 million nodes a second per thread measured), rounded to be
/// safe; used only until a stage has run once and its own time is known.
const PLIES_PER_GAME: f64 = 110.0;
const NODES_PER_SECOND: f64 = 2.0e6;
/// Games a verification is expected to take before its SPRT decides (the cap when lower).
const EXPECTED_VERIFY_GAMES: u64 = 800;

pub fn run(args: &AutoArgs) -> Result<()> {
    run_sitting(args, None)
}

/// The loop, stopping (as Ctrl-C stops it, resumable) once `halt_after` stages have finished in
/// this sitting: how the tests end a sitting at a chosen point.
fn run_sitting(args: &AutoArgs, halt_after: Option<usize>) -> Result<()> {
    // A resumed run starts from the values it first started from, kept in its folder.
    let (eval_file, search_file) = (args.out.join(START_EVAL), args.out.join(START_SEARCH));
    let start_eval =
        EvalParamSet::load(if args.resume && eval_file.is_file() { &eval_file } else { &args.params })?;
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
            state.ended = Some(format!("{} cycles done (--cycles)", state.cycle - 1));
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
        let words = stage_words(args, &state, stage, &dir, &search, resume && resumable(stage, &dir))?;
        let command = format!("tune {} {}", stage.name(), shlex::try_join(words.iter().map(String::as_str))?);
        println!(
            "\n== cycle {}, {} stage ({:.0} of {:.0} minutes used)",
            state.cycle,
            stage.name(),
            state.seconds / 60.0,
            budget(args) / 60.0
        );
        println!("{command}");
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
    crate::dataset::check_files("--data", &args.data)?;
    let first_texel = args.stages.iter().position(|&s| s == Stage::Texel);
    let first_datagen = args.stages.iter().position(|&s| s == Stage::Datagen);
    if let Some(t) = first_texel {
        if args.data.is_empty() && first_datagen.is_none_or(|d| d > t) {
            bail!("the texel stage needs positions: a datagen stage before it, or --data FILE");
        }
    }
    if args.stages.contains(&Stage::Pbil) && args.pbil_only.is_empty() {
        bail!("the pbil stage needs --pbil-only GLOB...: the evaluation terms it tunes over self-play");
    }
    if args.stages.contains(&Stage::Spsa) && spsa_only(args, start_search).is_empty() {
        bail!("the spsa stage has no search constant to tune");
    }
    if [args.datagen_games, args.tune_games].contains(&0) || args.texel_epochs == 0 {
        bail!("--datagen-games, --tune-games and --texel-epochs must be at least 1");
    }
    // The stages' own checks of the options passed through (the SPRT's bounds, the clock).
    let verify: VerifyArgs = parse_args(&args.verify.words())?;
    verify.check()?;
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

fn budget(args: &AutoArgs) -> f64 {
    args.hours * 3600.0
}

/// What stage `index` of a cycle is expected to take: its last run's time in this run, or an
/// estimate. A datagen stage counts the stage after it too: its positions are worth nothing
/// until a tuner has used them.
fn expected_seconds(args: &AutoArgs, state: &State, index: usize) -> f64 {
    let of = |stage: Stage| {
        state
            .stages
            .iter()
            .rev()
            .find(|r| r.stage == stage)
            .map_or_else(|| estimate_seconds(args, state, stage), |r| r.seconds)
    };
    let stage = args.stages[index];
    match args.stages.get(index + 1) {
        Some(&after) if stage == Stage::Datagen && after.tunes() => of(stage) + of(after),
        _ => of(stage),
    }
}

/// A first guess of a stage's time from its games and the speed measured on this machine.
fn estimate_seconds(args: &AutoArgs, state: &State, stage: Stage) -> f64 {
    let threads =
        args.concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let per_game = |nodes: u64| PLIES_PER_GAME * nodes as f64 / NODES_PER_SECOND / threads as f64;
    let verify_game = match &args.verify.verify_tc {
        // Both clocks and an increment per move of each side.
        Some(tc) => {
            let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
            let (base, inc) = (base.parse().unwrap_or(10.0), inc.parse().unwrap_or(0.0));
            (2.0 * base + PLIES_PER_GAME * inc) / threads as f64
        }
        None => per_game(args.verify.verify_nodes.unwrap_or(5000)),
    };
    let verification = args.verify.verify_games.min(EXPECTED_VERIFY_GAMES) as f64 * verify_game;
    match stage {
        Stage::Datagen => args.datagen_games as f64 * per_game(args.datagen_nodes),
        // Loading and epochs: about 2 µs per position and epoch on 2 cores (`tune bench`).
        Stage::Texel => {
            let positions = 26.0 * args.datagen_games as f64 * (state.positions.len() + 1) as f64;
            positions * args.texel_epochs as f64 * 2e-6 + verification
        }
        Stage::Spsa | Stage::Pbil => args.tune_games as f64 * per_game(args.tune_nodes) + verification,
    }
}

/// Whether a stage's folder holds a run its command can resume (one killed before its first
/// checkpoint starts again).
fn resumable(stage: Stage, dir: &Path) -> bool {
    match stage {
        Stage::Datagen => dir.join(crate::play::datagen::PROGRESS_FILE).is_file(),
        _ => dir.join("checkpoint.json").is_file(),
    }
}

/// The search constants the SPSA stage tunes.
fn spsa_only(args: &AutoArgs, search: &SearchParamSet) -> Vec<String> {
    if !args.spsa_only.is_empty() {
        return args.spsa_only.clone();
    }
    search
        .terms
        .iter()
        .filter(|t| t.tunable && !t.name.starts_with("time."))
        .map(|t| t.name.clone())
        .collect()
}

/// The stage's command line (options only), as `tune <stage>` parses it.
fn stage_words(
    args: &AutoArgs,
    state: &State,
    stage: Stage,
    dir: &Path,
    search: &SearchParamSet,
    resume: bool,
) -> Result<Vec<String>> {
    let path = |p: &Path| p.display().to_string();
    let mut words = vec![
        "--out".to_string(),
        path(dir),
        "--seed".into(),
        (args.seed + state.cycle as u64 - 1).to_string(),
    ];
    if let Some(n) = args.concurrency {
        words.extend(["--concurrency".into(), n.to_string()]);
    }
    if args.quiet {
        words.push("--quiet".into());
    }
    if resume {
        words.push("--resume".into());
    }
    match stage {
        Stage::Datagen => words.extend([
            "--engine".into(),
            path(&state.eval),
            "--engine-search".into(),
            path(&state.search),
            "--games".into(),
            args.datagen_games.to_string(),
            "--nodes".into(),
            args.datagen_nodes.to_string(),
        ]),
        Stage::Texel => {
            words.extend([
                "--params".into(),
                path(&state.eval),
                "--search-params".into(),
                path(&state.search),
            ]);
            words.push("--data".into());
            words.extend(state.positions.iter().chain(&args.data).map(|p| path(p)));
            words.extend(["--epochs".into(), args.texel_epochs.to_string()]);
            words.extend(args.verify.words());
        }
        Stage::Spsa | Stage::Pbil => {
            words.extend([
                "--params".into(),
                path(&state.eval),
                "--search-params".into(),
                path(&state.search),
            ]);
            words.extend(["--fitness".into(), "selfplay".into(), "--only".into()]);
            if stage == Stage::Spsa {
                words.extend(spsa_only(args, search));
            } else {
                words.extend(args.pbil_only.iter().cloned());
            }
            words.extend([
                "--games".into(),
                args.tune_games.to_string(),
                "--nodes".into(),
                args.tune_nodes.to_string(),
            ]);
            words.extend(args.verify.words());
        }
    }
    let extra = match stage {
        Stage::Datagen => &args.datagen_args,
        Stage::Texel => &args.texel_args,
        Stage::Spsa => &args.spsa_args,
        Stage::Pbil => &args.pbil_args,
    };
    if let Some(text) = extra {
        let Some(more) = shlex::split(text) else {
            bail!("--{}-args: unbalanced quotes in '{text}'", stage.name())
        };
        words.extend(more);
    }
    Ok(words)
}

/// A stage's options, parsed as its command parses them.
enum StageArgs {
    Datagen(Box<datagen::DatagenArgs>),
    Texel(Box<texel::TexelArgs>),
    Spsa(Box<spsa::SpsaArgs>),
    Pbil(Box<pbil::PbilArgs>),
}

fn parse_stage(stage: Stage, words: &[String]) -> Result<StageArgs> {
    Ok(match stage {
        Stage::Datagen => StageArgs::Datagen(Box::new(parse_args(words)?)),
        Stage::Texel => StageArgs::Texel(Box::new(parse_args(words)?)),
        Stage::Spsa => StageArgs::Spsa(Box::new(parse_args(words)?)),
        Stage::Pbil => StageArgs::Pbil(Box::new(parse_args(words)?)),
    })
}

fn run_stage(stage: Stage, words: &[String]) -> Result<()> {
    match parse_stage(stage, words)? {
        StageArgs::Datagen(args) => datagen::run(&args),
        StageArgs::Texel(args) => texel::run(&args),
        StageArgs::Spsa(args) => spsa::run(&args),
        StageArgs::Pbil(args) => pbil::run(&args),
    }
}

/// Reads what a finished stage left in its folder, moves the loop's values on when it passed,
/// and returns its record.
fn finished_stage(
    state: &mut State,
    stage: Stage,
    dir: &Path,
    command: String,
    seconds: f64,
) -> Result<StageRecord> {
    let (cumulative_elo, cumulative_error) =
        state.stages.last().map_or((0.0, 0.0), |r| (r.cumulative_elo, r.cumulative_error));
    let mut record = StageRecord {
        cycle: state.cycle,
        stage,
        dir: dir.to_path_buf(),
        command,
        seconds,
        games: 0,
        positions: None,
        verdict: None,
        elo: None,
        elo_error: None,
        llr: None,
        kept: false,
        cumulative_elo,
        cumulative_error,
    };
    if stage == Stage::Datagen {
        let summary = read_json(&dir.join("summary.json"))?;
        record.positions = summary["positions"].as_u64();
        record.games = 2 * summary["pairs_planned"].as_u64().unwrap_or(0);
        state.positions.push(dir.join(POSITIONS_FILE));
        return Ok(record);
    }
    let result = read_json(&dir.join("result.json"))?;
    let verdict = &result["verdict"];
    record.games = result["games"].as_u64().unwrap_or(0) + verdict["games"].as_u64().unwrap_or(0);
    record.verdict = Some(verdict["outcome"].as_str().unwrap_or("unchanged").to_string());
    record.elo = verdict["elo"].as_f64();
    record.elo_error = verdict["elo_error"].as_f64();
    record.llr = verdict["llr"].as_f64();
    record.kept = record.verdict.as_deref() == Some("passed");
    if record.kept {
        let (eval, search) = (dir.join("tuned.toml"), dir.join("search.toml"));
        if eval.is_file() {
            state.eval = eval;
        }
        if search.is_file() {
            state.search = search;
        }
        record.cumulative_elo += record.elo.unwrap_or(0.0);
        record.cumulative_error = record.cumulative_error.hypot(record.elo_error.unwrap_or(0.0));
    }
    Ok(record)
}

fn describe(r: &StageRecord) -> String {
    match (&r.verdict, r.elo, r.elo_error) {
        (Some(v), Some(elo), Some(err)) => format!(
            "cycle {}, {}: {v}, {elo:+.1} ± {err:.1} Elo over {} games, {}; cumulative {:+.1} ± {:.1} ({:.1} min)",
            r.cycle,
            r.stage.name(),
            r.games,
            if r.kept { "kept" } else { "not kept" },
            r.cumulative_elo,
            r.cumulative_error,
            r.seconds / 60.0
        ),
        (Some(v), _, _) => format!("cycle {}, {}: {v}, not kept ({:.1} min)", r.cycle, r.stage.name(), r.seconds / 60.0),
        (None, _, _) => format!(
            "cycle {}, {}: {} games, {} positions ({:.1} min)",
            r.cycle,
            r.stage.name(),
            r.games,
            r.positions.unwrap_or(0),
            r.seconds / 60.0
        ),
    }
}

fn read_json(path: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))
}

fn save(run: &RunDir, state: &State) -> Result<()> {
    run.write_json("auto.json", state)
}

fn load_state(run: &RunDir) -> Result<State> {
    let path = run.file("auto.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("--resume: reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("--resume: {} is damaged", path.display()))
}

/// `result.json` (the stages, the cumulative Elo, the final values' files, why the loop ended)
/// and `log.csv` (a row per stage, charted by the report); written after every stage.
fn write_results(
    run: &RunDir,
    state: &State,
    start_eval: &EvalParamSet,
    start_search: &SearchParamSet,
    baked: Option<bool>,
) -> Result<serde_json::Value> {
    let last = state.stages.last();
    let eval = EvalParamSet::load(&state.eval)?;
    let search = SearchParamSet::load(&state.search)?;
    let result = serde_json::json!({
        "stages": state.stages,
        "games": state.stages.iter().map(|r| r.games).sum::<u64>(),
        "kept": state.stages.iter().filter(|r| r.kept).count(),
        "cumulative_elo": last.map_or(0.0, |r| r.cumulative_elo),
        "cumulative_elo_error": last.map_or(0.0, |r| r.cumulative_error),
        "hours": state.seconds / 3600.0,
        "eval": state.eval,
        "search": state.search,
        "changed": eval.values() != start_eval.values() || search.values() != start_search.values(),
        "ended": state.ended,
        "baked": baked,
    });
    run.write_json("result.json", &result)?;
    let rows: Vec<LogRow> = state
        .stages
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let err = r.elo_error.unwrap_or(f64::NAN);
            LogRow {
                step: i + 1,
                stage: r.stage.name(),
                verdict: r.verdict.as_deref().unwrap_or(""),
                games: r.games,
                elo: r.elo,
                elo_low: r.elo.map(|e| e - err),
                elo_high: r.elo.map(|e| e + err),
                cumulative_elo: r.cumulative_elo,
                cumulative_elo_low: r.cumulative_elo - r.cumulative_error,
                cumulative_elo_high: r.cumulative_elo + r.cumulative_error,
                seconds: r.seconds,
            }
        })
        .collect();
    run.write_csv("log.csv", &rows)?;
    Ok(result)
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
    let baked = if args.bake {
        if kept == 0 {
            eprintln!("not baked: no stage passed its SPRT; the engine build is untouched");
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
    let result = write_results(run, state, start_eval, start_search, baked)?;
    run.write_meta("auto", args, true, Some(result))?;
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
    println!(
        "{kept} stages kept: {:+.1} ± {:.1} Elo cumulative (the sum of the kept stages' SPRT estimates); \
         values in {} and {}",
        last.map_or(0.0, |r| r.cumulative_elo),
        last.map_or(0.0, |r| r.cumulative_error),
        run.file("tuned.toml").display(),
        run.file("search.toml").display()
    );
    Ok(())
}

#[cfg(test)]
#[path = "auto_tests.rs"]
mod tests;
