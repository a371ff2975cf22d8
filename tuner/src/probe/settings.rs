//! What a probe or a trace run needs to know about the engine and how hard to work: plain
//! settings, filled by the commands (`cmd/`) from their flags, with the defaults that fit
//! Whetstone and engines whose `eval` ends like Stockfish's.

use std::time::Duration;

use crate::play::engines::engine_process::EngineSpec;

/// Whose view the engine's evaluation number takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Perspective {
    /// Positive is good for White (Whetstone's and Stockfish's `eval`).
    #[default]
    White,
    /// Positive is good for the side to move.
    SideToMove,
}

/// How the engine shows its static evaluation.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EvalCommand {
    /// The command sent after `position ...` (`eval`).
    pub command: String,
    /// A regular expression whose first group is the number; the last line of the answer that
    /// matches wins (an engine may print a table of numbers before its total).
    pub pattern: String,
    pub perspective: Perspective,
    /// Centipawns per unit of the number: 1 for centipawns, 100 for pawns (`+0.25`).
    pub cp_per_unit: f64,
}

impl Default for EvalCommand {
    /// `eval`, `Final evaluation: 35 cp (white side)` or `Final evaluation +0.25 (white side)`
    /// read as centipawns from White's view (set `cp_per_unit` to 100 for Stockfish's pawns).
    fn default() -> EvalCommand {
        EvalCommand {
            command: "eval".to_string(),
            pattern: r"Final evaluation:?\s+([-+]?[0-9]+(?:\.[0-9]+)?)".to_string(),
            perspective: Perspective::White,
            cp_per_unit: 1.0,
        }
    }
}

/// How a change of option is kept from being hidden by a cache of the engine's (an evaluation
/// or pawn cache filled under the old values).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Freshness {
    /// A fresh engine process for every setting (and batch of positions): safe for any engine.
    #[default]
    Restart,
    /// One process per worker; `setoption` then `ucinewgame` between settings: faster, for
    /// engines known to clear every cache on `ucinewgame` (Whetstone's `eval` uses none).
    NewGame,
}

/// Engine processes and their work.
#[derive(Clone, Debug)]
pub struct Workers {
    /// The engine, with any options it always needs (they are set before the probed ones).
    pub engine: EngineSpec,
    /// Engine processes at once.
    pub workers: usize,
    /// Positions a process evaluates per unit of work (a setting, or a batch of traces): what
    /// a kill loses at most, per worker.
    pub batch: usize,
    /// Positions sent before their answers are read (hides the pipe's round trip).
    pub pipeline: usize,
    /// Bound on the answers to one pipelined group of positions.
    pub timeout: Duration,
    /// Bound on each wait of the start-up handshake (an engine may load a network first).
    pub start_timeout: Duration,
}

impl Workers {
    pub fn new(engine: EngineSpec) -> Workers {
        Workers {
            engine,
            workers: 1,
            batch: 4096,
            pipeline: 32,
            timeout: Duration::from_secs(10),
            start_timeout: Duration::from_secs(10),
        }
    }
}

/// A probe by finite differences over UCI options.
#[derive(Clone, Debug)]
pub struct ProbeSettings {
    pub workers: Workers,
    pub eval: EvalCommand,
    /// The spin options to probe (as the engine declares them; case and spacing are free).
    pub options: Vec<String>,
    /// The step d of the differences (values - d and + d); `None`: 1/20 of the option's range,
    /// 1 to 24 (a larger step shrinks the effect of an integer evaluation's rounding).
    pub step: Option<i32>,
    pub freshness: Freshness,
    /// A second difference larger than this (centipawns) counts as a sign of curvature (an
    /// integer evaluation's rounding alone reaches 2).
    pub curvature_cp: f64,
    /// An option is treated as not linear when its second differences show in more than this
    /// share of the positions it affects.
    pub nonlinear_share: f64,
    /// Positions (with their colour-flipped twins) checked against the perspective first.
    pub perspective_check: usize,
}

impl ProbeSettings {
    pub fn new(engine: EngineSpec, options: Vec<String>) -> ProbeSettings {
        ProbeSettings {
            workers: Workers::new(engine),
            eval: EvalCommand::default(),
            options,
            step: None,
            freshness: Freshness::Restart,
            curvature_cp: 2.5,
            nonlinear_share: 0.05,
            perspective_check: 32,
        }
    }
}

/// A run of the trace protocol (docs/trace-protocol.md).
#[derive(Clone, Debug)]
pub struct TraceSettings {
    pub workers: Workers,
    /// How far the evaluation rebuilt from a trace may be from the engine's `eval` line
    /// (centipawns) before the trace is called incomplete.
    pub tolerance_cp: f64,
}

impl TraceSettings {
    pub fn new(engine: EngineSpec) -> TraceSettings {
        TraceSettings { workers: Workers::new(engine), tolerance_cp: 2.0 }
    }
}
