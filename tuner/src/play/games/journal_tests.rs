//! Tests of `play/games/journal.rs`.

use super::*;
use crate::play::games::game::Termination;
use crate::play::games::stats::GameScore;
use crate::testutil::TempDir;

fn identity(nodes: &str) -> RunIdentity {
    RunIdentity([("--nodes".to_string(), nodes.to_string())].into_iter().collect())
}

fn entry(pair: usize, pgn_bytes: u64) -> PairEntry {
    let game = |score, culprit| GameSummary {
        score,
        termination: Termination::Checkmate,
        culprit,
        plies: 40 + pair as u64,
        think_seconds: 0.1 + pair as f64 / 3.0,
    };
    PairEntry { pair, pgn_bytes, games: [game(GameScore::Win, None), game(GameScore::Loss, Some(1))] }
}

/// A journal of `pairs` (finished in that order, 100 bytes of games each) over a games.pgn
/// that also holds the start of a game no entry records.
fn journal(dir: &Path, pairs: &[usize]) {
    let mut journal = PairJournal::create(dir, &identity("300")).unwrap();
    let mut pgn = Vec::new();
    for (n, &pair) in pairs.iter().enumerate() {
        pgn.extend_from_slice(&[b'a' + n as u8; 100]);
        journal.append(&entry(pair, pgn.len() as u64)).unwrap();
    }
    pgn.extend_from_slice(b"[Event \"torn");
    std::fs::write(dir.join(GAMES_FILE), pgn).unwrap();
}

fn append(path: &Path, bytes: &[u8]) {
    OpenOptions::new().append(true).open(path).unwrap().write_all(bytes).unwrap();
}

#[test]
fn resuming_returns_the_entries_in_finishing_order_and_cuts_the_games_back() {
    let dir = TempDir::new("journal");
    let run = dir.path("run");
    journal(&run, &[0, 2, 1, 4]);
    // A kill in the middle of the next record.
    append(&run.join(JOURNAL_FILE), b"{\"pair\":3,\"pgn_by");
    let (mut resumed, entries) = PairJournal::resume(&run, &identity("300"), 10).unwrap();
    assert_eq!(entries, [entry(0, 100), entry(2, 200), entry(1, 300), entry(4, 400)]);
    assert_eq!(std::fs::metadata(run.join(GAMES_FILE)).unwrap().len(), 400);
    // The torn line is gone and new entries follow the last whole one.
    append(&run.join(GAMES_FILE), &[b'e'; 100]);
    resumed.append(&entry(3, 500)).unwrap();
    let (_, again) = PairJournal::resume(&run, &identity("300"), 10).unwrap();
    assert_eq!(again.len(), 5);
    assert_eq!(again[4], entry(3, 500));
}

#[test]
fn another_match_a_smaller_plan_or_no_journal_is_refused() {
    let dir = TempDir::new("journal-refused");
    let run = dir.path("run");
    journal(&run, &[0, 1, 2]);
    let pgn = std::fs::read(run.join(GAMES_FILE)).unwrap();
    let error = |identity: &RunIdentity, pairs| {
        format!("{:#}", PairJournal::resume(&run, identity, pairs).err().expect("refused"))
    };
    let other = error(&identity("500"), 10);
    assert!(other.contains("--nodes: was `300`, now `500`"), "{other}");
    let fewer = error(&identity("300"), 2);
    assert!(fewer.contains("pair 3 was played already") && fewer.contains("at least 6 games"), "{fewer}");
    assert_eq!(std::fs::read(run.join(GAMES_FILE)).unwrap(), pgn, "a refused resume changes nothing");
    let none =
        format!("{:#}", PairJournal::check_resumable(&dir.path("none"), &identity("300"), 1).unwrap_err());
    assert!(none.contains("no match to resume"), "{none}");
    std::fs::write(run.join(JOURNAL_FILE), "{}\n").unwrap();
    assert!(error(&identity("300"), 10).contains("does not start with a match's options"));
}

#[test]
fn a_fresh_journal_resumes_with_no_pairs_and_empty_games() {
    let dir = TempDir::new("journal-fresh");
    let run = dir.path("run");
    PairJournal::create(&run, &identity("300")).unwrap();
    let (_, entries) = PairJournal::resume(&run, &identity("300"), 1).unwrap();
    assert!(entries.is_empty());
    assert_eq!(std::fs::metadata(run.join(GAMES_FILE)).unwrap().len(), 0);
}
