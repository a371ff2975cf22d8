use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use whetstone::{Color, Move};

use super::*;
use crate::play::engines::engine_process::Protocol;
use crate::play::engines::player::Score;
use crate::play::games::game::{play_game, Adjudication, GameRecord, GameSettings, Termination};
use crate::testutil::TempDir;

const T: Duration = Duration::from_secs(3);
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn spec(mode: &str, log: Option<&Path>) -> EngineSpec {
    let script = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/fake_xboard.py"));
    let mut args = vec![script.display().to_string(), mode.to_string()];
    args.extend(log.map(|log| log.display().to_string()));
    EngineSpec {
        name: format!("xb-{mode}"),
        command: PathBuf::from("python3"),
        args,
        options: Vec::new(),
        working_dir: None,
        protocol: Protocol::Xboard,
    }
}

fn fake(mode: &str, log: Option<&Path>) -> Xboard {
    Xboard::start(spec(mode, log), T).unwrap_or_else(|e| panic!("{e:#}"))
}

/// Plays the moves it is given, in order, instantly.
struct Scripted {
    moves: Vec<&'static str>,
    next: usize,
}

impl Scripted {
    fn new(moves: &[&'static str]) -> Scripted {
        Scripted { moves: moves.to_vec(), next: 0 }
    }
}

impl Player for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn new_game(&mut self) -> Result<(), PlayerFailure> {
        self.next = 0;
        Ok(())
    }

    fn think(
        &mut self,
        game: &GameView,
        _: MoveBudget,
        _: Option<Duration>,
    ) -> Result<Thought, PlayerFailure> {
        let text = self.moves[self.next % self.moves.len()];
        self.next += 1;
        let best = game.pos.parse_uci_move(text).unwrap_or(Move::NULL);
        Ok(Thought { best, score: Some(Score::Cp(0)), depth: 1, nodes: 1, elapsed: Duration::from_millis(1) })
    }
}

fn settings(tc: &str) -> GameSettings {
    GameSettings {
        limit: MoveLimit::Clock(tc.parse().unwrap()),
        adjudication: Adjudication::none(),
        time_margin: Duration::ZERO,
        hang_timeout: Duration::from_secs(5),
    }
}

/// The fake as Black against Fool's mate's White moves.
fn as_black(engine: &mut Xboard, tc: &str) -> GameRecord {
    let mut white = Scripted::new(&["f2f3", "g2g4"]);
    play_game(&mut white, engine, START, &settings(tc), &AtomicBool::new(false)).expect("not stopped")
}

#[test]
fn a_game_in_coordinate_moves_and_one_in_san_end_by_the_rules() {
    for mode in ["good", "san"] {
        let dir = TempDir::new("xboard-game");
        let log = dir.path("received.log");
        let mut engine = fake(mode, Some(&log));
        let game = as_black(&mut engine, "10+0.1");
        assert_eq!(
            (game.termination, game.culprit),
            (Termination::Checkmate, None),
            "{mode}: {}",
            game.reason
        );
        let sans: Vec<&str> = game.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"], "{mode}");
        let black = &game.moves[1].thought;
        assert_eq!((black.score, black.depth, black.nodes), (Some(Score::Cp(-35)), 2, 150), "{mode}");
        // Quitting waits for the engine to exit, so that it has logged everything.
        drop(engine);
        let received = std::fs::read_to_string(&log).unwrap();
        // Its clock and ours (White spent 1 ms and gained 0.1 s), in centiseconds, before each of
        // its moves; the result at the end.
        assert!(received.contains("level 0 0:10 0.1\n"), "{mode}: {received}");
        assert!(received.contains("time 1000\notim 1009\ngo\n"), "{mode}: {received}");
        assert!(received.contains("result 0-1 {Black mates}\n"), "{mode}: {received}");
    }
    // And as White: the fake plays White's half of the script.
    let mut engine = fake("good", None);
    let mut black = Scripted::new(&["e7e5", "d8h4"]);
    let game =
        play_game(&mut engine, &mut black, START, &settings("10+0.1"), &AtomicBool::new(false)).unwrap();
    assert_eq!((game.termination, game.moves.len()), (Termination::Checkmate, 4));
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn failures_lose_the_game_for_the_engine_and_a_crashed_engine_is_restarted() {
    for (mode, termination) in [
        ("crash-on-go", Termination::Crash),
        ("hang", Termination::TimeForfeit),
        ("illegal", Termination::IllegalMove),
        ("refuse", Termination::IllegalMove),
        ("resign", Termination::Resignation),
        ("resign-after", Termination::Resignation),
    ] {
        let mut engine = fake(mode, None);
        let game = as_black(&mut engine, "0.2+0");
        assert_eq!(
            (game.termination, game.culprit, game.outcome.pgn()),
            (termination, Some(Color::Black), "1-0"),
            "{mode}: {}",
            game.reason
        );
        // The next game starts (a dead engine is started again) and fails the same way.
        let again = as_black(&mut engine, "0.2+0");
        assert_eq!(again.termination, termination, "{mode} again: {}", again.reason);
    }
}

#[test]
fn a_resignation_is_recorded_with_the_engine_s_words() {
    let mut engine = fake("resign", None);
    let game = as_black(&mut engine, "10+0.1");
    assert_eq!(game.reason, "Black resigns: it sent 'resign'");
}

#[test]
fn a_false_draw_claim_is_ignored() {
    let mut engine = fake("claim", None);
    let game = as_black(&mut engine, "10+0.1");
    assert_eq!(game.termination, Termination::Checkmate, "{}", game.reason);
}

#[test]
fn runs_the_engine_cannot_play_are_refused_before_they_start() {
    let mut engine = fake("good", None);
    let nodes = engine.check_games(&MoveLimit::Nodes(1000), &[START]).unwrap_err();
    assert!(nodes.contains("no node limit") && nodes.contains("--tc"), "{nodes}");
    assert_eq!(engine.check_games(&MoveLimit::Depth(3), &[START]), Ok(()));
    let depth = fake("no-sd", None).check_games(&MoveLimit::Depth(3), &[START]).unwrap_err();
    assert!(depth.contains("does not take `sd`"), "{depth}");
    // Castling rights that piece placement does not imply: only setboard can say them.
    let lost = "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1";
    let clock = MoveLimit::Clock("1+0".parse().unwrap());
    assert_eq!(engine.check_games(&clock, &[START, lost]), Ok(()));
    let edit = fake("v1", None).check_games(&clock, &[START, lost]).unwrap_err();
    assert!(edit.contains(lost) && edit.contains("White may not castle king side"), "{edit}");
}
