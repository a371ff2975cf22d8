//! A stage as a command: the command line the loop builds for it (the stage's options, its
//! verification, the values it starts from, `--resume` when its folder holds a run to continue),
//! parsed and run as `tune <stage>` runs it, and what it is expected to take (for the budget).

use std::path::Path;

use anyhow::{bail, Result};
use whetstone::search::SearchParamSet;

use super::record::{State, RESCORED_FILE};
use super::texel_plan::TexelPlan;
use super::{AutoArgs, Stage};
use crate::cmd::args::parse_args;
use crate::cmd::dataset::RescoreArgs;
use crate::cmd::{datagen, pbil, spsa, texel};
use crate::verify::{CLOCK, CLOCK_GAMES, SCREEN_GAMES};

/// Plies of a game at fixed nodes (measured: 93 in self-play at 5,000 nodes) and the speed of
/// an in-process game here (2.4 million nodes a second per thread measured), rounded to be
/// safe; used only until a stage has run once and its own time is known.
pub(super) const PLIES_PER_GAME: f64 = 110.0;
pub(super) const NODES_PER_SECOND: f64 = 2.0e6;

/// Core-seconds a rescore search is expected to take: Stockfish 15.1 at depth 8 scored 530
/// positions a second on 2 cores here (docs/tuning.md); used until a rescore stage has run.
pub(super) const RESCORE_CORE_SECONDS: f64 = 0.004;

/// Positions a datagen game is expected to keep (about 50 at 5,000 nodes).
const POSITIONS_PER_GAME: f64 = 50.0;

/// Games a verification is expected to take before its SPRT decides (the cap when lower).
pub(super) const EXPECTED_VERIFY_GAMES: u64 = 800;

pub(super) fn budget(args: &AutoArgs) -> f64 {
    args.hours * 3600.0
}

/// What stage `index` of a cycle is expected to take: its last run's time in this run, or an
/// estimate. A datagen stage counts the stage after it too: its positions are worth nothing
/// until a tuner has used them. A tuning stage that last played no verification (it moved
/// nothing, or its held-out loss did not fall) is expected to take at least the estimate, as
/// this time it may play one.
pub(super) fn expected_seconds(args: &AutoArgs, state: &State, index: usize) -> f64 {
    let of = |stage: Stage| {
        let estimate = || estimate_seconds(args, state, stage);
        state.stages.iter().rev().find(|r| r.stage == stage).map_or_else(estimate, |r| {
            let unplayed = matches!(r.verdict.as_deref(), Some("unchanged" | "no_held_out_gain"));
            if unplayed {
                r.seconds.max(estimate())
            } else {
                r.seconds
            }
        })
    };
    let stage = args.stages[index];
    if stage.tunes() {
        return of(stage);
    }
    // The stages up to the first tuner after this one.
    let mut seconds = 0.0;
    for &next in &args.stages[index..] {
        seconds += of(next);
        if next.tunes() {
            break;
        }
    }
    seconds
}

/// A first guess of a stage's time from its games and the speed measured on this machine.
pub(super) fn estimate_seconds(args: &AutoArgs, state: &State, stage: Stage) -> f64 {
    let threads =
        args.concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let per_game = |nodes: u64| PLIES_PER_GAME * nodes as f64 / NODES_PER_SECOND / threads as f64;
    // The same precedence as the verification's own (`VerifyGames::first`): a clock given, else
    // nodes, else the default clock.
    let clock_game = |tc: &str| {
        // Both clocks and an increment per move of each side.
        let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
        let (base, inc) = (base.parse().unwrap_or(10.0), inc.parse().unwrap_or(0.0));
        (2.0 * base + PLIES_PER_GAME * inc) / threads as f64
    };
    let (verify_game, cap) = match (&args.verify.verify_tc, args.verify.verify_nodes) {
        (Some(tc), _) => (clock_game(tc), CLOCK_GAMES),
        (None, Some(nodes)) => (per_game(nodes), SCREEN_GAMES),
        (None, None) => (clock_game(CLOCK), CLOCK_GAMES),
    };
    let games = args.verify.verify_games.unwrap_or(cap);
    let verification = games.min(EXPECTED_VERIFY_GAMES) as f64 * verify_game;
    match stage {
        Stage::Datagen => args.datagen_games as f64 * per_game(args.datagen_nodes),
        Stage::Rescore => {
            POSITIONS_PER_GAME * args.datagen_games as f64 * RESCORE_CORE_SECONDS / threads as f64
        }
        // Loading and epochs: about 2 µs per position and epoch on 2 cores (`tune bench`).
        Stage::Texel => {
            let positions =
                POSITIONS_PER_GAME * args.datagen_games as f64 * (state.positions.len() + 1) as f64;
            positions * args.texel_epochs as f64 * 2e-6 + verification
        }
        Stage::Spsa | Stage::Pbil => {
            let game = args.tune_tc.as_deref().map_or_else(|| per_game(args.tune_nodes), clock_game);
            args.tune_games as f64 * game + verification
        }
    }
}

/// Whether a stage's folder holds a run its command can resume (one killed before its first
/// checkpoint starts again).
pub(super) fn resumable(stage: Stage, dir: &Path) -> bool {
    match stage {
        Stage::Datagen => dir.join(crate::play::runs::datagen::PROGRESS_FILE).is_file(),
        // `tune dataset rescore` continues its output without being told.
        Stage::Rescore => false,
        _ => dir.join("checkpoint.json").is_file(),
    }
}

/// The search constants the SPSA stage tunes by default: every tunable one but the features
/// switched off or offsets not yet moved (a value of 0: `probcut.margin`, `time.inc_bonus`, ...), the on/off
/// switches (0 to 1: `nmp.tt_guard`, ...) and, at fixed nodes, the time constants.
pub(super) fn spsa_only(args: &AutoArgs, search: &SearchParamSet) -> Vec<String> {
    if !args.spsa_only.is_empty() {
        return args.spsa_only.clone();
    }
    // Games at fixed nodes cannot tell how time is spent; at a clock they can.
    let timed = args.tune_tc.is_some();
    // SPSA perturbs a value both ways by a step that scales with it, so a feature at 0 (off)
    // would be switched on and off at random or not moved at all: whether to turn a feature on
    // is a question for an SPRT. Test 67 (reports/tests.md) tuned exactly the other 24 and passed.
    // An on/off switch (0 or 1, such as `history.no_ageing`) has no step to take at all, on or off.
    // The same holds for an offset still at its neutral 0 (`time.inc_bonus`): a step scaled by
    // the value would hardly move it.
    let switched_off = |t: &whetstone::params::Term| t.mg.iter().all(|&v| v == 0);
    let switch = |t: &whetstone::params::Term| t.min == 0 && t.max == 1;
    search
        .terms
        .iter()
        .filter(|t| t.tunable && !switched_off(t) && !switch(t) && (timed || !t.name.starts_with("time.")))
        .map(|t| t.name.clone())
        .collect()
}

/// The stage's command line (options only), as `tune <stage>` parses it.
pub(super) fn stage_words(
    args: &AutoArgs,
    state: &State,
    stage: Stage,
    dir: &Path,
    search: &SearchParamSet,
    resume: bool,
) -> Result<Vec<String>> {
    if stage == Stage::Rescore {
        return with_extra(args, stage, rescore_words(args, state, dir));
    }
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
    if let Some(binary) = &args.external.engine {
        words.extend(super::engine::stage_words(args, state, stage, dir, binary)?);
        return with_extra(args, stage, words);
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
            let plan = TexelPlan::of(args, state)?;
            words.push("--data".into());
            words.extend(state.positions.iter().chain(&args.data).chain(&plan.data).map(|p| path(p)));
            words.extend(["--epochs".into(), args.texel_epochs.to_string()]);
            words.extend(args.verify.words());
            words.extend(plan.words);
            if let Some(file) = &plan.hold_out_from {
                words.extend(["--hold-out-from".into(), path(file)]);
            }
            if !plan.only.is_empty() {
                words.push("--only".into());
                words.extend(plan.only);
            }
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
            words.extend(args.tuning_words());
        }
        Stage::Rescore => unreachable!("the rescore stage's words are built above"),
    }
    with_extra(args, stage, words)
}

/// A rescore stage's command line: the last datagen stage's positions into the stage's folder
/// (`tune dataset rescore` continues its output by itself, so a resumed stage needs no option).
fn rescore_words(args: &AutoArgs, state: &State, dir: &Path) -> Vec<String> {
    let path = |p: &Path| p.display().to_string();
    let input = state.positions.last().map(|p| path(p)).unwrap_or_default();
    let engine = args.rescore_engine.as_deref().map(path).unwrap_or_default();
    let mut words = vec![
        input,
        path(&dir.join(RESCORED_FILE)),
        "--engine".into(),
        engine,
        "--depth".into(),
        args.rescore_depth.to_string(),
    ];
    if let Some(n) = args.concurrency {
        words.extend(["--concurrency".into(), n.to_string()]);
    }
    if args.quiet {
        words.push("--quiet".into());
    }
    words
}

/// The stage's command line with the user's `--<stage>-args` after the loop's options.
fn with_extra(args: &AutoArgs, stage: Stage, mut words: Vec<String>) -> Result<Vec<String>> {
    let extra = match stage {
        Stage::Datagen => &args.datagen_args,
        Stage::Rescore => &args.rescore_args,
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
pub(super) enum StageArgs {
    Datagen(Box<datagen::DatagenArgs>),
    Rescore(Box<RescoreArgs>),
    Texel(Box<texel::TexelArgs>),
    Spsa(Box<spsa::SpsaArgs>),
    Pbil(Box<pbil::PbilArgs>),
}

pub(super) fn parse_stage(stage: Stage, words: &[String]) -> Result<StageArgs> {
    Ok(match stage {
        Stage::Datagen => StageArgs::Datagen(Box::new(parse_args(words)?)),
        Stage::Rescore => StageArgs::Rescore(Box::new(parse_args(words)?)),
        Stage::Texel => StageArgs::Texel(Box::new(parse_args(words)?)),
        Stage::Spsa => StageArgs::Spsa(Box::new(parse_args(words)?)),
        Stage::Pbil => StageArgs::Pbil(Box::new(parse_args(words)?)),
    })
}

pub(super) fn run_stage(stage: Stage, words: &[String]) -> Result<()> {
    match parse_stage(stage, words)? {
        StageArgs::Datagen(args) => datagen::run(&args),
        StageArgs::Rescore(args) => crate::cmd::dataset::rescore::run(&args),
        StageArgs::Texel(args) => crate::cmd::texel_engine::run_texel(&args),
        StageArgs::Spsa(args) => spsa::run(&args),
        StageArgs::Pbil(args) => pbil::run(&args),
    }
}
