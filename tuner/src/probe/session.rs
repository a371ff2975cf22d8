//! One engine process at work on a unit of a probe or a trace: started with the unit's option
//! values over the workbench's UCI driver, asked about a list of positions a pipelined group at
//! a time, and restarted when it crashes or hangs.
//!
//! Each request is `position fen ...`, the command, then `isready`: the `readyok` marks the end
//! of the command's answer whatever the command prints, so an answer without the expected
//! number is told at once (not after a time-out) and its text can be shown. A searching command
//! (`go depth 1`) is asked one position at a time instead, its answer ended by `bestmove`.

use std::time::Duration;

use anyhow::{anyhow, Result};

use super::settings::Workers;
use crate::play::engines::engine_process::EngineError;
use crate::play::engines::uci_engine::{position_command, UciEngine};
use crate::play::engines::uci_option::{find_option, setoption_command, UciOption};

/// Tries per position: a position on which the engine dies this many times running is given up.
pub const ATTEMPTS: usize = 2;

/// A running engine and the option values it has.
pub struct Session {
    engine: UciEngine,
    values: Vec<(String, i32)>,
}

impl Session {
    /// Starts the engine of `workers` with `values` set after its own options; an option it does
    /// not declare is an error naming it and listing the engine's.
    pub fn start(workers: &Workers, values: &[(String, i32)]) -> Result<Session, EngineError> {
        let mut spec = workers.engine.clone();
        spec.options.extend(values.iter().map(|(name, v)| (name.clone(), v.to_string())));
        let engine = UciEngine::start(&spec, workers.start_timeout)?;
        Ok(Session { engine, values: values.to_vec() })
    }

    pub fn declared(&self) -> &[UciOption] {
        self.engine.declared_options()
    }

    /// Sets `values` (only those that differ) and sends `ucinewgame`, for an engine reused
    /// between settings.
    pub fn set_values(&mut self, values: &[(String, i32)], timeout: Duration) -> Result<(), EngineError> {
        for (name, value) in values {
            if !self.values.iter().any(|(n, v)| n == name && v == value) {
                self.engine.set_option(name, &value.to_string())?;
            }
        }
        self.values = values.to_vec();
        self.engine.new_game(timeout)
    }

    /// Each position's answer to `command` (its lines before `readyok`), for a group sent at
    /// once. On an engine error the answers received so far come back with it: the position
    /// after them is the one the engine failed on.
    pub fn ask(
        &mut self,
        fens: &[&str],
        command: &str,
        timeout: Duration,
    ) -> (Vec<Vec<String>>, Option<EngineError>) {
        if is_search(command) {
            return self.ask_searching(fens, command, timeout);
        }
        let mut requests = String::new();
        for fen in fens {
            requests.push_str(&position_command(fen, &[]));
            requests.push('\n');
            requests.push_str(command);
            requests.push_str("\nisready\n");
        }
        let mut answers = vec![Vec::new()];
        let result = self.engine.exchange(&requests, "readyok", timeout, |line| {
            if line == "readyok" {
                if answers.len() == fens.len() {
                    return Ok(true);
                }
                answers.push(Vec::new());
            } else if !line.is_empty() {
                answers.last_mut().expect("one answer open").push(line.to_string());
            }
            Ok(false)
        });
        match result {
            Ok(()) => (answers, None),
            Err(e) => {
                answers.pop();
                (answers, Some(e))
            }
        }
    }
}

impl Session {
    /// [`Session::ask`] for a command that searches (`go depth 1`: the score of a shallow search,
    /// for an engine that prints no static evaluation). A UCI engine answers `isready` at once
    /// even while it searches, so these requests go one at a time, each answer ended by its
    /// `bestmove`, each after a `ucinewgame` so that no search reuses the previous one's table.
    fn ask_searching(
        &mut self,
        fens: &[&str],
        command: &str,
        timeout: Duration,
    ) -> (Vec<Vec<String>>, Option<EngineError>) {
        let mut answers = Vec::with_capacity(fens.len());
        for fen in fens {
            let request = format!("ucinewgame\n{}\n{command}\n", position_command(fen, &[]));
            let mut lines = Vec::new();
            let result = self.engine.exchange(&request, "bestmove", timeout, |line| {
                if line.starts_with("bestmove") {
                    return Ok(true);
                }
                if !line.is_empty() {
                    lines.push(line.to_string());
                }
                Ok(false)
            });
            if let Err(e) = result {
                return (answers, Some(e));
            }
            answers.push(lines);
        }
        (answers, None)
    }
}

/// Whether `command` starts a search (its answer ends with `bestmove`, not with `readyok`).
pub fn is_search(command: &str) -> bool {
    command.split_whitespace().next() == Some("go")
}

/// The spin declaration of `name`, or an error naming the engine's options.
pub fn spin_option<'a>(declared: &'a [UciOption], engine: &str, name: &str) -> Result<&'a UciOption> {
    let option = find_option(declared, name).ok_or_else(|| {
        anyhow!("engine '{engine}': {}", crate::play::engines::uci_option::undeclared(declared, name))
    })?;
    // A spin with a value the engine accepts is all a probe can move.
    setoption_command(declared, name, option.default.as_deref().unwrap_or("0"))
        .map_err(|e| anyhow!("engine '{engine}': {e}"))?;
    if option.kind != crate::play::engines::uci_option::OptionKind::Spin {
        return Err(anyhow!(
            "engine '{engine}': option '{}' is a {}, not a spin: only integer weights can be probed",
            option.name,
            option.kind.word()
        ));
    }
    Ok(option)
}

/// What a unit of work gives back: one answer per position (`None` where the engine died on it
/// [`ATTEMPTS`] times running), and notes on the restarts.
pub struct UnitResult<T> {
    pub answers: Vec<Option<T>>,
    pub notes: Vec<String>,
}

/// Asks `command` of every position of `fens` on the worker's engine (`slot`: kept between
/// units when `reuse`, else fresh), with `values` set. `read` turns a position's answer (its
/// FEN, its lines) into a value or an error that stops the run (a broken trace line; `read`
/// names the problem, this adds the engine and the position). A crash or a hang restarts the
/// engine at the position it failed on.
pub fn run_unit<T>(
    slot: &mut Option<Session>,
    workers: &Workers,
    values: &[(String, i32)],
    reuse: bool,
    fens: &[String],
    command: &str,
    read: impl Fn(&str, &[String]) -> Result<T, String>,
) -> Result<UnitResult<T>> {
    let name = &workers.engine.name;
    if !reuse {
        *slot = None;
    }
    let mut out = UnitResult { answers: Vec::with_capacity(fens.len()), notes: Vec::new() };
    let (mut failures, mut start_failures) = (0, 0);
    while out.answers.len() < fens.len() {
        let session = match slot {
            Some(session) => session,
            None => match Session::start(workers, values) {
                Ok(session) => slot.insert(session),
                // A start that times out or dies (a loaded machine, a flaky engine) is tried again.
                Err(e @ (EngineError::Timeout { .. } | EngineError::Disconnected { .. }))
                    if start_failures + 1 < ATTEMPTS =>
                {
                    start_failures += 1;
                    out.notes.push(format!("{e}; starting it again"));
                    continue;
                }
                Err(e) => return Err(e.into()),
            },
        };
        start_failures = 0;
        if reuse && session.values != values {
            session.set_values(values, workers.timeout)?;
        }
        let at = out.answers.len();
        let group: Vec<&str> =
            fens[at..(at + workers.pipeline.max(1)).min(fens.len())].iter().map(String::as_str).collect();
        let (answers, error) = session.ask(&group, command, workers.timeout);
        for (lines, fen) in answers.iter().zip(&group) {
            let value = read(fen, lines).map_err(|e| anyhow!("engine '{name}', position {fen}: {e}"))?;
            out.answers.push(Some(value));
            failures = 0;
        }
        let Some(error) = error else { continue };
        let fen = group[answers.len()];
        match error {
            EngineError::Timeout { .. } | EngineError::Disconnected { .. } | EngineError::Write { .. } => {
                *slot = None;
                failures += 1;
                out.notes.push(format!("position {fen}: {error}; engine restarted"));
                if failures >= ATTEMPTS {
                    out.notes.push(format!("position {fen}: left out after {ATTEMPTS} failures"));
                    out.answers.push(None);
                    failures = 0;
                }
            }
            other => return Err(anyhow!(other).context(format!("position {fen}"))),
        }
    }
    Ok(out)
}
