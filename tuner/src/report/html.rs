//! The report as one self-contained HTML page (`index.html`): inline CSS, no scripts, no web
//! fonts, pictures by relative file name, so the folder can be zipped, mailed and opened offline;
//! fluid enough to read on a phone.
//!
//! A [`Page`] is metadata and [`Section`]s of [`Block`]s; [`param_sections`], [`run_sections`],
//! [`changes_section`] and [`frozen_section`] build the sections of a parameter set, of a tuning
//! run, of its largest changes and of its frozen values; [`write_index`] renders the page.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use whetstone::params::{ParamSet, Shape, Term};

use super::images::{self, Image};
use super::{largest_changes, unused, Frozen};

/// The whole report page.
#[derive(Clone, Debug, Default)]
pub struct Page {
    pub title: String,
    /// Shown as key/value rows under the title: the file shown, the baseline, dates, ...
    pub metadata: Vec<(String, String)>,
    pub sections: Vec<Section>,
}

#[derive(Clone, Debug)]
pub struct Section {
    pub title: String,
    pub body: Vec<Block>,
}

#[derive(Clone, Debug)]
pub enum Block {
    /// Pictures in a grid, each with its title as caption.
    Images(Vec<Image>),
    /// A table of numbers: right-aligned cells that do not wrap (scrolls sideways on a phone).
    Table { caption: String, header: Vec<String>, rows: Vec<Vec<String>> },
    /// Key/value rows of text that wraps anywhere (a run's command, options and results), the
    /// page's full width; a value may be a nested table or preformatted text.
    KeyValue { caption: String, rows: Vec<(String, Entry)> },
    /// A piece-square table as a board: 64 values, a1 first, coloured on the scale of the PNG
    /// heat maps with `limit` as the value of full colour; `marks` (64, or empty for none) hatch
    /// frozen squares and blank unused ones.
    Board { caption: String, values: Vec<i32>, limit: f64, marks: Vec<Mark> },
    /// A paragraph.
    Text(String),
    /// Preformatted text (a command line, a summary).
    Pre(String),
    /// A run's verdict as the terminal says it, in words and rounded figures, with what to do
    /// next: the first thing a tuning run's report says.
    Verdict { headline: String, passed: bool, advice: String },
    /// Blocks folded away behind a disclosure (`<details>`), shown on a click.
    Details { summary: String, blocks: Vec<Block> },
}

/// The value of a key/value row.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    Text(String),
    /// Preformatted, wrapped at the page's width.
    Pre(String),
    /// A nested key/value table.
    Rows(Vec<(String, Entry)>),
}

/// How a square of a board is marked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    Plain,
    /// Kept at its start by the run (`--min-coverage`): hatched, value with `*`.
    Frozen,
    /// No position can use it (pawns on ranks 1 and 8): blank and grey.
    Unused,
}

/// Which phase of a term to show.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    Mg,
    Eg,
}

impl Phase {
    fn values(self, term: &Term) -> &[i32] {
        match self {
            Phase::Mg => &term.mg,
            Phase::Eg => &term.eg,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Phase::Mg => "middle game",
            Phase::Eg => "end game",
        }
    }
}

/// The mark of every element of `term` in one phase: unused before frozen.
pub fn marks(term: &Term, eg: bool, frozen: &Frozen) -> Vec<Mark> {
    unused(term)
        .into_iter()
        .enumerate()
        .map(|(i, u)| {
            if u {
                Mark::Unused
            } else if frozen.element(term, i, eg) {
                Mark::Frozen
            } else {
                Mark::Plain
            }
        })
        .collect()
}

/// A piece-square table's phase as an 8x8 board (rank 8 first) coloured like the heat maps. The
/// scale spans both phases (used squares only), as in the pictures, so the two boards compare.
pub fn board_table(term: &Term, phase: Phase, frozen: &Frozen) -> Block {
    let caption = if term.phased { format!("{}, {}", term.name, phase.name()) } else { term.name.clone() };
    let used = unused(term);
    let in_use =
        |v: &[i32]| -> Vec<i32> { v.iter().zip(&used).filter(|(_, u)| !**u).map(|(v, _)| *v).collect() };
    let scale: Vec<i32> = in_use(&term.mg).into_iter().chain(in_use(&term.eg)).collect();
    Block::Board {
        caption,
        values: phase.values(term).to_vec(),
        limit: images::scale_limit(&scale),
        marks: marks(term, phase == Phase::Eg, frozen),
    }
}

/// The sections of a parameter set: the piece-square tables (pictures and boards), the curves
/// (pictures and the values of the list and per-piece terms), and a table of the scalars.
/// `images` are the pictures of [`images::heat_maps`] and [`images::curves`]; those of other
/// groups are left for their own sections. Values in `frozen` are marked.
pub fn param_sections(
    params: &ParamSet,
    baseline: Option<&ParamSet>,
    frozen: &Frozen,
    images: &[Image],
) -> Vec<Section> {
    let in_group = |g: &str| images.iter().filter(|i| i.group == g).cloned().collect::<Vec<_>>();
    let mut sections = Vec::new();

    let mut body = Vec::new();
    let pictures = in_group("tables");
    if !pictures.is_empty() {
        body.push(Block::Images(pictures));
    }
    let mut notes = vec!["Squares no piece of the kind can stand on are left blank."];
    if !frozen.is_empty() {
        notes.push("Hatched squares marked * were frozen by the run (--min-coverage): they kept their starting values.");
    }
    body.push(Block::Text(notes.join(" ")));
    for (_, term) in images::piece_square_terms(params) {
        if !term.doc.is_empty() {
            body.push(Block::Text(format!("{}: {}", term.name, term.doc)));
        }
        body.push(board_table(term, Phase::Mg, frozen));
        if term.phased {
            body.push(board_table(term, Phase::Eg, frozen));
        }
    }
    if body.len() > 1 {
        sections.push(Section { title: "Piece-square tables".into(), body });
    }

    let mut body = Vec::new();
    let pictures = in_group("curves");
    if !pictures.is_empty() {
        body.push(Block::Images(pictures));
    }
    let mut notes = vec![
        "Values in parentheses are unused: no position has that element (they are left out of the charts).",
    ];
    if !frozen.is_empty() {
        notes.push("Values marked * were frozen by the run (--min-coverage).");
    }
    body.push(Block::Text(notes.join(" ")));
    let before = body.len();
    for term in params.terms.iter().filter(|t| matches!(t.shape, Shape::List | Shape::Piece)) {
        let base = baseline.and_then(|b| b.term(&term.name)).filter(|b| b.len() == term.len());
        body.push(element_table(term, base, frozen));
    }
    if body.len() > before {
        sections.push(Section { title: "Lists and curves".into(), body });
    }

    let scalars: Vec<&Term> = params.terms.iter().filter(|t| t.shape == Shape::Scalar).collect();
    if !scalars.is_empty() {
        let mut header: Vec<String> = ["term", "mg", "eg"].map(String::from).into();
        if baseline.is_some() {
            header.extend(["baseline mg", "baseline eg"].map(String::from));
        }
        if !frozen.is_empty() {
            header.push("frozen".into());
        }
        header.extend(["bounds", "tunable", "description"].map(String::from));
        let rows = scalars
            .iter()
            .map(|t| {
                let (mg, eg) = (t.mg.first().copied().unwrap_or(0), t.eg.first().copied().unwrap_or(0));
                let mut row =
                    vec![t.name.clone(), mg.to_string(), if t.phased { eg.to_string() } else { "=".into() }];
                if let Some(b) = baseline {
                    let before = b.term(&t.name);
                    let cell = |v: Option<&i32>| v.map_or_else(|| "-".into(), i32::to_string);
                    row.push(cell(before.and_then(|b| b.mg.first())));
                    row.push(if t.phased { cell(before.and_then(|b| b.eg.first())) } else { "=".into() });
                }
                if !frozen.is_empty() {
                    row.push(frozen.phases(t, 0).to_string());
                }
                row.push(format!("[{}, {}]", t.min, t.max));
                row.push(if t.tunable { "yes" } else { "no" }.into());
                row.push(t.doc.clone());
                row
            })
            .collect();
        sections.push(Section {
            title: "Scalar terms".into(),
            body: vec![Block::Table {
                caption: "Scalars (\"=\": one value for both phases)".into(),
                header,
                rows,
            }],
        });
    }
    sections
}

/// A list or per-piece term as a table with its elements across: mg and eg rows (one row if
/// unphased), then the baseline's and the change, and which values are frozen. Unused elements
/// are in parentheses, frozen values marked `*`.
fn element_table(term: &Term, baseline: Option<&Term>, frozen: &Frozen) -> Block {
    let mut header = vec![String::new()];
    header.extend((0..term.len()).map(|i| term.element_label(i)));
    let unused = unused(term);
    let row = |name: &str, values: &[i32], eg: Option<bool>| {
        let cells = values.iter().enumerate().map(|(i, v)| {
            if unused[i] {
                format!("({v})")
            } else if eg.is_some_and(|eg| frozen.element(term, i, eg)) {
                format!("{v}*")
            } else {
                v.to_string()
            }
        });
        std::iter::once(name.to_string()).chain(cells).collect::<Vec<_>>()
    };
    let phases: &[(&str, Phase)] =
        if term.phased { &[("mg", Phase::Mg), ("eg", Phase::Eg)] } else { &[("value", Phase::Mg)] };
    let mut rows = Vec::new();
    for &(name, phase) in phases {
        rows.push(row(name, phase.values(term), Some(phase == Phase::Eg)));
    }
    if let Some(base) = baseline {
        for &(name, phase) in phases {
            rows.push(row(&format!("{name} baseline"), phase.values(base), None));
        }
        for &(name, phase) in phases {
            let change: Vec<i32> =
                phase.values(term).iter().zip(phase.values(base)).map(|(a, b)| a - b).collect();
            rows.push(row(&format!("{name} change"), &change, None));
        }
    }
    let frozen_cells: Vec<String> = (0..term.len()).map(|i| frozen.phases(term, i).to_string()).collect();
    if frozen_cells.iter().any(|c| !c.is_empty()) {
        rows.push(std::iter::once("frozen".to_string()).chain(frozen_cells).collect());
    }
    let caption =
        if term.doc.is_empty() { term.name.clone() } else { format!("{}: {}", term.name, term.doc) };
    Block::Table { caption, header, rows }
}

/// The values that moved most relative to their bounds' range: value, baseline, shown, change,
/// the change as a share of the range (and whether it was frozen, when the run froze any).
pub fn changes_section(params: &ParamSet, baseline: &ParamSet, frozen: &Frozen, n: usize) -> Section {
    let changed = params.values().iter().zip(baseline.values()).filter(|(a, b)| **a != *b).count();
    let changes = largest_changes(params, baseline, n);
    let body = if changes.is_empty() {
        vec![Block::Text("No value differs from the baseline.".into())]
    } else {
        let mut header: Vec<String> =
            ["value", "baseline", "shown", "change", "of range"].map(String::from).into();
        if !frozen.is_empty() {
            header.push("frozen".into());
        }
        let rows = changes
            .iter()
            .map(|c| {
                let mut row = vec![
                    c.name.clone(),
                    c.before.to_string(),
                    c.after.to_string(),
                    format!("{:+}", c.after - c.before),
                    format!("{:+.1}%", 100.0 * c.relative),
                ];
                if !frozen.is_empty() {
                    row.push(if frozen.contains(&c.name) { "yes" } else { "" }.into());
                }
                row
            })
            .collect();
        let caption = format!(
            "The {} of {changed} changed values that moved most relative to their bounds' range",
            changes.len()
        );
        vec![Block::Table { caption, header, rows }]
    };
    Section { title: "Largest changes".into(), body }
}

/// The values the run froze (`--min-coverage`), term by term.
pub fn frozen_section(params: &ParamSet, frozen: &Frozen) -> Section {
    let mut rows = Vec::new();
    let mut found = 0;
    for term in &params.terms {
        let mut items = Vec::new();
        for i in 0..term.len() {
            let label = term.element_label(i);
            let (mg, eg) = (frozen.element(term, i, false), frozen.element(term, i, true));
            found += usize::from(mg) + usize::from(eg && term.phased);
            let item = match (term.phased, mg, eg) {
                (false, true, _) if label.is_empty() => "value".to_string(),
                (true, true, true) if label.is_empty() => "mg, eg".to_string(),
                (false, true, _) | (true, true, true) => label,
                (true, true, false) => format!("{label}.mg").trim_start_matches('.').to_string(),
                (true, false, true) => format!("{label}.eg").trim_start_matches('.').to_string(),
                _ => continue,
            };
            items.push(item);
        }
        if !items.is_empty() {
            let count = items.len();
            rows.push((term.name.clone(), Entry::Text(format!("{count}: {}", items.join(", ")))));
        }
    }
    let others = if found == frozen.len() {
        String::new()
    } else {
        format!(" ({found} of them name values of this file)")
    };
    let mut body = vec![Block::Text(format!(
        "{} values were frozen by the run (--min-coverage: seen in too few positions) and kept their \
         starting values{others}. They are hatched in the heat maps, marked * in the tables and crossed \
         in the charts: a zero among them is the start, not a tuned 0, and a change comes from \
         rescaling (tune texel --keep-scale), not from tuning.",
        frozen.len()
    ))];
    if !rows.is_empty() {
        body.push(Block::KeyValue {
            caption: "Frozen elements by term (.mg/.eg: that phase only)".into(),
            rows,
        });
    }
    Section { title: "Frozen values".into(), body }
}

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
/// as its rows, any other string as text (a long Rust debug string indented, wrapped), arrays of
/// plain values joined, anything else as pretty JSON.
pub fn entry(value: &serde_json::Value) -> Entry {
    use serde_json::Value;
    match value {
        Value::Object(map) => Entry::Rows(map.iter().map(|(k, v)| (k.clone(), entry(v))).collect()),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(inner @ Value::Object(_)) => entry(&inner),
            _ if s.contains(" { ") => Entry::Pre(pretty_debug(s)),
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

/// A Rust debug string (`Args { a: 1, b: Inner { c: "x" } }`) with one field per line, indented
/// by struct; lists, tuples and quoted text stay on their line.
pub fn pretty_debug(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let (mut depth, mut nest) = (0usize, 0usize);
    let (mut quoted, mut escaped, mut skip_space) = (false, false, false);
    let newline = |out: &mut String, depth: usize| {
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
        out.push_str(&"    ".repeat(depth));
    };
    for c in text.chars() {
        if skip_space && c == ' ' {
            continue;
        }
        skip_space = false;
        if quoted {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => quoted = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                quoted = true;
                out.push(c);
            }
            '[' | '(' => {
                nest += 1;
                out.push(c);
            }
            ']' | ')' => {
                nest = nest.saturating_sub(1);
                out.push(c);
            }
            '{' if nest == 0 => {
                depth += 1;
                out.push(c);
                newline(&mut out, depth);
                skip_space = true;
            }
            '}' if nest == 0 => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' if nest == 0 && depth > 0 => {
                out.push(c);
                newline(&mut out, depth);
                skip_space = true;
            }
            c => out.push(c),
        }
    }
    out
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

/// Escapes text for HTML content and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const CSS: &str = "
*{box-sizing:border-box}
body{margin:0 auto;max-width:1200px;padding:0 12px 40px;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;background:#fff}
h1{font-size:1.6em;margin:.8em 0 .4em;overflow-wrap:anywhere}
h2{font-size:1.3em;margin:1.6em 0 .5em;border-bottom:1px solid #ddd;padding-bottom:.2em;overflow-wrap:anywhere}
nav ol{padding-left:1.4em}
p{overflow-wrap:anywhere}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.6em 0 1em;max-width:100%}
table{border-collapse:collapse;font-size:.9em}
caption{text-align:left;font-weight:600;padding:.3em 0;caption-side:top}
th,td{border:1px solid #ddd;padding:.25em .5em;text-align:right;white-space:nowrap}
th{background:#f3f3f3}
td:first-child,th:first-child{text-align:left}
table.kv{width:100%;table-layout:fixed;margin:.6em 0 1em}
table.kv th,table.kv td{text-align:left;white-space:normal;overflow-wrap:anywhere;vertical-align:top}
table.kv th{width:10em;font-weight:600}
table.kv table.kv{margin:0;font-size:1em}
table.kv pre{margin:0;padding:.3em}
div.verdict{border:2px solid #b33;border-radius:6px;padding:.2em 1em;margin:.6em 0 1em;background:#fdf3f3}
div.verdict.passed{border-color:#393;background:#f2faf2}
details{margin:.4em 0 1em}summary{cursor:pointer}
.boards{display:flex;flex-wrap:wrap;gap:0 24px}
table.board td{width:3.1em;height:2.4em;text-align:center;padding:0;white-space:nowrap}
table.board th{width:1.6em;text-align:center;padding:0;background:none;border:none}
table.board td.unused{background-color:#f4f4f4;color:#aaa}
table.board td.frozen{background-image:repeating-linear-gradient(45deg,rgba(0,0,0,.16) 0 2px,transparent 2px 7px);font-style:italic}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,460px),1fr));gap:16px;margin:1em 0}
figure{margin:0}
img{max-width:100%;height:auto;display:block;border:1px solid #eee}
figcaption{font-size:.85em;color:#555;margin-top:.2em}
pre{overflow-x:auto;background:#f6f6f6;padding:.6em;white-space:pre-wrap;overflow-wrap:anywhere}
@media (max-width:600px){body{font-size:14px}table.board td{width:2.3em;height:2em;font-size:.85em}table.kv th{width:7em}}
";

/// Writes the page as `dir/index.html` and returns its path.
pub fn write_index(dir: &Path, page: &Page) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join("index.html");
    std::fs::write(&path, render(page)).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// The page as HTML text.
pub fn render(page: &Page) -> String {
    let mut h = String::new();
    let title = escape(&page.title);
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(h, "<title>{title}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{title}</h1>");
    if !page.metadata.is_empty() {
        h.push_str("<table class=\"meta kv\">\n");
        for (k, v) in &page.metadata {
            let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", escape(k), escape(v));
        }
        h.push_str("</table>\n");
    }
    if page.sections.len() > 1 {
        h.push_str("<nav><h2>Contents</h2>\n<ol>\n");
        for (i, s) in page.sections.iter().enumerate() {
            let _ = writeln!(h, "<li><a href=\"#s{}\">{}</a></li>", i + 1, escape(&s.title));
        }
        h.push_str("</ol></nav>\n");
    }
    for (i, s) in page.sections.iter().enumerate() {
        let _ = writeln!(h, "<section id=\"s{}\">\n<h2>{}</h2>", i + 1, escape(&s.title));
        let mut in_boards = false;
        for block in &s.body {
            // Consecutive boards share one wrapping row: side by side when there is room.
            let is_board = matches!(block, Block::Board { .. });
            if is_board != in_boards {
                h.push_str(if is_board { "<div class=\"boards\">\n" } else { "</div>\n" });
                in_boards = is_board;
            }
            render_block(&mut h, block);
        }
        if in_boards {
            h.push_str("</div>\n");
        }
        h.push_str("</section>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}

/// Key/value rows as a wrapping table (nested for nested entries).
fn render_key_values(h: &mut String, caption: &str, rows: &[(String, Entry)]) {
    h.push_str("<table class=\"kv\">\n");
    if !caption.is_empty() {
        let _ = writeln!(h, "<caption>{}</caption>", escape(caption));
    }
    for (key, value) in rows {
        let _ = write!(h, "<tr><th>{}</th><td>", escape(key));
        match value {
            Entry::Text(text) => h.push_str(&escape(text)),
            Entry::Pre(text) => {
                let _ = write!(h, "<pre>{}</pre>", escape(text));
            }
            Entry::Rows(inner) => render_key_values(h, "", inner),
        }
        h.push_str("</td></tr>\n");
    }
    h.push_str("</table>\n");
}

fn render_block(h: &mut String, block: &Block) {
    match block {
        Block::Verdict { headline, passed, advice } => {
            let class = if *passed { "verdict passed" } else { "verdict" };
            let _ = writeln!(h, "<div class=\"{class}\"><p><strong>{}</strong></p>", escape(headline));
            let _ = writeln!(h, "<p>{}</p></div>", escape(advice).replace('\n', "<br>"));
        }
        Block::Details { summary, blocks } => {
            let _ = writeln!(h, "<details><summary>{}</summary>", escape(summary));
            for inner in blocks {
                render_block(h, inner);
            }
            h.push_str("</details>\n");
        }
        Block::Text(text) => {
            let _ = writeln!(h, "<p>{}</p>", escape(text));
        }
        Block::Pre(text) => {
            let _ = writeln!(h, "<pre>{}</pre>", escape(text));
        }
        Block::Images(list) => {
            h.push_str("<div class=\"grid\">\n");
            for img in list {
                let (file, title) = (escape(&img.file), escape(&img.title));
                let _ = writeln!(
                    h,
                    "<figure><a href=\"{file}\"><img src=\"{file}\" alt=\"{title}\" loading=\"lazy\"></a>\
                     <figcaption>{title}</figcaption></figure>"
                );
            }
            h.push_str("</div>\n");
        }
        Block::KeyValue { caption, rows } => render_key_values(h, caption, rows),
        Block::Table { caption, header, rows } => {
            h.push_str("<div class=\"scroll\"><table>\n");
            if !caption.is_empty() {
                let _ = writeln!(h, "<caption>{}</caption>", escape(caption));
            }
            if !header.is_empty() {
                h.push_str("<thead><tr>");
                for cell in header {
                    let _ = write!(h, "<th>{}</th>", escape(cell));
                }
                h.push_str("</tr></thead>\n");
            }
            h.push_str("<tbody>\n");
            for row in rows {
                h.push_str("<tr>");
                for cell in row {
                    let _ = write!(h, "<td>{}</td>", escape(cell));
                }
                h.push_str("</tr>\n");
            }
            h.push_str("</tbody></table></div>\n");
        }
        Block::Board { caption, values, limit, marks } => {
            h.push_str("<div class=\"scroll\"><table class=\"board\">\n");
            let _ = writeln!(h, "<caption>{}</caption>", escape(caption));
            for row in 0..8 {
                let _ = write!(h, "<tr><th>{}</th>", 8 - row);
                for file in 0..8 {
                    let sq = images::square_at(row, file);
                    let value = values.get(sq).copied().unwrap_or(0);
                    let mark = marks.get(sq).copied().unwrap_or(Mark::Plain);
                    if mark == Mark::Unused {
                        h.push_str("<td class=\"unused\" title=\"unused\"></td>");
                        continue;
                    }
                    let (r, g, b) = images::diverging_rgb(value as f64, *limit);
                    let ink = if images::needs_light_text(value as f64, *limit) { ";color:#fff" } else { "" };
                    let (class, star) = if mark == Mark::Frozen {
                        (" class=\"frozen\" title=\"frozen (--min-coverage)\"", "*")
                    } else {
                        ("", "")
                    };
                    let _ = write!(
                        h,
                        "<td{class} style=\"background-color:#{r:02x}{g:02x}{b:02x}{ink}\">{value}{star}</td>"
                    );
                }
                h.push_str("</tr>\n");
            }
            h.push_str("<tr><th></th>");
            for f in 'a'..='h' {
                let _ = write!(h, "<th>{f}</th>");
            }
            h.push_str("</tr>\n</table></div>\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn escapes_text() {
        let page = Page {
            title: "a < b & \"c\"".into(),
            metadata: vec![("command".into(), "<script>alert(1)</script>".into())],
            sections: vec![Section { title: "<b>".into(), body: vec![Block::Text("x<y".into())] }],
        };
        let html = render(&page);
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("a &lt; b &amp; &quot;c&quot;"));
        assert!(html.contains("x&lt;y"));
        assert!(!html.contains("<b>"));
    }

    #[test]
    fn board_table_has_64_cells_rank_8_first() {
        let params = whetstone::eval::EvalParamSet::baked().into_set();
        let term = params.term("pst.knight").unwrap();
        let Block::Board { values, .. } = board_table(term, Phase::Eg, &Frozen::default()) else {
            panic!("not a board")
        };
        assert_eq!(values, term.eg);
        let mut h = String::new();
        render_block(&mut h, &board_table(term, Phase::Mg, &Frozen::default()));
        assert_eq!(h.matches("<td style=\"background-color:#").count(), 64);
        // First cell row is rank 8 (a8 = index 56), the last is rank 1 ending with h1 (index 7).
        let first_row = h.lines().find(|l| l.starts_with("<tr><th>")).unwrap();
        assert!(first_row.starts_with("<tr><th>8</th>"));
        let cells: Vec<&str> = first_row.split("<td").skip(1).collect();
        assert!(cells[0].contains(&format!(">{}</td>", term.mg[56])));
        assert!(cells[7].contains(&format!(">{}</td>", term.mg[63])));
        let rank1 = h.lines().find(|l| l.starts_with("<tr><th>1</th>")).unwrap();
        assert!(rank1.ends_with(&format!(">{}</td></tr>", term.mg[7])));
    }

    #[test]
    fn board_colours_follow_the_scale() {
        assert_eq!(images::diverging_rgb(0.0, 10.0), (255, 255, 255));
        let (r, g, _) = images::diverging_rgb(-10.0, 10.0);
        assert!(r > g);
        let (r, g, _) = images::diverging_rgb(10.0, 10.0);
        assert!(g > r);
        assert_eq!(images::diverging_rgb(50.0, 10.0), images::diverging_rgb(10.0, 10.0));
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
        let mut pictures = images::heat_maps(&params, Some(&baseline), &Frozen::default(), &out).unwrap();
        pictures.extend(images::curves(&params, Some(&baseline), &Frozen::default(), &out).unwrap());
        pictures.extend(images::log_plots(&run, &out).unwrap());
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
        let boards = images::piece_square_terms(&params).count();
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
        // Key/value tables are not in a sideways-scrolling box, and their cells wrap, left-aligned.
        assert!(!html.contains("<div class=\"scroll\"><table class=\"kv\">"));
        let css = CSS.replace(' ', "");
        assert!(
            css.contains("table.kvth,table.kvtd{text-align:left;white-space:normal;overflow-wrap:anywhere")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn debug_string_options_are_shown_wrapped_one_field_a_line() {
        let dir = temp_dir("debug");
        let options = r#"PbilArgs { common: TuneArgs { params: \"params/eval.toml\", only: [], out: Some(\"/tmp/r1\") }, generations: Some(30), window: 16 }"#;
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
        assert!(
            table.contains("<tr><th>options</th><td><pre>PbilArgs {\n    common: TuneArgs {\n"),
            "{table}"
        );
        assert!(table.contains("\n        params: &quot;params/eval.toml&quot;,\n"));
        assert!(table.contains("\n    generations: Some(30),\n    window: 16\n}</pre>"));
        let result = kv_table(&html, "result.json");
        assert!(result.contains("<tr><th>games</th><td>0</td></tr>"));
        assert!(result.contains("2 tuned values"));
        assert!(result.contains("3 values (see Frozen values)"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn pretty_debug_breaks_structs_only() {
        assert_eq!(
            pretty_debug(r#"A { x: 1, s: "a, { b }", v: [1, 2], t: Some(B { c: 2 }), d: D { e: None } }"#),
            "A {\n    x: 1,\n    s: \"a, { b }\",\n    v: [1, 2],\n    t: Some(B { c: 2 }),\n    d: D {\n        e: None\n    }\n}"
        );
        assert_eq!(pretty_debug("plain text, no struct"), "plain text, no struct");
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

    #[test]
    fn the_largest_changes_relative_to_their_range() {
        let baseline = whetstone::eval::EvalParamSet::baked().into_set();
        let mut params = baseline.clone();
        let set = |p: &mut ParamSet, name: &str, f: &dyn Fn(&mut Term)| {
            f(p.terms.iter_mut().find(|t| t.name == name).unwrap())
        };
        set(&mut params, "tempo", &|t| t.mg[0] += 10); // 10 of 100: 10%
        set(&mut params, "pst.knight", &|t| t.eg[28] -= 30); // 30 of 600: 5%
        set(&mut params, "material", &|t| t.mg[4] += 40); // 40 of 2000: 2%
        let frozen = Frozen::from_names(["material_queen_mg"]);
        let section = changes_section(&params, &baseline, &frozen, 25);
        let Block::Table { caption, header, rows } = &section.body[0] else { panic!("no table") };
        assert!(caption.contains("3 of 3 changed values"), "{caption}");
        assert_eq!(header, &["value", "baseline", "shown", "change", "of range", "frozen"]);
        let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(names, ["tempo_mg", "pst_knight_e4_eg", "material_queen_mg"]);
        let tempo = baseline.term("tempo").unwrap().mg[0];
        assert_eq!(
            rows[0][1..5],
            [tempo.to_string(), (tempo + 10).to_string(), "+10".into(), "+10.0%".into()]
        );
        assert_eq!(rows[1][3..5], ["-30".to_string(), "-5.0%".into()]);
        assert_eq!(rows[2][5], "yes");
        // Two of them only.
        let section = changes_section(&params, &baseline, &Frozen::default(), 2);
        let Block::Table { header, rows, .. } = &section.body[0] else { panic!("no table") };
        assert_eq!(rows.len(), 2);
        assert!(!header.contains(&"frozen".to_string()));
        let same = changes_section(&baseline, &baseline, &Frozen::default(), 25);
        assert!(matches!(&same.body[0], Block::Text(t) if t.contains("No value differs")));
    }

    #[test]
    fn frozen_and_unused_values_are_marked() {
        let params = whetstone::eval::EvalParamSet::baked().into_set();
        let frozen = Frozen::from_names([
            "pst_pawn_e4_mg",
            "threat.by_minor[rook].eg",
            "tempo.eg",
            "passed.rank[3].mg",
        ]);
        // Boards: pawns' ranks 1 and 8 blank, the frozen square hatched with a star.
        let pawn = params.term("pst.pawn").unwrap();
        let mut h = String::new();
        render_block(&mut h, &board_table(pawn, Phase::Mg, &frozen));
        assert_eq!(h.matches("<td class=\"unused\"").count(), 16);
        assert_eq!(h.matches("<td class=\"frozen\"").count(), 1);
        assert!(h.contains(&format!(">{}*</td>", pawn.mg[28])));
        let mut h = String::new();
        render_block(&mut h, &board_table(pawn, Phase::Eg, &frozen));
        assert_eq!(h.matches("class=\"frozen\"").count(), 0, "e4 is frozen in the middle game only");
        // Lists: unused in parentheses, frozen starred, a frozen row.
        let rank = params.term("passed.rank").unwrap();
        let Block::Table { rows, .. } = element_table(rank, None, &frozen) else { panic!() };
        assert_eq!(rows[0][1], format!("({})", rank.mg[0]));
        assert_eq!(rows[0][8], format!("({})", rank.mg[7]));
        assert_eq!(rows[0][4], format!("{}*", rank.mg[3]));
        assert_eq!(rows.last().unwrap()[4], "mg");
        let minor = params.term("threat.by_minor").unwrap();
        let Block::Table { rows, .. } = element_table(minor, None, &frozen) else { panic!() };
        assert_eq!(rows[1][4], format!("{}*", minor.eg[3]));
        // Scalars: a frozen column.
        let sections = param_sections(&params, None, &frozen, &[]);
        let scalars = sections.iter().find(|s| s.title == "Scalar terms").unwrap();
        let Block::Table { header, rows, .. } = &scalars.body[0] else { panic!() };
        let col = header.iter().position(|h| h == "frozen").unwrap();
        assert_eq!(rows.iter().find(|r| r[0] == "tempo").unwrap()[col], "eg");
        assert_eq!(rows.iter().find(|r| r[0] == "bishop_pair").unwrap()[col], "");
        // The list of frozen values, by term.
        let section = frozen_section(&params, &frozen);
        let Block::KeyValue { rows, .. } = &section.body[1] else { panic!() };
        let row = |n: &str| rows.iter().find(|r| r.0 == n).map(|r| r.1.clone());
        assert_eq!(row("pst.pawn"), Some(Entry::Text("1: e4.mg".into())));
        assert_eq!(row("tempo"), Some(Entry::Text("1: eg".into())));
        assert_eq!(row("threat.by_minor"), Some(Entry::Text("1: rook.eg".into())));
    }
}
