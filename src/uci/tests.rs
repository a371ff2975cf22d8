use std::time::{Duration, Instant};

use super::*;

/// A Uci writing into a buffer the test can read.
fn engine() -> (Uci, Arc<Mutex<Vec<u8>>>) {
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let out: Output = buffer.clone();
    (Uci::new(out), buffer)
}

fn text(buffer: &Arc<Mutex<Vec<u8>>>) -> String {
    String::from_utf8_lossy(&buffer.lock().unwrap()).into_owned()
}

fn run(commands: &[&str]) -> String {
    let (mut uci, buffer) = engine();
    for c in commands {
        uci.handle(c);
    }
    uci.worker.stop_and_wait();
    text(&buffer)
}

/// Runs `commands`, the last a finite `go`, and returns the output once the search has ended on
/// its own (stopping it at once would race with the depth it was asked for).
fn search(commands: &[&str]) -> String {
    let (mut uci, buffer) = engine();
    for c in commands {
        uci.handle(c);
    }
    wait_for(&buffer, "bestmove");
    uci.worker.stop_and_wait();
    text(&buffer)
}

/// Waits until the output contains `needle` (or fails after a few seconds).
fn wait_for(buffer: &Arc<Mutex<Vec<u8>>>, needle: &str) {
    let start = Instant::now();
    while !text(buffer).contains(needle) {
        assert!(start.elapsed() < Duration::from_secs(20), "no '{needle}' in:\n{}", text(buffer));
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn handshake_declares_the_options() {
    let out = run(&["uci", "isready"]);
    assert!(out.starts_with("id name Whetstone"));
    for option in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "MoveOverhead",
        "UCI_Chess960",
        "OwnBook",
        "BookFile",
        "EvalFile",
    ] {
        assert!(out.contains(&format!("option name {option} type")), "{option}");
    }
    assert!(out.contains("uciok\n") && out.ends_with("readyok\n"));
}

#[test]
fn go_perft_divides_and_totals() {
    let out = run(&["position startpos moves e2e4", "go perft 2"]);
    assert!(out.contains("e7e5: 29\n"), "{out}");
    assert!(out.contains("\nNodes searched: 600\n"), "{out}");
}

#[test]
fn go_depth_gives_info_lines_and_one_bestmove() {
    let out = search(&["position startpos", "go depth 5"]);
    assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
    assert!(out.contains("info depth 5 seldepth"), "{out}");
    assert!(out.contains(" score cp ") && out.contains(" hashfull ") && out.contains(" pv "), "{out}");
}

#[test]
fn stop_right_after_go_and_stop_without_search() {
    let (mut uci, buffer) = engine();
    uci.handle("stop");
    uci.handle("go infinite");
    uci.handle("stop");
    uci.handle("isready");
    wait_for(&buffer, "bestmove");
    uci.worker.stop_and_wait();
    let out = text(&buffer);
    assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
    assert!(out.contains("readyok"));
}

#[test]
fn infinite_waits_for_stop_and_isready_answers_meanwhile() {
    let (mut uci, buffer) = engine();
    uci.handle("position fen 8/8/8/8/8/8/k7/K6R w - - 0 1");
    uci.handle("go infinite");
    uci.handle("isready");
    wait_for(&buffer, "readyok");
    std::thread::sleep(Duration::from_millis(200));
    assert!(!text(&buffer).contains("bestmove"), "infinite must not answer before stop");
    uci.handle("stop");
    wait_for(&buffer, "bestmove");
    assert_eq!(uci.worker.state(), worker::State::Waiting);
}

#[test]
fn ponder_then_ponderhit_finishes_on_the_clock() {
    let (mut uci, buffer) = engine();
    uci.handle("position startpos moves e2e4");
    uci.handle("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(100));
    assert!(!text(&buffer).contains("bestmove"));
    uci.handle("ponderhit");
    wait_for(&buffer, "bestmove");
    uci.worker.stop_and_wait();
}

#[test]
fn go_during_a_search_and_quit_during_a_search() {
    let (mut uci, buffer) = engine();
    uci.handle("go infinite");
    uci.handle("go depth 3");
    wait_for(&buffer, "info depth 3");
    uci.worker.stop_and_wait();
    assert_eq!(text(&buffer).matches("bestmove ").count(), 2, "{}", text(&buffer));
    uci.handle("go infinite");
    assert_eq!(uci.handle("quit"), Flow::Quit);
    assert_eq!(text(&buffer).matches("bestmove ").count(), 3);
}

#[test]
fn movetime_is_respected() {
    let (mut uci, buffer) = engine();
    let start = Instant::now();
    uci.handle("go movetime 300");
    wait_for(&buffer, "bestmove");
    let elapsed = start.elapsed();
    assert!(elapsed >= Duration::from_millis(200) && elapsed < Duration::from_millis(1000), "{elapsed:?}");
}

#[test]
fn mate_and_stalemate_roots() {
    let out = search(&["position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go depth 4"]);
    assert!(out.contains("score mate 1") && out.contains("bestmove a1a8"), "{out}");
    let out = search(&["position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go depth 4"]);
    assert!(out.contains("bestmove 0000"), "{out}");
}

#[test]
fn bad_input_is_reported_not_fatal() {
    let out = run(&[
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position startpos moves e2e4 e2e4 d7d5",
        "d",
        "go perft x",
        "frobnicate",
        "position",
        "setoption name UCI_Chess960 value maybe",
        "setoption name Hash value -3",
        "setoption name Nonsense value 1",
        "setoption",
        "go depth 2 sideways",
    ]);
    assert!(out.contains("info string invalid FEN"), "{out}");
    assert!(out.contains("'e2e4' is not legal"), "{out}");
    // The legal prefix was applied, the rest not.
    assert!(out.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "{out}");
    assert!(out.contains("go perft needs a depth"));
    assert!(out.contains("unknown command 'frobnicate'"));
    assert!(out.contains("malformed position command"));
    assert!(out.contains("UCI_Chess960 takes true or false"));
    assert!(out.contains("Hash: -3 is outside"));
    assert!(out.contains("unknown option 'Nonsense'"));
    assert!(out.contains("malformed setoption"));
    assert!(out.contains("unknown 'go' parameter 'sideways'") && out.contains("bestmove"), "{out}");
}

#[test]
fn eval_command_and_eval_file() {
    let out = run(&["position startpos moves e2e4", "eval"]);
    assert!(out.trim_end().lines().last().unwrap().starts_with("Final evaluation: "), "{out}");
    let out = run(&["setoption name EvalFile value /nonexistent/eval.toml"]);
    assert!(out.contains("EvalFile not loaded") && out.contains("cannot read"), "{out}");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/params/eval.toml");
    let out = run(&[&format!("setoption name EvalFile value {path}")]);
    assert!(out.contains("using parameters from"), "{out}");
    // A file with a value out of bounds is refused, naming the term.
    let bad = std::env::temp_dir().join(format!("whetstone-bad-{}.toml", std::process::id()));
    let mut text = std::fs::read_to_string(path).unwrap();
    // The knight's middle-game value: the second number of the material term's `mg` list.
    let material = text.find("name = \"material\"").unwrap();
    let list = material + text[material..].find("mg = [").unwrap();
    let knight = list + text[list..].find(',').unwrap() + 1;
    let end = knight + text[knight..].find(',').unwrap();
    text.replace_range(knight..end, " 9999");
    std::fs::write(&bad, text).unwrap();
    let out = run(&[&format!("setoption name EvalFile value {}", bad.display())]);
    std::fs::remove_file(&bad).ok();
    assert!(out.contains("term 'material' [knight] mg: 9999 is outside its bounds"), "{out}");
}

#[test]
fn tunable_option_names_are_uci_safe() {
    let options = options::tunable_options(&crate::eval::EvalParamSet::baked().into_set());
    assert!(options.len() > 500);
    assert!(options.iter().all(|(n, _, _)| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')));
    assert!(options.iter().any(|(n, _, _)| n == "pst_knight_e4_mg"));
}

#[cfg(feature = "uci-tunables")]
#[test]
fn tunable_options_change_the_evaluation() {
    let (mut uci, buffer) = engine();
    uci.handle("uci");
    assert!(text(&buffer).contains("option name tempo_mg type spin default"));
    assert!(text(&buffer).contains("option name nmp_base type spin default 3"));
    uci.handle("setoption name tempo_mg value 42");
    assert_eq!(uci.worker.weights().mg[crate::eval::baked::idx::TEMPO], 42);
}

/// Random command lines built from protocol words never panic the engine.
#[test]
fn random_command_lines_never_panic() {
    let words = [
        "uci",
        "isready",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "perft",
        "setoption",
        "name",
        "value",
        "UCI_Chess960",
        "true",
        "e2e4",
        "e7e5",
        "e1g1",
        "a7a8q",
        "8/8/8/8/8/8/8/K6k",
        "w",
        "b",
        "-",
        "KQkq",
        "0",
        "1",
        "2",
        "-1",
        "99999999999",
        "d",
        "stop",
        "ucinewgame",
        "\u{e9}",
        "",
        "depth",
        "nodes",
        "Hash",
        "eval",
    ];
    let mut state = 0x9e37_79b9_u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let (mut uci, _buffer) = engine();
    for _ in 0..3_000 {
        let line: Vec<&str> = (0..next(8)).map(|_| words[next(words.len())]).collect();
        let mut line = line.join(" ");
        if line.starts_with("go") {
            line = "go depth 1".to_string(); // keep searches short
        }
        if line.contains("perft") {
            line = line.replace("99999999999", "1").replace("perft 2", "perft 1");
        }
        assert_eq!(uci.handle(&line), Flow::Continue, "{line}");
    }
    uci.worker.stop_and_wait();
}

#[test]
fn chess960_castling_notation() {
    // Queen-side castling is legal (king takes rook: e1b1); king-side crosses the g-file rook's attack.
    let fen = "position fen 1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1";
    let out = run(&["setoption name UCI_Chess960 value true", fen, "go perft 1"]);
    assert!(out.contains("e1b1: 1\n") && !out.contains("e1g1: 1\n"), "{out}");
    assert!(out.contains("Nodes searched: 25\n"), "{out}");
    let out = run(&["position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "go perft 1"]);
    assert!(out.contains("e1g1: 1\n") && out.contains("e1c1: 1\n"), "{out}");
}

#[test]
fn multipv_reports_distinct_moves() {
    let out = search(&["setoption name MultiPV value 3", "position startpos", "go depth 4"]);
    let last: Vec<&str> = out.lines().filter(|l| l.starts_with("info depth 4 ")).collect();
    assert_eq!(last.len(), 3, "{out}");
    let firsts: std::collections::HashSet<&str> =
        last.iter().map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap()).collect();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn threads_and_hash_can_change_between_searches() {
    let out = run(&[
        "setoption name Threads value 2",
        "setoption name Hash value 32",
        "position startpos",
        "go depth 6",
        "setoption name Threads value 1",
        "go depth 3",
    ]);
    assert_eq!(out.matches("bestmove ").count(), 2, "{out}");
}

/// The `info string` lines of an output.
fn notes(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("info string ")).collect()
}

/// A `go` whose limits were all unusable still ends by itself (no `stop` is sent here), after
/// exactly one note per bad part and one for the fallback limit.
#[test]
fn go_without_a_usable_limit_ends_by_itself() {
    let fallback = "info string no usable search limit for White (to move): searching 1000 ms";
    for (line, bad) in [
        ("go wtime x btime 1000", Some("info string 'go wtime x': not a number (ignored)")),
        ("go btime 1000", None),
        ("go nodes abc", Some("info string 'go nodes abc': not a number (ignored)")),
        ("go depth x", Some("info string 'go depth x': not a number (ignored)")),
    ] {
        let start = Instant::now();
        let out = search(&["position startpos", line]);
        let expected: Vec<&str> = bad.into_iter().chain([fallback]).collect();
        assert_eq!(notes(&out), expected, "{line}");
        assert_eq!(out.matches("bestmove ").count(), 1, "{line}: {out}");
        assert!(start.elapsed() < Duration::from_secs(5), "{line}: {:?}", start.elapsed());
    }
}

#[test]
fn go_clamps_negative_and_zero_limits_with_one_note() {
    for (line, note) in [
        ("go movetime -5", "info string 'go movetime -5': below 1, using 1"),
        ("go depth -3", "info string 'go depth -3': below 1, using 1"),
        ("go nodes 0", "info string 'go nodes 0': below 1, using 1"),
    ] {
        let out = search(&["position startpos", line]);
        assert_eq!(notes(&out), [note], "{line}");
        assert_eq!(out.matches("bestmove ").count(), 1, "{line}: {out}");
    }
}

/// An overflowing depth is the deepest search: no fallback, one note, and `stop` still answers.
#[test]
fn go_with_an_overflowing_depth_searches_to_the_maximum() {
    let (mut uci, buffer) = engine();
    uci.handle("go depth 99999999999999999999");
    wait_for(&buffer, "info depth 2 ");
    uci.handle("stop");
    wait_for(&buffer, "bestmove");
    uci.worker.stop_and_wait();
    let out = text(&buffer);
    assert_eq!(notes(&out), ["info string 'go depth 99999999999999999999': above 127, using 127"], "{out}");
}

#[test]
fn a_rejected_fen_or_move_names_the_position_kept() {
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let out = run(&["position startpos moves e2e4", "position fen garbage", "d"]);
    assert_eq!(
        notes(&out),
        [format!(
            "info string invalid FEN 'garbage' rejected: FEN has 1 fields; expected 4 to 6 (placement, side, \
             castling, en passant, [halfmove, fullmove]); the position stays {after_e4}"
        )]
    );
    assert!(out.contains(&format!("Fen: {after_e4}\n")), "{out}");
    let out = run(&["position startpos moves e2e4", "position fen 8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert!(
        out.contains("has 0 kings") && out.ends_with(&format!("the position stays {after_e4}\n")),
        "{out}"
    );
    let out = run(&["position startpos moves e2e4", "position sideways"]);
    assert!(
        out.contains(&format!(
            "malformed position command: expected 'startpos' or 'fen <fen>'; the position stays {after_e4}"
        )),
        "{out}"
    );
    let out = run(&["position startpos moves e2e4 e2e4 d7d5", "d"]);
    assert_eq!(
        notes(&out),
        [format!(
            "info string 'e2e4' is not legal in this position ({after_e4}); it and the moves after it were not \
             applied; the position stays there"
        )]
    );
    assert!(out.contains(&format!("Fen: {after_e4}\n")), "{out}");
    let out = run(&["position startpos moves e2e4 zz9 d7d5"]);
    assert_eq!(
        notes(&out),
        [format!(
            "info string 'zz9' is not a move in UCI notation (expected e.g. e2e4, e7e8q); it and the moves after \
             it were not applied; the position stays {after_e4}"
        )]
    );
}

/// Writes `text` to a temporary params file, loads it with EvalFile, and returns the output.
fn load_eval_file(name: &str, text: &str) -> (String, String) {
    let path = std::env::temp_dir().join(format!("whetstone-{name}-{}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let out = run(&[&format!("setoption name EvalFile value {}", path.display())]);
    std::fs::remove_file(&path).ok();
    (out, path.display().to_string())
}

#[test]
fn eval_file_errors_are_whole_and_name_the_file() {
    // A syntax error: the parser's whole message, line by line, each an `info string`.
    let (out, path) = load_eval_file("syntax", "[[term]\nname = 1\n");
    assert!(out.lines().all(|l| l.starts_with("info string ")), "{out}");
    let first = format!(
        "info string EvalFile not loaded: {path}: not valid TOML: TOML parse error at line 1, column"
    );
    assert!(out.starts_with(&first), "{out}");
    assert!(out.contains("info string 1 | [[term]\n"), "{out}");
    assert!(out.contains("info string invalid table header\ninfo string expected `.`, `]]`\n"), "{out}");
    // An unknown and a missing term name the file, not just "parameters".
    let shipped = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/params/eval.toml")).unwrap();
    let extra = format!(
        "{shipped}\n[[term]]\nname = \"mystery\"\nshape = \"scalar\"\nmin = 0\nmax = 1\nmg = 0\neg = 0\n"
    );
    let (out, path) = load_eval_file("unknown", &extra);
    assert_eq!(
        notes(&out),
        [format!("info string EvalFile not loaded: {path}: term 'mystery' is not one the evaluation knows")]
    );
    // The first term (a new term still at 0 would be taken from the build).
    let first = shipped.find("[[term]]").unwrap();
    let second = first + 1 + shipped[first + 1..].find("[[term]]").unwrap();
    let name = shipped[first..].split('"').nth(1).unwrap();
    let (out, path) = load_eval_file("missing", &format!("{}{}", &shipped[..first], &shipped[second..]));
    assert_eq!(
        notes(&out),
        [format!(
            "info string EvalFile not loaded: {path}: term '{name}' is missing (the evaluation needs it; a file older than the term can take its [[term]] block from params/eval.toml)"
        )]
    );
}
