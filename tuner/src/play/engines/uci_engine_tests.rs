use super::*;
use crate::play::engines::engine_process::Protocol;
use crate::testutil::{fake_engine_spec, testdata, TempDir};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const T: Duration = Duration::from_secs(3);

fn fake_spec(mode: &str, log: Option<&Path>) -> EngineSpec {
    fake_engine_spec("fake_uci.py", Protocol::Uci, mode, log)
}

fn fake(mode: &str) -> UciEngine {
    UciEngine::start(&fake_spec(mode, None), T).unwrap_or_else(|e| panic!("{e}"))
}

fn startpos() -> &'static str {
    STARTPOS_FEN
}

fn moves(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// A log file the fake engine appends the lines it receives to, in a folder removed on drop.
struct Log(PathBuf, #[allow(dead_code, reason = "held to remove the folder on drop")] TempDir);

impl Log {
    fn new() -> Log {
        let dir = TempDir::new("uci-engine-test");
        Log(dir.path("engine.log"), dir)
    }
    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.0).unwrap_or_default().lines().map(str::to_string).collect()
    }
}

#[cfg(target_os = "linux")]
fn process_exists(pid: u32) -> bool {
    // A zombie still has a /proc entry, so this also checks that the child was reaped.
    Path::new(&format!("/proc/{pid}")).exists()
}

// ---- pure parsing and formatting ----

#[test]
fn position_command_uses_startpos_only_for_the_start_position() {
    assert_eq!(position_command(startpos(), &[]), "position startpos");
    assert_eq!(
        position_command("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq -", &moves("e2e4 e7e5")),
        "position startpos moves e2e4 e7e5"
    );
    let fen = "8/8/8/4k3/8/8/4P3/4K3 w - - 3 40";
    assert_eq!(position_command(fen, &moves("e2e4")), format!("position fen {fen} moves e2e4"));
    assert_eq!(
        position_command(" 8/8/8/4k3/8/8/4P3/4K3\tw - -\n", &[]),
        "position fen 8/8/8/4k3/8/8/4P3/4K3 w - -"
    );
    // Black to move in the start position is not the start position.
    let black = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
    assert_eq!(position_command(black, &[]), format!("position fen {black}"));
    // A stray newline in a move cannot split the command.
    assert_eq!(position_command(startpos(), &moves("e2e4\n")), "position startpos moves e2e4");
}

#[test]
fn go_command_forms_each_limit() {
    assert_eq!(go_command(&MoveBudget::Nodes(1000)), "go nodes 1000");
    assert_eq!(go_command(&MoveBudget::Depth(7)), "go depth 7");
    let clock = MoveBudget::Clock { time_ms: [1000, 900], inc_ms: [10, 20], movestogo: None };
    assert_eq!(go_command(&clock), "go wtime 1000 btime 900 winc 10 binc 20");
    let clock = MoveBudget::Clock { time_ms: [1, 2], inc_ms: [0, 0], movestogo: Some(40) };
    assert_eq!(go_command(&clock), "go wtime 1 btime 2 winc 0 binc 0 movestogo 40");
}

#[test]
fn info_lines_give_the_last_values_and_prefer_exact_scores() {
    let mut info = SearchInfo::default();
    info.update("info depth 1 seldepth 2 score cp 13 nodes 20 pv e2e4 depth 99");
    info.update("info depth 2 score mate -3 nodes 150 nps 1000 time 5 pv e2e4 e7e5");
    info.update("info depth 3 seldepth 5 score cp 40 upperbound nodes 300");
    info.update("info string depth 77 score cp 1");
    info.update("info depth x nodes -5 score cp");
    let reply = info.into_reply("e2e4".to_string(), Duration::ZERO);
    assert_eq!(reply.score, Some(EngineScore::Mate(-3)));
    assert_eq!((reply.depth, reply.seldepth, reply.nodes), (Some(3), Some(5), Some(300)));

    let mut info = SearchInfo::default();
    info.update("info depth 1 score cp -20 lowerbound nodes 5");
    assert_eq!(info.into_reply(String::new(), Duration::ZERO).score, Some(EngineScore::Cp(-20)));
}

#[test]
fn bestmove_shapes() {
    assert_eq!(parse_bestmove("bestmove e2e4 ponder e7e5"), Ok("e2e4".to_string()));
    assert_eq!(parse_bestmove("bestmove  e7e8q"), Ok("e7e8q".to_string()));
    assert_eq!(parse_bestmove("bestmove 0000"), Ok("0000".to_string()));
    assert_eq!(parse_bestmove("bestmove (none)"), Ok("(none)".to_string()));
    for bad in ["bestmove", "bestmove zz99", "bestmove e2e4x", "bestmove e2e", "bestmove e9e4"] {
        assert!(parse_bestmove(bad).is_err(), "{bad}");
    }
}

#[test]
fn id_name_lines_parse() {
    assert_eq!(parse_id_name("id  name  Stockfish 15.1 "), Some("Stockfish 15.1".to_string()));
    assert_eq!(parse_id_name("id author T. Romstad"), None);
}

// ---- against the fake engines ----

#[test]
fn start_reads_id_and_options_and_sends_setoption() {
    let log = Log::new();
    let mut spec = fake_spec("good", Some(&log.0));
    spec.options = vec![
        ("skill level".to_string(), "3".to_string()),
        ("UCI_LimitStrength".to_string(), "true".to_string()),
        ("Clear Hash".to_string(), String::new()),
    ];
    let engine = UciEngine::start(&spec, T).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(engine.name(), "fake-good");
    assert_eq!(engine.id_name(), Some("FakeUCI 1.0"));
    let names: Vec<&str> = engine.declared_options().iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["Hash", "Skill Level", "UCI_LimitStrength", "Style", "Clear Hash", "Debug Log File"]);
    let skill = &engine.declared_options()[1];
    assert_eq!((skill.default.as_deref(), skill.min, skill.max), (Some("20"), Some(0), Some(20)));
    engine.quit(T);
    assert_eq!(
        log.lines(),
        [
            "uci",
            "setoption name Skill Level value 3",
            "setoption name UCI_LimitStrength value true",
            "setoption name Clear Hash",
            "isready",
            "quit"
        ]
    );
}

#[test]
fn undeclared_option_is_a_protocol_error_naming_it() {
    let mut spec = fake_spec("good", None);
    spec.options = vec![("Threads".to_string(), "4".to_string())];
    match UciEngine::start(&spec, T) {
        Err(EngineError::Protocol { name, message }) => {
            assert_eq!(name, "fake-good");
            assert!(message.contains("'Threads'"), "{message}");
        }
        other => panic!("expected a protocol error, got {:?}", other.err()),
    }
}

#[test]
fn go_sends_position_and_limit_and_reads_the_reply() {
    let log = Log::new();
    let mut engine = UciEngine::start(&fake_spec("good", Some(&log.0)), T).unwrap_or_else(|e| panic!("{e}"));
    assert!(engine.new_game(T).is_ok());
    let fen = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1";
    let limit = MoveBudget::Clock { time_ms: [1000, 2000], inc_ms: [10, 20], movestogo: Some(5) };
    let reply = engine.go(fen, &moves("e2e4 e5d5"), &limit, T).unwrap_or_else(|e| panic!("{e}"));
    // The fake answers MOVES[number of moves played].
    assert_eq!(reply.bestmove, "g1f3");
    assert_eq!(reply.score, Some(EngineScore::Mate(-3)), "the last exact score, not the later bound");
    assert_eq!((reply.depth, reply.seldepth, reply.nodes), (Some(3), Some(5), Some(300)));
    assert!(reply.elapsed > Duration::ZERO && reply.elapsed < T);

    let reply = engine.go(startpos(), &[], &MoveBudget::Nodes(1000), T).map_err(|e| e.to_string());
    assert_eq!(reply.map(|r| r.bestmove), Ok("e2e4".to_string()));
    engine.quit(T);
    assert_eq!(
        log.lines()[2..],
        [
            "ucinewgame",
            "isready",
            "position fen 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1 moves e2e4 e5d5",
            "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5",
            "position startpos",
            "go nodes 1000",
            "quit",
        ]
    );
}

#[test]
fn a_search_stopped_in_time_leaves_the_engine_reusable() {
    let mut engine = fake("hang-once");
    let started = Instant::now();
    match engine.go(startpos(), &[], &MoveBudget::Depth(30), Duration::from_millis(100)) {
        Err(EngineError::Timeout { waiting_for, timeout, .. }) => {
            assert_eq!(waiting_for, "bestmove");
            assert_eq!(timeout, Duration::from_millis(100));
        }
        other => panic!("expected a time-out, got {other:?}"),
    }
    assert!(started.elapsed() < Duration::from_millis(900), "{:?}", started.elapsed());
    assert!(engine.is_alive());
    // The answer to the stopped search (e2e4) must not be taken for this one's.
    let reply = engine.go(startpos(), &moves("e2e4"), &MoveBudget::Nodes(1), T);
    assert_eq!(reply.map(|r| r.bestmove).ok(), Some("e7e5".to_string()));
}

#[test]
fn a_late_answer_to_stop_is_waited_for_and_not_taken_for_the_next_move() {
    let mut engine = fake("hang-once-slow-stop");
    let started = Instant::now();
    let result = engine.go(startpos(), &[], &MoveBudget::Nodes(1), Duration::from_millis(50));
    assert!(matches!(result, Err(EngineError::Timeout { .. })), "{result:?}");
    // It answers `stop` 0.5 s late: within the grace, so it was waited for.
    assert!(started.elapsed() >= Duration::from_millis(500), "{:?}", started.elapsed());
    assert!(engine.is_alive());
    assert!(engine.new_game(T).is_ok());
    let reply = engine.go(startpos(), &moves("e2e4 e7e5"), &MoveBudget::Depth(3), T);
    assert_eq!(reply.map(|r| r.bestmove).ok(), Some("g1f3".to_string()));
}

#[test]
fn an_engine_ignoring_stop_is_killed() {
    let mut engine = fake("ignore-stop");
    let started = Instant::now();
    let result = engine.go(startpos(), &[], &MoveBudget::Nodes(1), Duration::from_millis(50));
    assert!(matches!(result, Err(EngineError::Timeout { .. })), "{result:?}");
    let took = started.elapsed();
    assert!(took >= STOP_GRACE && took < STOP_GRACE + Duration::from_millis(500), "{took:?}");
    assert!(!engine.is_alive());
    // Using it again is an error, not a panic.
    let again = engine.go(startpos(), &[], &MoveBudget::Nodes(1), T);
    assert!(matches!(again, Err(EngineError::Write { .. })), "{again:?}");
}

#[test]
fn a_crash_on_go_is_a_disconnection_with_the_exit_status() {
    let mut engine = fake("crash-on-go");
    match engine.go(startpos(), &[], &MoveBudget::Nodes(1), T) {
        Err(EngineError::Disconnected { waiting_for, status, .. }) => {
            assert_eq!(waiting_for, "bestmove");
            assert!(status.contains('3'), "{status}");
        }
        other => panic!("expected a disconnection, got {other:?}"),
    }
    assert!(!engine.is_alive());
    assert!(engine.new_game(T).is_err());
    assert!(engine.go(startpos(), &[], &MoveBudget::Nodes(1), T).is_err());
}

#[test]
fn a_crash_on_uci_is_a_disconnection() {
    match UciEngine::start(&fake_spec("crash-on-uci", None), T) {
        Err(EngineError::Disconnected { waiting_for, status, .. }) => {
            assert_eq!(waiting_for, "uciok");
            assert!(status.contains('5'), "{status}");
        }
        other => panic!("expected a disconnection, got {:?}", other.err()),
    }
}

#[test]
fn no_uciok_is_a_start_timeout() {
    let started = Instant::now();
    match UciEngine::start(&fake_spec("no-uciok", None), Duration::from_millis(300)) {
        Err(e @ EngineError::Timeout { .. }) => {
            assert_eq!(e.to_string(), "engine 'fake-no-uciok' did not answer 'uciok' within 300ms")
        }
        other => panic!("expected a time-out, got {:?}", other.err()),
    }
    assert!(started.elapsed() < Duration::from_millis(1500), "{:?}", started.elapsed());
}

#[test]
fn garbage_and_a_malformed_bestmove_are_a_protocol_error() {
    let mut engine = fake("garbage");
    assert_eq!(engine.id_name(), Some("FakeUCI 1.0"));
    match engine.go(startpos(), &[], &MoveBudget::Nodes(1), T) {
        Err(EngineError::Protocol { message, .. }) => assert!(message.contains("'zz99'"), "{message}"),
        other => panic!("expected a protocol error, got {other:?}"),
    }
    // The bestmove ended the search: the engine can go on.
    assert!(engine.is_alive());
    assert!(engine.new_game(T).is_ok());
}

#[test]
fn a_missing_program_is_a_spawn_error_naming_it() {
    let spec = EngineSpec {
        name: "ghost".to_string(),
        command: PathBuf::from("/nonexistent/dir/engine-xyz"),
        args: Vec::new(),
        options: Vec::new(),
        working_dir: None,
        protocol: Protocol::Uci,
    };
    match UciEngine::start(&spec, T) {
        Err(e @ EngineError::Spawn { .. }) => {
            assert!(e.to_string().contains("/nonexistent/dir/engine-xyz"), "{e}")
        }
        other => panic!("expected a spawn error, got {:?}", other.err()),
    }
}

#[test]
fn the_engine_runs_in_its_working_dir() {
    let mut spec = fake_spec("good", None);
    // A relative script path only works from the testdata folder.
    spec.args[0] = "fake_uci.py".to_string();
    spec.working_dir = Some(testdata(""));
    let engine = UciEngine::start(&spec, T).map_err(|e| e.to_string());
    assert_eq!(engine.as_ref().map(|e| e.id_name().map(str::to_string)), Ok(Some("FakeUCI 1.0".to_string())));
}

#[cfg(target_os = "linux")]
#[test]
fn quit_ends_the_process_promptly() {
    let engine = fake("good");
    let pid = engine.process.pid();
    let started = Instant::now();
    engine.quit(T);
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
    assert!(!process_exists(pid));
}

#[cfg(target_os = "linux")]
#[test]
fn drop_kills_an_engine_that_ignores_quit() {
    let mut engine = fake("ignore-quit");
    assert!(engine.is_alive());
    let pid = engine.process.pid();
    let started = Instant::now();
    drop(engine);
    assert!(started.elapsed() >= DROP_GRACE, "it was given no time to quit: {:?}", started.elapsed());
    assert!(!process_exists(pid));
}

/// Per-move cost of this code: `go` round trips against the fake engine, compared with the
/// same round trips done directly on the pipes (same engine, no reader thread or parsing),
/// in alternating rounds; the best round of each is reported.
/// `WHETSTONE_MEASURE=1 cargo test -p whetstone-tuner -- --ignored --nocapture round_trip`
#[test]
#[ignore]
fn round_trip_overhead() {
    if !crate::testutil::measuring("round_trip_overhead") {
        return;
    }
    const ROUNDS: u32 = 6;
    const N: u32 = 500;
    let mut engine = fake("good");
    let mut child = Command::new("python3")
        .args([testdata("fake_uci.py").display().to_string(), "good".to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (mut ours, mut raw) = (Duration::MAX, Duration::MAX);
    let mut line = String::new();
    for _ in 0..ROUNDS {
        let started = Instant::now();
        for _ in 0..N {
            let reply = engine.go(startpos(), &moves("e2e4 e7e5"), &MoveBudget::Nodes(1), T);
            assert!(reply.is_ok(), "{reply:?}");
        }
        ours = ours.min(started.elapsed() / N);
        let started = Instant::now();
        for _ in 0..N {
            stdin.write_all(b"position startpos moves e2e4 e7e5\ngo nodes 1\n").expect("write");
            loop {
                line.clear();
                stdout.read_line(&mut line).expect("read");
                if line.starts_with("bestmove") {
                    break;
                }
            }
        }
        raw = raw.min(started.elapsed() / N);
    }
    engine.quit(T);
    drop(stdin);
    let _ = child.wait();
    println!("per move: go() {ours:?}, raw pipes {raw:?}, difference {:?}", ours.abs_diff(raw));
}

/// Against a real engine, when one is installed (`apt-get install stockfish`):
/// `WHETSTONE_REAL_ENGINES=1 cargo test -p whetstone-tuner -- --ignored stockfish`.
#[test]
#[ignore]
fn stockfish() {
    if !crate::testutil::real_engines("stockfish") {
        return;
    }
    let command = PathBuf::from("/usr/games/stockfish");
    if !command.exists() {
        eprintln!("no {}: skipped", command.display());
        return;
    }
    let spec = EngineSpec {
        name: "sf".to_string(),
        command,
        args: Vec::new(),
        options: [("Hash", "16"), ("UCI_LimitStrength", "true"), ("UCI_Elo", "1500")]
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .to_vec(),
        working_dir: None,
        protocol: Protocol::Uci,
    };
    let mut engine = UciEngine::start(&spec, Duration::from_secs(10)).unwrap_or_else(|e| panic!("{e}"));
    assert!(engine.id_name().is_some_and(|n| n.starts_with("Stockfish")), "{:?}", engine.id_name());
    assert!(engine.declared_options().iter().any(|o| o.name == "Skill Level"));
    engine.new_game(Duration::from_secs(10)).unwrap_or_else(|e| panic!("{e}"));
    let long = Duration::from_secs(10);
    let reply = engine.go(startpos(), &[], &MoveBudget::Nodes(1000), long).unwrap_or_else(|e| panic!("{e}"));
    assert!((4..=5).contains(&reply.bestmove.len()) && is_uci_move(&reply.bestmove), "{reply:?}");
    assert!(reply.score.is_some() && reply.depth.is_some() && reply.nodes.is_some(), "{reply:?}");
    let clock = MoveBudget::Clock { time_ms: [1000, 1000], inc_ms: [10, 10], movestogo: None };
    let reply = engine.go(startpos(), &moves("e2e4 e7e5"), &clock, long).unwrap_or_else(|e| panic!("{e}"));
    assert!((4..=5).contains(&reply.bestmove.len()) && is_uci_move(&reply.bestmove), "{reply:?}");
    assert!(reply.elapsed < Duration::from_secs(1), "{reply:?}");
    // A search that cannot end in time is stopped, and the engine goes on.
    let result = engine.go(startpos(), &[], &MoveBudget::Depth(30), Duration::from_millis(100));
    assert!(matches!(result, Err(EngineError::Timeout { .. })), "{result:?}");
    let reply = engine.go(startpos(), &[], &MoveBudget::Depth(3), long).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reply.depth, Some(3), "{reply:?}");
    let pid = engine.process.pid();
    engine.quit(Duration::from_secs(2));
    #[cfg(target_os = "linux")]
    assert!(!process_exists(pid));
    let _ = pid;
}
