//! `tune texel --engine`'s options: another engine's evaluation read through its own binary,
//! by probing its UCI spin options (`--probe`) or by the trace protocol (`--trace`,
//! docs/trace-protocol.md). They resolve to the library's
//! [`ProbeSettings`](crate::probe::settings::ProbeSettings) and
//! [`TraceSettings`](crate::probe::settings::TraceSettings).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use serde::Serialize;

use crate::play::engines::engine_process::EngineSpec;
use crate::play::runs::settings::uci_engine_spec;
use crate::probe::settings::{EvalCommand, Freshness, Perspective, ProbeSettings, TraceSettings, Workers};

/// How another engine shows its evaluation to `tune texel`.
#[derive(clap::Args, Debug, Clone, Serialize)]
#[command(next_help_heading = "Another engine's evaluation (--engine; docs/external-engines.md)")]
pub struct EngineEvalArgs {
    /// Tune a UCI engine's evaluation through its own binary instead of Whetstone's: its
    /// weights are its UCI spin options, read by probing them (--probe) or through its `trace`
    /// command (--trace). The values come back as the engine's own options: options.txt
    /// (setoption lines), openbench.txt (OpenBench SPSA input) and options.json.
    #[arg(long, value_name = "BINARY")]
    pub engine: Option<PathBuf>,
    /// A UCI option the engine always runs with, `Name=Value` (repeatable), set before the
    /// tuned ones, in probing and in the verification games alike.
    #[arg(long = "engine-option", value_name = "NAME=VALUE", requires = "engine")]
    pub engine_option: Vec<String>,
    /// The spin options to tune (names or globs over the names the engine declares: `Pawn*`),
    /// measured by finite differences of the engine's `eval` around their current values.
    #[arg(long, num_args = 1.., value_name = "OPTION", requires = "engine")]
    pub probe: Vec<String>,
    /// Ask the engine's `trace` command for every weight's coefficients (one pass over the
    /// data whatever the number of weights) instead of probing options.
    #[arg(long, conflicts_with = "probe", requires = "engine")]
    pub trace: bool,
    /// The command that prints the engine's static evaluation after `position ...`. For an
    /// engine without one, a shallow search (`go depth 1`, asked one position at a time after
    /// `ucinewgame`, its answer ended by `bestmove`) with `--eval-pattern 'score cp (-?[0-9]+)'`
    /// and `--eval-perspective side-to-move`.
    #[arg(long, default_value = "eval", value_name = "WORD")]
    pub eval_command: String,
    /// A regular expression whose first group is the evaluation's number; the last line of the
    /// answer that matches wins [default: `Final evaluation:?\s+([-+]?[0-9]+(?:\.[0-9]+)?)`, the
    /// line Stockfish and Whetstone end their `eval` with].
    #[arg(long, value_name = "REGEX")]
    pub eval_pattern: Option<String>,
    /// Whose view the number takes: `white` (positive is good for White) or `side-to-move`.
    #[arg(long, default_value = "white", value_parser = ["white", "side-to-move"], value_name = "VIEW")]
    pub eval_perspective: String,
    /// Centipawns per unit of the number: 1 for centipawns, 100 for pawns (`+0.25`).
    #[arg(long, default_value_t = 1.0, value_name = "CP")]
    pub eval_cp_per_unit: f64,
    /// The step of the finite differences (values - D and + D) [default: 1/20 of the option's
    /// range, 1 to 24].
    #[arg(long, value_name = "D")]
    pub probe_step: Option<i32>,
    /// How a change of option is kept from a cache of the engine's: `restart` (a fresh process
    /// per setting, safe for any engine) or `new-game` (`setoption` then `ucinewgame`, faster,
    /// for engines that clear every cache on `ucinewgame`).
    #[arg(long, default_value = "restart", value_parser = ["restart", "new-game"], value_name = "HOW")]
    pub fresh: String,
    /// Rounds of probe, fit and move while options that are not linear (king-safety curves,
    /// scale factors) keep lowering the validation loss; with every option linear one round is
    /// the whole fit.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub rounds: usize,
    /// Seconds the engine may take to answer one group of positions before it is restarted.
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    pub eval_timeout: f64,
}

/// What the engine is asked: its options probed, or its trace.
pub enum EngineEval {
    Probe(ProbeSettings),
    Trace(TraceSettings),
}

impl EngineEvalArgs {
    /// The engine's spec and what to ask it, for `workers` processes at once.
    pub fn settings(&self, binary: &std::path::Path, workers: usize) -> Result<(EngineSpec, EngineEval)> {
        if self.probe.is_empty() && !self.trace {
            bail!("--engine needs what to tune: --probe OPTION... (its spin options) or --trace (its trace command)");
        }
        if self.rounds == 0 {
            bail!("--rounds must be at least 1");
        }
        if self.eval_timeout.is_nan() || self.eval_timeout <= 0.0 {
            bail!("--eval-timeout must be a positive number of seconds");
        }
        let spec = uci_engine_spec(binary, None, &self.engine_option)?;
        let mut pool = Workers::new(spec.clone());
        pool.workers = workers.max(1);
        pool.timeout = Duration::from_secs_f64(self.eval_timeout);
        if self.trace {
            let trace = TraceSettings { workers: pool, ..TraceSettings::new(spec.clone()) };
            return Ok((spec, EngineEval::Trace(trace)));
        }
        let mut eval = EvalCommand { command: self.eval_command.clone(), ..EvalCommand::default() };
        if let Some(pattern) = &self.eval_pattern {
            eval.pattern = pattern.clone();
        }
        eval.perspective = if self.eval_perspective == "side-to-move" {
            Perspective::SideToMove
        } else {
            Perspective::White
        };
        if self.eval_cp_per_unit.is_nan() || self.eval_cp_per_unit <= 0.0 {
            bail!("--eval-cp-per-unit must be positive (1 for centipawns, 100 for pawns)");
        }
        eval.cp_per_unit = self.eval_cp_per_unit;
        if self.probe_step.is_some_and(|d| d < 1) {
            bail!("--probe-step must be at least 1");
        }
        let mut probe = ProbeSettings::new(spec.clone(), self.probe.clone());
        probe.workers = pool;
        probe.eval = eval;
        probe.step = self.probe_step;
        probe.freshness = if self.fresh == "new-game" { Freshness::NewGame } else { Freshness::Restart };
        Ok((spec, EngineEval::Probe(probe)))
    }
}
