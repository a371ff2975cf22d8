//! An external UCI engine binary driven as a child process, as cutechess-cli and fastchess do:
//! start-up handshake (`uci`/`uciok`, `setoption`, `isready`/`readyok`), one `position` + `go`
//! per move with a deadline, `stop` after a time-out, and `quit` or kill at the end.
//!
//! A reader thread per engine forwards its output lines over a channel, so every wait is a
//! `recv_timeout` and no engine behaviour can block the caller past its timeout.
//!
//! Keeping in step with the engine: every call returns with the engine either idle (nothing we
//! sent is still unanswered) or killed. A `go` that times out sends `stop` and reads up to the
//! `bestmove` that ends the search; an engine that does not answer that `stop`, or `uci` or
//! `isready`, in time is killed instead of being resynchronised (the caller starts a new one).
//! So `go` needs no `isready` round trip before it: it only discards lines that arrived while
//! nothing was asked (such as a second `bestmove` from a buggy engine), without waiting.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use super::uci_option::{parse_option, setoption_command, UciOption};

/// How long an engine may take to answer `stop` after a time-out before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(1);
/// How long an engine dropped without `quit` gets to exit on its own before it is killed.
const DROP_GRACE: Duration = Duration::from_millis(250);
/// After the engine closed its output: how long to wait for its exit status for the error text.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(100);
/// How often a waiting-for-exit loop looks at the child.
const EXIT_POLL: Duration = Duration::from_millis(2);
/// Longer output lines are cut into pieces of this size, so that an engine writing without
/// newlines cannot make us buffer without limit.
const MAX_LINE: usize = 1 << 20;

const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// How to start an engine: as in a cutechess-cli `-engine` or a gauntlet TOML `[[engine]]` table.
///
/// A `command` with a directory part but not absolute (`./sf`, `bin/sf`) is taken relative to
/// `working_dir` when one is given (as cutechess's `cmd=` with `dir=`), else to our current
/// directory; a bare name (`stockfish`) is looked up on `PATH`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The name used in messages, tables and PGN.
    pub name: String,
    /// The program to run.
    pub command: PathBuf,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// `setoption` name/value pairs sent after `uciok`, in this order; each name must be one the
    /// engine declared (compared ignoring case). Booleans as `true`/`false`, numbers as text.
    pub options: Vec<(String, String)>,
    /// The directory the engine runs in (default: ours).
    pub working_dir: Option<PathBuf>,
}

/// What `go` is told.
#[derive(Clone, Debug, PartialEq)]
pub enum GoLimit {
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth N`.
    Depth(u32),
    /// `go movetime N`, in milliseconds.
    #[allow(dead_code, reason = "API for the game loop; parts a binary does not call would warn")]
    MoveTime(u64),
    /// `go wtime .. btime .. winc .. binc .. [movestogo ..]`, in milliseconds.
    Clock { wtime: u64, btime: u64, winc: u64, binc: u64, movestogo: Option<u32> },
}

/// The engine's answer to one `go`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineReply {
    /// The move as the engine sent it (`0000` and `(none)` are passed through).
    pub bestmove: String,
    /// The last exact score reported before `bestmove`; a lowerbound/upperbound score only if no
    /// exact one was reported.
    pub score: Option<EngineScore>,
    /// The last `depth` reported.
    pub depth: Option<u32>,
    /// The last `seldepth` reported.
    pub seldepth: Option<u32>,
    /// The last `nodes` reported.
    pub nodes: Option<u64>,
    /// From sending `go` to receiving `bestmove`, measured here.
    pub elapsed: Duration,
}

/// A score from the side to move's view, as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

/// Why talking to an engine failed.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The process could not be started.
    #[error("engine '{name}': cannot start '{command}': {source}")]
    Spawn { name: String, command: String, source: std::io::Error },
    /// No answer in time. After a `go`, the engine has been stopped (or killed if it ignored `stop`).
    #[error("engine '{name}' did not answer '{waiting_for}' within {timeout:?}")]
    Timeout { name: String, waiting_for: String, timeout: Duration },
    /// The engine closed its output (usually: it exited). It is not running any more.
    #[error("engine '{name}' exited or closed its output ({status}) while we waited for '{waiting_for}'")]
    Disconnected { name: String, waiting_for: String, status: String },
    /// The engine said something it should not have: an undeclared option, a malformed bestmove.
    #[error("engine '{name}': {message}")]
    Protocol { name: String, message: String },
    /// Its input is closed (usually: it exited). It is not running any more.
    #[error("engine '{name}': cannot write to it: {source}")]
    Write { name: String, source: std::io::Error },
}

/// A running UCI engine process. Dropping it without [`UciEngine::quit`] quits it with a short
/// grace and then kills it.
pub struct UciEngine {
    name: String,
    id_name: Option<String>,
    /// The options the engine declared after `uci`, in its order.
    options: Vec<UciOption>,
    child: Child,
    /// `None` once closed: after `quit`, or after the engine was killed.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Set once the child has been reaped.
    exit_status: Option<ExitStatus>,
}

impl UciEngine {
    /// Spawns the process (stdin/stdout piped, stderr to null), sends `uci`, waits for `uciok`
    /// (collecting `id name` and the `option name ...` list), sends each `setoption name X value Y`
    /// (an option the engine did not declare, or a value its declaration rules out, is an
    /// [`EngineError::Protocol`] naming it), then `isready`/`readyok`. `timeout` bounds each wait.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<UciEngine, EngineError> {
        let mut engine = Self::spawn(spec)?;
        // On an error `engine` is dropped here, which ends the process.
        engine.handshake(spec, timeout)?;
        Ok(engine)
    }

    /// The name from the spec.
    #[allow(dead_code, reason = "API for the game loop; parts a binary does not call would warn")]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the engine's `id name` said.
    #[allow(dead_code, reason = "API for the game loop; parts a binary does not call would warn")]
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The options the engine declared (name as it spelled it, type, default, bounds), in its
    /// order.
    pub fn declared_options(&self) -> &[UciOption] {
        &self.options
    }

    /// Sends `setoption name <name> value <value>` to the idle engine, checked against its
    /// declarations as at start-up (an undeclared option or a value its declaration rules out is
    /// an [`EngineError::Protocol`] naming it, and nothing is sent). The engine takes it before
    /// the next command that waits for it (`isready`, as [`UciEngine::new_game`] sends).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let command =
            setoption_command(&self.options, name, value).map_err(|message| self.protocol(message))?;
        self.send(&command)
    }

    /// `ucinewgame` then `isready`/`readyok`. An engine that does not answer in `timeout` is
    /// killed.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.discard_stale_lines();
        self.send("ucinewgame\n")?;
        self.sync(timeout)
    }

    /// Sends `position fen <start_fen> moves <m1> <m2> ...` (or `position startpos ...` when
    /// `start_fen` is the standard start position) and `go ...`, and waits for `bestmove`.
    ///
    /// If no `bestmove` has arrived `deadline` after sending `go`, returns
    /// [`EngineError::Timeout`], after sending `stop` and waiting up to 1 s for the search to end
    /// so that the engine can be reused; an engine that does not answer `stop` is killed.
    /// A malformed `bestmove` is an [`EngineError::Protocol`]; the engine stays usable.
    pub fn go(
        &mut self,
        start_fen: &str,
        moves: &[String],
        limit: &GoLimit,
        deadline: Duration,
    ) -> Result<EngineReply, EngineError> {
        self.discard_stale_lines();
        let commands = format!("{}\n{}\n", position_command(start_fen, moves), go_command(limit));
        let sent = Instant::now();
        self.send(&commands)?;
        let until = sent.checked_add(deadline);
        let mut info = SearchInfo::default();
        loop {
            let line = match self.next_line(until) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(self.stop_after_timeout(deadline)),
                Err(RecvTimeoutError::Disconnected) => return Err(self.disconnected("bestmove")),
            };
            match first_word(&line) {
                "info" => info.update(&line),
                "bestmove" => {
                    let elapsed = sent.elapsed();
                    let bestmove = parse_bestmove(&line).map_err(|message| self.protocol(message))?;
                    return Ok(info.into_reply(bestmove, elapsed));
                }
                _ => {}
            }
        }
    }

    /// Whether the child is still running.
    pub fn is_alive(&mut self) -> bool {
        !self.has_exited()
    }

    /// `quit`, wait up to `grace` for the process to exit, then kill it.
    #[allow(dead_code, reason = "API for the game loop; parts a binary does not call would warn")]
    pub fn quit(mut self, grace: Duration) {
        self.shutdown(grace);
    }

    fn spawn(spec: &EngineSpec) -> Result<UciEngine, EngineError> {
        let command = resolve_command(&spec.command, spec.working_dir.as_deref());
        let spawn_error = |source| EngineError::Spawn {
            name: spec.name.clone(),
            command: command.display().to_string(),
            source,
        };
        let mut cmd = Command::new(&command);
        cmd.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = &spec.working_dir {
            cmd.current_dir(dir);
        }
        // Its own process group: a Ctrl-C at the terminal reaches only us, so a run that stops
        // gracefully on Ctrl-C is not turned into crashes of the engines in its current games.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().map_err(spawn_error)?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let (sender, lines) = mpsc::channel();
        let mut engine = UciEngine {
            name: spec.name.clone(),
            id_name: None,
            options: Vec::new(),
            child,
            stdin,
            lines,
            exit_status: None,
        };
        let reader = match stdout {
            Some(stdout) => spawn_reader(stdout, sender),
            None => Err(io::Error::other("no pipe from its standard output")),
        };
        if let Err(source) = reader {
            engine.kill();
            return Err(spawn_error(source));
        }
        Ok(engine)
    }

    fn handshake(&mut self, spec: &EngineSpec, timeout: Duration) -> Result<(), EngineError> {
        self.send("uci\n")?;
        let mut id_name = None;
        let mut declared = Vec::new();
        self.wait_for("uciok", timeout, |line| {
            match first_word(line) {
                "uciok" => return true,
                "id" if id_name.is_none() => id_name = parse_id_name(line),
                "option" => declared.extend(parse_option(line)),
                _ => {}
            }
            false
        })?;
        self.id_name = id_name;
        self.options = declared;
        for (name, value) in &spec.options {
            self.set_option(name, value)?;
        }
        self.sync(timeout)
    }

    /// `isready`, then wait for `readyok`.
    fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready\n")?;
        self.wait_for("readyok", timeout, |line| first_word(line) == "readyok")
    }

    /// Reads lines until `done` accepts one. An engine that does not answer in time is killed:
    /// a hung engine is not worth resynchronising, and a late answer could be mistaken for the
    /// answer to a later command.
    fn wait_for(
        &mut self,
        waiting_for: &str,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(), EngineError> {
        let until = Instant::now().checked_add(timeout);
        loop {
            match self.next_line(until) {
                Ok(line) if done(&line) => return Ok(()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(self.timeout(waiting_for, timeout));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.disconnected(waiting_for)),
            }
        }
    }

    /// The next output line; `until` `None` waits without limit (a deadline too far to represent).
    fn next_line(&self, until: Option<Instant>) -> Result<String, RecvTimeoutError> {
        // A zero wait still returns a line already received: one that came in time but is read late.
        let wait = until.map_or(Duration::MAX, |until| until.saturating_duration_since(Instant::now()));
        self.lines.recv_timeout(wait)
    }

    /// Drops lines received while nothing was asked: they cannot answer the next command.
    fn discard_stale_lines(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// After `go` timed out: `stop`, then read up to the `bestmove` that ends the search (within
    /// [`STOP_GRACE`]) so that it is not taken for the next move's answer. Kills an engine that
    /// does not answer.
    fn stop_after_timeout(&mut self, deadline: Duration) -> EngineError {
        let stopped = self.send("stop\n").is_ok() && self.read_to_bestmove(STOP_GRACE);
        if !stopped {
            self.kill();
        }
        self.timeout("bestmove", deadline)
    }

    /// Whether a `bestmove` line arrives within `grace`; the lines before it are dropped.
    fn read_to_bestmove(&mut self, grace: Duration) -> bool {
        let until = Instant::now().checked_add(grace);
        while let Ok(line) = self.next_line(until) {
            if first_word(&line) == "bestmove" {
                return true;
            }
        }
        false
    }

    /// Writes `text` (whole lines) in one write: `ChildStdin` is unbuffered, so nothing waits for
    /// a flush. On failure the engine is useless (its input is closed), so it is killed.
    fn send(&mut self, text: &str) -> Result<(), EngineError> {
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(text.as_bytes()),
            None => Err(io::Error::new(io::ErrorKind::BrokenPipe, "it has been stopped or has exited")),
        };
        result.map_err(|source| {
            self.kill();
            EngineError::Write { name: self.name.clone(), source }
        })
    }

    /// The engine closed its output: it is useless from now on. Waits briefly for its exit
    /// status (for the message) and kills it if it is still running.
    fn disconnected(&mut self, waiting_for: &str) -> EngineError {
        let status = if self.wait_exit(EXIT_STATUS_WAIT) {
            self.exit_status.map_or_else(|| "exit status unknown".to_string(), |status| status.to_string())
        } else {
            self.kill();
            "still running".to_string()
        };
        EngineError::Disconnected { name: self.name.clone(), waiting_for: waiting_for.to_string(), status }
    }

    fn timeout(&self, waiting_for: &str, timeout: Duration) -> EngineError {
        EngineError::Timeout { name: self.name.clone(), waiting_for: waiting_for.to_string(), timeout }
    }

    fn protocol(&self, message: String) -> EngineError {
        EngineError::Protocol { name: self.name.clone(), message }
    }

    /// Whether the child has exited (reaping it if so).
    fn has_exited(&mut self) -> bool {
        if self.exit_status.is_some() {
            return true;
        }
        match self.child.try_wait() {
            Ok(Some(status)) => {
                self.exit_status = Some(status);
                true
            }
            Ok(None) => false,
            // It cannot be waited for: it is not ours to run any more.
            Err(_) => true,
        }
    }

    /// Whether the child exits within `grace`.
    fn wait_exit(&mut self, grace: Duration) -> bool {
        let until = Instant::now().checked_add(grace);
        loop {
            if self.has_exited() {
                return true;
            }
            if until.is_some_and(|until| Instant::now() >= until) {
                return false;
            }
            thread::sleep(EXIT_POLL);
        }
    }

    /// Kills and reaps the child (no zombie is left).
    fn kill(&mut self) {
        self.stdin = None;
        if self.has_exited() {
            return;
        }
        // An error means it exited meanwhile; `wait` reaps it either way.
        let _ = self.child.kill();
        if let Ok(status) = self.child.wait() {
            self.exit_status = Some(status);
        }
    }

    fn shutdown(&mut self, grace: Duration) {
        if self.has_exited() {
            return;
        }
        if self.send("quit\n").is_ok() {
            // End of input too: some engines stop on that rather than on `quit`.
            self.stdin = None;
            if self.wait_exit(grace) {
                return;
            }
        }
        self.kill();
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        self.shutdown(DROP_GRACE);
    }
}

/// Starts the thread that forwards the engine's output lines; it ends at the end of that output
/// (the engine exited or was killed) or when the engine handle is gone.
fn spawn_reader(stdout: impl Read + Send + 'static, lines: Sender<String>) -> io::Result<()> {
    thread::Builder::new().name("uci-reader".to_string()).spawn(move || forward_lines(stdout, &lines))?;
    Ok(())
}

/// Sends each line of `output` (trimmed; invalid UTF-8 replaced) until its end or a read error.
fn forward_lines(output: impl Read, lines: &Sender<String>) {
    let mut reader = BufReader::new(output);
    let mut line = Vec::new();
    loop {
        let (used, complete) = match reader.fill_buf() {
            Ok([]) => break,
            Ok(chunk) => match chunk.iter().position(|&byte| byte == b'\n') {
                Some(end) => {
                    line.extend_from_slice(&chunk[..end]);
                    (end + 1, true)
                }
                None => {
                    line.extend_from_slice(chunk);
                    (chunk.len(), false)
                }
            },
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        reader.consume(used);
        if complete || line.len() >= MAX_LINE {
            if lines.send(decode_line(&line)).is_err() {
                return;
            }
            line.clear();
        }
    }
    if !line.is_empty() {
        let _ = lines.send(decode_line(&line));
    }
}

fn decode_line(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_string()
}

/// See [`EngineSpec`]: relative paths with a directory part are made absolute here, so the
/// result does not depend on std's platform-specific handling of a relative program together
/// with `current_dir`.
fn resolve_command(command: &Path, working_dir: Option<&Path>) -> PathBuf {
    if command.is_absolute() || command.components().count() <= 1 {
        return command.to_path_buf();
    }
    let relative = working_dir.map_or_else(|| command.to_path_buf(), |dir| dir.join(command));
    std::path::absolute(&relative).unwrap_or(relative)
}

/// The first whitespace-separated word of a line ("" for a blank line).
fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// `text` after a leading `keyword` word, or `None` if it does not start with that word.
fn after_word<'a>(text: &'a str, keyword: &str) -> Option<&'a str> {
    let rest = text.trim_start().strip_prefix(keyword)?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(rest)
}

/// The name in `id name <name>` (inner spacing kept).
fn parse_id_name(line: &str) -> Option<String> {
    let name = after_word(after_word(line, "id")?, "name")?.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// normalised, so that no newline in them can split the command.
fn position_command(start_fen: &str, moves: &[String]) -> String {
    let fields: Vec<&str> = start_fen.split_whitespace().collect();
    let mut command = if is_startpos(&fields) {
        "position startpos".to_string()
    } else {
        format!("position fen {}", fields.join(" "))
    };
    let mut moves = moves.iter().flat_map(|m| m.split_whitespace()).peekable();
    if moves.peek().is_some() {
        command.push_str(" moves");
        for m in moves {
            command.push(' ');
            command.push_str(m);
        }
    }
    command
}

/// The standard start position, with or without the move counters.
fn is_startpos(fields: &[&str]) -> bool {
    let start: Vec<&str> = STARTPOS_FEN.split_whitespace().collect();
    match fields.len() {
        4 => fields == &start[..4],
        6 => fields == &start[..],
        _ => false,
    }
}

fn go_command(limit: &GoLimit) -> String {
    match limit {
        GoLimit::Nodes(n) => format!("go nodes {n}"),
        GoLimit::Depth(d) => format!("go depth {d}"),
        GoLimit::MoveTime(ms) => format!("go movetime {ms}"),
        GoLimit::Clock { wtime, btime, winc, binc, movestogo } => {
            let mut command = format!("go wtime {wtime} btime {btime} winc {winc} binc {binc}");
            if let Some(n) = movestogo {
                command.push_str(&format!(" movestogo {n}"));
            }
            command
        }
    }
}

/// The move of a `bestmove <move> [ponder <move>]` line, if it is `0000`, `(none)` or shaped
/// like a UCI move (legality is the caller's question).
fn parse_bestmove(line: &str) -> Result<String, String> {
    let Some(best) = line.split_whitespace().nth(1) else {
        return Err(format!("bestmove without a move: '{line}'"));
    };
    if best == "0000" || best == "(none)" || is_uci_move(best) {
        Ok(best.to_string())
    } else {
        Err(format!("malformed bestmove '{best}'"))
    }
}

/// `e2e4`, `e7e8q`: two squares and an optional lowercase promotion piece.
fn is_uci_move(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |file: u8, rank: u8| (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank);
    match b {
        [f1, r1, f2, r2] => square(*f1, *r1) && square(*f2, *r2),
        [f1, r1, f2, r2, piece] => square(*f1, *r1) && square(*f2, *r2) && b"qrbn".contains(piece),
        _ => false,
    }
}

/// What the `info` lines of one search said so far.
#[derive(Default, Debug)]
struct SearchInfo {
    exact: Option<EngineScore>,
    bound: Option<EngineScore>,
    depth: Option<u32>,
    seldepth: Option<u32>,
    nodes: Option<u64>,
}

impl SearchInfo {
    /// Takes what an `info` line reports; fields that do not parse are ignored.
    fn update(&mut self, line: &str) {
        let mut words = line.split_whitespace().skip(1);
        while let Some(word) = words.next() {
            match word {
                "depth" => self.depth = words.next().and_then(|w| w.parse().ok()).or(self.depth),
                "seldepth" => self.seldepth = words.next().and_then(|w| w.parse().ok()).or(self.seldepth),
                "nodes" => self.nodes = words.next().and_then(|w| w.parse().ok()).or(self.nodes),
                "score" => {
                    let unit = words.next();
                    let value = words.next().and_then(|w| w.parse::<i32>().ok());
                    let score = match (unit, value) {
                        (Some("cp"), Some(cp)) => EngineScore::Cp(cp),
                        (Some("mate"), Some(n)) => EngineScore::Mate(n),
                        _ => continue,
                    };
                    // A bound word, if any, directly follows the value.
                    let mut rest = words.clone();
                    if matches!(rest.next(), Some("lowerbound" | "upperbound")) {
                        words = rest;
                        self.bound = Some(score);
                    } else {
                        self.exact = Some(score);
                    }
                }
                // The rest of the line is free text or a move list.
                "string" | "pv" | "refutation" | "currline" => break,
                _ => {}
            }
        }
    }

    fn into_reply(self, bestmove: String, elapsed: Duration) -> EngineReply {
        EngineReply {
            bestmove,
            score: self.exact.or(self.bound),
            depth: self.depth,
            seldepth: self.seldepth,
            nodes: self.nodes,
            elapsed,
        }
    }
}

#[cfg(test)]
#[path = "uci_engine_tests.rs"]
mod tests;
