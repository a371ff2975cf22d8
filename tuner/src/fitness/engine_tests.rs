//! Tests of the engine fitness against `testdata/knob_engine.py`, a fake UCI engine whose chance
//! of playing "strong" peaks at Knob = 30 (see its header), on the knight-shuffle openings of
//! `testdata/knight_book.epd`.

use std::path::{Path, PathBuf};

use super::*;
use crate::fitness::setup::{FitnessKind, TuneSettings};
use crate::play::engines::engine_process::Protocol;
use crate::play::limit::LimitChoice;
use crate::testutil::{knight_book, knob_engine, test_tune_settings, TempDir};

/// `--fitness engine` settings over `space` (OpenBench lines) with the knight book at 10 nodes,
/// on two threads, then `change`d.
fn args(dir: &TempDir, engine: &Path, space: &str, change: impl FnOnce(&mut TuneSettings)) -> TuneSettings {
    let space_file = dir.path("space.txt");
    std::fs::write(&space_file, space).unwrap();
    let mut settings = test_tune_settings(&dir.path("run"));
    settings.fitness = Some(FitnessKind::Engine);
    (settings.engine.engine, settings.space) = (Some(engine.to_path_buf()), Some(space_file));
    settings.play.book = Some(knight_book());
    (settings.play.limit, settings.play.concurrency) = (LimitChoice::nodes(10), 2);
    change(&mut settings);
    settings
}

/// `Name=Value` as the one option of a list.
fn option(text: &str) -> Vec<String> {
    vec![text.to_string()]
}

fn setup_error(args: &TuneSettings) -> String {
    match args.setup("test", FitnessKind::Selfplay) {
        Ok(_) => panic!("accepted"),
        Err(e) => format!("{e:#}"),
    }
}

const KNOB: &str = "Knob, int, -60, -100, 100, 10, 0.02\n";

#[test]
fn the_space_is_checked_against_the_engines_options_before_any_game() {
    let dir = TempDir::new("engine-space");
    let engine = knob_engine(&dir, "play");
    let error = |space: &str, change: fn(&mut TuneSettings)| setup_error(&args(&dir, &engine, space, change));
    for (space, expected) in [
        ("Knobb, int, 0, -100, 100, 10, 0.002\n", "`Knobb` is not an option of the engine"),
        (
            "knob, int, 0, -200, 100, 10, 0.002\n",
            "`Knob`: the space's range -200..100 is not within the engine's -100..100",
        ),
        ("Knob, float, 0, -10, 10, 1, 0.002\n", "`Knob` is a spin (integers only): declare it `int`"),
        ("Blend, int, 0, 0, 1, 1, 0.002\n", "`Blend` is a string option"),
        ("Toggle, int, 0, 0, 1, 1, 0.002\n", "`Toggle` is a check option, not a number"),
        ("Failure, int, 0, 0, 1, 1, 0.002\n", "`Failure` is a combo option, not a number"),
    ] {
        let e = error(space, |_| {});
        assert!(e.contains(expected) && e.contains("knob-play"), "{space}: {e}");
    }
    // Every problem at once.
    let both = error("Nope, int, 0, 0, 1, 1, 0.002\nKnob, int, 0, -100, 101, 10, 0.002\n", |_| {});
    assert!(both.contains("`Nope`") && both.contains("-100..101"), "{both}");
    let fixed = error(KNOB, |s| s.engine.engine_option = option("knob=3"));
    assert!(fixed.contains("`Knob` is tuned by --space and fixed by --engine-option"), "{fixed}");
    let undeclared = error(KNOB, |s| s.engine.engine_option = option("Threads=2"));
    assert!(undeclared.contains("'Threads' is not declared"), "{undeclared}");
    // A float dimension sets a string option; case and the engine's spelling do not matter.
    let good = args(
        &dir,
        &engine,
        "knob, int, 0, -100, 100, 10, 0.002\nBlend, float, 0.25, 0, 1, 0.05, 0.002\n",
        |_| {},
    );
    let setup = good.setup("test", FitnessKind::Selfplay).unwrap_or_else(|e| panic!("{e:#}"));
    assert!(setup.fitness.describe().contains("2 options from the space"), "{}", setup.fitness.describe());
    assert!(!setup.from_params && setup.fitness.plays_games());
}

#[test]
fn engines_that_do_not_start_and_missing_options_are_clear_errors() {
    let dir = TempDir::new("engine-start");
    let engine = knob_engine(&dir, "play");
    let missing = dir.path("no-such-engine");
    let e = setup_error(&args(&dir, &missing, KNOB, |_| {}));
    assert!(e.contains("--engine") && e.contains("no-such-engine"), "{e}");
    let crashing = knob_engine(&dir, "crash-on-uci");
    let e = setup_error(&args(&dir, &crashing, KNOB, |_| {}));
    assert!(e.contains("knob-crash-on-uci") && e.contains("exited") && e.contains("uciok"), "{e}");
    let e = setup_error(&args(&dir, &engine, KNOB, |s| s.engine.opponent = Some(missing.clone())));
    assert!(e.contains("--opponent") && e.contains("no-such-engine"), "{e}");
    let e = setup_error(&args(&dir, &engine, KNOB, |s| s.engine.opponent_option = option("Hash=1")));
    assert!(e.contains("--opponent-option without --opponent"), "{e}");
    let no_space = args(&dir, &engine, KNOB, |s| {
        (s.space, s.play.book, s.play.limit) = (None, None, LimitChoice::nodes(5));
    });
    assert!(setup_error(&no_space).contains("--fitness engine needs --space"));
    let no_engine = args(&dir, &engine, KNOB, |s| {
        (s.engine.engine, s.play.book, s.play.limit) = (None, None, LimitChoice::default());
    });
    assert!(setup_error(&no_engine).contains("needs --engine"));
    let no_limit = args(&dir, &engine, KNOB, |s| s.play.limit = LimitChoice::default());
    assert!(setup_error(&no_limit).contains("give a limit per move"));
    let selfplay = args(&dir, &engine, KNOB, |s| {
        (s.fitness, s.space, s.play.book) = (None, None, None);
        s.only = vec!["tempo".into()];
        s.play.limit = LimitChoice::default();
    });
    assert!(setup_error(&selfplay).contains("belong to --fitness engine"));
}

#[test]
fn an_engine_that_never_answers_uciok_is_a_start_error_naming_it() {
    let dir = TempDir::new("engine-uciok");
    let spec = EngineSpec {
        name: "silent".into(),
        command: knob_engine(&dir, "no-uciok"),
        args: vec![],
        options: vec![],
        working_dir: None,
        protocol: Protocol::Uci,
    };
    let space = Space::parse_openbench(KNOB, "space").unwrap();
    let started = std::time::Instant::now();
    let e = format!("{:#}", check_engine(&spec, &space, Duration::from_millis(500)).unwrap_err());
    assert!(e.contains("knob-no-uciok") && e.contains("did not answer 'uciok'"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// The fitness of `args`, with `hang` as the time a move may take at fixed nodes.
fn fitness(args: &TuneSettings, space: &Space, log: Option<PathBuf>, hang: Duration) -> EngineFitness {
    let mut fitness = args.engine.fitness(space, &args.play, log).unwrap_or_else(|e| panic!("{e:#}"));
    fitness.settings.hang_timeout = hang;
    fitness
}

fn trial(knob: f64, opponent: Option<f64>, games: u32) -> Trial {
    Trial { candidate: vec![knob], opponent: opponent.map(|o| vec![o]), games }
}

#[test]
fn a_candidate_far_from_the_peak_loses_and_duels_set_both_sides() {
    let dir = TempDir::new("engine-play");
    let engine = knob_engine(&dir, "play");
    // The reference sits on the peak: always strong.
    let a = args(&dir, &engine, "Knob, int, 30, -100, 100, 10, 0.02\n", |_| {});
    let space = Space::parse_openbench("Knob, int, 30, -100, 100, 10, 0.02\n", "s").unwrap();
    let f = fitness(&a, &space, None, Duration::from_secs(10));
    assert!(f.duels());
    let trials = [trial(-100.0, None, 12), trial(30.0, None, 3), trial(30.0, Some(-100.0), 12)];
    let mut seen = 0;
    let games = f.play(&trials, 3, &AtomicBool::new(false), &mut |n| seen += n).unwrap();
    assert_eq!(seen, 12 + 4 + 12, "3 games round up to two pairs");
    // p(-100) = 1 - 130/150: strong in about one game in eight, a draw; every other game lost.
    assert!(games[0].wld.losses >= 8 && games[0].wld.wins == 0, "{:?}", games[0]);
    assert_eq!((games[1].wld.draws, games[1].played()), (4, 4), "strong against strong draws");
    assert_eq!(games[1].pairs.0, [0, 0, 2, 0, 0], "two drawn pairs");
    assert!(games.iter().all(|g| g.all_in_pairs()), "every game counted in its pair: {games:?}");
    assert!(games[0].pairs.0[0] >= 2 && games[2].pairs.0[4] >= 2, "{games:?}");
    assert!(games[2].wld.wins >= 8 && games[2].wld.losses == 0, "{:?}", games[2]);
    assert!(games.iter().all(|g| g.failures.iter().all(|f| f.total() == 0)), "{games:?}");
    let again = f.play(&trials, 3, &AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!(games, again, "the same seed plays the same games, on the same engine processes");
    let one = args(&dir, &engine, "Knob, int, 30, -100, 100, 10, 0.02\n", |s| s.play.concurrency = 1);
    let single = fitness(&one, &space, None, Duration::from_secs(10));
    assert_eq!(single.play(&trials, 3, &AtomicBool::new(false), &mut |_| {}).unwrap(), games);
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn crashes_and_time_forfeits_lose_for_the_failing_side_and_are_counted_and_logged() {
    let dir = TempDir::new("engine-failures");
    let engine = knob_engine(&dir, "play");
    let space = Space::parse_openbench("Knob, int, 30, -100, 100, 10, 0.02\n", "s").unwrap();
    for (failure, hang) in [("crash", Duration::from_secs(10)), ("hang", Duration::from_millis(200))] {
        let a = args(&dir, &engine, "Knob, int, 30, -100, 100, 10, 0.02\n", |s| {
            s.engine.engine_option = option(&format!("Failure={failure}"))
        });
        let log = dir.path(&format!("{failure}.log"));
        let f = fitness(&a, &space, Some(log.clone()), hang);
        // A weak candidate fails instead of resigning; the reference is never weak.
        let games = f.play(&[trial(-100.0, None, 8)], 5, &AtomicBool::new(false), &mut |_| {}).unwrap();
        let g = games[0];
        let failures = g.failures[0];
        let counted = if failure == "crash" { failures.crashes } else { failures.time_losses };
        assert!(counted >= 5, "{failure}: {g:?}");
        assert_eq!(counted, failures.total(), "{failure}: {g:?}");
        assert_eq!(
            (g.wld.losses, g.played(), g.failed),
            (counted, 8, 0),
            "each failure is a lost game: {g:?}"
        );
        assert_eq!(g.failures[1].total(), 0, "{g:?}");
        let lines = std::fs::read_to_string(&log).unwrap();
        assert_eq!(lines.lines().count() as u64, counted, "{lines}");
        let word = if failure == "crash" { "engine crash or disconnect" } else { "time forfeit" };
        assert!(
            lines.lines().all(|l| l.contains("the candidate (knob-play) lost by") && l.contains(word)),
            "{lines}"
        );
        // The crashed engine was restarted: the candidate at the peak plays on, on the same seats.
        let peak = f.play(&[trial(30.0, None, 2)], 5, &AtomicBool::new(false), &mut |_| {}).unwrap();
        assert_eq!(peak[0].wld.draws, 2, "{failure}: {:?}", peak[0]);
    }
}

#[test]
fn with_an_opponent_there_are_no_duels() {
    let dir = TempDir::new("engine-opponent");
    let engine = knob_engine(&dir, "play");
    let space = Space::parse_openbench(KNOB, "s").unwrap();
    let a = args(&dir, &engine, KNOB, |s| {
        (s.engine.opponent, s.engine.opponent_option) = (Some(engine.clone()), option("Knob=30"));
    });
    let f = fitness(&a, &space, None, Duration::from_secs(10));
    assert!(!f.duels() && f.describe().contains("--opponent"), "{}", f.describe());
    let games = f.play(&[trial(30.0, None, 2)], 1, &AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!(games[0].wld.draws, 2, "both at the peak: {:?}", games[0]);
    let duel = f.play(&[trial(30.0, Some(0.0), 2)], 1, &AtomicBool::new(false), &mut |_| {});
    assert!(format!("{:#}", duel.unwrap_err()).contains("cannot play each other"));
}

#[test]
fn a_resumed_run_must_play_the_same_engine_and_space() {
    let dir = TempDir::new("engine-identity");
    let engine = knob_engine(&dir, "play");
    let a = args(&dir, &engine, KNOB, |_| {});
    let run = RunDir::create(&dir.path("run")).unwrap();
    let identity = a.engine.identity(a.space.as_deref().unwrap(), None, &a.game_options).unwrap();
    record_identity(&run, &identity).unwrap();
    check_identity(run.path(), &identity, true).unwrap();
    assert!(identity.0["--engine"].contains("knob-play") && identity.0["--space"].contains("content"));
    // The space file edited: another run.
    std::fs::write(a.space.as_deref().unwrap(), "Knob, int, -50, -100, 100, 10, 0.02\n").unwrap();
    let edited = a.engine.identity(a.space.as_deref().unwrap(), None, &a.game_options).unwrap();
    let e = format!("{:#}", check_identity(run.path(), &edited, true).unwrap_err());
    assert!(e.contains("--space: was"), "{e}");
    let mut other_options = a.clone();
    other_options.engine.engine_option = vec!["Hash=1".into()];
    let changed = other_options.engine.identity(a.space.as_deref().unwrap(), None, &a.game_options).unwrap();
    let e = format!("{:#}", check_identity(run.path(), &changed, true).unwrap_err());
    assert!(e.contains("--engine-option: was `none`, now `Hash=1`"), "{e}");
    let e = format!("{:#}", check_identity(&dir.path("elsewhere"), &identity, true).unwrap_err());
    assert!(e.contains("engine-fitness run"), "{e}");
}
