//! `tune spsa`: simultaneous perturbation over self-play game pairs (or a command's games, or the
//! Texel loss), as fishtest and OpenBench run it. Iterations run in batches of pairs played in
//! parallel, all perturbed around the theta at the batch's start and applied in order, so a run
//! is the same at any thread count. Reads and writes OpenBench's SPSA input lines, so a tuning
//! can move to OpenBench's workers and come back.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use whetstone::eval::EvalParamSet;
use whetstone::search::SearchParamSet;

use super::args::tune::TuneArgs;
use super::args::verify::VerifyArgs;
use crate::export::Found;
use crate::fitness::setup::{FitnessKind, Setup};
use crate::fitness::{step_seed, Games};
use crate::optim::openbench::import_openbench;
use crate::optim::spsa::{Perturbation, Spsa};
use crate::run::provenance::Provenance;
use crate::run::{RunDir, Steps};
use crate::verify::VerifySettings;

/// Simultaneous perturbation stochastic approximation: every iteration perturbs all selected
/// values at once by ±c_k, plays the plus vector against the minus vector (a game pair), and
/// moves each value toward the winner.
///
/// Its main use is search constants: `tune spsa --search-params params/search.toml --only
/// 'lmr.*' 'nmp.*' --games 20000 --tc 2+0.02`. Each value's final perturbation c_end and learning
/// rate r_end follow OpenBench (defaults: c_end about a tenth of the value, r_end 0.02, measured
/// better than OpenBench's 0.002 for runs of a few thousand games; set them with --c-end/--r-end or
/// edit them through --export-openbench / --space).
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct SpsaArgs {
    #[command(flatten)]
    pub common: TuneArgs,
    #[command(flatten)]
    pub verify: VerifyArgs,
    /// Iterations (game pairs) [default: --games / 2, or 2,000 pairs; 300 with the Texel loss].
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Pairs per batch: played in parallel from the same theta, then applied in order.
    #[arg(long, default_value_t = 8)]
    pub batch: u64,
    /// The final learning rate r_end of every value [default: 0.02 for values from params files;
    /// OpenBench's 0.002 suits fine-tuning over tens of thousands of games].
    #[arg(long, value_name = "R")]
    pub r_end: Option<f64>,
    /// The final perturbation c_end of every value, in its units [default: per value, about a
    /// tenth of it plus 2, at most a twentieth of its range, at least 1].
    #[arg(long, value_name = "C")]
    pub c_end: Option<f64>,
    /// Write the selected values as OpenBench SPSA input lines to FILE and stop.
    #[arg(long, value_name = "FILE")]
    pub export_openbench: Option<std::path::PathBuf>,
    /// Read the values an OpenBench SPSA tune reports into the params: its "Copy SPSA Outputs"
    /// text (`name, value`), its digest (`Name,Curr,...`, as CSV or copied from the page) or SPSA
    /// input lines (a local run's openbench.txt). Writes --out/tuned.toml and/or search.toml,
    /// result.json and the report, then verifies (--verify) and bakes (--bake) as after a run.
    #[arg(long, value_name = "FILE")]
    pub import_openbench: Option<std::path::PathBuf>,
}

/// One batch's log line: the plus side's games so far (or the loss of theta, Texel fitness).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaLog {
    pub iteration: u64,
    pub games: u64,
    pub plus_wins: u64,
    pub plus_losses: u64,
    pub draws: u64,
    /// Training loss of theta (Texel fitness; NaN otherwise).
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub loss: f64,
    #[serde(deserialize_with = "crate::run::nan_if_null")]
    pub valid_loss: f64,
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
    spsa: Spsa,
    games: Games,
    log: Vec<SpsaLog>,
}

pub fn run(args: &SpsaArgs) -> Result<()> {
    let verify = args.verify.settings()?;
    if let Some(path) = &args.import_openbench {
        return import(args, path, &verify);
    }
    if args.r_end.is_some_and(|r| r <= 0.0) || args.c_end.is_some_and(|c| c <= 0.0) {
        bail!("--r-end and --c-end must be positive");
    }
    let mut setup = args.common.setup("spsa", FitnessKind::Selfplay)?;
    for d in &mut setup.space.dims {
        d.r_end = args.r_end.unwrap_or(d.r_end);
        d.c_end = args.c_end.unwrap_or(d.c_end);
    }
    if let Some(path) = &args.export_openbench {
        std::fs::write(path, setup.space.to_openbench(&setup.space.starts()))
            .with_context(|| format!("writing {}", path.display()))?;
        println!("wrote {} OpenBench SPSA lines to {}", setup.space.len(), path.display());
        return Ok(());
    }
    let iterations = match (args.iterations, args.common.games) {
        (Some(n), _) => n,
        (None, Some(games)) => games.div_ceil(2),
        (None, None) if setup.fitness.plays_games() => 2000,
        (None, None) => 300,
    };
    let state = optimise(args, &setup, iterations.max(1), None)?;
    let mut extra = serde_json::json!({
        "fitness": setup.fitness.describe(),
        "iterations": state.spsa.iteration,
        "plus_wins": state.games.wins,
        "plus_losses": state.games.losses,
        "draws": state.games.draws,
        "failed_games": state.games.failed,
        "failures": state.games.failures_json(),
        "theta": state.spsa.values(),
    });
    if let Some(exact) = setup.fitness.exact() {
        extra["start_loss"] = exact.loss(&setup.space.starts()).into();
        extra["loss"] = exact.loss(state.spsa.values()).into();
    }
    setup.run.write_meta("spsa", args, args.common.resume, Some(extra.clone()))?;
    crate::export::finish_tuning(
        &setup,
        &args.common.settings(),
        &verify,
        state.spsa.values(),
        state.games.played(),
        extra,
        setup.provenance("spsa", &args.common.params),
    )
}

/// --import-openbench: the values an OpenBench tune reports, ended like a run of our own
/// (result.json, tuned.toml and/or search.toml, the report), then --verify/--bake as after one.
fn import(args: &SpsaArgs, path: &std::path::Path, verify: &VerifySettings) -> Result<()> {
    let start_eval = EvalParamSet::load(&args.common.params)?;
    let start_search = match &args.common.search_params {
        Some(p) => SearchParamSet::load(p)?,
        None => SearchParamSet::baked(),
    };
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let (mut eval, mut search) = (start_eval.clone(), start_search.clone());
    let done = import_openbench(&text, &path.display().to_string(), &mut eval, &mut search)?;
    let run = RunDir::create(&args.common.out("spsa"))?;
    let measured = serde_json::json!({ "imported": path, "format": done.format.to_string() });
    run.write_meta("spsa", args, args.common.resume, Some(measured.clone()))?;
    let found = Found {
        start_eval,
        start_search,
        eval: done.eval.then_some(eval),
        search: done.search.then_some(search),
        values: done.values.clone(),
        frozen: Vec::new(),
        games: 0,
        space_moved: false,
        measured,
        provenance: Provenance::of_run("spsa", run.path(), &args.common.params, None),
    };
    let written = crate::export::finish_run(&run, &found)?;
    println!(
        "{} values from {} ({}): wrote {} in {}",
        done.values.len(),
        path.display(),
        done.format,
        written.join(", "),
        run.path().display()
    );
    // --resume continues a killed verification from its journal.
    crate::export::conclude(&run, &found, verify, &args.common.play.settings(), args.common.resume).map(drop)
}

/// Runs (or resumes) the iterations; `halt_at` stops early as a kill would (tests).
fn optimise(args: &SpsaArgs, setup: &Setup, iterations: u64, halt_at: Option<u64>) -> Result<State> {
    let run = &setup.run;
    let mut state = if args.common.resume {
        let state: State = run.load_checkpoint()?;
        if state.spsa.iterations != iterations {
            bail!("--resume: the run was planned for {} iterations, not {iterations}", state.spsa.iterations);
        }
        eprintln!("resuming at iteration {}", state.spsa.iteration);
        state
    } else {
        State { spsa: Spsa::new(&setup.space, iterations), games: Games::default(), log: Vec::new() }
    };
    run.write_meta("spsa", args, args.common.resume, None)?;
    eprintln!(
        "SPSA: {} values, {iterations} iterations; fitness: {}",
        setup.space.len(),
        setup.fitness.describe()
    );
    let steps =
        Steps::begin(run, "iteration", iterations as usize, iterations, "iteration", args.common.play.quiet)
            .with_trajectory(
                setup.space.names(),
                &setup.space.starts(),
                args.common.resume.then_some(state.spsa.iteration as usize),
            )?;
    let stop = steps.stop_flag();
    let bar = &steps.bar;
    bar.set_position(state.spsa.iteration);
    while state.spsa.iteration < halt_at.unwrap_or(iterations).min(iterations) {
        let started = Instant::now();
        let first = state.spsa.iteration + 1;
        let last = (first + args.batch.max(1) - 1).min(iterations);
        let perturbations: Vec<Perturbation> = (first..=last)
            .map(|k| {
                state.spsa.perturb(k, &mut ChaCha8Rng::seed_from_u64(step_seed(args.common.play.seed, k)))
            })
            .collect();
        let pairs: Vec<(Vec<f64>, Vec<f64>)> =
            perturbations.iter().map(|p| (p.plus.clone(), p.minus.clone())).collect();
        let compared = setup
            .fitness
            .compare(&pairs, step_seed(args.common.play.seed ^ 0x5eed, first), stop)
            .map_err(|e| steps.resumable(e, format!("iteration {}", state.spsa.iteration)))?;
        for (p, c) in perturbations.iter().zip(compared) {
            state.spsa.update(p, c.result);
            state.games.add(&c.games);
        }
        let (loss, valid_loss) = match setup.fitness.exact() {
            Some(exact) => (exact.loss(state.spsa.values()), exact.valid_loss(state.spsa.values())),
            None => (f64::NAN, f64::NAN),
        };
        state.log.push(SpsaLog {
            iteration: state.spsa.iteration,
            games: state.games.played(),
            plus_wins: state.games.wins,
            plus_losses: state.games.losses,
            draws: state.games.draws,
            loss,
            valid_loss,
            seconds: started.elapsed().as_secs_f64(),
            candidate_failures: state.games.failures[0].total(),
            opponent_failures: state.games.failures[1].total(),
        });
        bar.set_position(state.spsa.iteration);
        bar.set_message(if loss.is_nan() {
            format!("plus side {}-{}-{}", state.games.wins, state.games.losses, state.games.draws)
        } else {
            format!("loss {loss:.6}")
        });
        let step = state.spsa.iteration as usize;
        steps.end(&state.log, step, state.spsa.values(), &state)?;
    }
    steps.finish();
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::args::tuner_args;

    fn args(out: &std::path::Path, extra: &[&str]) -> SpsaArgs {
        tuner_args(out, extra)
    }

    #[test]
    #[cfg_attr(
        not(feature = "slow-tests"),
        ignore = "slow: cargo test -p whetstone-tuner --features slow-tests"
    )]
    fn selfplay_spsa_resumes_exactly_and_openbench_lines_round_trip() {
        let dir = std::env::temp_dir().join(format!("whetstone-spsa-{}", std::process::id()));
        let common = ["--only", "tempo", "bishop_pair", "--nodes", "200", "--hash", "1", "--batch", "2"];
        let a = args(&dir.join("a"), &common);
        let setup = a.common.setup("spsa", FitnessKind::Selfplay).unwrap();
        let straight = optimise(&a, &setup, 4, None).unwrap();
        assert_eq!(straight.games.played(), 8);
        assert_eq!(straight.spsa.iteration, 4);
        let b = args(&dir.join("b"), &common);
        let setup_b = b.common.setup("spsa", FitnessKind::Selfplay).unwrap();
        let half = optimise(&b, &setup_b, 4, Some(2)).unwrap();
        assert_eq!(half.spsa.iteration, 2);
        let resumed =
            optimise(&args(&dir.join("b"), &[&common[..], &["--resume"]].concat()), &setup_b, 4, None)
                .unwrap();
        assert_eq!((&straight.spsa, &straight.games), (&resumed.spsa, &resumed.games));
        let trajectory = |d: &str| std::fs::read_to_string(dir.join(d).join("trajectory.csv")).unwrap();
        assert_eq!(trajectory("a"), trajectory("b"));
        // Export the space with theta, import it into the params.
        let lines = setup.space.to_openbench(straight.spsa.values());
        std::fs::write(dir.join("ob.txt"), &lines).unwrap();
        let import_args = args(&dir.join("c"), &["--import-openbench", dir.join("ob.txt").to_str().unwrap()]);
        run(&import_args).unwrap();
        let tuned = EvalParamSet::load(&dir.join("c/tuned.toml")).unwrap();
        let names = tuned.value_names();
        let tempo = names.iter().position(|n| n == "tempo_mg").unwrap();
        let dim = setup.space.names().iter().position(|n| n == "tempo_mg").unwrap();
        assert_eq!(tuned.values()[tempo] as f64, setup.space.playable(straight.spsa.values())[dim]);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The fake engine's chance of playing well peaks at Knob = 30 (tuner/testdata/knob_engine.py).
    #[test]
    fn spsa_over_a_uci_engine_moves_its_option_toward_the_peak_and_resumes_exactly() {
        use crate::fitness::engine::tests::{knight_book, knob_engine};
        let dir = crate::dataset::testutil::TempDir::new("spsa-engine");
        let engine = knob_engine(&dir, "play");
        let space = dir.path("space.txt");
        std::fs::write(&space, "Knob, int, -60, -100, 100, 10, 0.1\n").unwrap();
        let (engine, space, book) = (engine.display().to_string(), space.display(), knight_book());
        let (space, book) = (space.to_string(), book.display().to_string());
        let common = [
            "--fitness",
            "engine",
            "--engine",
            &engine,
            "--space",
            &space,
            "--book",
            &book,
            "--nodes",
            "10",
            "--concurrency",
            "2",
            "--batch",
            "4",
            "--iterations",
            "200",
        ];
        let straight_dir = dir.path("a");
        run(&args(&straight_dir, &common)).unwrap();
        let result: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(straight_dir.join("result.json")).unwrap())
                .unwrap();
        let knob = result["values"]["Knob"].as_f64().unwrap();
        assert!(knob > -20.0, "from -60 toward 30: {result}");
        assert_eq!(result["games"], 400);
        assert_eq!(result["failures"]["candidate"]["crashes"], 0);
        let openbench = std::fs::read_to_string(straight_dir.join("openbench.txt")).unwrap();
        assert_eq!(openbench, format!("Knob, int, {knob}, -100, 100, 10, 0.1\n"));
        assert!(std::fs::read_to_string(straight_dir.join("log.csv"))
            .unwrap()
            .contains("candidate_failures"));
        // Killed half-way and resumed: the same run.
        let b = args(&dir.path("b"), &common);
        let setup = b.common.setup("spsa", FitnessKind::Selfplay).unwrap();
        optimise(&b, &setup, 200, Some(100)).unwrap();
        drop(setup);
        let resumed_args = args(&dir.path("b"), &[&common[..], &["--resume"]].concat());
        let setup = resumed_args.common.setup("spsa", FitnessKind::Selfplay).unwrap();
        let resumed = optimise(&resumed_args, &setup, 200, None).unwrap();
        let straight: State = RunDir::create(&straight_dir).unwrap().load_checkpoint().unwrap();
        assert_eq!((&straight.spsa, &straight.games), (&resumed.spsa, &resumed.games));
        // Resuming with another space is refused before any game.
        std::fs::write(dir.path("space.txt"), "Knob, int, -50, -100, 100, 10, 0.1\n").unwrap();
        let e = format!("{:#}", resumed_args.common.setup("spsa", FitnessKind::Selfplay).err().unwrap());
        assert!(e.contains("--space: was"), "{e}");
    }

    #[test]
    fn an_openbench_digest_imports_into_search_toml_and_verifies() {
        let dir = std::env::temp_dir().join(format!("whetstone-spsa-ob-{}", std::process::id()));
        let digest = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/openbench-digest.csv");
        let verify = ["--verify", "--verify-nodes", "300", "--verify-games", "4", "--hash", "1"];
        run(&args(&dir, &[&["--import-openbench", digest][..], &verify].concat())).unwrap();
        let search = SearchParamSet::load(&dir.join("search.toml")).unwrap();
        let at = |name: &str| search.values()[search.value_names().iter().position(|n| n == name).unwrap()];
        assert_eq!((at("rfp_margin"), at("lmr_divisor")), (74, 215));
        // Only search constants were named, so no tuned.toml; the verdict closes result.json.
        assert!(!dir.join("tuned.toml").exists());
        let result: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("result.json")).unwrap()).unwrap();
        assert_eq!(result["values"]["rfp_margin"], 74.0);
        assert_eq!(result["verdict"]["games"], 4);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn texel_spsa_lowers_the_loss() {
        let dir = std::env::temp_dir().join(format!("whetstone-spsa-texel-{}", std::process::id()));
        let data = crate::fitness::setup::tests::small_dataset();
        let a = args(
            &dir,
            &[
                "--fitness",
                "texel",
                "--data",
                data.to_str().unwrap(),
                "--only",
                "material",
                "--min-coverage",
                "0",
            ],
        );
        let setup = a.common.setup("spsa", FitnessKind::Selfplay).unwrap();
        let state = optimise(&a, &setup, 200, None).unwrap();
        let t = setup.fitness.exact().expect("the Texel loss");
        assert!(t.loss(state.spsa.values()) < t.loss(&setup.space.starts()));
        std::fs::remove_dir_all(&dir).ok();
    }
}
