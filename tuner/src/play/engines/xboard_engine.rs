//! An external xboard (CECP v2) engine binary driven as a child process, as xboard and
//! cutechess-cli do, with the discipline of `uci_engine.rs`: every wait is bounded, an engine
//! that hangs is killed, and no engine behaviour blocks the caller past its timeout.
//!
//! Start-up: `xboard`, `protover 2`, then the engine's `feature` lines, each answered
//! `accepted` or `rejected`, until `feature done=1`. An engine that sends `done=0` gets the
//! caller's start timeout instead of 2 s; one that sends no `done` (a protocol 1 engine, or a
//! careless one) is taken as it is after 2 s, as xboard does. Then each `option NAME=VALUE`,
//! and `ping`/`pong` where the engine has `ping`.
//!
//! Each move is asked in force mode, so the engine never moves on its own and every call
//! returns with it idle: `force`, the game's moves it has not seen (`usermove` where it asked
//! for that, SAN where it asked for that), `time`/`otim`, `go`; then its `move`. A game is set
//! up at its first move: `post`, `easy`, `level` (or `sd` and `st` at a depth limit), and the
//! position: `setboard` where the engine has it; else the legacy `edit` mode, from the start
//! position when edit mode can say it exactly, else from the position at the engine's first
//! move (edit mode cannot say that an en-passant capture is possible: the engine then does not
//! know of one capture it could make; castling rights that piece placement does not imply are
//! refused before the run by the player, `xboard.rs`).
//!
//! A search that runs past its deadline gets `?` (move now) and up to 1 s to answer; an engine
//! that does not is killed. Lines that arrive while nothing was asked are read at the next move:
//! a `resign` there is the engine's resignation after its previous move.

use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use whetstone::board::START_FEN;
use whetstone::{Color, Position};

use crate::play::engines::engine_process::{EngineError, EngineProcess, EngineSpec};
use crate::play::engines::xboard_text::{
    classify, edit_castling_problem, edit_commands, has_en_passant, level_command, option_command,
    parse_engine_move, parse_option, DeclaredOption, EngineLine, Thinking,
};

/// How long an engine may take to answer `?` after a time-out before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(1);
/// How long an engine gets to answer `protover 2` with `feature ... done=1` (xboard's 2 s).
const PROTOVER_WAIT: Duration = Duration::from_secs(2);

/// What the engine declared with `feature` (the protocol's defaults where it said nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// `myname`.
    pub myname: Option<String>,
    /// It answered `protover 2` with at least one `feature` line.
    pub protover2: bool,
    pub ping: bool,
    pub setboard: bool,
    pub usermove: bool,
    pub san: bool,
    pub time: bool,
    /// `reuse=0`: the engine wants a new process for every game.
    pub reuse: bool,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            myname: None,
            protover2: false,
            ping: false,
            setboard: false,
            usermove: false,
            san: false,
            time: true,
            reuse: true,
        }
    }
}

/// One move's budget as xboard says it: the set-up of a game (`level`, or `sd` and `st`) and
/// `time`/`otim` before each `go`. A [`crate::play::limit::MoveBudget`] (what the game loop gives
/// every player) has White's and Black's clocks; xboard wants the engine's own and its
/// opponent's, has no node limit, and caps a depth search with a time (`st`), so the xboard
/// player (`xboard.rs`) turns the one into this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XboardBudget {
    /// Clocks in milliseconds: `level` at the game's set-up, `time` (own) and `otim` before
    /// every `go`.
    Clock { own_ms: u64, opp_ms: u64, inc_ms: u64, movestogo: Option<u32> },
    /// `sd DEPTH`, with `st SECONDS` so that the clock does not end the search first.
    Depth { depth: u32, seconds: u64 },
}

/// The engine's move and what it said while thinking.
#[derive(Clone, Debug, PartialEq)]
pub struct XboardReply {
    /// The move in UCI notation (checked legal).
    pub mv: String,
    /// The move as the engine wrote it.
    pub text: String,
    /// The last thinking line before the move.
    pub thinking: Option<Thinking>,
    /// From sending `go` to receiving `move`, measured here.
    pub elapsed: Duration,
}

/// What the engine did when asked to move.
#[derive(Clone, Debug, PartialEq)]
pub enum XboardAnswer {
    Move(XboardReply),
    /// It resigned, or claimed the opponent's win (the line), now or after its previous move.
    Resign(String),
}

/// What the engine knows of the game in progress.
struct Known {
    start_fen: String,
    /// How many of the game's moves (counted from `start_fen`) it knows.
    moves: Vec<String>,
    /// The true position after them (the engine's board, unless set up by `edit` from a
    /// position with an en-passant capture it was not told about).
    board: Position,
}

/// A running xboard engine process. Dropping it without [`XboardEngine::quit`] quits it with a
/// short grace and then kills it.
pub struct XboardEngine {
    process: EngineProcess,
    features: Features,
    options: Vec<DeclaredOption>,
    /// Bounds the waits for `pong` and the engine's answers to a set-up.
    sync_timeout: Duration,
    last_ping: u64,
    /// `None` before a game's set-up, and after anything that may have put it out of step.
    game: Option<Known>,
    /// The engine has just been sent `new` and `force` (at the start position, in force mode).
    fresh: bool,
}

impl XboardEngine {
    /// Spawns the process, negotiates the features (see the module header) and sends each option
    /// as `option NAME=VALUE` (an option the engine did not declare, or a value its declaration
    /// rules out, is an [`EngineError::Protocol`] naming it). `timeout` bounds each wait.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<XboardEngine, EngineError> {
        let process = EngineProcess::spawn(spec)?;
        let mut engine = XboardEngine {
            process,
            features: Features::default(),
            options: Vec::new(),
            sync_timeout: timeout,
            last_ping: 0,
            game: None,
            fresh: false,
        };
        // On an error `engine` is dropped here, which ends the process.
        engine.handshake(timeout)?;
        for (name, value) in &spec.options {
            let line = option_command(&engine.options, name, value)
                .map_err(|message| engine.process.protocol(message))?;
            engine.process.send(&line)?;
        }
        engine.sync(timeout)?;
        Ok(engine)
    }

    /// What the engine declared.
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// The names of the options it declared with `feature option`.
    #[allow(dead_code, reason = "API for callers; parts a binary does not call would warn")]
    pub fn declared_options(&self) -> Vec<&str> {
        self.options.iter().map(|option| option.name.as_str()).collect()
    }

    /// `new` and `force`, then `ping`/`pong` (where the engine has `ping`) within `timeout`; an
    /// engine that does not answer is killed.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.game = None;
        self.process.take_received();
        self.process.send("new\nforce\n")?;
        self.fresh = true;
        self.sync(timeout)
    }

    /// Whether the engine takes `command` without an error (`Error (...)`, `Illegal move: ...`)
    /// before answering a `ping`; without `ping` this cannot be known and is taken as yes. For
    /// commands that `new` undoes (`sd`), so that a run can refuse an engine before its games.
    pub fn understands(&mut self, command: &str, timeout: Duration) -> Result<bool, EngineError> {
        if !self.features.ping {
            return Ok(true);
        }
        self.process.take_received();
        let ping = self.next_ping();
        self.process.send(&format!("{command}\nping {ping}\n"))?;
        let mut understood = true;
        let word = command.split_whitespace().next().unwrap_or("");
        self.process.wait_for("pong", timeout, |line| match classify(line) {
            EngineLine::Pong(n) => Ok(n == ping),
            EngineLine::Error(what) | EngineLine::Refused(what)
                if what.split_whitespace().next() == Some(word) =>
            {
                understood = false;
                Ok(false)
            }
            _ => Ok(false),
        })?;
        // The command may have changed the engine's state: the next game sets up from `new`.
        self.game = None;
        self.fresh = false;
        Ok(understood)
    }

    /// Asks for a move in the game from `start_fen` after `moves` (UCI notation), sending only
    /// what the engine has not seen, and waits for it up to `deadline` after `go` (then `?`, see
    /// the module header). An illegal or unreadable move, or a refusal of one of the game's
    /// moves, is an [`EngineError::Protocol`]; the next call sets the game up again.
    pub fn go(
        &mut self,
        start_fen: &str,
        moves: &[String],
        limit: &XboardBudget,
        deadline: Duration,
    ) -> Result<XboardAnswer, EngineError> {
        let stale = self.process.take_received();
        let in_step = self
            .game
            .as_ref()
            .is_some_and(|known| known.start_fen == start_fen && moves.starts_with(&known.moves));
        if in_step {
            let side = self.game.as_ref().map_or(Color::White, |known| known.board.side_to_move());
            if let Some(line) = stale.into_iter().find(|line| resigns(line, side)) {
                self.game = None;
                return Ok(XboardAnswer::Resign(line));
            }
        } else {
            self.set_up(start_fen, moves, limit)?;
        }
        let mut commands = String::from("force\n");
        let sent_moves = self.append_moves(moves, &mut commands)?;
        if let (XboardBudget::Clock { own_ms, opp_ms, .. }, true) = (limit, self.features.time) {
            commands.push_str(&format!("time {}\notim {}\n", own_ms / 10, opp_ms / 10));
        }
        commands.push_str("go\n");
        self.fresh = false;
        let sent = Instant::now();
        self.process.send(&commands)?;
        let until = sent.checked_add(deadline);
        let side = self.game.as_ref().map_or(Color::White, |known| known.board.side_to_move());
        let mut thinking = None;
        loop {
            let line = match self.process.next_line(until) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(self.stop_after_timeout(deadline)),
                Err(RecvTimeoutError::Disconnected) => {
                    self.game = None;
                    return Err(self.process.disconnected("move"));
                }
            };
            match classify(&line) {
                EngineLine::Thinking(t) => thinking = Some(t),
                EngineLine::Move(text) => {
                    let elapsed = sent.elapsed();
                    let text = text.to_string();
                    return self.take_move(text, thinking, elapsed).map(XboardAnswer::Move);
                }
                EngineLine::Resign => {
                    self.game = None;
                    return Ok(XboardAnswer::Resign(line));
                }
                // A claim that the opponent won is a resignation. A draw claim or a claim of its own
                // win falls through: the game loop's rules decide, and the move that follows it (if
                // any) is played; the engine is put back to work by `go` at its next move.
                EngineLine::Claim(_) if resigns(&line, side) => {
                    self.game = None;
                    return Ok(XboardAnswer::Resign(line));
                }
                EngineLine::Refused(what)
                    if what.split_whitespace().any(|w| sent_moves.iter().any(|m| m == w)) =>
                {
                    self.game = None;
                    let message = format!("refused a move of the game: '{line}'");
                    return Err(self.process.protocol(message));
                }
                _ => {}
            }
        }
    }

    /// `force` and `result RESULT {REASON}`, so the engine knows the game is over; no answer
    /// is awaited (the next game starts with `new` and `ping`).
    pub fn result(&mut self, result: &str, reason: &str) -> Result<(), EngineError> {
        self.game = None;
        let reason = reason.replace(['{', '}', '\n', '\r'], " ");
        self.process.send(&format!("force\nresult {result} {{{reason}}}\n"))
    }

    /// Whether the child is still running.
    pub fn is_alive(&mut self) -> bool {
        self.process.is_alive()
    }

    /// `quit`, wait up to `grace` for the process to exit, then kill it.
    #[allow(dead_code, reason = "API for callers; parts a binary does not call would warn")]
    pub fn quit(mut self, grace: Duration) {
        self.process.shutdown(grace);
    }

    /// The process id (for tests that check the process is gone).
    #[cfg(test)]
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.process.send("xboard\nprotover 2\n")?;
        let mut until = Instant::now().checked_add(PROTOVER_WAIT);
        let mut waited = PROTOVER_WAIT;
        loop {
            let line = match self.process.next_line(until) {
                Ok(line) => line,
                // No `done=0` asked for more time: a protocol 1 engine, taken as it is.
                Err(RecvTimeoutError::Timeout) if waited == PROTOVER_WAIT => return Ok(()),
                Err(RecvTimeoutError::Timeout) => {
                    self.process.kill();
                    return Err(self.process.timeout("feature done=1", waited));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.process.disconnected("feature done=1"))
                }
            };
            let EngineLine::Feature(pairs) = classify(&line) else { continue };
            self.features.protover2 = true;
            let mut replies = String::new();
            let mut done = None;
            for (name, value) in pairs {
                let accepted = self.take_feature(name, value);
                replies.push_str(&format!("{} {name}\n", if accepted { "accepted" } else { "rejected" }));
                if name == "done" {
                    done = Some(value == "1");
                }
            }
            self.process.send(&replies)?;
            match done {
                Some(true) => return Ok(()),
                Some(false) => {
                    until = Instant::now().checked_add(timeout);
                    waited = timeout;
                }
                None => {}
            }
        }
    }

    /// Records one feature; whether we accept it: the features we use, and those that only
    /// tell us what not to send (which we never send anyway). The rest are rejected, so the
    /// engine knows we will not use them.
    fn take_feature(&mut self, name: &str, value: &str) -> bool {
        let on = value == "1";
        let features = &mut self.features;
        match name {
            "done" => {}
            "myname" => features.myname = Some(value.to_string()),
            "ping" => features.ping = on,
            "setboard" => features.setboard = on,
            "usermove" => features.usermove = on,
            "san" => features.san = on,
            "time" => features.time = on,
            "reuse" => features.reuse = on,
            "option" => match parse_option(value) {
                Some(option) => self.options.push(option),
                None => return false,
            },
            "variants" => return value.split(',').any(|v| v.trim() == "normal"),
            "sigint" | "sigterm" | "colors" | "draw" | "debug" | "analyze" | "playother" | "pause" => {}
            _ => return false,
        }
        true
    }

    /// `ping`, then wait for its `pong` (a no-op for an engine without `ping`).
    fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        if !self.features.ping {
            return Ok(());
        }
        let ping = self.next_ping();
        self.process.send(&format!("ping {ping}\n"))?;
        self.process.wait_for("pong", timeout, |line| Ok(classify(line) == EngineLine::Pong(ping)))
    }

    fn next_ping(&mut self) -> u64 {
        self.last_ping += 1;
        self.last_ping
    }

    /// Sets up the game (see the module header) and checks, with a `ping` where the engine has
    /// it, that it took the set-up without an error.
    fn set_up(&mut self, start_fen: &str, moves: &[String], limit: &XboardBudget) -> Result<(), EngineError> {
        self.game = None;
        let bad_fen =
            |e: whetstone::FenError| format!("cannot read the game's start position '{start_fen}': {e}");
        let start = Position::from_fen(start_fen).map_err(|e| self.process.protocol(bad_fen(e)))?;
        let mut text = String::new();
        if !self.fresh {
            text.push_str("new\nforce\n");
        }
        text.push_str("post\neasy\n");
        match *limit {
            XboardBudget::Clock { own_ms, inc_ms, movestogo, .. } => {
                text.push_str(&level_command(movestogo, own_ms, inc_ms))
            }
            XboardBudget::Depth { depth, seconds } => {
                text.push_str(&format!("sd {depth}\nst {}\n", seconds.max(1)))
            }
        }
        let is_start = start.to_fen() == START_FEN;
        let known = if is_start {
            Known { start_fen: start_fen.to_string(), moves: Vec::new(), board: start }
        } else if self.features.setboard {
            text.push_str(&format!("setboard {}\n", start.to_fen()));
            Known { start_fen: start_fen.to_string(), moves: Vec::new(), board: start }
        } else if edit_castling_problem(&start).is_none() && !has_en_passant(&start) {
            text.push_str(&edit_commands(&start));
            Known { start_fen: start_fen.to_string(), moves: Vec::new(), board: start }
        } else {
            // Edit mode cannot say the start position exactly: set up the position now instead.
            let mut board = start;
            for m in moves {
                board.play_uci(m).map_err(|e| self.process.protocol(format!("the game's move {m}: {e}")))?;
            }
            text.push_str(&edit_commands(&board));
            Known { start_fen: start_fen.to_string(), moves: moves.to_vec(), board }
        };
        self.process.send(&text)?;
        self.fresh = false;
        if self.features.ping {
            let ping = self.next_ping();
            self.process.send(&format!("ping {ping}\n"))?;
            let timeout = self.sync_timeout;
            self.process.wait_for("pong", timeout, |line| match classify(line) {
                EngineLine::Pong(n) => Ok(n == ping),
                EngineLine::Error(what) | EngineLine::Refused(what) if is_set_up(what) => {
                    Err(format!("refused the game's set-up: '{line}'"))
                }
                _ if line.contains("Illegal position") => Err(format!("refused the game's set-up: '{line}'")),
                _ => Ok(false),
            })?;
        }
        self.game = Some(known);
        Ok(())
    }

    /// Appends the moves of `moves` the engine has not seen, in its notation, and returns them as
    /// written (to recognise a refusal).
    fn append_moves(&mut self, moves: &[String], text: &mut String) -> Result<Vec<String>, EngineError> {
        let Some(known) = self.game.as_mut() else { return Ok(Vec::new()) };
        let mut sent = Vec::new();
        for m in &moves[known.moves.len()..] {
            let Ok(mv) = known.board.parse_uci_move(m) else {
                let message = format!("the game's move {m} is not legal in {}", known.board.to_fen());
                self.game = None;
                return Err(self.process.protocol(message));
            };
            let written = if self.features.san { known.board.move_to_san(mv) } else { m.clone() };
            if self.features.usermove {
                text.push_str("usermove ");
            }
            text.push_str(&written);
            text.push('\n');
            sent.push(written);
            known.board.make_move(mv);
            known.moves.push(m.clone());
        }
        Ok(sent)
    }

    /// The engine's move, checked against the game and added to what it knows.
    fn take_move(
        &mut self,
        text: String,
        thinking: Option<Thinking>,
        elapsed: Duration,
    ) -> Result<XboardReply, EngineError> {
        let Some(known) = self.game.as_mut() else {
            return Err(self.process.protocol(format!("moved ({text}) outside a game")));
        };
        match parse_engine_move(&known.board, &text) {
            Ok(mv) => {
                let uci = known.board.move_to_uci(mv);
                known.board.make_move(mv);
                known.moves.push(uci.clone());
                Ok(XboardReply { mv: uci, text, thinking, elapsed })
            }
            Err(why) => {
                self.game = None;
                Err(self.process.protocol(format!("move {why}")))
            }
        }
    }

    /// After `go` timed out: `?`, then read up to the `move` that ends the search (within
    /// [`STOP_GRACE`]). Kills an engine that does not answer. Either way the game is out of step.
    fn stop_after_timeout(&mut self, deadline: Duration) -> EngineError {
        self.game = None;
        let stopped = self.process.send("?\n").is_ok() && self.read_to_move(STOP_GRACE);
        if !stopped {
            self.process.kill();
        }
        self.process.timeout("move", deadline)
    }

    /// Whether a `move` line arrives within `grace`; the lines before it are dropped.
    fn read_to_move(&mut self, grace: Duration) -> bool {
        let until = Instant::now().checked_add(grace);
        while let Ok(line) = self.process.next_line(until) {
            if matches!(classify(&line), EngineLine::Move(_) | EngineLine::Resign) {
                return true;
            }
        }
        false
    }
}

/// Whether `line` is a resignation by the engine playing `side`: `resign`, or a claim that the
/// other side won (`0-1 {White resigns}` from White).
fn resigns(line: &str, side: Color) -> bool {
    match classify(line) {
        EngineLine::Resign => true,
        EngineLine::Claim(result) => matches!((result, side), ("0-1", Color::White) | ("1-0", Color::Black)),
        _ => false,
    }
}

/// Whether the command an error names is one of a set-up's that matter (not `post` or `easy`).
fn is_set_up(command: &str) -> bool {
    let word = command.split_whitespace().next().unwrap_or("");
    ["setboard", "edit", "level", "sd", "st"].contains(&word)
}

#[cfg(test)]
#[path = "xboard_engine_tests.rs"]
mod tests;
