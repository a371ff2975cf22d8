//! The page's section about a tuning run's folder: its verdict in words first, the stages of a
//! `tune auto` run, its `run.json` (the options the command line set in the open, every option
//! folded away) and `result.json` as key/value rows, the first and last rows of its `log.csv`,
//! and the run's pictures.

use std::path::Path;

use anyhow::{bail, Context, Result};

use super::charts::Image;
use super::page::{Block, Entry, Section};

/// How many of the last rows of `log.csv` the run section shows.
const LOG_TAIL: usize = 5;

/// The keys of `run.json` in the order shown; any others follow in file order.
const RUN_KEYS: [&str; 6] = ["tool", "command", "started", "finished", "options", "results"];

/// The sections of a tuning run: its `run.json` as key/value rows (options and results as
/// nested rows), its `result.json` but the tuned values, the first and the last rows of its
/// `log.csv`, and the run's pictures (group "run" of `images`).
pub fn run_sections(run_dir: &Path, images: &[Image]) -> Result<Vec<Section>> {
    if !run_dir.is_dir() {
        bail!("{} is not a run folder", run_dir.display());
    }
    let mut body = Vec::new();
    let result_path = run_dir.join("result.json");
    // A tuning run's verdict is the first thing its report says.
    let result = result_path.exists().then(|| read_json_file(&result_path).ok()).flatten();
    if let Some(block) = result.as_ref().and_then(|r| verdict_block(run_dir, r)) {
        body.push(block);
    }
    if let Some(table) = stages_table(&result_path) {
        body.push(table);
    }
    let meta_path = run_dir.join("run.json");
    if meta_path.exists() {
        let value = read_json_file(&meta_path)?;
        match value {
            serde_json::Value::Object(map) => body.extend(run_json_blocks(&map)),
            other => body.push(Block::Pre(serde_json::to_string_pretty(&other)?)),
        }
    } else {
        body.push(Block::Text("This run folder has no run.json.".into()));
    }

    if result_path.exists() {
        if let serde_json::Value::Object(map) = read_json_file(&result_path)? {
            let rows = map
                .iter()
                .map(|(k, v)| {
                    let value = match (k.as_str(), v) {
                        ("values", serde_json::Value::Object(values)) => Entry::Text(format!(
                            "{} tuned values (in the tables below, and in tuned.toml)",
                            values.len()
                        )),
                        ("frozen", serde_json::Value::Array(names)) => {
                            Entry::Text(format!("{} values (see Frozen values)", names.len()))
                        }
                        ("stages", serde_json::Value::Array(stages)) => {
                            Entry::Text(format!("{} stages (in the table above)", stages.len()))
                        }
                        ("verdict" | "screen", _) => Entry::Text("at the top of this report".into()),
                        _ => entry(v),
                    };
                    (k.clone(), value)
                })
                .collect();
            body.push(Block::KeyValue { caption: "result.json".into(), rows });
        }
    }

    let log_path = run_dir.join("log.csv");
    if log_path.exists() {
        body.push(log_table(&log_path)?);
    } else {
        body.push(Block::Text("This run folder has no log.csv.".into()));
    }
    let pictures: Vec<Image> = images.iter().filter(|i| i.group == "run").cloned().collect();
    if !pictures.is_empty() {
        body.push(Block::Images(pictures));
    }
    Ok(vec![Section { title: format!("Run {}", run_dir.display()), body }])
}

/// The verdict of a run's `result.json` as one sentence and the advice that follows it.
fn verdict_block(run_dir: &Path, result: &serde_json::Value) -> Option<Block> {
    use crate::run::verdict::{Standing, VerdictOutcome};
    let standing = Standing::from_json(result.get("verdict")?)?;
    let headline = match &standing {
        Standing::Verified(v) => format!("Verdict: {}", v.sentence()),
        Standing::Unverified(reason) => format!("Verdict: UNVERIFIED ({reason})"),
        Standing::NoHeldOutGain { start, end } => {
            format!("Verdict: none, not played: the held-out loss did not fall ({start:.6} -> {end:.6})")
        }
        Standing::Unchanged => "Verdict: none, the run moved no value".to_string(),
    };
    let (tuned, search) = (run_dir.join("tuned.toml"), run_dir.join("search.toml"));
    let baking = crate::run::advice::Baking {
        eval: tuned.is_file().then_some(tuned.as_path()),
        search: search.is_file().then_some(search.as_path()),
        baked: result.get("baked").and_then(|b| b.as_bool()).unwrap_or(false),
    };
    Some(Block::Verdict {
        headline,
        passed: matches!(&standing, Standing::Verified(v) if v.outcome == VerdictOutcome::Passed),
        advice: crate::run::advice::advice(&standing, run_dir, &baking),
    })
}

/// `run.json` as the tool, the command, its dates and results in the open, and only the options
/// the command line set; every option, defaults included, folded away.
fn run_json_blocks(map: &serde_json::Map<String, serde_json::Value>) -> Vec<Block> {
    let mut keys: Vec<&String> =
        RUN_KEYS.iter().filter_map(|k| map.get_key_value(*k).map(|(k, _)| k)).collect();
    keys.extend(map.keys().filter(|k| !RUN_KEYS.contains(&k.as_str())));
    let command = map.get("command").map(command_text).unwrap_or_default();
    // An option was set when the command line names it (`--l2` for `l2`).
    let set = |name: &str| {
        let flag = format!("--{}", name.replace('_', "-"));
        command.split_whitespace().any(|word| word == flag || word.starts_with(&format!("{flag}=")))
    };
    let mut rows = Vec::new();
    let mut folded = None;
    for key in keys {
        match (key.as_str(), &map[key]) {
            ("options", serde_json::Value::Object(options)) => {
                let given: Vec<(String, Entry)> = flatten(options)
                    .into_iter()
                    .filter(|(k, _)| set(k))
                    .map(|(k, v)| (k, entry(&v)))
                    .collect();
                let shown =
                    if given.is_empty() { Entry::Text("the defaults".into()) } else { Entry::Rows(given) };
                rows.push(("options set".to_string(), shown));
                folded = Some(Block::Details {
                    summary: format!(
                        "every option of the run ({}, defaults included)",
                        flatten(options).len()
                    ),
                    blocks: vec![Block::KeyValue {
                        caption: "options (defaults included)".into(),
                        rows: flatten(options).into_iter().map(|(k, v)| (k, entry(&v))).collect(),
                    }],
                });
            }
            (_, value) => rows.push((key.clone(), entry(value))),
        }
    }
    let mut blocks = vec![Block::KeyValue { caption: "run.json".into(), rows }];
    blocks.extend(folded);
    blocks
}

/// A command line recorded as text or as an array of words.
fn command_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Array(words) => {
            words.iter().filter_map(|w| w.as_str()).collect::<Vec<_>>().join(" ")
        }
        serde_json::Value::String(text) => text.clone(),
        _ => String::new(),
    }
}

/// Options with nested groups (flattened clap structs serialised as objects) made flat.
fn flatten(options: &serde_json::Map<String, serde_json::Value>) -> Vec<(String, serde_json::Value)> {
    let mut out = Vec::new();
    for (key, value) in options {
        match value {
            serde_json::Value::Object(inner) => out.extend(flatten(inner)),
            other => out.push((key.clone(), other.clone())),
        }
    }
    out
}

/// The stages of a `tune auto` run (`"stages"` in its result.json), one row each, in the order
/// they ran: what each played, its verdict, whether it was kept, and the cumulative Elo.
fn stages_table(result_path: &Path) -> Option<Block> {
    let result = read_json_file(result_path).ok()?;
    let stages = result.get("stages")?.as_array()?;
    let number =
        |v: &serde_json::Value, digits: usize| v.as_f64().map_or(String::new(), |x| format!("{x:.digits$}"));
    let rows = stages
        .iter()
        .map(|s| {
            let elo = match (s["elo"].as_f64(), s["elo_error"].as_f64()) {
                (Some(e), Some(err)) => format!("{e:+.1} ± {err:.1}"),
                _ => String::new(),
            };
            vec![
                s["cycle"].to_string(),
                s["stage"].as_str().unwrap_or("").to_string(),
                s["games"].to_string(),
                s["positions"].as_u64().map_or(String::new(), |p| p.to_string()),
                s["verdict"].as_str().unwrap_or("").to_string(),
                elo,
                number(&s["llr"], 2),
                if s["kept"] == true { "kept".into() } else { String::new() },
                format!("{:+.1} ± {:.1}", s["cumulative_elo"].as_f64()?, s["cumulative_error"].as_f64()?),
                number(&(s["seconds"].as_f64()? / 60.0).into(), 1),
            ]
            .into()
        })
        .collect::<Option<Vec<Vec<String>>>>()?;
    let header = [
        "cycle",
        "stage",
        "games",
        "positions",
        "verdict",
        "Elo ± 95%",
        "LLR",
        "kept",
        "cumulative Elo",
        "minutes",
    ];
    Some(Block::Table {
        caption: "stages of tune auto (each tuning stage's SPRT against the values before it; only passed stages are kept)"
            .into(),
        header: header.iter().map(|h| h.to_string()).collect(),
        rows,
    })
}

fn read_json_file(path: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))
}

/// A JSON value as a key/value entry: an object as nested rows, a string that holds a JSON object
/// as its rows, any other string as text, arrays of plain values joined, anything else as pretty
/// JSON.
pub fn entry(value: &serde_json::Value) -> Entry {
    use serde_json::Value;
    match value {
        Value::Object(map) => Entry::Rows(map.iter().map(|(k, v)| (k.clone(), entry(v))).collect()),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(inner @ Value::Object(_)) => entry(&inner),
            _ => Entry::Text(s.clone()),
        },
        Value::Array(items) if items.is_empty() => Entry::Text("none".into()),
        Value::Array(items) if items.iter().all(|i| i.is_string()) => {
            // Command lines are arrays of words; a space-joined line reads better than JSON.
            Entry::Text(items.iter().filter_map(|i| i.as_str()).collect::<Vec<_>>().join(" "))
        }
        Value::Array(items) if items.iter().all(|i| !i.is_object() && !i.is_array()) => {
            Entry::Text(items.iter().map(Value::to_string).collect::<Vec<_>>().join(", "))
        }
        Value::Array(_) => Entry::Pre(serde_json::to_string_pretty(value).unwrap_or_default()),
        Value::Null => Entry::Text("none".into()),
        other => Entry::Text(other.to_string()),
    }
}

/// The first row and the last [`LOG_TAIL`] rows of a log, cells as written.
fn log_table(path: &Path) -> Result<Block> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .with_context(|| format!("reading {}", path.display()))?;
    let header: Vec<String> = reader.headers()?.iter().map(String::from).collect();
    let records: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.map(|r| r.iter().map(String::from).collect()))
        .collect::<Result<_, _>>()
        .with_context(|| format!("reading {}", path.display()))?;
    let n = records.len();
    let mut rows = Vec::new();
    if n > LOG_TAIL + 1 {
        rows.push(records[0].clone());
        rows.push(vec!["…".to_string(); header.len().max(1)]);
        rows.extend(records[n - LOG_TAIL..].iter().cloned());
    } else {
        rows = records;
    }
    let caption =
        format!("log.csv: {n} rows{}", if n > LOG_TAIL + 1 { ", the first and the last" } else { "" });
    Ok(Block::Table { caption, header, rows })
}

#[cfg(test)]
#[path = "run_sections_tests.rs"]
mod tests;
