//! The loop's records: its checkpoint (`auto.json`, [`State`]), a finished stage as it is listed
//! ([`StageRecord`]: games, verdict, Elo, kept, the cumulative Elo), read from the stage's own run
//! folder, and what the run folder shows of them (`result.json`, `log.csv`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use whetstone::eval::EvalParamSet;
use whetstone::search::SearchParamSet;

use super::Stage;
use crate::play::runs::datagen::POSITIONS_FILE;
use crate::run::RunDir;

/// The rescore stage's output in its folder (the Texel stages read it in place of the datagen
/// stage's positions).
pub(super) const RESCORED_FILE: &str = "positions.epd";

/// The loop's checkpoint (`auto.json`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(super) struct State {
    /// The stages of every cycle (--stages).
    #[serde(default)]
    pub(super) plan: Vec<Stage>,
    /// The values the next stage starts from: the start's, or the last passed stage's.
    pub(super) eval: PathBuf,
    pub(super) search: PathBuf,
    /// The next stage: its cycle (from 1) and its place in --stages.
    pub(super) cycle: usize,
    pub(super) next: usize,
    /// Whether the next stage had started (its folder holds a run to resume).
    pub(super) started: bool,
    /// Seconds of work over every sitting, and those of the next stage's earlier sittings.
    pub(super) seconds: f64,
    pub(super) partial_seconds: f64,
    /// The datagen stages' positions (a rescore stage's scored copy in place of its datagen's).
    pub(super) positions: Vec<PathBuf>,
    /// An `--engine` run's values: the options its passed stages tuned, by name.
    #[serde(default)]
    pub(super) options: Vec<(String, String)>,
    pub(super) stages: Vec<StageRecord>,
    /// Why the loop ended (None while it runs).
    pub(super) ended: Option<String>,
}

impl State {
    /// A new run's state: the first stage of the first cycle next, from these files.
    pub(super) fn start(eval: &Path, search: &Path, plan: &[Stage]) -> State {
        State {
            plan: plan.to_vec(),
            eval: eval.to_path_buf(),
            search: search.to_path_buf(),
            cycle: 1,
            next: 0,
            started: false,
            seconds: 0.0,
            partial_seconds: 0.0,
            positions: Vec::new(),
            options: Vec::new(),
            stages: Vec::new(),
            ended: None,
        }
    }
}

/// A finished stage, as result.json's `stages` and log.csv list them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(super) struct StageRecord {
    pub(super) cycle: usize,
    pub(super) stage: Stage,
    pub(super) dir: PathBuf,
    pub(super) command: String,
    pub(super) seconds: f64,
    /// Games played: the datagen games, or the tuner's games and its verification's.
    pub(super) games: u64,
    /// Positions the datagen stage added (the rescore stage: scored).
    pub(super) positions: Option<u64>,
    /// passed, failed, undecided; "unchanged" when the tuner moved nothing (nothing to verify);
    /// "no_held_out_gain" when a Texel stage's held-out loss did not fall (not played).
    pub(super) verdict: Option<String>,
    pub(super) elo: Option<f64>,
    pub(super) elo_error: Option<f64>,
    pub(super) llr: Option<f64>,
    /// Whether the next stages start from this stage's values.
    pub(super) kept: bool,
    /// The Elo of every kept stage so far, summed, and the 95% half-width of that sum.
    pub(super) cumulative_elo: f64,
    pub(super) cumulative_error: f64,
}

impl StageRecord {
    /// A finished Texel stage of cycle 1 that played no games, for tests.
    #[cfg(test)]
    pub(super) fn texel_example(verdict: &str, seconds: f64) -> StageRecord {
        StageRecord {
            cycle: 1,
            stage: Stage::Texel,
            dir: PathBuf::from("cycle-1/texel"),
            command: "tune texel".into(),
            seconds,
            games: 0,
            positions: None,
            verdict: Some(verdict.into()),
            elo: None,
            elo_error: None,
            llr: None,
            kept: false,
            cumulative_elo: 0.0,
            cumulative_error: 0.0,
        }
    }
}

/// log.csv's row: numbers the report charts by the stage's number (Elo of each stage, the
/// cumulative curve); the text columns are left out of the charts.
#[derive(Serialize)]
pub(super) struct LogRow<'a> {
    stage: usize,
    name: &'a str,
    verdict: &'a str,
    games: u64,
    elo: Option<f64>,
    elo_low: Option<f64>,
    elo_high: Option<f64>,
    cumulative_elo: f64,
    cumulative_elo_low: f64,
    cumulative_elo_high: f64,
    seconds: f64,
}

/// Reads what a finished stage left in its folder, moves the loop's values on when it passed,
/// and returns its record.
pub(super) fn finished_stage(
    state: &mut State,
    stage: Stage,
    dir: &Path,
    command: String,
    seconds: f64,
) -> Result<StageRecord> {
    let (cumulative_elo, cumulative_error) =
        state.stages.last().map_or((0.0, 0.0), |r| (r.cumulative_elo, r.cumulative_error));
    let mut record = StageRecord {
        cycle: state.cycle,
        stage,
        dir: dir.to_path_buf(),
        command,
        seconds,
        games: 0,
        positions: None,
        verdict: None,
        elo: None,
        elo_error: None,
        llr: None,
        kept: false,
        cumulative_elo,
        cumulative_error,
    };
    if stage == Stage::Datagen {
        let summary = read_json(&dir.join("summary.json"))?;
        record.positions = summary["positions"].as_u64();
        record.games = 2 * summary["pairs_planned"].as_u64().unwrap_or(0);
        state.positions.push(dir.join(POSITIONS_FILE));
        return Ok(record);
    }
    if stage == Stage::Rescore {
        // The scored positions stand in for the datagen stage's own from now on.
        let scored = dir.join(RESCORED_FILE);
        let text =
            std::fs::read_to_string(&scored).with_context(|| format!("reading {}", scored.display()))?;
        record.positions = Some(text.lines().filter(|l| !l.trim().is_empty()).count() as u64);
        if let Some(last) = state.positions.last_mut() {
            *last = scored;
        }
        return Ok(record);
    }
    let result = read_json(&dir.join("result.json"))?;
    let verdict = &result["verdict"];
    record.games = result["games"].as_u64().unwrap_or(0) + verdict["games"].as_u64().unwrap_or(0);
    record.verdict = Some(verdict["outcome"].as_str().unwrap_or("unchanged").to_string());
    record.elo = verdict["elo"].as_f64();
    record.elo_error = verdict["elo_error"].as_f64();
    record.llr = verdict["llr"].as_f64();
    record.kept = record.verdict.as_deref() == Some("passed");
    if record.kept {
        // An engine's options (an --engine run), or our params files.
        keep_values(state, &result);
        let (eval, search) = (dir.join("tuned.toml"), dir.join("search.toml"));
        if eval.is_file() {
            state.eval = eval;
        }
        if search.is_file() {
            state.search = search;
        }
        record.cumulative_elo += record.elo.unwrap_or(0.0);
        record.cumulative_error = record.cumulative_error.hypot(record.elo_error.unwrap_or(0.0));
    }
    Ok(record)
}

/// A passed stage's values, from its result.json's `engine_pairing`, into the loop's options.
pub(super) fn keep_values(state: &mut State, result: &serde_json::Value) {
    let Some(tuned) = result["engine_pairing"]["tuned"].as_array() else { return };
    for pair in tuned {
        let (Some(name), Some(value)) = (pair[0].as_str(), pair[1].as_str()) else { continue };
        state.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        state.options.push((name.to_string(), value.to_string()));
    }
}

pub(super) fn describe(r: &StageRecord) -> String {
    match (&r.verdict, r.elo, r.elo_error) {
        (Some(v), Some(elo), Some(err)) => format!(
            "cycle {}, {}: {v}, {elo:+.1} ± {err:.1} Elo over {} games, {}; cumulative {:+.1} ± {:.1} ({:.1} min)",
            r.cycle,
            r.stage.name(),
            r.games,
            if r.kept { "kept" } else { "not kept" },
            r.cumulative_elo,
            r.cumulative_error,
            r.seconds / 60.0
        ),
        (Some(v), _, _) => format!("cycle {}, {}: {v}, not kept ({:.1} min)", r.cycle, r.stage.name(), r.seconds / 60.0),
        (None, _, _) if r.stage == Stage::Rescore => format!(
            "cycle {}, rescore: {} positions scored ({:.1} min)",
            r.cycle,
            r.positions.unwrap_or(0),
            r.seconds / 60.0
        ),
        (None, _, _) => format!(
            "cycle {}, {}: {} games, {} positions ({:.1} min)",
            r.cycle,
            r.stage.name(),
            r.games,
            r.positions.unwrap_or(0),
            r.seconds / 60.0
        ),
    }
}

pub(super) fn read_json(path: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))
}

pub(super) fn save(run: &RunDir, state: &State) -> Result<()> {
    run.write_json("auto.json", state)
}

pub(super) fn load_state(run: &RunDir) -> Result<State> {
    let path = run.file("auto.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("--resume: reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("--resume: {} is damaged", path.display()))
}

/// `result.json` (the stages, the cumulative Elo, the final values' files, why the loop ended)
/// and `log.csv` (a row per stage, charted by the report); written after every stage.
pub(super) fn write_results(
    run: &RunDir,
    state: &State,
    start_eval: &EvalParamSet,
    start_search: &SearchParamSet,
    baked: Option<bool>,
) -> Result<serde_json::Value> {
    let last = state.stages.last();
    let eval = EvalParamSet::load(&state.eval)?;
    let search = SearchParamSet::load(&state.search)?;
    let result = serde_json::json!({
        "stages": state.stages,
        "games": state.stages.iter().map(|r| r.games).sum::<u64>(),
        "kept": state.stages.iter().filter(|r| r.kept).count(),
        "cumulative_elo": last.map_or(0.0, |r| r.cumulative_elo),
        "cumulative_elo_error": last.map_or(0.0, |r| r.cumulative_error),
        "hours": state.seconds / 3600.0,
        "eval": state.eval,
        "search": state.search,
        "options": state.options,
        "changed": eval.values() != start_eval.values()
            || search.values() != start_search.values()
            || !state.options.is_empty(),
        "ended": state.ended,
        "baked": baked,
    });
    run.write_json("result.json", &result)?;
    let rows: Vec<LogRow> = state
        .stages
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let err = r.elo_error.unwrap_or(f64::NAN);
            LogRow {
                stage: i + 1,
                name: r.stage.name(),
                verdict: r.verdict.as_deref().unwrap_or(""),
                games: r.games,
                elo: r.elo,
                elo_low: r.elo.map(|e| e - err),
                elo_high: r.elo.map(|e| e + err),
                cumulative_elo: r.cumulative_elo,
                cumulative_elo_low: r.cumulative_elo - r.cumulative_error,
                cumulative_elo_high: r.cumulative_elo + r.cumulative_error,
                seconds: r.seconds,
            }
        })
        .collect();
    run.write_csv("log.csv", &rows)?;
    Ok(result)
}
