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
    use crate::run::verdict::{Outcome, Standing};
    let standing = Standing::from_json(result.get("verdict")?)?;
    let headline = match &standing {
        Standing::Verified(v) => format!("Verdict: {}", v.sentence()),
        Standing::Unverified(reason) => format!("Verdict: UNVERIFIED ({reason})"),
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
        passed: matches!(&standing, Standing::Verified(v) if v.outcome == Outcome::Passed),
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
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::report::page::{render, write_index, Page};
    use crate::report::param_sections::param_sections;
    use crate::report::{run_plots, term_pictures, Frozen};

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("whetstone-html-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn sample_run(dir: &Path, with_trajectory: bool) {
        std::fs::write(
            dir.join("run.json"),
            r#"{"tool":"texel","command":["tune","texel","--epochs","5"],"started":"2025-01-02T03:04:05Z","options":{"lr":0.5}}"#,
        )
        .unwrap();
        let mut log = String::from("epoch,train_loss,valid_loss,k,learning_rate,seconds\n");
        for e in 0..12 {
            let valid = if e == 3 {
                String::new()
            } else if e == 4 {
                "NaN".into()
            } else {
                format!("{}", 0.1 - e as f64 * 0.002)
            };
            log.push_str(&format!("{e},{},{valid},1.2,0.5,{}\n", 0.09 - e as f64 * 0.002, e * 3));
        }
        std::fs::write(dir.join("log.csv"), log).unwrap();
        if with_trajectory {
            std::fs::write(
                dir.join("trajectory.csv"),
                "epoch,pst_knight_e4_mg,tempo\n0,10,20\n1,12,19\n2,15,18\n",
            )
            .unwrap();
        }
    }

    #[test]
    fn run_sections_reads_a_run_folder() {
        let dir = temp_dir("run");
        sample_run(&dir, false);
        let images = vec![Image { file: "log-loss.png".into(), title: "loss".into(), group: "run".into() }];
        let sections = run_sections(&dir, &images).unwrap();
        let html = render(&Page { title: "run".into(), metadata: vec![], sections });
        for expected in [
            "<th>tool</th><td>texel</td>",
            "tune texel --epochs 5",
            "2025-01-02T03:04:05Z",
            "<th>lr</th><td>0.5</td>",
        ] {
            assert!(html.contains(expected), "missing {expected}");
        }
        // First row, the gap, and the last five of twelve rows.
        assert!(html.contains("log.csv: 12 rows"));
        assert!(html.contains("<td>0</td>") && html.contains("<td>11</td>") && html.contains("<td>7</td>"));
        assert!(!html.contains("<td>5</td><td>"));
        assert!(html.contains("src=\"log-loss.png\""));
        assert!(run_sections(&dir.join("missing"), &images).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_verdict_is_the_first_thing_a_run_section_shows_in_words_and_the_options_fold_away() {
        let dir = temp_dir("verdict");
        sample_run(&dir, false);
        std::fs::write(
            dir.join("run.json"),
            r#"{"tool":"pbil","command":["tune","pbil","--l2","0.01"],"options":{"l2":0.01,"seed":1,"play":{"nodes":null}}}"#,
        )
        .unwrap();
        let verdict =
            serde_json::to_value(crate::run::verdict::example(crate::run::verdict::Outcome::Passed, true))
                .unwrap();
        std::fs::write(
            dir.join("result.json"),
            serde_json::json!({"games": 0, "verdict": verdict}).to_string(),
        )
        .unwrap();
        let sections = run_sections(&dir, &[]).unwrap();
        let html = render(&Page { title: "run".into(), metadata: vec![], sections });
        let headline = "Verdict: PASSED: +92.0 ± 23.1 Elo over 788 games, SPRT [0, 5], LLR 2.95 of ±2.94";
        let at = html.find(headline).unwrap_or_else(|| panic!("the verdict in words: {html}"));
        assert!(at < html.find("run.json").unwrap(), "the verdict comes before run.json");
        assert!(html.contains("Confirm it with"), "the advice follows the verdict: {html}");
        assert!(!html.contains("92.0395300167117") && !html.contains("2.9444389791664403"), "no raw figures");
        // Only the option the command line set is in the open; all of them behind a disclosure.
        let open = &html[..html.find("<details>").expect("the options folded away")];
        assert!(open.contains("<th>l2</th><td>0.01</td>") && !open.contains("<th>seed</th>"), "{open}");
        assert!(html.contains("<summary>every option of the run (3, defaults included)</summary>"), "{html}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn page_has_every_image_and_no_external_reference() {
        let out = temp_dir("page");
        let run = out.join("run");
        std::fs::create_dir_all(&run).unwrap();
        sample_run(&run, true);
        let params = whetstone::eval::EvalParamSet::baked().into_set();
        let mut baseline = params.clone();
        baseline.terms.iter_mut().for_each(|t| t.mg.iter_mut().for_each(|v| *v -= 3));
        let mut pictures =
            term_pictures::heat_maps(&params, Some(&baseline), &Frozen::default(), &out).unwrap();
        pictures.extend(term_pictures::curves(&params, Some(&baseline), &Frozen::default(), &out).unwrap());
        pictures.extend(run_plots::log_plots(&run, &out).unwrap());
        let mut sections = param_sections(&params, Some(&baseline), &Frozen::default(), &pictures);
        sections.extend(run_sections(&run, &pictures).unwrap());
        let page = Page {
            title: "Whetstone report".into(),
            metadata: vec![("params".into(), "params/eval.toml".into())],
            sections,
        };
        let path = write_index(&out, &page).unwrap();
        assert_eq!(path, out.join("index.html"));
        let html = std::fs::read_to_string(&path).unwrap();
        for img in &pictures {
            assert!(html.contains(&format!("src=\"{}\"", img.file)), "{} not on the page", img.file);
            assert!(out.join(&img.file).exists());
        }
        assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"));
        assert!(!html.contains("<script") && !html.contains("<link"));
        assert!(html.contains("name=\"viewport\""));
        assert!(html.contains("max-width:100%") && html.contains("overflow-x:auto"));
        // Table of contents links every section.
        for i in 1..=page.sections.len() {
            assert!(html.contains(&format!("href=\"#s{i}\"")) && html.contains(&format!("id=\"s{i}\"")));
        }
        let boards = term_pictures::piece_square_terms(&params).count();
        assert_eq!(html.matches("<table class=\"board\">").count(), 2 * boards);
        std::fs::remove_dir_all(&out).unwrap();
    }

    /// The body of the first `<table class="kv">` captioned `caption`.
    fn kv_table<'a>(html: &'a str, caption: &str) -> &'a str {
        let start =
            html.find(&format!("<caption>{caption}</caption>")).unwrap_or_else(|| panic!("no {caption}"));
        let rest = &html[start + 1..];
        let end = [rest.find("<caption>"), rest.find("</section>")].into_iter().flatten().min();
        let end = end.map_or(html.len(), |e| start + 1 + e);
        &html[start..end]
    }

    #[test]
    fn run_json_is_key_value_rows_that_wrap() {
        let dir = temp_dir("kv");
        std::fs::write(
            dir.join("run.json"),
            r#"{"started":"2025-01-02T03:04:05Z","options":{"params":"params/eval.toml","data":["a.epd","b.epd"],"threads":null,"play":{"nodes":5000}},"command":"tune texel --epochs 5 --data a.epd b.epd","tool":"texel","finished":"2025-01-02T04:00:00Z","results":{"loss":0.1,"epochs":5}}"#,
        )
        .unwrap();
        let sections = run_sections(&dir, &[]).unwrap();
        let html = render(&Page { title: "run".into(), metadata: vec![], sections });
        let table = kv_table(&html, "run.json");
        // Every key a row, in reading order: what ran, when, with what, what it found.
        let keys: Vec<&str> =
            table.split("<tr><th>").skip(1).map(|r| r.split("</th>").next().unwrap()).collect();
        assert_eq!(&keys[..5], ["tool", "command", "started", "finished", "options set"], "{keys:?}");
        for row in [
            "<tr><th>command</th><td>tune texel --epochs 5 --data a.epd b.epd</td></tr>",
            "<tr><th>finished</th><td>2025-01-02T04:00:00Z</td></tr>",
            "<tr><th>data</th><td>a.epd b.epd</td></tr>",
            "<tr><th>loss</th><td>0.1</td></tr>",
            "<tr><th>epochs</th><td>5</td></tr>",
        ] {
            assert!(table.contains(row), "missing {row} in {table}");
        }
        // Options the command line did not set are folded away, every option there.
        let folded = &html[html.find("<details>").expect("a disclosure")..];
        for row in [
            "<tr><th>params</th><td>params/eval.toml</td></tr>",
            "<tr><th>threads</th><td>none</td></tr>",
            "<tr><th>nodes</th><td>5000</td></tr>",
        ] {
            assert!(folded.contains(row) && !table.contains(row), "{row} folded away: {html}");
        }
        // Options and results are nested tables, not one long cell.
        assert!(table.contains("<tr><th>options set</th><td><table class=\"kv\">"));
        assert!(table.contains("<tr><th>results</th><td><table class=\"kv\">"));
        // Key/value tables are not in a sideways-scrolling box (their cells wrap: see page.rs).
        assert!(!html.contains("<div class=\"scroll\"><table class=\"kv\">"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn options_an_old_run_json_stored_as_text_are_shown_as_that_text() {
        let dir = temp_dir("text");
        let options =
            r#"PbilArgs { common: TuneArgs { params: \"params/eval.toml\", only: [] }, window: 16 }"#;
        std::fs::write(dir.join("run.json"), format!(r#"{{"tool":"pbil","options":"{options}"}}"#)).unwrap();
        std::fs::write(
            dir.join("result.json"),
            r#"{"games":0,"values":{"a":1,"b":2},"frozen":["x","y","z"]}"#,
        )
        .unwrap();
        let html = render(&Page {
            title: "run".into(),
            metadata: vec![],
            sections: run_sections(&dir, &[]).unwrap(),
        });
        let table = kv_table(&html, "run.json");
        let row =
            "<tr><th>options</th><td>PbilArgs { common: TuneArgs { params: &quot;params/eval.toml&quot;, \
                   only: [] }, window: 16 }</td></tr>";
        assert!(table.contains(row), "{table}");
        assert!(!html.contains("<details>"), "no options object, nothing to fold away");
        let result = kv_table(&html, "result.json");
        assert!(result.contains("<tr><th>games</th><td>0</td></tr>"));
        assert!(result.contains("2 tuned values"));
        assert!(result.contains("3 values (see Frozen values)"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_json_string_of_options_becomes_rows() {
        let value = serde_json::json!("{\"params\": \"p.toml\", \"epochs\": 3}");
        assert_eq!(
            entry(&value),
            Entry::Rows(vec![
                ("epochs".into(), Entry::Text("3".into())),
                ("params".into(), Entry::Text("p.toml".into()))
            ])
        );
        assert_eq!(entry(&serde_json::json!([1, 2.5])), Entry::Text("1, 2.5".into()));
        assert_eq!(entry(&serde_json::json!([])), Entry::Text("none".into()));
    }
}
