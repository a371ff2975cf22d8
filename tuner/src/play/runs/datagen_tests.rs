use std::path::Path;

use super::*;
use crate::play::engines::inprocess::EngineSetup;
use crate::play::limit::LimitChoice;
use crate::play::runs::settings::MatchSettings;
use crate::testutil::{test_settings, TempDir};

/// `pairs` pairs of the baked values against themselves at 300 nodes per move, with the shared
/// options' defaults otherwise (book, adjudication, seed 1), on one thread.
fn plan(pairs: usize) -> DatagenPlan {
    let params = Path::new(env!("CARGO_MANIFEST_DIR")).join("../params/eval.toml");
    let mut engine = EngineSetup::from_files(&params, None).unwrap();
    engine.hash_mb = 1;
    plan_for(Contestant::InProcess(engine), test_settings(LimitChoice::nodes(300)), pairs)
}

/// `pairs` pairs of `engine` against itself under `play`, the first `pairs` openings of its
/// schedule, 4 random plies, every position kept, one thread.
fn plan_for(engine: Contestant, play: MatchSettings, pairs: usize) -> DatagenPlan {
    let (openings, _) = play.openings().unwrap();
    let schedule = play.opening_schedule(openings.len(), pairs).unwrap();
    DatagenPlan {
        engine,
        settings: play.game_settings().unwrap(),
        openings: schedule.iter().map(|&i| openings[i].clone()).collect(),
        random_plies: 4,
        skip_plies: 0,
        seed: play.seed,
        concurrency: 1,
        quiet: true,
        event: "test".to_string(),
        format: PositionFormat::Epd,
    }
}

fn append(path: &Path, bytes: &[u8]) {
    let mut file = OpenOptions::new().append(true).open(path).unwrap();
    file.write_all(bytes).unwrap();
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn a_resumed_run_writes_what_an_uninterrupted_one_writes() {
    let dir = TempDir::new("datagen");
    let go = AtomicBool::new(false);
    let whole = dir.path("whole");
    let outcome = generate(&plan(4), &whole, false, &go).unwrap();
    assert_eq!((outcome.pairs_this_run, outcome.interrupted), (4, false));
    let parts = dir.path("parts");
    generate(&plan(2), &parts, false, &go).unwrap();
    // A kill mid-write: a torn game and a torn progress record.
    append(&parts.join(GAMES_FILE), b"[Event \"torn");
    append(&parts.join(PROGRESS_FILE), b"2 99");
    let resumed = generate(&plan(4), &parts, true, &go).unwrap();
    assert_eq!((resumed.pairs_done_before, resumed.pairs_this_run), (2, 2));
    assert_eq!(resumed.positions, outcome.positions);
    let read = |dir: &Path, name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let positions = read(&whole, POSITIONS_FILE);
    assert!(positions.lines().count() > 50, "{} positions", positions.lines().count());
    assert_eq!(positions, read(&parts, POSITIONS_FILE));
    // The games too, but for the time each move took.
    let moves_only = |pgn: String| -> Vec<String> {
        pgn.lines()
            .filter(|l| !l.starts_with('['))
            .flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .filter(|w| !w.ends_with("s}"))
            .collect()
    };
    assert_eq!(moves_only(read(&whole, GAMES_FILE)), moves_only(read(&parts, GAMES_FILE)));
    assert_eq!(read(&whole, PROGRESS_FILE).lines().count(), 4);
    assert_eq!(read(&parts, PROGRESS_FILE).lines().count(), 4, "the torn record is gone");
    // Every kept position is unique and loads as a labelled position.
    let unique: HashSet<&str> = positions.lines().collect();
    assert_eq!(unique.len(), positions.lines().count());
    for line in positions.lines() {
        assert!(crate::dataset::formats::parse_line(line).is_ok(), "{line}");
    }
    // Each carries the search score of the move played from it (none only for a mate score).
    let scored = positions.lines().filter(|l| l.contains(" ce ")).count();
    assert!(scored * 10 >= positions.lines().count() * 9, "{scored} of {} scored", positions.lines().count());
}

#[test]
fn resuming_needs_a_run_and_a_raised_stop_plays_nothing() {
    let dir = TempDir::new("datagen-stop");
    let error = format!("{:#}", check_resumable(&dir.path("none")).unwrap_err());
    assert!(error.contains("no run to resume"), "{error}");
    let stopped = AtomicBool::new(true);
    let outcome = generate(&plan(2), &dir.path("stopped"), false, &stopped).unwrap();
    assert_eq!((outcome.pairs_this_run, outcome.interrupted), (0, true));
    check_resumable(&dir.path("stopped")).unwrap();
}

#[test]
fn the_two_games_of_a_pair_start_apart_and_differ() {
    // One engine on both sides at a node limit is deterministic: from one start it played the
    // same game twice, and every second game's positions were duplicates.
    let dir = TempDir::new("datagen-pair");
    let one = plan(1);
    generate(&one, &dir.path("run"), false, &AtomicBool::new(false)).unwrap();
    let pgn = std::fs::read_to_string(dir.path("run").join(GAMES_FILE)).unwrap();
    let starts: Vec<&str> = pgn.lines().filter(|l| l.starts_with("[FEN ")).collect();
    assert_eq!(starts.len(), 2, "{pgn}");
    assert_ne!(starts[0], starts[1], "each game after its own random plies");
    let mut zero = plan(1);
    zero.random_plies = 0;
    generate(&zero, &dir.path("zero"), false, &AtomicBool::new(false)).unwrap();
    let pgn = std::fs::read_to_string(dir.path("zero").join(GAMES_FILE)).unwrap();
    let starts: Vec<&str> = pgn.lines().filter(|l| l.starts_with("[FEN ")).collect();
    assert_eq!(starts.len(), 2);
    assert_eq!(starts[0], starts[1], "no random plies: both from the book's opening");
}

#[test]
fn random_plies_depend_on_the_pair_and_the_seed_alone() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let fen = with_random_plies(start, 4, 1, 7, 0).unwrap();
    assert_eq!(fen, with_random_plies(start, 4, 1, 7, 0).unwrap());
    let others: HashSet<String> =
        (0..8).map(|pair| with_random_plies(start, 4, 1, pair, 0).unwrap()).collect();
    assert!(others.len() > 4, "pairs draw different plies: {others:?}");
    assert_ne!(with_random_plies(start, 4, 2, 7, 0).unwrap(), fen, "another seed, other plies");
    assert_ne!(with_random_plies(start, 4, 1, 7, 1).unwrap(), fen, "the pair's second game, other plies");
    let pos = Position::from_fen(&fen).unwrap();
    assert_eq!(pos.to_fen().split(' ').nth(5), Some("3"), "four plies later it is move 3: {fen}");
    assert_eq!(with_random_plies(start, 0, 1, 7, 0).unwrap(), start);
    // Mate on the board: no line of plies leaves a game to play.
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    assert!(with_random_plies(mate, 0, 1, 0, 0).unwrap_err().to_string().contains("no line"));
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn every_format_holds_the_same_positions_and_scores_and_resumes() {
    use crate::dataset::stream::{read, ReadOptions};
    let dir = TempDir::new("datagen-formats");
    let go = AtomicBool::new(false);
    let positions = |dir: &Path, format: PositionFormat| {
        let mut out = Vec::new();
        read(&dir.join(format.file_name()), &ReadOptions::default(), &mut |pos, label| {
            out.push((pos.to_fen(), label));
            Ok(())
        })
        .unwrap();
        out
    };
    let epd = dir.path("epd");
    generate(&plan(2), &epd, false, &go).unwrap();
    let expected = positions(&epd, PositionFormat::Epd);
    assert!(expected.iter().filter(|(_, l)| l.score.is_some()).count() > 20);
    for format in [PositionFormat::Text, PositionFormat::Viriformat] {
        let whole = dir.path(&format!("{format:?}"));
        generate(&DatagenPlan { format, ..plan(2) }, &whole, false, &go).unwrap();
        let got = positions(&whole, format);
        assert_eq!(got.len(), expected.len(), "{format:?}");
        for ((fen, label), (fen2, label2)) in expected.iter().zip(&got) {
            // EPD keeps no move counters; the others do.
            let fields = |f: &str| f.split(' ').take(4).collect::<Vec<_>>().join(" ");
            assert_eq!(fields(fen), fields(fen2), "{format:?}");
            assert_eq!(
                (label.outcome, label.score.unwrap_or(0)),
                (label2.outcome, label2.score.unwrap()),
                "{format:?}"
            );
        }
        // Resumed from one pair: the same file.
        let parts = dir.path(&format!("{format:?}-parts"));
        generate(&DatagenPlan { format, ..plan(1) }, &parts, false, &go).unwrap();
        generate(&DatagenPlan { format, ..plan(2) }, &parts, true, &go).unwrap();
        let bytes = |d: &Path| std::fs::read(d.join(format.file_name())).unwrap();
        assert_eq!(bytes(&whole), bytes(&parts), "{format:?}");
    }
}

// Datagen with an engine binary: `testdata/legal_engine.py`, a fake UCI engine that plays legal
// chess and reports the material from the side to move's view as its score (see its header).
mod external {
    use std::path::{Path, PathBuf};

    use super::super::*;
    use crate::play::limit::LimitChoice;
    use crate::play::runs::settings::uci_engine_spec;
    use crate::testutil::{test_settings, TempDir};

    /// The fake engine that plays legal chess (executable; a mode and its argument may follow).
    pub fn legal_engine() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/legal_engine.py")
    }

    /// A wrapper script that runs the fake engine with `args` (the binary a user would give).
    pub fn legal_engine_with(dir: &TempDir, name: &str, args: &[&str]) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.path(name);
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        let script = format!("#!/bin/sh\nexec python3 '{}' {}\n", legal_engine().display(), quoted.join(" "));
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// `pairs` pairs of `engine` against itself at 300 nodes, games of at most 40 moves, one thread.
    fn plan(engine: &Path, pairs: usize) -> DatagenPlan {
        let mut play = test_settings(LimitChoice::nodes(300));
        play.adjudication.max_moves = Some(40);
        let spec = uci_engine_spec(engine, Some(1), &["Greed=70".to_string()]).unwrap();
        super::plan_for(Contestant::External(spec), play, pairs)
    }

    /// Material from the side to move's view, as the fake engine counts it.
    fn material(fen: &str) -> i32 {
        let mut fields = fen.split(' ');
        let board = fields.next().unwrap();
        let score: i32 = board
            .chars()
            .map(|c| {
                let value = match c.to_ascii_lowercase() {
                    'p' => 100,
                    'n' | 'b' => 300,
                    'r' => 500,
                    'q' => 900,
                    _ => 0,
                };
                if c.is_ascii_uppercase() {
                    value
                } else {
                    -value
                }
            })
            .sum();
        if fields.next() == Some("w") {
            score
        } else {
            -score
        }
    }

    #[test]
    fn a_binarys_own_scores_label_the_positions_and_a_killed_run_resumes_to_the_same_file() {
        let dir = TempDir::new("datagen-binary");
        let go = AtomicBool::new(false);
        let whole = dir.path("whole");
        let outcome = generate(&plan(&legal_engine(), 4), &whole, false, &go).unwrap();
        assert_eq!((outcome.pairs_this_run, outcome.failed_games_this_run), (4, 0));
        let parts = dir.path("parts");
        generate(&plan(&legal_engine(), 2), &parts, false, &go).unwrap();
        let mut file = OpenOptions::new().append(true).open(parts.join(PROGRESS_FILE)).unwrap();
        file.write_all(b"2 99").unwrap();
        let resumed = generate(&plan(&legal_engine(), 4), &parts, true, &go).unwrap();
        assert_eq!((resumed.pairs_done_before, resumed.pairs_this_run), (2, 2));
        let read = |dir: &Path| std::fs::read_to_string(dir.join(POSITIONS_FILE)).unwrap();
        let positions = read(&whole);
        assert_eq!(positions, read(&parts), "the engine plays the same games whenever they are played");
        let lines: Vec<&str> = positions.lines().collect();
        assert!(lines.len() > 30, "{} positions", lines.len());
        let pgn = std::fs::read_to_string(whole.join(GAMES_FILE)).unwrap();
        assert!(
            pgn.contains("[White \"legal_engine.py\"]") && pgn.contains("{+M3/1"),
            "mate scores are played"
        );
        let (mut scored, mut unscored) = (0, 0);
        for line in &lines {
            let Some((fen, rest)) = line.split_once(" ce ") else {
                unscored += 1;
                continue;
            };
            scored += 1;
            // The engine's own `info score cp`: material plus ply % 5, from the side to move's view.
            let ce: i32 = rest.split(';').next().unwrap().trim().parse().unwrap();
            let over = ce - material(fen);
            assert!((0..5).contains(&over), "{line}: ce {ce}, material {}", material(fen));
        }
        // Every seventh move the engine says `score mate 3`, which labels nothing.
        assert!(scored > 0 && unscored > 0 && unscored * 3 < lines.len(), "{scored} scored, {unscored} not");
    }

    #[test]
    fn a_crash_mid_game_is_named_and_counted_and_the_run_goes_on() {
        let dir = TempDir::new("datagen-crash");
        let marker = dir.path("crashed");
        let engine = legal_engine_with(&dir, "crashes-once", &["crash-once", marker.to_str().unwrap()]);
        let run = dir.path("run");
        let outcome = generate(&plan(&engine, 3), &run, false, &AtomicBool::new(false)).unwrap();
        assert_eq!((outcome.pairs_this_run, outcome.failed_games_this_run), (3, 1), "{outcome:?}");
        assert!(marker.exists());
        let log = std::fs::read_to_string(run.join(FAILURE_LOG)).unwrap();
        assert_eq!(log.lines().count(), 1, "{log}");
        assert!(
            log.contains("pair 1 game 1") && log.contains("exited") && log.contains("after 12 plies, in "),
            "{log}"
        );
        let pgn = std::fs::read_to_string(run.join(GAMES_FILE)).unwrap();
        assert_eq!(pgn.matches("[Event ").count(), 6, "every game is in games.pgn");
        assert_eq!(pgn.matches("[Termination \"abandoned\"]").count(), 1);
        // The crashed game's positions are not labelled with its forfeit: a run without the crash
        // keeps no fewer (the filters may keep none of a short game's positions anyway).
        let clean =
            generate(&plan(&legal_engine(), 3), &dir.path("clean"), false, &AtomicBool::new(false)).unwrap();
        assert!(outcome.positions <= clean.positions, "{} of {}", outcome.positions, clean.positions);
    }

    #[test]
    #[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
    fn an_engine_that_ignores_node_limits_is_refused_before_any_game() {
        let dir = TempDir::new("datagen-nodes");
        let engine = legal_engine_with(&dir, "ignores-nodes", &["ignore-nodes"]);
        let e = generate(&plan(&engine, 1), &dir.path("run"), false, &AtomicBool::new(false)).unwrap_err();
        let e = format!("{e:#}");
        assert!(e.contains("ignores-nodes") && e.contains("ignore node limits") && e.contains("--tc"), "{e}");
    }
}
