//! Drives the real `whetstone` binary over stdin/stdout, as a GUI does, through the UCI cases
//! that matter: handshake, isready during a search, stop right after go, stop with no search,
//! quit during a search, ucinewgame between games, commands faster than the search starts,
//! bad input (a `go` with unusable limits must still answer by itself; errors must arrive as
//! `info string` lines only), ponder/ponderhit, and `bench` as a command-line argument.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_whetstone"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`; fails after `secs` seconds.
    fn expect(&mut self, prefix: &str, secs: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no line starting with '{prefix}' within {secs} s; got {seen:?}"),
            }
        }
    }

    /// Everything printed within `millis` ms.
    fn drain(&mut self, millis: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_millis(millis);
        let mut seen = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            seen.push(line);
        }
        seen
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.child.kill().ok();
        panic!("the engine did not quit");
    }
}

fn count(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}

#[test]
fn handshake_search_and_quit() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok", 5);
    assert!(lines[0].starts_with("id name Whetstone"));
    e.send("isready");
    e.expect("readyok", 5);
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 6");
    let lines = e.expect("bestmove", 30);
    assert!(lines.iter().any(|l| l.starts_with("info depth 6 ")));
    e.quit();
}

#[test]
fn stop_at_once_and_stop_without_search() {
    let mut e = Engine::start();
    e.send("stop");
    e.send("go infinite");
    e.send("stop");
    let lines = e.expect("bestmove", 5);
    assert_eq!(count(&lines, "bestmove"), 1);
    // Nothing more arrives: exactly one bestmove per go.
    assert_eq!(count(&e.drain(300), "bestmove"), 0);
    e.quit();
}

#[test]
fn isready_during_search_and_quit_during_search() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.send("isready");
    let lines = e.expect("readyok", 2);
    assert_eq!(count(&lines, "bestmove"), 0);
    e.send("quit");
    // quit stops the search; the engine exits promptly.
    let deadline = Instant::now() + Duration::from_secs(5);
    while e.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "no exit after quit during a search");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn commands_faster_than_the_search_starts() {
    let mut e = Engine::start();
    // A burst of games' worth of commands without waiting for anything.
    for _ in 0..20 {
        e.send("ucinewgame");
        e.send("position startpos moves d2d4");
        e.send("go depth 2");
        e.send("stop");
        e.send("isready");
    }
    let mut bestmoves = 0;
    let mut readies = 0;
    while readies < 20 {
        let lines = e.expect("readyok", 10);
        bestmoves += count(&lines, "bestmove");
        readies += 1;
    }
    bestmoves += count(&e.drain(500), "bestmove");
    assert_eq!(bestmoves, 20);
    e.quit();
}

#[test]
fn clock_limited_search_answers_in_time() {
    let mut e = Engine::start();
    e.send("position startpos");
    let start = Instant::now();
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    e.expect("bestmove", 5);
    assert!(start.elapsed() < Duration::from_millis(600), "{:?}", start.elapsed());
    e.send("go wtime 50 btime 50");
    let start = Instant::now();
    e.expect("bestmove", 5);
    assert!(start.elapsed() < Duration::from_millis(60), "{:?}", start.elapsed());
    e.quit();
}

#[test]
fn ponder_and_ponderhit() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 2000 btime 2000");
    assert_eq!(count(&e.drain(300), "bestmove"), 0);
    e.send("ponderhit");
    e.expect("bestmove", 5);
    e.quit();
}

#[test]
fn bad_input_never_kills_the_engine() {
    let mut e = Engine::start();
    for line in [
        "position fen not a fen",
        "position startpos moves e2e5",
        "setoption name Hash value lots",
        "xyzzy",
        // Last: its bestmove ends what is read, and an error said after it would be missed.
        "go sideways depth 3",
    ] {
        e.send(line);
    }
    let lines = e.expect("bestmove", 30);
    assert!(count(&lines, "info string") >= 5, "{lines:?}");
    e.send("isready");
    e.expect("readyok", 5);
    e.quit();
}

/// A `go` with limits but none usable answers by itself (nothing sends `stop`), with one
/// `info string` per bad part and one for the fallback; clamped numbers get one each.
#[test]
fn go_with_bad_limits_answers_without_stop() {
    let mut e = Engine::start();
    e.send("position startpos");
    for (line, expected) in [
        ("go wtime x btime 1000", 2),
        ("go btime 1000", 1),
        ("go nodes abc", 2),
        ("go depth 99999999999999999999 movetime 100", 1),
        ("go movetime -5", 1),
        ("go depth -3", 1),
        ("go nodes 0", 1),
    ] {
        e.send(line);
        let lines = e.expect("bestmove", 10);
        assert_eq!(count(&lines, "info string"), expected, "{line}: {lines:?}");
    }
    let fallback = "info string no usable search limit for White (to move): searching 1000 ms";
    e.send("go btime 1000");
    assert!(e.expect("bestmove", 10).iter().any(|l| l == fallback));
    e.quit();
}

/// Every line of a multi-line error (a TOML parser's) reaches the GUI as an `info string`, and a
/// rejected FEN names the position that stays.
#[test]
fn errors_reach_the_gui_as_info_strings_only() {
    let path = std::env::temp_dir().join(format!("whetstone-binary-syntax-{}.toml", std::process::id()));
    std::fs::write(&path, "[[term]\nname = 1\n").unwrap();
    let mut e = Engine::start();
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    e.send("position startpos moves e2e4");
    e.send("position fen garbage");
    e.send("isready");
    let lines = e.expect("readyok", 5);
    std::fs::remove_file(&path).ok();
    let (last, notes) = lines.split_last().unwrap();
    assert_eq!(last, "readyok");
    assert!(notes.iter().all(|l| l.starts_with("info string ")), "{lines:?}");
    assert!(notes[0].contains(&format!("{}: not valid TOML: TOML parse error at line 1", path.display())));
    assert!(notes.iter().any(|l| l == "info string expected `.`, `]]`"), "{lines:?}");
    let stays = "the position stays rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert!(notes.last().unwrap().ends_with(stays), "{lines:?}");
    e.quit();
}

#[test]
fn bench_from_the_command_line() {
    let output = Command::new(env!("CARGO_BIN_EXE_whetstone")).args(["bench", "6"]).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let last = text.lines().last().unwrap();
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!((words.len(), words[1], words[3]), (4, "nodes", "nps"), "{last}");
    assert!(words[0].parse::<u64>().unwrap() > 1000);
}

/// The trace protocol over the real pipe (docs/trace-protocol.md): each answer one block ending
/// in `trace end`, the start position's the tempo alone; `trace weights` declares every element.
#[test]
fn trace_answers_over_the_pipe() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("trace");
    let lines = e.expect("trace end", 5);
    assert_eq!(lines[0], "trace begin 1");
    assert!(lines.contains(&"c tempo 1".to_string()), "{lines:?}");
    assert_eq!(count(&lines, "c "), 1);
    e.send("trace weights");
    let lines = e.expect("trace end", 5);
    assert_eq!(lines[0], "trace weights 1");
    assert_eq!(count(&lines, "weight "), whetstone::eval::baked::idx::COUNT);
    e.send("trace sideways");
    assert_eq!(
        e.expect("trace error", 5).last().unwrap(),
        "trace error unknown request 'trace sideways': expected 'trace' or 'trace weights'"
    );
    e.quit();
}
