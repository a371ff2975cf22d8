//! Datagen with an engine binary: `testdata/legal_engine.py`, a fake UCI engine that plays legal
//! chess and reports the material from the side to move's view as its score (see its header).

use std::path::{Path, PathBuf};

use super::*;
use crate::dataset::testutil::TempDir;
use crate::play::limit::LimitChoice;
use crate::play::runs::settings::{test_settings, uci_engine_spec};

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
    let (openings, _) = play.openings().unwrap();
    let schedule = play.opening_schedule(openings.len(), pairs).unwrap();
    let spec = uci_engine_spec(engine, Some(1), &["Greed=70".to_string()]).unwrap();
    DatagenPlan {
        engine: Contestant::External(spec),
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
    assert!(pgn.contains("[White \"legal_engine.py\"]") && pgn.contains("{+M3/1"), "mate scores are played");
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
#[cfg_attr(not(feature = "slow-tests"), ignore = "slow: cargo test -p whetstone-tuner --features slow-tests")]
fn an_engine_that_ignores_node_limits_is_refused_before_any_game() {
    let dir = TempDir::new("datagen-nodes");
    let engine = legal_engine_with(&dir, "ignores-nodes", &["ignore-nodes"]);
    let e = generate(&plan(&engine, 1), &dir.path("run"), false, &AtomicBool::new(false)).unwrap_err();
    let e = format!("{e:#}");
    assert!(e.contains("ignores-nodes") && e.contains("ignore node limits") && e.contains("--tc"), "{e}");
}
