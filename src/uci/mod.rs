//! The UCI front end. The reader (the caller of [`Uci::handle`]) never blocks on a search: `go`
//! hands the position to a search thread, and an explicit state machine (waiting / starting /
//! thinking, see [`worker`]) guarantees exactly one `bestmove` per `go` whatever arrives in
//! between (`stop` at once, `isready`, `quit`, `position`, `ucinewgame`, another `go`).
//! Malformed input never panics: it is answered with `info string` and ignored (or, for `go`
//! numbers, clamped into range; see [`go`]).

mod book;
mod go;
mod options;
mod trace;
mod worker;

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};

use crate::board::{Position, START_FEN};
use crate::config::EngineConfig;
use crate::eval::EvalParamSet;
use crate::eval::{breakdown, Weights};
use crate::movegen::perft::perft_divide;
use crate::movegen::MoveParseError;
use crate::params::ParamSet;
use crate::search::SearchParamSet;
use crate::search::SearchParams;

pub use go::parse_go;
use options::Options;
use trace::TraceCommand;
use worker::Worker;

/// Where the engine's replies go: stdout in the binary, a buffer in tests. Shared with the
/// search thread, which writes `info` and `bestmove` lines.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// Writes one line and flushes, holding the lock so lines from two threads never interleave.
pub fn send(out: &Output, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed pipe (the GUI went away) is not worth a panic.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// What the loop should do after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The engine as the GUI sees it.
pub struct Uci {
    out: Output,
    position: Position,
    config: EngineConfig,
    options: Options,
    /// The evaluation parameters in use (baked, or loaded with EvalFile, or changed by options).
    params: EvalParamSet,
    search_params_set: SearchParamSet,
    worker: Worker,
    /// The `trace` command's element names and tracer (docs/trace-protocol.md).
    trace: TraceCommand,
}

impl Uci {
    pub fn new(out: Output) -> Uci {
        let config = EngineConfig::built_in();
        let options = Options::from_config(&config);
        let worker = Worker::new(out.clone(), options.hash_mb, options.threads);
        let params = EvalParamSet::baked();
        Uci {
            out,
            position: Position::startpos(),
            config,
            options,
            trace: TraceCommand::new(&params),
            params,
            search_params_set: SearchParamSet::baked(),
            worker,
        }
    }

    /// Reads commands from standard input until `quit` or end of input (which also stops any
    /// search and waits for its `bestmove`).
    pub fn run_stdio() -> io::Result<()> {
        let out: Output = Arc::new(Mutex::new(io::stdout()));
        let mut uci = Uci::new(out);
        for line in io::stdin().lock().lines() {
            if uci.handle(&line?) == Flow::Quit {
                break;
            }
        }
        uci.worker.stop_and_wait();
        Ok(())
    }

    fn say(&self, line: &str) {
        send(&self.out, line);
    }

    /// Sends `message` as `info string`, one per line: a multi-line message (a TOML parser's
    /// error with its excerpt and caret) must not reach the GUI as lines it cannot parse.
    fn info_string(&self, message: &str) {
        for line in message.lines().filter(|l| !l.trim().is_empty()) {
            self.say(&format!("info string {line}"));
        }
    }

    /// Handles one command line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else { return Flow::Continue };
        match command {
            "uci" => {
                self.say(&format!("id name {} {}", self.config.engine.name, env!("CARGO_PKG_VERSION")));
                self.say(&format!("id author {}", self.config.engine.author));
                for line in self.options.declarations(&self.params, &self.search_params_set) {
                    self.say(&line);
                }
                self.say("uciok");
            }
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.worker.stop_and_wait();
                self.worker.new_game();
                self.position = self.new_position(START_FEN).expect("the start FEN is valid");
            }
            "setoption" => self.set_option(rest),
            "position" => {
                if let Err(message) = self.set_position(rest) {
                    self.info_string(&message);
                }
            }
            "go" => self.go(rest),
            "stop" => self.worker.stop(),
            "ponderhit" => self.worker.ponderhit(),
            "eval" => {
                let weights = self.worker.weights();
                for line in breakdown::report(&self.position, &self.params, &weights).lines() {
                    self.say(line);
                }
            }
            "trace" => self.trace(rest),
            "bench" => {
                self.worker.stop_and_wait();
                let depth = rest.first().and_then(|d| d.parse().ok()).unwrap_or(crate::bench::BENCH_DEPTH);
                let mut buffer = Vec::new();
                let _ = crate::bench::run_bench(depth, &mut buffer);
                for line in String::from_utf8_lossy(&buffer).lines() {
                    self.say(line);
                }
            }
            "d" => {
                self.say(&format!("Fen: {}", self.position.to_fen()));
                self.say(&format!("Key: {:016X}", self.position.key()));
            }
            "quit" => {
                self.worker.stop_and_wait();
                return Flow::Quit;
            }
            other => self.info_string(&format!("unknown command '{other}'")),
        }
        Flow::Continue
    }

    /// `trace` (the current position) or `trace weights` (docs/trace-protocol.md).
    fn trace(&mut self, rest: &[&str]) {
        let answer = match rest {
            [] => self.trace.position(&self.position, &self.worker.weights()),
            ["weights"] => self.trace.weights(&self.params, cfg!(feature = "uci-tunables")),
            _ => format!(
                "trace error unknown request 'trace {}': expected 'trace' or 'trace weights'",
                rest.join(" ")
            ),
        };
        // One write for the whole answer: a dataset asks for a million of them.
        self.say(&answer);
    }

    fn new_position(&self, fen: &str) -> Result<Position, String> {
        let mut pos = Position::from_fen(fen).map_err(|e| format!("invalid FEN '{fen}' rejected: {e}"))?;
        pos.set_chess960(self.options.chess960 || pos.is_chess960());
        Ok(pos)
    }

    /// `position (startpos | fen <fen>) [moves <m1> ...]`. A bad FEN (or a malformed command)
    /// leaves the position as it was; an illegal move is reported and the moves after it are not
    /// applied. Either way the message names the position the engine now holds, so a GUI log shows
    /// what the next `go` will search.
    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let stays = |e: String| format!("{e}; the position stays {}", self.position.to_fen());
        let moves_at = args.iter().position(|&w| w == "moves").unwrap_or(args.len());
        let mut pos = match args.first() {
            Some(&"startpos") if moves_at == 1 => self.new_position(START_FEN).map_err(stays)?,
            Some(&"fen") => self.new_position(&args[1..moves_at].join(" ")).map_err(stays)?,
            _ => return Err(stays("malformed position command: expected 'startpos' or 'fen <fen>'".into())),
        };
        let mut result = Ok(());
        for text in args.iter().skip(moves_at + 1) {
            if let Err(e) = pos.play_uci(text) {
                result = Err(rejected_move(&e, &pos));
                break;
            }
        }
        self.position = pos;
        result
    }

    fn set_option(&mut self, args: &[&str]) {
        // setoption name <id...> [value <x...>]
        if args.first() != Some(&"name") {
            return self.info_string("malformed setoption: expected 'setoption name <id> [value <x>]'");
        }
        let value_at = args.iter().position(|&w| w == "value").unwrap_or(args.len());
        let name = args[1..value_at].join(" ");
        let value = args.get(value_at + 1..).map(|v| v.join(" ")).unwrap_or_default();
        match self.options.set(&name, &value) {
            Ok(options::Change::None) => {}
            Ok(options::Change::Hash) => {
                if !self.worker.resize_hash(self.options.hash_mb) {
                    self.info_string("Hash cannot change during a search; try again after bestmove");
                }
            }
            Ok(options::Change::Threads) => self.worker.set_threads(self.options.threads),
            Ok(options::Change::Chess960) => {
                let on = self.options.chess960 || self.position.is_chess960();
                self.position.set_chess960(on);
            }
            Ok(options::Change::EvalFile) => {
                let path = self.options.eval_file.clone();
                match self.load_eval_file(&path) {
                    Ok(message) => self.info_string(&message),
                    Err(message) => self.info_string(&format!("EvalFile not loaded: {message}")),
                }
            }
            Err(options::SetError::Unknown) => {
                if let Err(message) = self.set_tunable(&name, &value) {
                    self.info_string(&message);
                }
            }
            Err(options::SetError::Invalid(message)) => self.info_string(&message),
        }
    }

    /// Loads a params file (empty or `<built-in>` restores the baked parameters).
    fn load_eval_file(&mut self, path: &str) -> Result<String, String> {
        let (params, what) = if path.is_empty() || path == "<built-in>" {
            (EvalParamSet::baked(), "built-in parameters".to_string())
        } else {
            let set = EvalParamSet::load(std::path::Path::new(path)).map_err(|e| e.to_string())?;
            (set, format!("parameters from {path}"))
        };
        self.worker.set_weights(Weights::from_params(&params));
        self.params = params;
        Ok(format!("using {what}"))
    }

    /// `setoption` for a tunable evaluation weight or search constant (the `uci-tunables`
    /// feature declares them as spin options).
    fn set_tunable(&mut self, name: &str, value: &str) -> Result<(), String> {
        let unknown = || format!("unknown option '{name}'");
        if !cfg!(feature = "uci-tunables") {
            return Err(unknown());
        }
        let (is_search, slot) = if let Some(slot) = slot_named(&self.params, name) {
            (false, slot)
        } else if let Some(slot) = slot_named(&self.search_params_set, name) {
            (true, slot)
        } else {
            return Err(unknown());
        };
        let set: &ParamSet = if is_search { &self.search_params_set } else { &self.params };
        let (min, max) = set.value_bounds()[slot];
        let v: i32 = value.parse().map_err(|_| format!("option {name} takes an integer, not '{value}'"))?;
        if !(min..=max).contains(&v) {
            return Err(format!("option {name}: {v} is outside [{min}, {max}]"));
        }
        let mut values = set.values();
        values[slot] = v;
        if is_search {
            self.search_params_set.set_values(&values);
            self.worker.set_search_params(SearchParams::from_set(&self.search_params_set));
        } else {
            self.params.set_values(&values);
            self.worker.set_weights(Weights::from_params(&self.params));
        }
        Ok(())
    }

    fn go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            match args.get(1).and_then(|d| d.parse::<u32>().ok()) {
                Some(depth) => {
                    self.worker.stop_and_wait();
                    let divide = perft_divide(&mut self.position, depth);
                    for line in divide.report(&self.position).lines() {
                        self.say(line);
                    }
                }
                None => self.info_string("go perft needs a depth, e.g. 'go perft 5'"),
            }
            return;
        }
        let (limits, notes) = parse_go(args, self.position.side_to_move());
        for note in notes {
            self.info_string(&note);
        }
        if self.options.own_book && !limits.ponder && !limits.infinite {
            if let Some(m) = book::probe(&self.options.book_file, &self.position) {
                self.info_string("book move");
                self.say(&format!("bestmove {}", self.position.move_to_uci(m)));
                return;
            }
        }
        self.worker.go(self.position.clone(), limits, &self.options);
    }
}

/// The slot of the flat value vector named `name` (its option name; case-insensitive, as UCI
/// option names are).
fn slot_named(set: &ParamSet, name: &str) -> Option<usize> {
    set.value_names().iter().position(|n| n.eq_ignore_ascii_case(name))
}

/// The note for a move of `position ... moves` that was not played: why, and the position the
/// moves before it led to (which the engine keeps). An illegal move's error already shows it.
fn rejected_move(e: &MoveParseError, pos: &Position) -> String {
    let kept = "it and the moves after it were not applied";
    match e {
        MoveParseError::Illegal { .. } => format!("{e}; {kept}; the position stays there"),
        MoveParseError::Syntax(_) => format!("{e}; {kept}; the position stays {}", pos.to_fen()),
    }
}

#[cfg(test)]
mod tests;
