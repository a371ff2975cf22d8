use std::path::{Path, PathBuf};

use super::*;
use crate::play::engines::engine_process::Protocol;
use crate::testutil::{fake_engine_spec, TempDir};

const T: Duration = Duration::from_secs(3);
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// After 1. f3: Black to move, where the fake answers e7e5.
const AFTER_F3: &str = "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1";

fn fake_spec(mode: &str, log: Option<&Path>) -> EngineSpec {
    fake_engine_spec("fake_xboard.py", Protocol::Xboard, mode, log)
}

fn fake(mode: &str) -> XboardEngine {
    XboardEngine::start(&fake_spec(mode, None), T).unwrap_or_else(|e| panic!("{e}"))
}

/// A temporary log file the fake engine appends the lines it receives to.
struct Log(TempDir);

impl Log {
    fn new() -> Log {
        Log(TempDir::new("xboard-log"))
    }
    fn path(&self) -> PathBuf {
        self.0.path("received.log")
    }
    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(self.path()).unwrap_or_default().lines().map(str::to_string).collect()
    }
    /// The lines from the first `from` on.
    fn lines_from(&self, from: &str) -> Vec<String> {
        let lines = self.lines();
        let at = lines.iter().position(|l| l == from).unwrap_or_else(|| panic!("no '{from}' in {lines:?}"));
        lines[at..].to_vec()
    }
}

fn moves(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

fn clock() -> XboardBudget {
    XboardBudget::Clock { own_ms: 5_000, opp_ms: 4_000, inc_ms: 50, movestogo: None }
}

fn played(answer: Result<XboardAnswer, EngineError>) -> XboardReply {
    match answer {
        Ok(XboardAnswer::Move(reply)) => reply,
        other => panic!("expected a move, got {other:?}"),
    }
}

#[cfg(target_os = "linux")]
fn process_exists(pid: u32) -> bool {
    // A zombie still has a /proc entry, so this also checks that the child was reaped.
    Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn done_1_ends_the_handshake_and_features_are_answered_and_options_sent() {
    let log = Log::new();
    let mut spec = fake_spec("good", Some(&log.path()));
    spec.options = [("skill", "7"), ("Book", "false"), ("style", "risky"), ("Clear Hash", "")]
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .to_vec();
    let started = Instant::now();
    let engine = XboardEngine::start(&spec, T).unwrap_or_else(|e| panic!("{e}"));
    assert!(started.elapsed() < Duration::from_millis(1500), "done=1 ends the wait: {:?}", started.elapsed());
    let features = engine.features();
    assert_eq!(features.myname.as_deref(), Some("FakeXB 1.0"));
    assert!(features.protover2 && features.ping && features.setboard && features.usermove && features.time);
    assert!(!features.san && features.reuse);
    assert_eq!(engine.declared_options(), ["Skill", "Book", "Style", "Clear Hash"]);
    engine.quit(T);
    assert_eq!(
        log.lines(),
        [
            "xboard",
            "protover 2",
            "accepted ping",
            "accepted setboard",
            "accepted usermove",
            "accepted time",
            "accepted myname",
            "accepted sigint",
            "rejected memory",
            "accepted option",
            "accepted option",
            "accepted option",
            "accepted option",
            "accepted variants",
            "accepted done",
            "option Skill=7",
            "option Book=0",
            "option Style=Risky",
            "option Clear Hash",
            "ping 1",
            "quit",
        ]
    );
}

#[test]
fn done_0_gives_the_engine_more_time_than_two_seconds() {
    let started = Instant::now();
    let engine = XboardEngine::start(&fake_spec("done0", None), Duration::from_secs(5));
    let engine = engine.unwrap_or_else(|e| panic!("{e}"));
    assert!(started.elapsed() >= Duration::from_millis(2500), "{:?}", started.elapsed());
    assert!(engine.features().setboard && engine.features().ping);
}

#[test]
fn done_0_without_done_1_is_a_start_timeout() {
    let started = Instant::now();
    match XboardEngine::start(&fake_spec("done0-never", None), Duration::from_millis(2500)) {
        Err(e @ EngineError::Timeout { .. }) => {
            assert_eq!(e.to_string(), "engine 'fake-done0-never' did not answer 'feature done=1' within 2.5s")
        }
        other => panic!("expected a time-out, got {:?}", other.err()),
    }
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(2500) && took < Duration::from_secs(4), "{took:?}");
}

#[test]
fn an_engine_without_protover_2_is_taken_after_two_seconds_with_the_defaults() {
    let log = Log::new();
    let started = Instant::now();
    let mut engine =
        XboardEngine::start(&fake_spec("v1", Some(&log.path())), T).unwrap_or_else(|e| panic!("{e}"));
    let took = started.elapsed();
    assert!(took >= PROTOVER_WAIT && took < PROTOVER_WAIT + Duration::from_secs(1), "{took:?}");
    assert_eq!(engine.features(), &Features::default());
    // No ping: nothing to wait for; no setboard: the legacy edit mode, Black on move by a2a3.
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    let reply = played(engine.go(AFTER_F3, &[], &clock(), T));
    assert_eq!(reply.mv, "e7e5");
    let reply = played(engine.go(AFTER_F3, &moves("e7e5 g2g4"), &clock(), T));
    assert_eq!(reply.mv, "d8h4", "bare moves, no usermove");
    let lines = log.lines_from("new");
    let pieces = lines.iter().position(|l| l == "#").expect("a cleared board") + 1;
    assert_eq!(lines[..pieces], ["new", "force", "post", "easy", "level 0 0:05 0.05", "a2a3", "edit", "#"]);
    assert_eq!(lines[pieces..pieces + 3], ["Ra1", "Nb1", "Bc1"]);
    let end = lines.iter().position(|l| l == ".").expect("the end of edit mode");
    assert!(lines[pieces..end].contains(&"c".to_string()) && lines[pieces..end].contains(&"Pf3".to_string()));
    assert_eq!(lines[end + 1..end + 5], ["force", "time 500", "otim 400", "go"]);
    assert_eq!(lines[end + 5..], ["force", "g2g4", "time 500", "otim 400", "go"]);
}

#[test]
fn an_undeclared_option_is_a_protocol_error_naming_it() {
    let mut spec = fake_spec("good", None);
    spec.options = vec![("Hash".to_string(), "16".to_string())];
    match XboardEngine::start(&spec, T) {
        Err(EngineError::Protocol { message, .. }) => {
            assert!(
                message.contains("'Hash'") && message.contains("Skill, Book, Style, Clear Hash"),
                "{message}"
            )
        }
        other => panic!("expected a protocol error, got {:?}", other.err()),
    }
}

#[test]
fn go_sets_the_game_up_once_then_sends_only_new_moves_with_the_clocks() {
    let log = Log::new();
    let mut engine =
        XboardEngine::start(&fake_spec("good", Some(&log.path())), T).unwrap_or_else(|e| panic!("{e}"));
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    let reply = played(engine.go(START, &[], &clock(), T));
    assert_eq!((reply.mv.as_str(), reply.text.as_str()), ("f2f3", "f2f3"));
    assert_eq!(reply.thinking, Some(Thinking { depth: 2, score: -35, time_cs: 1, nodes: 150 }));
    assert!(reply.elapsed > Duration::ZERO && reply.elapsed < T);
    let later = XboardBudget::Clock { own_ms: 4_321, opp_ms: 3_999, inc_ms: 50, movestogo: None };
    let reply = played(engine.go(START, &moves("f2f3 e7e5"), &later, T));
    assert_eq!(reply.mv, "g2g4");
    engine.result("0-1", "Black mates {really}").unwrap_or_else(|e| panic!("{e}"));
    engine.quit(T);
    assert_eq!(
        log.lines_from("new"),
        [
            "new",
            "force",
            "ping 2",
            // The start position needs no setboard after `new`.
            "post",
            "easy",
            "level 0 0:05 0.05",
            "ping 3",
            "force",
            "time 500",
            "otim 400",
            "go",
            "force",
            "usermove e7e5",
            "time 432",
            "otim 399",
            "go",
            "force",
            "result 0-1 {Black mates  really }",
            "quit",
        ]
    );
}

#[test]
fn setboard_sets_up_other_positions_and_a_new_game_starts_again() {
    let log = Log::new();
    let mut engine =
        XboardEngine::start(&fake_spec("good", Some(&log.path())), T).unwrap_or_else(|e| panic!("{e}"));
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played(engine.go(AFTER_F3, &[], &clock(), T)).mv, "e7e5");
    // A different game without new_game: set up again from `new`.
    let depth = XboardBudget::Depth { depth: 4, seconds: 30 };
    assert_eq!(played(engine.go(START, &[], &depth, T)).mv, "f2f3");
    let lines = log.lines_from("post");
    assert_eq!(lines[..4], ["post", "easy", "level 0 0:05 0.05", &format!("setboard {AFTER_F3}")]);
    let again = lines.iter().skip(1).position(|l| l == "new").expect("a second set-up") + 1;
    assert_eq!(lines[again..again + 6], ["new", "force", "post", "easy", "sd 4", "st 30"]);
    assert!(!lines[again..].iter().any(|l| l.starts_with("time")), "no clock at a depth limit: {lines:?}");
}

#[test]
fn san_engines_are_sent_san_and_may_answer_in_it() {
    let log = Log::new();
    let mut engine =
        XboardEngine::start(&fake_spec("san", Some(&log.path())), T).unwrap_or_else(|e| panic!("{e}"));
    assert!(engine.features().san && !engine.features().usermove);
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    let reply = played(engine.go(START, &moves("f2f3"), &clock(), T));
    assert_eq!((reply.mv.as_str(), reply.text.as_str()), ("e7e5", "e5"));
    let reply = played(engine.go(START, &moves("f2f3 e7e5 g2g4"), &clock(), T));
    assert_eq!((reply.mv.as_str(), reply.text.as_str()), ("d8h4", "Qh4#"));
    let sent: Vec<String> = log.lines().into_iter().filter(|l| l == "f3" || l == "g4").collect();
    assert_eq!(sent, ["f3", "g4"]);
}

#[test]
fn without_setboard_a_start_with_an_en_passant_capture_is_set_up_after_it() {
    // Black to move may take e3 en passant, which edit mode cannot say; Black (our side) takes,
    // and the engine is set up from the position after the capture instead of being sent it.
    let fen = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3";
    let log = Log::new();
    let mut engine =
        XboardEngine::start(&fake_spec("v1", Some(&log.path())), T).unwrap_or_else(|e| panic!("{e}"));
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played(engine.go(fen, &moves("d4e3"), &clock(), T)).mv, "f2f3");
    let lines = log.lines_from("new");
    assert!(!lines.contains(&"d4e3".to_string()) && !lines.contains(&"a2a3".to_string()), "{lines:?}");
    let black = lines.iter().position(|l| l == "c").expect("black's pieces");
    assert!(lines[black..].contains(&"Pe3".to_string()) && !lines[..black].contains(&"Pe4".to_string()));
}

#[test]
fn a_crash_on_go_is_a_disconnection_with_the_exit_status() {
    let mut engine = fake("crash-on-go");
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    match engine.go(START, &[], &clock(), T) {
        Err(EngineError::Disconnected { waiting_for, status, .. }) => {
            assert_eq!(waiting_for, "move");
            assert!(status.contains('3'), "{status}");
        }
        other => panic!("expected a disconnection, got {other:?}"),
    }
    assert!(!engine.is_alive());
    assert!(engine.new_game(T).is_err());
}

#[test]
fn an_engine_ignoring_move_now_is_killed() {
    let mut engine = fake("hang");
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    let pid = engine.pid();
    let started = Instant::now();
    let result = engine.go(START, &[], &clock(), Duration::from_millis(100));
    assert!(
        matches!(result, Err(EngineError::Timeout { ref waiting_for, .. }) if waiting_for == "move"),
        "{result:?}"
    );
    let took = started.elapsed();
    assert!(took >= STOP_GRACE && took < STOP_GRACE + Duration::from_millis(800), "{took:?}");
    assert!(!engine.is_alive());
    #[cfg(target_os = "linux")]
    assert!(!process_exists(pid));
    let _ = pid;
}

#[test]
fn a_search_stopped_by_move_now_leaves_the_engine_reusable() {
    let mut engine = fake("hang-once");
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    let result = engine.go(START, &[], &clock(), Duration::from_millis(100));
    assert!(matches!(result, Err(EngineError::Timeout { .. })), "{result:?}");
    assert!(engine.is_alive());
    // The engine's board holds the move it made on `?`: the next game is set up from `new`.
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played(engine.go(START, &moves("f2f3"), &clock(), T)).mv, "e7e5");
}

#[test]
fn illegal_unreadable_and_refused_moves_are_protocol_errors() {
    for (mode, needle) in [
        ("illegal", "a1a5"),
        ("garbage", "'zz99' is neither a coordinate move"),
        ("refuse", "refused a move of the game: 'Illegal move: f2f3'"),
    ] {
        let mut engine = fake(mode);
        engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
        match engine.go(START, &moves("f2f3"), &clock(), T) {
            Err(EngineError::Protocol { message, .. }) => {
                assert!(message.contains(needle), "{mode}: {message}")
            }
            other => panic!("{mode}: expected a protocol error, got {other:?}"),
        }
        assert!(engine.is_alive(), "{mode}");
    }
}

#[test]
fn resignations_instead_of_or_after_a_move_and_ignored_claims() {
    let mut engine = fake("resign");
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(engine.go(START, &[], &clock(), T).ok(), Some(XboardAnswer::Resign("resign".to_string())));

    let mut engine = fake("resign-after");
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played(engine.go(START, &[], &clock(), T)).mv, "f2f3");
    std::thread::sleep(Duration::from_millis(50));
    let answer = engine.go(START, &moves("f2f3 e7e5"), &clock(), T);
    assert_eq!(answer.ok(), Some(XboardAnswer::Resign("resign".to_string())));

    // A draw claim is the rules' business: the move after it is played.
    let mut engine = fake("claim");
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played(engine.go(START, &[], &clock(), T)).mv, "f2f3");
    assert_eq!(played(engine.go(START, &moves("f2f3 e7e5"), &clock(), T)).mv, "g2g4");

    assert!(resigns("0-1 {White resigns}", Color::White) && resigns("1-0 {Black resigns}", Color::Black));
    assert!(!resigns("1-0 {White mates}", Color::White) && !resigns("1/2-1/2 {repetition}", Color::Black));
}

#[test]
fn a_refused_set_up_is_a_protocol_error() {
    let mut engine = fake("no-sd");
    engine.new_game(T).unwrap_or_else(|e| panic!("{e}"));
    match engine.go(START, &[], &XboardBudget::Depth { depth: 4, seconds: 30 }, T) {
        Err(EngineError::Protocol { message, .. }) => {
            assert_eq!(message, "refused the game's set-up: 'Illegal move: sd 4'")
        }
        other => panic!("expected a protocol error, got {other:?}"),
    }
}

#[test]
fn a_depth_limit_needs_an_engine_that_takes_sd() {
    let mut engine = fake("no-sd");
    assert_eq!(engine.understands("sd 3", T).ok(), Some(false));
    let mut engine = fake("good");
    assert_eq!(engine.understands("sd 3", T).ok(), Some(true));
    // Without ping there is no telling: taken as yes.
    let mut engine = fake("v1");
    assert_eq!(engine.understands("sd 3", T).ok(), Some(true));
}

#[cfg(target_os = "linux")]
#[test]
fn quit_ends_the_process_promptly() {
    let engine = fake("good");
    let pid = engine.pid();
    let started = Instant::now();
    engine.quit(T);
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
    assert!(!process_exists(pid));
}
