//! The verdict at the end of a tuning run: the tuned values play the values the run started
//! from, in this process, as an SPRT on game pairs, and the run ends with what the games said.
//!
//! Every tuner verifies by default: a screen at fixed nodes with a game cap (minutes on 2 cores,
//! and a verdict that does not move with the machine's load), or with a clock given the full
//! SPRT at that clock. A screen is only a screen: gains at fixed nodes did not always hold at a
//! clock (`tune auto`'s +30 at 5,000 nodes was -12 at 3 s + 0.03 s), so baking needs a pass at a
//! clock, and `--bake` after a passed screen plays the clock SPRT before it bakes anything.
//!
//! Layout: `play.rs` (the match); what a verification concluded, how a result stands for baking
//! and what the run advises next are the run layer's (`run/verdict.rs`, `run/advice.rs`), which
//! the report reads too.

pub mod play;

use anyhow::{bail, Result};
use whetstone::eval::EvalParamSet;
use whetstone::search::SearchParamSet;

use crate::play::engines::engine_process::EngineSpec;
use crate::play::games::stats::{EloModel, Sprt};
use crate::play::limit::MoveLimit;
pub use crate::run::verdict::{Standing, Verdict, VerdictOutcome, CLOCK};

/// Nodes per move of the default verification: a screen.
pub const SCREEN_NODES: u64 = 5000;
/// The screen's game cap: about three minutes on 2 cores.
pub const SCREEN_GAMES: u64 = 1000;
/// The game cap of an SPRT at a clock: about five and a half hours at 3 s + 0.03 s on 2 cores
/// (12 games a minute); an SPRT [0, 5] on a gain near its bounds needs thousands of games.
pub const CLOCK_GAMES: u64 = 4000;

/// Why `--bake` and `--no-verify` do not go together.
pub const BAKE_NEEDS_VERIFY: &str = "--bake with --no-verify: baking needs a verification that passed at a \
     clock, and --no-verify skips it (drop --no-verify, or bake later with tune export --force)";

/// One SPRT of the tuned values against the start: its control, cap and bounds.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SprtPlan {
    pub limit: MoveLimit,
    /// Games after which an SPRT that has not decided stops ("undecided").
    pub games: u64,
    /// H0 and H1 in normalized Elo.
    pub bounds: [f64; 2],
    /// alpha = beta.
    pub error: f64,
}

impl SprtPlan {
    /// The SPRT these bounds and error rates make, checked.
    pub fn sprt(&self) -> Result<Sprt> {
        let [elo0, elo1] = self.bounds;
        Sprt::new(elo0, elo1, self.error, self.error, EloModel::Normalized)
            .map_err(|e| anyhow::anyhow!("the verification's SPRT bounds or error rate: {e}"))
    }

    /// A screen: fixed nodes, not a clock.
    pub fn is_screen(&self) -> bool {
        !matches!(self.limit, MoveLimit::Clock(_))
    }
}

/// How a run verifies its result: the commands build this from their options.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct VerifySettings {
    /// None: skip the verification (`--no-verify`); the run ends unverified.
    pub first: Option<SprtPlan>,
    /// After a passed screen, this SPRT at a clock too (`--bake` asks for it); a first SPRT at a
    /// clock needs none.
    pub confirm: Option<SprtPlan>,
    /// Bake the result into the engine build when it passed at a clock.
    pub bake: bool,
}

impl VerifySettings {
    /// Checks that need no games, before the run starts.
    pub fn check(&self) -> Result<()> {
        if self.bake && self.first.is_none() {
            bail!(BAKE_NEEDS_VERIFY);
        }
        for plan in self.first.iter().chain(&self.confirm) {
            plan.sprt()?;
            if plan.games < 2 {
                bail!("--verify-games must allow at least one game pair");
            }
        }
        Ok(())
    }

    /// No verification: what `--no-verify` makes.
    pub fn skipped() -> VerifySettings {
        VerifySettings { first: None, confirm: None, bake: false }
    }
}

/// What a verification plays: the values a run started from and the ones it found (None for a
/// set it did not tune: the start plays there too).
#[derive(Clone)]
pub struct Contenders {
    pub start_eval: EvalParamSet,
    pub start_search: SearchParamSet,
    pub eval: Option<EvalParamSet>,
    pub search: Option<SearchParamSet>,
}

impl Contenders {
    /// Whether the tuned values differ from the start anywhere.
    pub fn changed(&self) -> bool {
        self.eval.as_ref().is_some_and(|e| e.values() != self.start_eval.values())
            || self.search.as_ref().is_some_and(|s| s.values() != self.start_search.values())
    }
}

/// An engine binary's tuned option values against its starting ones (`tune texel --engine`,
/// a black-box tuner's `--fitness engine`): the same binary, with the same fixed options, on
/// both sides. Kept in the run's result.json (`engine_pairing`) so `tune verify RUN` plays it
/// later.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineContenders {
    /// The engine as it always runs (its fixed options included).
    pub spec: EngineSpec,
    /// Option values as `setoption` takes them.
    pub start: Vec<(String, String)>,
    pub tuned: Vec<(String, String)>,
}

impl EngineContenders {
    /// The engine's spec with these option values set (after its fixed ones), named `name`.
    pub fn spec_with(&self, name: &str, values: &[(String, String)]) -> EngineSpec {
        let mut spec = self.spec.clone();
        spec.name = name.to_string();
        for (option, value) in values {
            spec.options.retain(|(n, _)| !crate::play::engines::uci_option::same_name(n, option));
            spec.options.push((option.clone(), value.clone()));
        }
        spec
    }

    /// Whether any tuned value differs from its start.
    pub fn changed(&self) -> bool {
        self.tuned.iter().any(|(name, value)| {
            self.start.iter().find(|(n, _)| n == name).is_none_or(|(_, start)| start != value)
        })
    }

    /// As result.json keeps it.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "command": self.spec.command,
            "args": self.spec.args,
            "working_dir": self.spec.working_dir,
            "fixed_options": self.spec.options,
            "start": self.start,
            "tuned": self.tuned,
        })
    }

    /// Back from result.json's `engine_pairing`.
    pub fn from_json(value: &serde_json::Value) -> Result<EngineContenders> {
        #[derive(serde::Deserialize)]
        struct Kept {
            command: std::path::PathBuf,
            #[serde(default)]
            args: Vec<String>,
            #[serde(default)]
            working_dir: Option<std::path::PathBuf>,
            #[serde(default)]
            fixed_options: Vec<(String, String)>,
            start: Vec<(String, String)>,
            tuned: Vec<(String, String)>,
        }
        let kept: Kept = serde_json::from_value(value.clone())
            .map_err(|e| anyhow::anyhow!("result.json's engine_pairing: {e}"))?;
        let name =
            kept.command.file_name().map_or_else(|| "engine".into(), |n| n.to_string_lossy().into_owned());
        Ok(EngineContenders {
            spec: EngineSpec {
                name,
                command: kept.command,
                args: kept.args,
                options: kept.fixed_options,
                working_dir: kept.working_dir,
                protocol: crate::play::engines::engine_process::Protocol::Uci,
            },
            start: kept.start,
            tuned: kept.tuned,
        })
    }
}

/// Who a verification plays: our values in this process, or an engine binary with the tuned
/// option values against itself with the starting ones (over UCI, through the same runner).
#[derive(Clone)]
pub enum Pairing {
    Values(Contenders),
    Engine(EngineContenders),
}

impl From<Contenders> for Pairing {
    fn from(contenders: Contenders) -> Pairing {
        Pairing::Values(contenders)
    }
}
