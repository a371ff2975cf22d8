//! Reports: `tune report` and the report every tuning run leaves behind: the parameters as an
//! Excel workbook (`workbook.rs`); PNG pictures drawn with the charts of `charts.rs`: of the
//! evaluation terms (`term_pictures.rs`), of the run's logs (`run_plots.rs`) and of a Bayesian
//! run's model (`bayes.rs`); and an offline `index.html` showing all of it (`page.rs` renders
//! it, its sections come from `param_sections.rs` and `run_sections.rs`); also a readable
//! summary of a Texel run and its loss curve.
//!
//! What the parts share lives here: the header's names of the file shown and of the baseline
//! ([`Labels`]), the values a run froze (`"frozen"` in its `result.json`, [`Frozen`]), the
//! elements no position can use ([`unused`]) and the largest changes ([`largest_changes`]).

pub mod bayes;
pub mod charts;
pub mod page;
pub mod param_sections;
pub mod run_plots;
pub mod run_sections;
pub mod term_pictures;
pub mod workbook;

use std::path::Path;

use anyhow::Result;
use whetstone::params::{ParamSet, Shape, Term};

use crate::run::EpochLog;

/// The largest changes (by absolute difference), the losses before and after, and K.
pub fn summary(
    before: &ParamSet,
    after: &ParamSet,
    log: &[EpochLog],
    loss_of: impl Fn(&[f64]) -> f64,
    start: &[f64],
    end: &[f64],
) -> String {
    let names = before.value_names();
    let (old, new) = (before.values(), after.values());
    let mut changes: Vec<(usize, i32)> =
        (0..old.len()).map(|i| (i, new[i] - old[i])).filter(|&(_, d)| d != 0).collect();
    changes.sort_by_key(|&(i, d)| (std::cmp::Reverse(d.abs()), i));
    let mut out = String::new();
    if let (Some(first), Some(last)) = (log.first(), log.last()) {
        out.push_str(&format!(
            "K = {:.4}; epochs {}; train loss {:.6} -> {:.6}; validation loss {:.6} -> {:.6}\n",
            first.k, last.epoch, first.train_loss, last.train_loss, first.valid_loss, last.valid_loss
        ));
    }
    out.push_str(&format!(
        "validation loss with rounded values: {:.6} (start {:.6})\n",
        loss_of(end),
        loss_of(start)
    ));
    out.push_str(&format!("{} of {} values changed; the largest changes:\n", changes.len(), old.len()));
    for &(i, d) in changes.iter().take(25) {
        out.push_str(&format!("  {:<40} {:>6} -> {:>6} ({:+})\n", names[i], old[i], new[i], d));
    }
    out
}

/// Train and validation loss by epoch (the legend under the plot).
pub fn loss_curve(path: &Path, log: &[EpochLog]) -> Result<()> {
    if log.len() < 2 {
        return Ok(());
    }
    let line = |name: &str, colour: usize, loss: fn(&EpochLog) -> f64| charts::Series {
        name: name.to_string(),
        points: log.iter().map(|e| (e.epoch as f64, loss(e))).collect(),
        colour: charts::PALETTE[colour],
        dashed: false,
        markers: log.len() <= 30,
        frozen: Vec::new(),
    };
    let mut series = vec![line("train", 0, |e| e.train_loss)];
    if log.iter().any(|e| e.valid_loss.is_finite()) {
        series.push(line("validation", 3, |e| e.valid_loss));
    }
    let chart = charts::LineChart {
        title: "Texel tuning: mean squared error by epoch",
        x_desc: "epoch",
        y_desc: "mean squared error",
        series: &series,
        x_labels: None,
    };
    charts::line_chart(path, &chart)
}

/// What the report's header names: the params file shown and the baseline it is compared
/// against (paths or short descriptions). A label left `None` is filled in from the run folder
/// where there is one (see [`Labels::from_run`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    pub params: Option<String>,
    pub baseline: Option<String>,
}

impl Labels {
    /// The labels a run folder implies: the values shown are its `tuned.toml` (written before
    /// the report), the baseline the params file it started from (`options.params` of its
    /// `run.json`).
    pub fn from_run(run_dir: &Path) -> Labels {
        let tuned = run_dir.join("tuned.toml");
        let params = tuned.exists().then(|| tuned.display().to_string());
        let baseline = read_json(&run_dir.join("run.json"))
            .and_then(|meta| meta.get("options").and_then(options_params))
            .map(|p| format!("{p} (the run's start)"));
        Labels { params, baseline }
    }

    /// These labels with the gaps filled from `other`.
    fn or(self, other: Labels) -> Labels {
        Labels { params: self.params.or(other.params), baseline: self.baseline.or(other.baseline) }
    }
}

/// A JSON file's value, or `None` when it is missing or unreadable.
fn read_json(path: &Path) -> Option<serde_json::Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// The `params` option of a run: a key of the options object (at the top or one level down, as
/// in `{"common": {"params": ...}}`), or of such an object written as a JSON string. Options
/// stored as any other text (the Debug string older runs wrote) name none.
pub fn options_params(options: &serde_json::Value) -> Option<String> {
    match options {
        serde_json::Value::Object(map) => map
            .get("params")
            .and_then(|p| p.as_str().map(String::from))
            .or_else(|| map.values().filter(|v| v.is_object()).find_map(options_params)),
        serde_json::Value::String(text) => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(value @ serde_json::Value::Object(_)) => options_params(&value),
            _ => None,
        },
        _ => None,
    }
}

/// Values a tuning run left at their start because they were seen in too few positions
/// (`--min-coverage`): the `"frozen"` list of the run folder's `result.json` (or of
/// `run.json`'s `results`), value names as [`ParamSet::value_names`] gives them
/// (`pst_pawn_a1_mg`). Names are compared with every run of characters other than letters and
/// digits as one `_`, so the dotted spelling older runs wrote (`pst.pawn[a1].mg`) still matches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frozen {
    names: std::collections::HashSet<String>,
}

impl Frozen {
    pub fn from_names<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Frozen {
        Frozen { names: names.into_iter().map(|n| flat_name(n.as_ref())).collect() }
    }

    /// The frozen values of a run folder (none if it lists none).
    pub fn read(run_dir: &Path) -> Frozen {
        let list = |v: &serde_json::Value| -> Option<Vec<String>> {
            Some(v.as_array()?.iter().filter_map(|n| n.as_str().map(String::from)).collect())
        };
        let from_result =
            read_json(&run_dir.join("result.json")).and_then(|r| r.get("frozen").and_then(list));
        let from_meta = || {
            read_json(&run_dir.join("run.json"))
                .and_then(|m| m.get("results").and_then(|r| r.get("frozen")).and_then(list))
        };
        Frozen::from_names(from_result.or_else(from_meta).unwrap_or_default())
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the value called `name` (either spelling, see the type's docs) is frozen.
    pub fn contains(&self, name: &str) -> bool {
        !self.names.is_empty() && self.names.contains(&flat_name(name))
    }

    /// Whether element `i` of `term` is frozen in the end game (`eg`) or middle game; an unphased
    /// term's one value answers both.
    pub fn element(&self, term: &Term, i: usize, eg: bool) -> bool {
        !self.names.is_empty() && self.contains(&term.value_name(i, eg))
    }

    /// The frozen phases of element `i`: "mg", "eg", "mg, eg", "yes" (unphased) or "".
    pub fn phases(&self, term: &Term, i: usize) -> &'static str {
        match (term.phased, self.element(term, i, false), self.element(term, i, true)) {
            (false, true, _) => "yes",
            (true, true, true) => "mg, eg",
            (true, true, false) => "mg",
            (true, false, true) => "eg",
            _ => "",
        }
    }
}

/// A value name with every run of characters other than letters and digits as one `_`,
/// lowercased: the value name itself ([`ParamSet::value_names`]), and for the dotted spelling of
/// older run folders the same: `pst.pawn[a1].mg` and `pst_pawn_a1_mg` are both `pst_pawn_a1_mg`.
pub(crate) fn flat_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

/// The elements of a term no position can use, so the report does not show them as values of
/// 0: pawns on ranks 1 and 8, passed and candidate pawns on relative ranks 1 and 8 (lists by
/// relative rank), the shield and storm pawn on the relative 8th rank, a pawn attacked by a
/// pawn (`threat.by_pawn`), elements a term's doc calls unused, and the all-zero elements of
/// a term declared not tunable.
pub fn unused(term: &Term) -> Vec<bool> {
    let n = term.len();
    let mut out = vec![false; n];
    let doc = term.doc.to_ascii_lowercase();
    let name = term.name.as_str();
    match term.shape {
        Shape::Square if name == "pst.pawn" || doc.contains("ranks 1 and 8 are unused") => {
            out.iter_mut().enumerate().for_each(|(sq, u)| *u = !(8..56).contains(&sq));
        }
        Shape::List if n == 8 => {
            let by_rank = matches!(name, "passed.rank" | "passed.free_path" | "passed.candidate")
                || doc.contains("by relative rank");
            let none_at_zero = matches!(name, "king.shield" | "king.storm") || doc.contains("(0 = none)");
            if by_rank && !none_at_zero {
                out[0] = true;
                out[7] = true;
            } else if none_at_zero && doc.contains("relative rank") {
                out[7] = true;
            }
        }
        Shape::Piece if name == "threat.by_pawn" || doc.contains("the pawn entry is unused") => out[0] = true,
        _ => {}
    }
    // "(index 0 and 7 unused)" and the like.
    if let Some(at) = doc.find("index ") {
        if let Some(end) = doc[at..].find("unused").map(|e| e + at) {
            for word in doc[at + 6..end].split(|c: char| !c.is_ascii_digit()) {
                if let Ok(i) = word.parse::<usize>() {
                    if i < n {
                        out[i] = true;
                    }
                }
            }
        }
    }
    if !term.tunable {
        for (i, u) in out.iter_mut().enumerate() {
            *u |= term.mg[i] == 0 && term.eg[i] == 0;
        }
    }
    out
}

/// One value that changed between the baseline and the values shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub name: String,
    pub before: i32,
    pub after: i32,
    /// The change as a fraction of the value's range (its bounds' width).
    pub relative: f64,
}

/// The values that moved most relative to their bounds' range (as the black-box tuners print
/// them), largest first; ties in file order. Values of differing layouts are not compared.
pub fn largest_changes(params: &ParamSet, baseline: &ParamSet, n: usize) -> Vec<Change> {
    let (names, bounds) = (params.value_names(), params.value_bounds());
    let (after, before) = (params.values(), baseline.values());
    if before.len() != after.len() || baseline.value_names() != names {
        return Vec::new();
    }
    let mut out: Vec<Change> = (0..after.len())
        .filter(|&i| after[i] != before[i])
        .map(|i| Change {
            name: names[i].clone(),
            before: before[i],
            after: after[i],
            relative: (after[i] - before[i]) as f64 / ((bounds[i].1 - bounds[i].0) as f64).max(1.0),
        })
        .collect();
    out.sort_by(|a, b| b.relative.abs().total_cmp(&a.relative.abs()));
    out.truncate(n);
    out
}

/// How many values the report's table of the largest changes shows.
pub const LARGEST_CHANGES: usize = 25;

/// Writes the report of `params` (against `baseline`, with the logs of `run_dir`) into `out` and
/// returns its `index.html`. The header names the files from the run folder (see
/// [`Labels::from_run`]); [`write_report_labelled`] names them explicitly. Without a usable font
/// the images are left out (with a warning) and the page and workbook are still written.
pub fn write_report(
    params: &ParamSet,
    baseline: Option<&ParamSet>,
    run_dir: Option<&Path>,
    out: &Path,
) -> Result<std::path::PathBuf> {
    write_report_labelled(params, baseline, run_dir, out, &Labels::default())
}

/// [`write_report`] with the header's names of the params file shown and of the baseline;
/// labels left `None` come from the run folder.
pub fn write_report_labelled(
    params: &ParamSet,
    baseline: Option<&ParamSet>,
    run_dir: Option<&Path>,
    out: &Path,
    labels: &Labels,
) -> Result<std::path::PathBuf> {
    use anyhow::Context;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let labels = labels.clone().or(run_dir.map(Labels::from_run).unwrap_or_default());
    let frozen = run_dir.map(Frozen::read).unwrap_or_default();
    workbook::write(params, baseline, &frozen, &out.join("eval.xlsx"))?;
    let mut notes = Vec::new();
    let (mut tables, mut run_images) = (Vec::new(), Vec::new());
    match charts::check_font() {
        Ok(()) => {
            tables.extend(term_pictures::heat_maps(params, baseline, &frozen, out)?);
            tables.extend(term_pictures::curves(params, baseline, &frozen, out)?);
            if let Some(dir) = run_dir {
                run_images = run_plots::log_plots(dir, out)?;
                run_images.extend(bayes::plots(dir, out)?);
            }
        }
        Err(e) => {
            eprintln!("report: images left out: {e:#}");
            notes.push(format!("Images left out: {e:#}"));
        }
    }
    let mut sections = Vec::new();
    if let Some(dir) = run_dir {
        sections.extend(run_sections::run_sections(dir, &run_images)?);
    }
    if let Some(base) = baseline {
        sections.push(param_sections::changes_section(params, base, &frozen, LARGEST_CHANGES));
    }
    if !frozen.is_empty() {
        sections.push(param_sections::frozen_section(params, &frozen));
    }
    sections.extend(param_sections::param_sections(params, baseline, &frozen, &tables));
    let mut first = vec![page::Block::Text(
        "The parameters as an Excel workbook (boards with colour scales, material-normalised and mirrored tables, Rust arrays): eval.xlsx".to_string(),
    )];
    first.extend(notes.into_iter().map(page::Block::Text));
    sections.insert(0, page::Section { title: "Files".to_string(), body: first });
    let shown = labels.params.clone().unwrap_or_else(|| "the values given (no file named)".into());
    let against = match (baseline, &labels.baseline) {
        (None, _) => "none".to_string(),
        (Some(_), Some(label)) => label.clone(),
        (Some(_), None) => "a baseline (no file named)".to_string(),
    };
    let mut metadata = vec![("shown".to_string(), shown), ("baseline".to_string(), against)];
    if let Some(dir) = run_dir {
        metadata.push(("run".to_string(), dir.display().to_string()));
    }
    metadata.push(("values".to_string(), params.value_count().to_string()));
    if !frozen.is_empty() {
        metadata.push((
            "frozen".to_string(),
            format!("{} values kept at their start (--min-coverage); hatched and marked *", frozen.len()),
        ));
    }
    metadata.push(("written".to_string(), crate::run::now()));
    let page = page::Page {
        title: match run_dir {
            Some(dir) => format!("Whetstone tuning run {}", dir.display()),
            None => "Whetstone evaluation parameters".to_string(),
        },
        metadata,
        sections,
    };
    page::write_index(out, &page)
}

#[cfg(test)]
mod tests;
