use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::*;
use crate::play::engines::inprocess::EngineSetup;
use crate::play::games::journal::JOURNAL_FILE;
use crate::play::games::output::GAMES_FILE;
use crate::play::games::stats::EloModel;
use crate::play::limit::LimitChoice;
use crate::testutil::{test_settings, TempDir};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn engine(params: &Path) -> Contestant {
    let mut setup = EngineSetup::from_files(params, None).unwrap();
    setup.hash_mb = 1;
    Contestant::InProcess(setup)
}

/// `pairs` pairs of `params/eval.toml` against `opponent` at 300 nodes per move from the built-in
/// book (seed 1), with the shared options' adjudication.
fn plan(opponent: &Path, pairs: usize, concurrency: usize, sprt: Option<Sprt>) -> MatchPlan {
    let play = test_settings(LimitChoice::nodes(300));
    let (openings, _) = play.openings().unwrap();
    let jobs = play.match_jobs(&openings, pairs).unwrap();
    MatchPlan {
        contestants: [engine(&repo("params/eval.toml")), engine(opponent)],
        settings: play.game_settings().unwrap(),
        jobs,
        sprt,
        concurrency,
        quiet: true,
        event: "test".to_string(),
        identity: RunIdentity([("--nodes".to_string(), "300".to_string())].into_iter().collect()),
    }
}

/// Everything a tally counts but the thinking time, which no two runs share.
fn counts(tally: &MatchTally) -> String {
    format!(
        "{:?} {:?} {:?} {:?} plies {}",
        tally.wld, tally.pairs, tally.terminations, tally.failures, tally.plies
    )
}

/// The games of a PGN file by round, without the time each move took.
fn games_by_round(dir: &Path) -> Vec<(usize, String)> {
    let pgn = std::fs::read_to_string(dir.join(GAMES_FILE)).unwrap();
    let mut games: Vec<(usize, String)> = pgn
        .split("[Event ")
        .filter(|g| !g.is_empty())
        .map(|game| {
            let round = game
                .lines()
                .find_map(|l| l.strip_prefix("[Round \"").and_then(|r| r.strip_suffix("\"]")))
                .unwrap()
                .parse()
                .unwrap();
            let moves: Vec<&str> = game
                .lines()
                .filter(|l| !l.starts_with('['))
                .flat_map(str::split_whitespace)
                .filter(|w| !w.ends_with("s}"))
                .collect();
            (round, moves.join(" "))
        })
        .collect();
    games.sort();
    games
}

/// A stop flag of its own for each run: the runner raises it when the SPRT decides.
fn go() -> AtomicBool {
    AtomicBool::new(false)
}

fn append(path: &Path, bytes: &[u8]) {
    OpenOptions::new().append(true).open(path).unwrap().write_all(bytes).unwrap();
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn a_match_halted_after_some_pairs_and_resumed_ends_as_an_uninterrupted_one() {
    let handset = repo("params/handset.toml");
    let dir = TempDir::new("match-resume");
    let whole = dir.path("whole");
    let uninterrupted = play_match(&plan(&handset, 8, 2, None), &whole, false, &go()).unwrap();
    assert_eq!((uninterrupted.pairs_played, uninterrupted.interrupted), (8, false));

    // Ctrl-C once two pairs are in the journal: the games in progress are abandoned, and pairs
    // may have finished out of order on the two threads.
    let parts = dir.path("parts");
    let stop = AtomicBool::new(false);
    let halted = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                let lines =
                    std::fs::read_to_string(parts.join(JOURNAL_FILE)).map_or(0, |t| t.lines().count());
                if lines >= 3 {
                    stop.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        let halted = play_match(&plan(&handset, 8, 2, None), &parts, false, &stop);
        stop.store(true, Ordering::Relaxed);
        halted.unwrap()
    });
    assert!(halted.pairs_played >= 2 && halted.pairs_played < 8, "halted after {}", halted.pairs_played);
    assert!(halted.interrupted);
    // And a kill in the middle of writing the next pair.
    append(&parts.join(GAMES_FILE), b"[Event \"torn");
    append(&parts.join(JOURNAL_FILE), b"{\"pair\":7,\"pgn_bytes\":");

    let resumed = play_match(&plan(&handset, 8, 2, None), &parts, true, &go()).unwrap();
    assert_eq!(resumed.pairs_replayed, halted.pairs_played);
    assert_eq!(resumed.pairs_replayed + resumed.pairs_played, 8);
    assert!(!resumed.interrupted);
    assert_eq!(counts(&resumed.tally), counts(&uninterrupted.tally));
    assert_eq!(games_by_round(&parts), games_by_round(&whole));
    assert_eq!(games_by_round(&whole).len(), 16);
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn a_resumed_sprt_stops_after_the_pair_an_uninterrupted_one_stops_after() {
    // The hand-set values against a far weaker evaluation: H1 within a few pairs, on one thread
    // so that pairs finish in order and the stopping pair is fixed.
    let weak = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/weak.toml");
    let sprt = || Some(Sprt::new(0.0, 100.0, 0.1, 0.1, EloModel::Logistic).unwrap());
    let dir = TempDir::new("match-sprt");
    let whole = dir.path("whole");
    let full = plan(&weak, 100, 1, sprt());
    let uninterrupted = play_match(&full, &whole, false, &go()).unwrap();
    assert_eq!(full.decision(&uninterrupted.tally), Some(SprtDecision::AcceptH1));
    let stopped_after = uninterrupted.pairs_played;
    assert!(stopped_after > 2 && stopped_after < 100, "{stopped_after} pairs");

    // The first two pairs, then the rest as a resumed match.
    let parts = dir.path("parts");
    let first = play_match(&plan(&weak, 2, 1, sprt()), &parts, false, &go()).unwrap();
    assert_eq!((first.pairs_played, full.decision(&first.tally)), (2, None));
    let resumed = play_match(&full, &parts, true, &go()).unwrap();
    assert_eq!((resumed.pairs_replayed, resumed.pairs_played), (2, stopped_after - 2));
    assert_eq!(full.decision(&resumed.tally), Some(SprtDecision::AcceptH1));
    assert_eq!(counts(&resumed.tally), counts(&uninterrupted.tally));
    let llr = |o: &MatchResults| o.tally.llr(sprt().as_ref().unwrap());
    assert_eq!(llr(&resumed), llr(&uninterrupted));

    // Resuming a decided match plays nothing more.
    let again = play_match(&full, &parts, true, &go()).unwrap();
    assert_eq!((again.pairs_replayed, again.pairs_played), (stopped_after, 0));
    assert_eq!(counts(&again.tally), counts(&uninterrupted.tally));
    assert_eq!(games_by_round(&parts), games_by_round(&whole));
}

#[test]
fn a_resume_is_checked_before_anything_starts() {
    let handset = repo("params/handset.toml");
    let dir = TempDir::new("match-check");
    let run = dir.path("run");
    let mut plan = plan(&handset, 2, 1, None);
    assert!(format!("{:#}", plan.check_resumable(&run).unwrap_err()).contains("no match to resume"));
    let stopped = AtomicBool::new(true);
    play_match(&plan, &run, false, &stopped).unwrap();
    plan.check_resumable(&run).unwrap();
    plan.identity.0.insert("--nodes".to_string(), "500".to_string());
    let error = format!("{:#}", plan.check_resumable(&run).unwrap_err());
    assert!(error.contains("--nodes: was `300`, now `500`"), "{error}");
}
