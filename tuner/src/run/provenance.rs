//! How a params file was tuned, carried in the file itself as its `[provenance]` table: the tool
//! and command, the run folder, the file it started from, the data and recipe of a fit, and what
//! games said of the result. Every tuner writes it into its `tuned.toml`, a verification adds its
//! verdict, and `tune export` keeps it, so a file says what it is wherever it goes; a tuning run
//! with no `--data` continues on the data and recipe its starting file records.
//!
//! The engine reads a params file's terms and passes over this table; only the tuner reads it.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// The data and recipe a Texel fit used (the options that say what the values were fitted to).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Recipe {
    /// The labelled positions, as paths relative to the repository root where they lie in it.
    pub data: Vec<String>,
    /// How to make the data again where a file is missing on this machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regenerate: Option<String>,
    /// The share of each target taken from the search score (`--score-weight`).
    #[serde(default)]
    pub score_weight: f64,
    /// The sigmoid scale of the scores: `eval` or `fit` (`--score-k`).
    #[serde(default = "eval_k")]
    pub score_k: String,
    /// The pull toward the starting values (`--l2`).
    pub l2: f64,
    /// The prior over tables (`--smooth`, `--mirror`, `--prior-terms`).
    #[serde(default)]
    pub smooth: f64,
    #[serde(default)]
    pub mirror: f64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prior_terms: Vec<String>,
    /// Values seen in fewer positions were not tuned on evidence (`--min-coverage`).
    pub min_coverage: f64,
    /// Which games of `data` were held out for validation, file by file in order: the values
    /// were fitted on the rest (empty in files written before it was recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_out: Vec<HeldOut>,
}

/// The games held out of consecutive files of a recipe's data: game g (numbered in load order
/// over all the data) by the hold-out rule of `seed` and `fraction` (0: none, as when a fit
/// validated on other files).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeldOut {
    /// How many files of the data, after those of the segments before.
    pub files: usize,
    pub seed: u64,
    pub fraction: f64,
}

fn eval_k() -> String {
    "eval".to_string()
}

/// The `[provenance]` table of a params file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// The tuner (`texel`, `pbil`, ...) or `hand` for values set by hand.
    pub tool: String,
    /// The command line that made the values.
    pub command: String,
    /// When (UTC, RFC 3339).
    pub date: String,
    /// The run folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// The params file the run started from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// A fit's data and recipe (None for a tuner over games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipe: Option<Recipe>,
    /// What games said: the record `result.json` keeps under `verdict` (None before any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<toml::Value>,
    /// Anything else a reader should know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A file's text with a `[provenance]` table, for reading and writing that table alone.
#[derive(Serialize, Deserialize)]
struct Carrier {
    provenance: Option<Provenance>,
}

impl Provenance {
    /// A tuning run's provenance: `tool` run now by this command line into `run`, starting from
    /// the params file `start`, fitting by `recipe` (None for a tuner over games).
    pub fn of_run(tool: &str, run: &Path, start: &Path, recipe: Option<Recipe>) -> Provenance {
        Provenance {
            tool: tool.to_string(),
            command: super::command_line(),
            date: now(),
            run: Some(run.display().to_string()),
            start: Some(start.display().to_string()),
            recipe,
            verdict: None,
            note: None,
        }
    }

    /// The provenance of the params file `path`, if it has one.
    pub fn read(path: &Path) -> Result<Option<Provenance>> {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        Provenance::parse(&text).with_context(|| format!("{}: its [provenance] table", path.display()))
    }

    /// The provenance in a params file's text, if it has one.
    pub fn parse(text: &str) -> Result<Option<Provenance>> {
        let table: toml::Table = toml::from_str(text)?;
        match table.get("provenance") {
            None => Ok(None),
            Some(value) => Ok(Some(value.clone().try_into()?)),
        }
    }

    /// The table as TOML text, to follow a params file's terms.
    pub fn to_toml(&self) -> Result<String> {
        let carrier = Carrier { provenance: Some(self.clone()) };
        toml::to_string(&carrier).context("writing the [provenance] table")
    }

    /// `terms` (a params file's text without provenance) followed by this table.
    pub fn append_to(&self, terms: &str) -> Result<String> {
        Ok(format!("{}\n{}", terms.trim_end(), self.to_toml()?))
    }

    /// The verdict as JSON (as `result.json` holds it).
    pub fn verdict_json(&self) -> Option<serde_json::Value> {
        self.verdict.as_ref().and_then(|v| serde_json::to_value(v).ok())
    }

    /// Sets the verdict from its JSON record.
    pub fn set_verdict(&mut self, verdict: &serde_json::Value) -> Result<()> {
        self.verdict = Some(toml::Value::try_from(verdict).context("the verdict as TOML")?);
        Ok(())
    }
}

/// A params file's text without its `[provenance]` table (the terms the engine reads), so a
/// new provenance replaces the old one.
pub fn strip(text: &str) -> String {
    let mut kept = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let header = line.trim_start();
        if header.starts_with('[') {
            inside = header.starts_with("[provenance]") || header.starts_with("[provenance.");
        }
        if !inside {
            kept.push(line);
        }
    }
    kept.join("\n") + "\n"
}

/// Now, as RFC 3339 in UTC to the second.
pub fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
#[path = "provenance_tests.rs"]
mod tests;
