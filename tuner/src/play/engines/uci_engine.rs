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

use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use crate::play::engines::engine_process::{first_word, EngineError, EngineProcess, EngineSpec};

#[cfg(test)]
use crate::play::engines::engine_process::DROP_GRACE;
use crate::play::engines::uci_option::{parse_option, setoption_command, UciOption};
use crate::play::limit::MoveBudget;

/// How long an engine may take to answer `stop` after a time-out before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(1);

const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

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

/// A running UCI engine process. Dropping it without [`UciEngine::quit`] quits it with a short
/// grace and then kills it.
pub struct UciEngine {
    process: EngineProcess,
    id_name: Option<String>,
    /// The options the engine declared after `uci`, in its order.
    options: Vec<UciOption>,
}

impl UciEngine {
    /// Spawns the process (stdin/stdout piped, stderr to null), sends `uci`, waits for `uciok`
    /// (collecting `id name` and the `option name ...` list), sends each `setoption name X value Y`
    /// (an option the engine did not declare, or a value its declaration rules out, is an
    /// [`EngineError::Protocol`] naming it), then `isready`/`readyok`. `timeout` bounds each wait.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<UciEngine, EngineError> {
        let process = EngineProcess::spawn(spec)?;
        let mut engine = UciEngine { process, id_name: None, options: Vec::new() };
        // On an error `engine` is dropped here, which ends the process.
        engine.handshake(spec, timeout)?;
        Ok(engine)
    }

    /// The name from the spec.
    #[allow(dead_code, reason = "API for the game loop; parts a binary does not call would warn")]
    pub fn name(&self) -> &str {
        self.process.name()
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
        let command = setoption_command(&self.options, name, value)
            .map_err(|message| self.process.protocol(message))?;
        self.process.send(&command)
    }

    /// `ucinewgame` then `isready`/`readyok`. An engine that does not answer in `timeout` is
    /// killed.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.process.take_received();
        self.process.send("ucinewgame\n")?;
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
        limit: &MoveBudget,
        deadline: Duration,
    ) -> Result<EngineReply, EngineError> {
        // Lines that arrived while nothing was asked cannot answer this command.
        self.process.take_received();
        let commands = format!("{}\n{}\n", position_command(start_fen, moves), go_command(limit));
        let sent = Instant::now();
        self.process.send(&commands)?;
        let until = sent.checked_add(deadline);
        let mut info = SearchInfo::default();
        loop {
            let line = match self.process.next_line(until) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(self.stop_after_timeout(deadline)),
                Err(RecvTimeoutError::Disconnected) => return Err(self.process.disconnected("bestmove")),
            };
            match first_word(&line) {
                "info" => info.update(&line),
                "bestmove" => {
                    let elapsed = sent.elapsed();
                    let bestmove = parse_bestmove(&line).map_err(|message| self.process.protocol(message))?;
                    return Ok(info.into_reply(bestmove, elapsed));
                }
                _ => {}
            }
        }
    }

    /// Whether the child is still running.
    pub fn is_alive(&mut self) -> bool {
        self.process.is_alive()
    }

    /// Sends `commands` (whole lines) to the idle engine and hands each line of its output to
    /// `read` until `read` accepts one: a request outside the game loop (`eval`, `trace`, a
    /// command of the engine's own). Lines that arrived before are dropped. An engine that has
    /// not finished within `timeout` is killed; `read` may end the wait with an error of its own.
    pub fn exchange(
        &mut self,
        commands: &str,
        waiting_for: &str,
        timeout: Duration,
        read: impl FnMut(&str) -> Result<bool, String>,
    ) -> Result<(), EngineError> {
        self.process.take_received();
        self.process.send(commands)?;
        self.process.wait_for(waiting_for, timeout, read)
    }

    /// `quit`, wait up to `grace` for the process to exit, then kill it.
    #[allow(dead_code, reason = "API for the game loop; parts a binary does not call would warn")]
    pub fn quit(mut self, grace: Duration) {
        self.process.shutdown(grace);
    }

    fn handshake(&mut self, spec: &EngineSpec, timeout: Duration) -> Result<(), EngineError> {
        self.process.send("uci\n")?;
        let mut id_name = None;
        let mut declared = Vec::new();
        self.process.wait_for("uciok", timeout, |line| {
            match first_word(line) {
                "uciok" => return Ok(true),
                "id" if id_name.is_none() => id_name = parse_id_name(line),
                "option" => declared.extend(parse_option(line)),
                _ => {}
            }
            Ok(false)
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
        self.process.send("isready\n")?;
        self.process.wait_for("readyok", timeout, |line| Ok(first_word(line) == "readyok"))
    }

    /// After `go` timed out: `stop`, then read up to the `bestmove` that ends the search (within
    /// [`STOP_GRACE`]) so that it is not taken for the next move's answer. Kills an engine that
    /// does not answer.
    fn stop_after_timeout(&mut self, deadline: Duration) -> EngineError {
        let stopped = self.process.send("stop\n").is_ok() && self.read_to_bestmove(STOP_GRACE);
        if !stopped {
            self.process.kill();
        }
        self.process.timeout("bestmove", deadline)
    }

    /// Whether a `bestmove` line arrives within `grace`; the lines before it are dropped.
    fn read_to_bestmove(&mut self, grace: Duration) -> bool {
        let until = Instant::now().checked_add(grace);
        while let Ok(line) = self.process.next_line(until) {
            if first_word(&line) == "bestmove" {
                return true;
            }
        }
        false
    }
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
pub(crate) fn position_command(start_fen: &str, moves: &[String]) -> String {
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

/// The `go` command of one move's budget: a UCI `go` carries exactly a [`MoveBudget`] (both
/// clocks, White's first), so it needs no type of its own.
fn go_command(budget: &MoveBudget) -> String {
    match budget {
        MoveBudget::Nodes(n) => format!("go nodes {n}"),
        MoveBudget::Depth(d) => format!("go depth {d}"),
        MoveBudget::Clock { time_ms: [wtime, btime], inc_ms: [winc, binc], movestogo } => {
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
