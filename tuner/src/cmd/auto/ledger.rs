//! The loop's SPRTs as rows of `reports/tests.md`, the table every change to play is listed in
//! (docs/strength.md): what a stage changed and the command that made it, the commit and the
//! `bench` signature a build baked with its values would print, the bounds, the control, the
//! games, W-L-D with the pentanomial counts, the Elo with its 95% interval, the LLR and the
//! verdict. A stage the loop keeps is a change to play like one made by hand, and one it drops is
//! listed as a failed hand-made change is.
//!
//! The rows always go to the run folder (`tests.md`); with `--bake`, which writes into the
//! repository anyway, they are also inserted after the last row of the repository's table,
//! numbered on from it. A row whose stage folder the table already names is not written twice
//! (a run finished again with `--resume`).

use std::path::Path;

use anyhow::{bail, Context, Result};
use whetstone::bench::{run_bench_with, BENCH_DEPTH};
use whetstone::eval::{EvalParamSet, Weights};
use whetstone::search::{SearchParamSet, SearchParams};

use super::record::{read_json, StageRecord};
use super::Stage;
use crate::export::{START_EVAL, START_SEARCH};
use crate::run::verdict::trim;
use crate::run::{write_atomically, RunDir};
use crate::verify::{Standing, Verdict, VerdictOutcome};

/// The repository's table, from its root.
pub(super) const TABLE: &str = "reports/tests.md";

/// One test, as its row says it (the number is given when the row is placed in a table).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct TestRow {
    pub(super) change: String,
    /// The folder the row is about: what makes a row already written recognisable.
    pub(super) folder: String,
    pub(super) commit_bench: String,
    pub(super) verdict: Verdict,
    pub(super) conclusion: String,
}

impl TestRow {
    /// The markdown row, numbered `number`.
    pub(super) fn render(&self, number: usize) -> String {
        let v = &self.verdict;
        let wld = match v.wld {
            Some([w, l, d]) => format!("{w}-{l}-{d} (pentanomial {:?})", v.pentanomial),
            None => format!("pentanomial {:?}", v.pentanomial),
        };
        let cells = [
            number.to_string(),
            self.change.clone(),
            self.commit_bench.clone(),
            format!("[{}, {}]", trim(v.elo_bounds[0]), trim(v.elo_bounds[1])),
            control_words(&v.control),
            thousands(v.games),
            wld,
            format!("{:+.1} ± {:.1}", v.elo, v.elo_error),
            format!("{:.2}", v.llr),
            self.conclusion.clone(),
        ];
        let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        format!("| {} |", cells.join(" | "))
    }
}

/// Where the rows' commit and bench come from: the repository's commit the values start from,
/// and whether the values are ours (an `--engine` run's are another engine's options).
pub(super) struct Build {
    pub(super) commit: Option<String>,
    pub(super) ours: bool,
}

impl Build {
    /// The root's checked-out commit (None outside a git checkout).
    pub(super) fn of(root: &Path, ours: bool) -> Build {
        let commit = std::process::Command::new("git")
            .arg("-C")
            .arg(root)
            .args(["rev-parse", "--short", "HEAD"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty());
        Build { commit, ours }
    }

    /// `` `abc1234`, 925788 ``: the commit and the bench of `eval` and `search`.
    fn cell(&self, values: Option<(&EvalParamSet, &SearchParamSet)>) -> String {
        let commit = self.commit.as_deref().map_or("—".to_string(), |c| format!("`{c}`"));
        match values.filter(|_| self.ours) {
            Some((eval, search)) => {
                let weights = Weights::from_params(eval);
                let params = SearchParams::from_set(search);
                match run_bench_with(&weights, &params, BENCH_DEPTH, &mut std::io::sink()) {
                    Ok((nodes, _)) => format!("{commit}, {nodes}"),
                    Err(_) => commit,
                }
            }
            None => commit,
        }
    }
}

/// The rows of the run: each stage that played an SPRT, then the clock confirmation `--bake`
/// played (`clock`: its verdict, the run, the final values), if any. `baked`: the run's kept
/// values were baked.
pub(super) fn rows(
    stages: &[StageRecord],
    build: &Build,
    clock: Option<(&Verdict, &RunDir, (&EvalParamSet, &SearchParamSet))>,
    baked: bool,
) -> Result<Vec<TestRow>> {
    let mut rows = Vec::new();
    for record in stages {
        if let Some(row) = stage_row(record, build, baked)? {
            rows.push(row);
        }
    }
    if let Some((verdict, run, values)) = clock {
        let folder = run.file("verify-clock").display().to_string();
        let kept = stages.iter().filter(|r| r.kept).count();
        rows.push(TestRow {
            change: format!(
                "`tune auto`'s values after its {kept} kept stage(s), which passed screens at fixed nodes, against the values the run started from, in process, before `--bake` (`{folder}`, {})",
                dates(&run.file("run.json"))
            ),
            folder,
            commit_bench: build.cell(Some(values)),
            verdict: verdict.clone(),
            conclusion: conclusion(verdict.outcome, "baked", "not baked"),
        });
    }
    Ok(rows)
}

/// A stage's row, read from its run folder; None for a stage without an SPRT (datagen, rescore,
/// one that moved nothing, one left unverified).
fn stage_row(record: &StageRecord, build: &Build, baked: bool) -> Result<Option<TestRow>> {
    if !record.stage.tunes() {
        return Ok(None);
    }
    let dir = &record.dir;
    let result = read_json(&dir.join("result.json"))?;
    let Some(Standing::Verified(verdict)) = Standing::from_json(&result["verdict"]) else {
        return Ok(None);
    };
    let what = match record.stage {
        Stage::Spsa => "search",
        _ => "eval",
    };
    let moved = result["values_changed"].as_u64().map_or(String::new(), |n| format!(": {n} values moved"));
    let moved = format!("{moved}{}", kept_words(&result));
    let folder = dir.display().to_string();
    let change = format!(
        "{what} (`tune auto`, cycle {}, its {} stage{moved}), in process against the values the stage started from: `{}` (`{folder}`, {})",
        record.cycle,
        record.stage.name(),
        record.command,
        dates(&dir.join("run.json"))
    );
    Ok(Some(TestRow {
        change,
        folder,
        commit_bench: build.cell(stage_values(dir).as_ref().map(|(e, s)| (e, s))),
        conclusion: conclusion(
            verdict.outcome,
            if baked { "kept by the loop and baked" } else { "kept by the loop" },
            "not kept",
        ),
        verdict,
    }))
}

/// What `tune spsa --min-evidence Z` kept (its result.json's `min_evidence` and `kept`), as the
/// row says it: `, 2 kept by their evidence (|z| >= 2: a, b)`; empty for a stage that kept all.
fn kept_words(result: &serde_json::Value) -> String {
    let (Some(z), Some(kept)) = (result["min_evidence"].as_f64(), result["kept"].as_array()) else {
        return String::new();
    };
    let names: Vec<&str> = kept.iter().filter_map(|n| n.as_str()).collect();
    let names = if names.is_empty() { "none".to_string() } else { names.join(", ") };
    format!(", {} kept by their evidence (|z| >= {z}: {names})", kept.len())
}

/// The values a stage's tuned side played: its tuned files, or its start where it tuned none.
fn stage_values(dir: &Path) -> Option<(EvalParamSet, SearchParamSet)> {
    let pick = |tuned: &str, start: &str| {
        let tuned = dir.join(tuned);
        if tuned.is_file() {
            tuned
        } else {
            dir.join(start)
        }
    };
    let eval = EvalParamSet::load(&pick("tuned.toml", START_EVAL)).ok()?;
    let search = SearchParamSet::load(&pick("search.toml", START_SEARCH)).ok()?;
    Some((eval, search))
}

fn conclusion(outcome: VerdictOutcome, pass: &str, otherwise: &str) -> String {
    match outcome {
        VerdictOutcome::Passed => format!("passed: {pass}"),
        VerdictOutcome::Failed => format!("failed: {otherwise}"),
        VerdictOutcome::Undecided => format!("undecided at the cap: {otherwise}"),
    }
}

/// `2026-11-29T21:59:54Z to 2026-11-30T02:10:03Z`, from a run.json (empty when unreadable).
fn dates(run_json: &Path) -> String {
    let Ok(meta) = read_json(run_json) else { return String::new() };
    match (meta["started"].as_str(), meta["finished"].as_str()) {
        (Some(a), Some(b)) => format!("{a} to {b}"),
        (Some(a), None) => format!("from {a}"),
        _ => String::new(),
    }
}

/// The run folder's `tests.md`: the rows numbered from 1, under the table's header.
pub(super) fn write_run_table(run: &RunDir, rows: &[TestRow]) -> Result<()> {
    let mut text = String::from(
        "# The loop's tests\n\nOne row per SPRT of this run, as `reports/tests.md` lists a change (`--bake` inserts them there, numbered on).\n\n",
    );
    text.push_str(HEADER);
    for (i, row) in rows.iter().enumerate() {
        text.push_str(&row.render(i + 1));
        text.push('\n');
    }
    run.write("tests.md", &text)
}

const HEADER: &str = "| # | change | commit, bench | bounds | control | games | W-L-D | Elo | LLR | verdict |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";

/// Inserts `rows` at the end of the file's first table whose first column is `#` (the tests; a
/// later table may number its own rows), numbered on from the largest number in it; rows whose
/// folder the file already names are left out. Returns the numbers given.
pub(super) fn insert_rows(path: &Path, rows: &[TestRow]) -> Result<Vec<usize>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let lines: Vec<&str> = text.lines().collect();
    let Some(header) = lines.iter().position(|l| l.starts_with("| # |")) else {
        bail!(
            "{} has no table of tests (a header row starting `| # |`) to add the loop's tests to",
            path.display()
        );
    };
    let end = (header..lines.len()).find(|&i| !lines[i].starts_with('|')).unwrap_or(lines.len());
    let last_line = end - 1;
    let numbered: Vec<usize> = lines[header..end].iter().filter_map(|line| row_number(line)).collect();
    let first = numbered.iter().max().unwrap_or(&0) + 1;
    let new: Vec<&TestRow> = rows.iter().filter(|r| !text.contains(&format!("`{}`", r.folder))).collect();
    let added: Vec<usize> = (first..first + new.len()).collect();
    let new_lines: Vec<String> = new.iter().zip(&added).map(|(row, &n)| row.render(n)).collect();
    if added.is_empty() {
        return Ok(added);
    }
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out.splice(last_line + 1..last_line + 1, new_lines);
    let mut joined = out.join("\n");
    if text.ends_with('\n') {
        joined.push('\n');
    }
    write_atomically(path, &joined)?;
    Ok(added)
}

/// A table row's number: `| 54 |` is 54, a screen's `| 51s |` is 51; None for other lines.
fn row_number(line: &str) -> Option<usize> {
    let cell = line.strip_prefix('|')?.split('|').next()?.trim();
    let digits: String = cell.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() || !cell[digits.len()..].chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    digits.parse().ok()
}

/// `3+0.03` as `3 s + 0.03 s`; a node count as it is.
fn control_words(control: &str) -> String {
    match control.split_once('+') {
        Some((base, inc)) if !control.contains(' ') => format!("{base} s + {inc} s"),
        _ => control.to_string(),
    }
}

/// 1786 as `1,786`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
#[path = "ledger_tests.rs"]
mod tests;
