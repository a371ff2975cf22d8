//! An engine binary as a child process, whatever protocol it speaks: how it is started (the
//! [`EngineSpec`] of a gauntlet's `[[engine]]` table or `--engine`), its output lines, bounded
//! waits for them, and its end (`quit`, then kill). The UCI driver (`uci_engine.rs`) and the
//! xboard driver (`xboard_engine.rs`) are written over this.
//!
//! A reader thread per engine forwards its output lines over a channel, so every wait is a
//! `recv_timeout` and no engine behaviour can block the caller past its timeout.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine dropped without `quit` gets to exit on its own before it is killed.
pub const DROP_GRACE: Duration = Duration::from_millis(250);
/// After the engine closed its output: how long to wait for its exit status for the error text.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(100);
/// How often a waiting-for-exit loop looks at the child.
const EXIT_POLL: Duration = Duration::from_millis(2);
/// Longer output lines are cut into pieces of this size, so that an engine writing without
/// newlines cannot make us buffer without limit.
const MAX_LINE: usize = 1 << 20;

/// The protocol an engine binary speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// The Universal Chess Interface (`uci_engine.rs`).
    #[default]
    Uci,
    /// The Chess Engine Communication Protocol, xboard/WinBoard's, version 2 (`xboard_engine.rs`).
    Xboard,
}

impl Protocol {
    /// `uci` or `xboard`, as an opponents file writes it.
    pub fn parse(text: &str) -> Option<Protocol> {
        match text {
            "uci" => Some(Protocol::Uci),
            "xboard" => Some(Protocol::Xboard),
            _ => None,
        }
    }
}

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
    /// Option name/value pairs set after the handshake, in this order; each name must be one the
    /// engine declared (UCI: `option name`, sent as `setoption`; xboard: `feature option`, sent
    /// as `option NAME=VALUE`). Booleans as `true`/`false`, numbers as text.
    pub options: Vec<(String, String)>,
    /// The directory the engine runs in (default: ours).
    pub working_dir: Option<PathBuf>,
    /// What it speaks.
    pub protocol: Protocol,
}

/// Why talking to an engine failed.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The process could not be started.
    #[error("engine '{name}': cannot start '{command}': {source}")]
    Spawn { name: String, command: String, source: std::io::Error },
    /// No answer in time. After a search, the engine has been stopped (or killed if it did not stop).
    #[error("engine '{name}' did not answer '{waiting_for}' within {timeout:?}")]
    Timeout { name: String, waiting_for: String, timeout: Duration },
    /// The engine closed its output (usually: it exited). It is not running any more.
    #[error("engine '{name}' exited or closed its output ({status}) while we waited for '{waiting_for}'")]
    Disconnected { name: String, waiting_for: String, status: String },
    /// The engine said something it should not have: an undeclared option, a malformed or illegal
    /// move, a move of the game it refused.
    #[error("engine '{name}': {message}")]
    Protocol { name: String, message: String },
    /// Its input is closed (usually: it exited). It is not running any more.
    #[error("engine '{name}': cannot write to it: {source}")]
    Write { name: String, source: std::io::Error },
}

/// A running engine process and the channel of its output lines. Dropping it sends `quit`, waits
/// briefly and then kills it.
pub struct EngineProcess {
    name: String,
    child: Child,
    /// `None` once closed: after `quit`, or after the engine was killed.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Set once the child has been reaped.
    exit_status: Option<ExitStatus>,
}

impl EngineProcess {
    /// Spawns the program of `spec` (stdin/stdout piped, stderr to null) in its own process
    /// group, with a reader thread for its output.
    pub fn spawn(spec: &EngineSpec) -> Result<EngineProcess, EngineError> {
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
        let mut process = EngineProcess { name: spec.name.clone(), child, stdin, lines, exit_status: None };
        let reader = match stdout {
            Some(stdout) => spawn_reader(stdout, sender),
            None => Err(io::Error::other("no pipe from its standard output")),
        };
        if let Err(source) = reader {
            process.kill();
            return Err(spawn_error(source));
        }
        Ok(process)
    }

    /// The name from the spec.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The process id (for tests that check the process is gone).
    #[cfg(test)]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes `text` (whole lines) in one write: `ChildStdin` is unbuffered, so nothing waits for
    /// a flush. On failure the engine is useless (its input is closed), so it is killed.
    pub fn send(&mut self, text: &str) -> Result<(), EngineError> {
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(text.as_bytes()),
            None => Err(io::Error::new(io::ErrorKind::BrokenPipe, "it has been stopped or has exited")),
        };
        result.map_err(|source| {
            self.kill();
            EngineError::Write { name: self.name.clone(), source }
        })
    }

    /// The next output line; `until` `None` waits without limit (a deadline too far to represent).
    pub fn next_line(&self, until: Option<Instant>) -> Result<String, RecvTimeoutError> {
        // A zero wait still returns a line already received: one that came in time but is read late.
        let wait = until.map_or(Duration::MAX, |until| until.saturating_duration_since(Instant::now()));
        self.lines.recv_timeout(wait)
    }

    /// The lines received so far and not yet read, without waiting.
    pub fn take_received(&mut self) -> Vec<String> {
        self.lines.try_iter().collect()
    }

    /// Reads lines until `done` accepts one. An engine that does not answer in time is killed:
    /// a hung engine is not worth resynchronising, and a late answer could be mistaken for the
    /// answer to a later command. `done` may also end the wait with an error of its own.
    pub fn wait_for(
        &mut self,
        waiting_for: &str,
        timeout: Duration,
        mut done: impl FnMut(&str) -> Result<bool, String>,
    ) -> Result<(), EngineError> {
        let until = Instant::now().checked_add(timeout);
        loop {
            match self.next_line(until) {
                Ok(line) => match done(&line) {
                    Ok(true) => return Ok(()),
                    Ok(false) => {}
                    Err(message) => return Err(self.protocol(message)),
                },
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(self.timeout(waiting_for, timeout));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.disconnected(waiting_for)),
            }
        }
    }

    /// The engine closed its output: it is useless from now on. Waits briefly for its exit
    /// status (for the message) and kills it if it is still running.
    pub fn disconnected(&mut self, waiting_for: &str) -> EngineError {
        let status = if self.wait_exit(EXIT_STATUS_WAIT) {
            self.exit_status.map_or_else(|| "exit status unknown".to_string(), |status| status.to_string())
        } else {
            self.kill();
            "still running".to_string()
        };
        EngineError::Disconnected { name: self.name.clone(), waiting_for: waiting_for.to_string(), status }
    }

    /// A time-out error naming what was waited for.
    pub fn timeout(&self, waiting_for: &str, timeout: Duration) -> EngineError {
        EngineError::Timeout { name: self.name.clone(), waiting_for: waiting_for.to_string(), timeout }
    }

    /// A protocol error with `message`.
    pub fn protocol(&self, message: String) -> EngineError {
        EngineError::Protocol { name: self.name.clone(), message }
    }

    /// Whether the child is still running.
    pub fn is_alive(&mut self) -> bool {
        !self.has_exited()
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
    pub fn kill(&mut self) {
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

    /// `quit` (both protocols' word), wait up to `grace` for the process to exit, then kill it.
    pub fn shutdown(&mut self, grace: Duration) {
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

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shutdown(DROP_GRACE);
    }
}

/// Starts the thread that forwards the engine's output lines; it ends at the end of that output
/// (the engine exited or was killed) or when the engine handle is gone.
fn spawn_reader(stdout: impl Read + Send + 'static, lines: Sender<String>) -> io::Result<()> {
    thread::Builder::new().name("engine-reader".to_string()).spawn(move || forward_lines(stdout, &lines))?;
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
pub fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

#[cfg(test)]
#[path = "engine_process_tests.rs"]
mod tests;
