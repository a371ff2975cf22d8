//! Tests of `tune bayes`: a run over a command's games that finds the peak, resumes exactly and
//! writes its files; the Texel loss as an exact fitness; bad input refused before any work.

use super::*;
use crate::cmd::args::tuner_args;
use crate::testutil::{small_dataset, TempDir};

/// Arguments over `peak_game.py` (its win probability peaks at x = 30 of [-100, 100]).
/// A resumed run (`resumed`, folder `b`) equals the uninterrupted one (`straight`, folder `a`):
/// games, points, estimate, history, and the named files of each run folder.
fn assert_same_run(
    resumed: &State,
    straight: &State,
    a: &std::path::Path,
    b: &std::path::Path,
    files: &[&str],
) {
    assert_eq!(resumed.games, straight.games);
    assert_eq!(resumed.bayes.observations(), straight.bayes.observations());
    assert_eq!(resumed.estimate, straight.estimate);
    assert_eq!(resumed.history, straight.history);
    let file = |d: &std::path::Path, f: &str| std::fs::read_to_string(d.join("run").join(f)).unwrap();
    for f in files {
        assert_eq!(file(a, f), file(b, f), "{f}");
    }
}

fn args(dir: &std::path::Path, extra: &[&str]) -> BayesArgs {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/peak_game.py");
    std::fs::write(dir.join("space.txt"), "x, int, 0, -100, 100, 5, 0.002\n").unwrap();
    let command = format!("python3 '{}'", script.display());
    let space = dir.join("space.txt");
    let space = space.to_str().expect("a UTF-8 temporary path");
    let fixed = [
        "--fitness",
        "command",
        "--command",
        &command,
        "--space",
        space,
        "--concurrency",
        "2",
        "--n-initial-points",
        "6",
        "--games-per-point",
        "4",
        "--batch",
        "3",
    ];
    tuner_args(&dir.join("run"), &[&fixed[..], extra].concat())
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn bayes_over_a_command_finds_the_peak_resumes_exactly_and_writes_its_files() {
    let dir = TempDir::new("bayes-command");
    let (a, b) = (dir.join("a"), dir.join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let straight_args = args(&a, &["--games", "240"]);
    let settings = straight_args.settings().unwrap();
    let setup = straight_args.common.setup("bayes", FitnessKind::Selfplay).unwrap();
    let straight = optimise(&straight_args, &settings, &setup, None).unwrap();
    assert_eq!(straight.games.played() + straight.games.failed, 240);
    let estimate = straight.estimate.as_ref().unwrap();
    let x = setup.space.unit_to_values(&estimate.x)[0];
    assert!((x - 30.0).abs() < 35.0, "estimate {x}");
    // Every point was played at an integer, and the model learnt it there.
    for o in straight.bayes.observations() {
        let v = setup.space.unit_to_values(&o.x)[0];
        assert!((v - v.round()).abs() < 1e-9, "{v}");
    }
    let first = args(&b, &["--games", "240"]);
    let setup_b = first.common.setup("bayes", FitnessKind::Selfplay).unwrap();
    let half = optimise(&first, &settings, &setup_b, Some(5)).unwrap();
    assert_eq!(half.step, 5);
    let resumed_args = args(&b, &["--games", "240", "--resume"]);
    let resumed = optimise(&resumed_args, &settings, &setup_b, None).unwrap();
    assert_same_run(&resumed, &straight, &a, &b, &["trajectory.csv"]);
    // Another acquisition on resume is refused.
    let other = args(&b, &["--games", "240", "--resume", "--acq-function", "mes"]);
    let e = optimise(&other, &other.settings().unwrap(), &setup_b, None).unwrap_err();
    assert!(format!("{e:#}").contains("other settings"), "{e:#}");

    // The whole command: result.json with the optimum and its regions, openbench.txt, bayes.json
    // and the report's pictures drawn from it.
    std::fs::create_dir_all(dir.join("full")).unwrap();
    run(&args(&dir.join("full"), &["--games", "60"])).unwrap();
    let full = dir.join("full/run");
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(full.join("result.json")).unwrap()).unwrap();
    assert_eq!(result["games"], 60);
    assert!(result["values"]["x"].is_number() && result["elo"].is_number(), "{result}");
    let (lo, hi) =
        (result["within_2sd"]["x"][0].as_f64().unwrap(), result["within_2sd"]["x"][1].as_f64().unwrap());
    assert!(lo <= result["values"]["x"].as_f64().unwrap() + 0.5 && lo <= hi, "{result}");
    assert!(std::fs::read_to_string(full.join("openbench.txt")).unwrap().starts_with("x, int, "));
    let plots: crate::report::bayes::BayesPlots =
        serde_json::from_str(&std::fs::read_to_string(full.join("bayes.json")).unwrap()).unwrap();
    assert_eq!((plots.names.len(), plots.dependence[0].grid.len()), (1, 41));
    assert_eq!(plots.points.len() as u64, result["points"].as_u64().unwrap());
    let pictures = crate::report::bayes::plots(&full, &full).unwrap();
    assert!(pictures.iter().any(|i| i.file == "bayes-objective.png"));
}

#[test]
fn the_texel_loss_is_an_exact_fitness() {
    let dir = TempDir::new("bayes-texel");
    let data = small_dataset();
    let a: BayesArgs = tuner_args(
        &dir,
        &[
            "--fitness",
            "texel",
            "--data",
            data.to_str().unwrap(),
            "--only",
            "tempo",
            "--min-coverage",
            "0",
            "--points",
            "16",
            "--n-initial-points",
            "6",
        ],
    );
    let settings = a.settings().unwrap();
    let setup = a.common.setup("bayes", FitnessKind::Selfplay).unwrap();
    let state = optimise(&a, &settings, &setup, None).unwrap();
    assert_eq!(state.bayes.observations().len(), 16);
    assert_eq!(state.games.played(), 0);
    let exact = setup.fitness.exact().unwrap();
    let last = state.log.last().unwrap();
    assert!(last.elo.is_nan() && last.loss.is_finite());
    // The start is in the design, so the optimum of the model is no worse than the start by much.
    assert!(
        last.loss <= exact.loss(&setup.space.starts()) + 1e-5,
        "{} vs {}",
        last.loss,
        exact.loss(&setup.space.starts())
    );
}

#[test]
fn bad_input_is_refused_before_any_work() {
    let dir = TempDir::new("bayes-bad");
    let err =
        |extra: &[&str]| format!("{:#}", run(&tuner_args::<BayesArgs>(&dir.join("run"), extra)).unwrap_err());
    let e = err(&["--acq-function", "ucb"]);
    assert!(e.contains("--acq-function") && e.contains("ts, mes, ei, pvrs"), "{e}");
    assert!(err(&["--n-initial-points", "1"]).contains("at least 2 initial points"));
    assert!(err(&["--problem", "nope"]).contains("known: log"));
    assert!(err(&["--points", "0"]).contains("nothing to play"));
    std::fs::write(dir.join("empty.txt"), "# nothing\n").unwrap();
    let space = dir.join("empty.txt");
    let e = err(&["--fitness", "command", "--command", "true", "--space", space.to_str().unwrap()]);
    assert!(e.contains("no parameters"), "{e}");
    assert!(!dir.join("run").exists(), "nothing was created");
}

#[test]
fn a_problem_prints_its_regret() {
    let dir = TempDir::new("bayes-problem");
    let a: BayesArgs = tuner_args(&dir, &["--problem", "log", "--games", "200", "--runs", "2"]);
    run(&a).unwrap();
}

/// A game source that plays pairs (as self-play does), for a space of one value `x` of
/// [-100, 100]: the candidate's chance of a win peaks at x = 30; a pair's two games share a
/// lopsided opening (one side or the other is favoured), so its games are correlated. Each
/// trial's games are drawn from the seed and the trial's index.
struct PeakPairs;

impl crate::fitness::GameFitness for PeakPairs {
    fn describe(&self) -> String {
        "peak pairs".into()
    }
    fn duels(&self) -> bool {
        false
    }
    fn games_per_trial(&self, games: u32) -> u32 {
        2 * games.div_ceil(2).max(1)
    }
    fn play(
        &self,
        trials: &[crate::fitness::Trial],
        seed: u64,
        _stop: &std::sync::atomic::AtomicBool,
        on_games: &mut dyn FnMut(u64),
    ) -> Result<Vec<Games>> {
        use crate::play::games::stats::GameScore::{Draw, Loss, Win};
        use rand::Rng;
        Ok(trials
            .iter()
            .enumerate()
            .map(|(t, trial)| {
                let mut rng = ChaCha8Rng::seed_from_u64(step_seed(seed, t as u64));
                let strength = 0.35 - 0.3 * ((trial.candidate[0] - 30.0) / 60.0).powi(2);
                let mut games = Games::default();
                for _ in 0..crate::fitness::GameFitness::games_per_trial(self, trial.games) / 2 {
                    let lean = if rng.random::<bool>() { 0.3 } else { -0.3 };
                    let mut game = |p: f64| {
                        let r: f64 = rng.random();
                        if r < p {
                            Win
                        } else if r < p + 0.3 {
                            Draw
                        } else {
                            Loss
                        }
                    };
                    let (first, second) = (game(strength + lean), game(strength - lean));
                    games.record_pair(first, second);
                }
                on_games(games.played());
                games
            })
            .collect())
    }
}

#[test]
fn bayes_over_game_pairs_keeps_them_resumes_exactly_and_leaves_a_report_at_every_checkpoint() {
    let dir = TempDir::new("bayes-pairs");
    let (a, b) = (dir.join("a"), dir.join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let with_pairs = |setup: Setup| Setup { fitness: Box::new(PeakPairs), ..setup };
    let straight_args = args(&a, &["--games", "120"]);
    let settings = straight_args.settings().unwrap();
    let setup = with_pairs(straight_args.common.setup("bayes", FitnessKind::Selfplay).unwrap());
    let straight = optimise(&straight_args, &settings, &setup, None).unwrap();
    assert_eq!(straight.games.played(), 120);
    assert_eq!(2 * straight.games.pairs.pairs(), 120, "{:?}", straight.games);
    // Every point kept its pairs, and its noise is theirs.
    for o in straight.bayes.observations() {
        assert_eq!(2 * o.pairs.pairs(), o.games.games(), "{o:?}");
    }

    // Killed after step 3: the checkpoint and bayes.json of step 3, and a report from them.
    let first = args(&b, &["--games", "120"]);
    let setup_b = with_pairs(first.common.setup("bayes", FitnessKind::Selfplay).unwrap());
    let half = optimise(&first, &settings, &setup_b, Some(3)).unwrap();
    let run_b = b.join("run");
    let plots: crate::report::bayes::BayesPlots =
        serde_json::from_str(&std::fs::read_to_string(run_b.join("bayes.json")).unwrap()).unwrap();
    assert_eq!(plots.points.len(), half.bayes.observations().len());
    assert_eq!(plots.history.len(), 3);
    let report = dir.join("report");
    crate::cmd::report::run(&crate::cmd::report::ReportArgs {
        params: std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../params/eval.toml"),
        baseline: None,
        log: Some(run_b.clone()),
        out: report.clone(),
    })
    .unwrap();
    assert!(report.join("bayes-objective.png").is_file() && report.join("index.html").is_file());
    assert!(std::fs::read_to_string(report.join("index.html")).unwrap().contains("bayes-objective.png"));

    // Resumed: the uninterrupted run, bayes.json included.
    let resumed_args = args(&b, &["--games", "120", "--resume"]);
    let resumed = optimise(&resumed_args, &settings, &setup_b, None).unwrap();
    assert_same_run(&resumed, &straight, &a, &b, &["bayes.json", "trajectory.csv"]);
}

#[test]
fn a_checkpoint_of_an_older_build_resumes_and_its_points_keep_their_win_draw_loss_noise() {
    // Written by `tune bayes` of c91600b (before pairs were kept): 36 games of peak_game.py,
    // the arguments of `args` with --games 36 --seed 1, 3 steps, 9 points.
    let dir = TempDir::new("bayes-old");
    std::fs::create_dir_all(dir.join("run")).unwrap();
    let old = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/bayes-checkpoint-c91600b.json");
    std::fs::copy(old, dir.join("run/checkpoint.json")).unwrap();
    let resumed_args = args(&dir, &["--games", "60", "--resume", "--seed", "1"]);
    let settings = resumed_args.settings().unwrap();
    let setup = resumed_args.common.setup("bayes", FitnessKind::Selfplay).unwrap();
    let loaded: State = setup.run.load_checkpoint().unwrap();
    assert_eq!((loaded.step, loaded.bayes.observations().len(), loaded.games.played()), (3, 9, 36));
    assert_eq!(loaded.games.pairs.pairs(), 0);
    // Continued with games in pairs: the old points without pairs, the new ones with them.
    let setup = Setup { fitness: Box::new(PeakPairs), ..setup };
    let state = optimise(&resumed_args, &settings, &setup, None).unwrap();
    assert_eq!((state.step, state.games.played()), (5, 60));
    let observations = state.bayes.observations();
    assert_eq!(observations[..9], loaded.bayes.observations()[..]);
    assert!(observations[..9].iter().all(|o| o.pairs.pairs() == 0));
    assert!(observations[9..].iter().all(|o| 2 * o.pairs.pairs() == o.games.games()));
    assert_eq!(2 * state.games.pairs.pairs(), 24);
    assert!(dir.join("run/bayes.json").is_file());
}
