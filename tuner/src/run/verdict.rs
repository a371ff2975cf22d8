//! What a verification concluded, and how a run's result stands for baking.
//!
//! A [`Verdict`] is one SPRT's end (passed, failed, or undecided at its cap), at fixed nodes (a
//! screen) or at a clock. A run's [`Standing`] is what `result.json` and a params file's
//! provenance say of it: verified at a clock, passed only a screen, failed, undecided, unverified
//! (`--no-verify`), not played because its held-out loss did not fall, or unchanged. Only a result that passed at a clock is advised for baking, and
//! `tune export` bakes nothing else without `--force`.

use serde::{Deserialize, Serialize};

/// The clock of a verification that must hold at a clock (`--bake`, `tune verify --verify-tc`):
/// the clock every change to play is judged at here (docs/strength.md).
pub const CLOCK: &str = "3+0.03";

/// How a verification's SPRT ended: passed, failed or undecided (a game's result is
/// [`crate::play::outcome::Outcome`]). Serialised as `"passed"`, `"failed"`, `"undecided"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerdictOutcome {
    /// H1 accepted: the tuned values gain at least elo1 (with the SPRT's error rates).
    Passed,
    /// H0 accepted: they do not gain elo0.
    Failed,
    /// The game cap (or Ctrl-C) came first.
    Undecided,
}

impl VerdictOutcome {
    pub fn word(self) -> &'static str {
        match self {
            VerdictOutcome::Passed => "PASSED",
            VerdictOutcome::Failed => "FAILED",
            VerdictOutcome::Undecided => "UNDECIDED",
        }
    }
}

/// What one verification measured, as written to result.json, run.json and a params file's
/// provenance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub outcome: VerdictOutcome,
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub elo_error: f64,
    pub llr: f64,
    /// The LLR's stopping bounds (ln(beta/(1-alpha)), ln((1-beta)/alpha)).
    pub llr_bounds: [f64; 2],
    pub elo_bounds: [f64; 2],
    pub games: u64,
    pub pentanomial: [u64; 5],
    /// Wins, losses and draws of the tuned values (absent in runs before they were recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wld: Option<[u64; 3]>,
    /// The clock or node count, as a user types it (`3+0.03`, `5000 nodes`).
    pub control: String,
    /// Played at fixed nodes: a screen, which did not always hold at a clock.
    #[serde(default)]
    pub screen: bool,
    /// What the tuned values played.
    pub opponent: String,
}

impl Verdict {
    /// The verdict as the terminal and the report say it, in one line of words and rounded
    /// figures: `PASSED: +92.0 ± 23.1 Elo over 788 games, SPRT [0, 5], LLR 2.95 of ±2.94, at 5000
    /// nodes (a screen)`.
    pub fn sentence(&self) -> String {
        format!(
            "{}: {:+.1} ± {:.1} Elo over {} games, SPRT [{}, {}], LLR {:.2} of ±{:.2}, at {}{}",
            self.outcome.word(),
            self.elo,
            self.elo_error,
            self.games,
            trim(self.elo_bounds[0]),
            trim(self.elo_bounds[1]),
            self.llr,
            self.llr_bounds[1],
            self.control,
            if self.screen { " (a screen)" } else { "" }
        )
    }

    /// The run's last lines: the sentence, then the opponent and the pentanomial counts.
    pub fn lines(&self) -> String {
        format!(
            "verdict: {}\n  the tuned values against {}; pentanomial {:?}",
            self.sentence(),
            self.opponent,
            self.pentanomial
        )
    }
}

/// `5` for 5.0, `2.5` for 2.5: bounds as a user types them.
pub(crate) fn trim(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

/// How a run's result stands, as recorded in `result.json` (key `verdict`) or a params file's
/// provenance.
#[derive(Clone, Debug, PartialEq)]
pub enum Standing {
    /// The last verification was an SPRT at fixed nodes or a clock.
    Verified(Verdict),
    /// Not verified: `--no-verify`, or a run whose values the in-process match cannot play.
    Unverified(String),
    /// Not played: the tuned values fit the held-out positions no better than the start (`tune
    /// texel`'s validation loss, `start` -> `end`), so games were not asked to find a gain the
    /// data itself does not show. `tune verify RUN` plays them anyway.
    NoHeldOutGain { start: f64, end: f64 },
    /// The run moved no value: nothing to verify or bake.
    Unchanged,
}

impl Standing {
    /// The record written under `verdict`.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Standing::Verified(v) => serde_json::to_value(v).unwrap_or_default(),
            Standing::Unverified(reason) => serde_json::json!({ "outcome": "unverified", "reason": reason }),
            Standing::NoHeldOutGain { start, end } => {
                // The values as written (rounded), not the last epoch's: result.json's top-level
                // losses are those.
                serde_json::json!({ "outcome": "no_held_out_gain", "start_loss": start, "written_loss": end })
            }
            Standing::Unchanged => serde_json::json!({ "outcome": "unchanged" }),
        }
    }

    /// Reads a `verdict` record; None when it is not one.
    pub fn from_json(value: &serde_json::Value) -> Option<Standing> {
        match value.get("outcome")?.as_str()? {
            "unverified" => Some(Standing::Unverified(
                value.get("reason").and_then(|r| r.as_str()).unwrap_or("not verified").to_string(),
            )),
            "no_held_out_gain" => Some(Standing::NoHeldOutGain {
                start: value.get("start_loss")?.as_f64()?,
                end: value.get("written_loss")?.as_f64()?,
            }),
            "unchanged" => Some(Standing::Unchanged),
            _ => serde_json::from_value(value.clone()).ok().map(Standing::Verified),
        }
    }

    /// Whether the result may be baked without `--force`: it passed an SPRT at a clock.
    pub fn bakeable(&self) -> bool {
        matches!(self, Standing::Verified(v) if v.outcome == VerdictOutcome::Passed && !v.screen)
    }

    /// What it is, in words, for a refusal: `failed its verification (-118.5 ± 25.4 Elo over 600
    /// games at 5000 nodes)`.
    pub fn describe(&self) -> String {
        match self {
            Standing::Verified(v) => {
                let what = match (v.outcome, v.screen) {
                    (VerdictOutcome::Passed, true) => "passed only a screen at fixed nodes, not a clock SPRT",
                    (VerdictOutcome::Passed, false) => "passed its SPRT",
                    (VerdictOutcome::Failed, _) => "failed its verification",
                    (VerdictOutcome::Undecided, _) => {
                        "is undecided (its SPRT reached the game cap or was stopped before a verdict)"
                    }
                };
                format!(
                    "{what} ({:+.1} ± {:.1} Elo over {} games at {})",
                    v.elo, v.elo_error, v.games, v.control
                )
            }
            Standing::Unverified(reason) => format!("is unverified ({reason})"),
            Standing::NoHeldOutGain { start, end } => {
                format!("was not played: its held-out loss did not fall ({start:.6} -> {end:.6})")
            }
            Standing::Unchanged => "moved no value".to_string(),
        }
    }
}

/// A verdict to test with: +92.0 ± 23.1 over 788 games, at 5,000 nodes (a screen) or 3+0.03.
#[cfg(test)]
pub fn example(outcome: VerdictOutcome, screen: bool) -> Verdict {
    Verdict {
        outcome,
        elo: 92.0395300167117,
        elo_error: 23.07,
        llr: 2.9512,
        llr_bounds: [-2.9444389791664403, 2.9444389791664403],
        elo_bounds: [0.0, 5.0],
        games: 788,
        pentanomial: [1, 2, 3, 4, 5],
        wld: None,
        control: if screen { "5000 nodes per move".into() } else { "3+0.03".into() },
        screen,
        opponent: "the starting values".into(),
    }
}

#[cfg(test)]
#[path = "verdict_tests.rs"]
mod tests;
