//! The whole of a probe or a trace over a dataset, in a run folder: the dataset's positions
//! loaded (`dataset::load::load_labelled`), probed or traced with results journalled, re-probed
//! around each fit's values while options that are not linear keep moving the validation loss
//! down, and the values written as the engine's own options.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Serialize;

use super::eval_probe::{probe, Probed, PROBE_JOURNAL};
use super::fit::{fit, FitSettings, Fitted};
use super::settings::{ProbeSettings, TraceSettings};
use super::space::{Column, Linearity, OptionFinding, ProbedRow};
use super::trace_run::{trace, Traced, TRACE_JOURNAL};
use crate::dataset::load::load_labelled;
use crate::dataset::{Label, LoadOptions};
use crate::play::engines::uci_option::same_name;

/// Every position of `paths`, in load order, as FEN and label.
pub fn load_positions(paths: &[PathBuf], progress: bool) -> Result<Vec<(String, Label)>> {
    let mut out = Vec::new();
    for path in paths {
        let (items, summary) =
            load_labelled(path, &LoadOptions { strict: false, progress }, |pos, label| (pos.to_fen(), label))
                .with_context(|| format!("loading {}", path.display()))?;
        if summary.skipped > 0 {
            eprintln!("{}: {summary}", path.display());
        }
        out.extend(items);
    }
    Ok(out)
}

/// Probes the dataset's positions; the journal is `probe.jsonl` in `run_dir`.
pub fn probe_dataset(
    paths: &[PathBuf],
    settings: &ProbeSettings,
    run_dir: &Path,
    progress: bool,
) -> Result<Probed> {
    std::fs::create_dir_all(run_dir).with_context(|| format!("creating {}", run_dir.display()))?;
    let positions = load_positions(paths, progress)?;
    probe(&positions, settings, &run_dir.join(PROBE_JOURNAL), progress)
}

/// Traces the dataset's positions; the journal is `trace.jsonl` in `run_dir`.
pub fn trace_dataset(
    paths: &[PathBuf],
    settings: &TraceSettings,
    run_dir: &Path,
    progress: bool,
) -> Result<Traced> {
    std::fs::create_dir_all(run_dir).with_context(|| format!("creating {}", run_dir.display()))?;
    let positions = load_positions(paths, progress)?;
    trace(&positions, settings, &run_dir.join(TRACE_JOURNAL), progress)
}

/// One round of probe, fit and move.
#[derive(Clone, Debug, Serialize)]
pub struct Round {
    /// The values the round probed at, by option.
    pub probed_at: Vec<(String, i32)>,
    /// The fit's values, rounded, by option.
    pub fitted: Vec<(String, i32)>,
    pub k: f64,
    pub start_valid_loss: f64,
    pub valid_loss: f64,
    /// The options treated as not linear in this round.
    pub nonlinear: Vec<String>,
    pub findings: Vec<OptionFinding>,
}

/// The rounds of a run and the values it ends with.
#[derive(Clone, Debug, Serialize)]
pub struct Rounds {
    pub rounds: Vec<Round>,
    /// The values the run ends with: the last fit when every option was linear or the rounds
    /// ran out, else the last probe point whose measured validation loss fell.
    pub values: Vec<(String, i32)>,
    /// The validation loss of `values`: measured by its own probe when a probe point stands,
    /// else the last fit's.
    pub values_valid_loss: f64,
    pub start: Vec<(String, i32)>,
    /// Round 0's columns: every option that changed some evaluation, with its bounds.
    pub columns: Vec<Column>,
    /// Round 0's notes (restarts, options left out, checks) and positions left out.
    pub notes: Vec<String>,
    pub left_out: Vec<String>,
}

/// Probe, fit, move, probe again: the options' coefficients are measured at the current values
/// (round r in `run_dir/round-r`), fitted, and the engine moved to the fitted values for the
/// next round, while some option is not linear (its coefficients change as it moves) and the
/// validation loss at the new values still falls below the last round's. With every option
/// linear one round is the whole fit. Later rounds probe only the options round 0 found not
/// linear (two settings each, plus the new values' own evaluation); the linear ones keep round
/// 0's coefficients, which hold at any values. The validation loss of a round is measured by its
/// own probe at its own values (the linearisation is exact there).
pub fn rounds(
    paths: &[PathBuf],
    settings: &ProbeSettings,
    fit_settings: &FitSettings,
    max_rounds: usize,
    run_dir: &Path,
    progress: bool,
) -> Result<Rounds> {
    let positions = load_positions(paths, progress)?;
    let mut settings = settings.clone();
    let mut out = Rounds {
        rounds: Vec::new(),
        values: Vec::new(),
        values_valid_loss: f64::NAN,
        start: Vec::new(),
        columns: Vec::new(),
        notes: Vec::new(),
        left_out: Vec::new(),
    };
    let mut best_loss = f64::INFINITY;
    // The linear options' columns and coefficients, from round 0: valid at any values.
    let mut linear: Option<Linearised> = None;
    for r in 0..max_rounds.max(1) {
        let dir = run_dir.join(format!("round-{r}"));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let probed = probe(&positions, &settings, &dir.join(PROBE_JOURNAL), progress)?;
        let (columns, rows) = match &linear {
            None => (probed.columns.clone(), probed.rows.clone()),
            Some(l) => l.merged(&probed, &settings.workers.engine.options),
        };
        if columns.is_empty() {
            bail!("no option changed any position's evaluation: nothing to fit");
        }
        let fitted = fit(&rows, &columns, fit_settings);
        let probed_at: Vec<(String, i32)> = columns.iter().map(|c| (c.name.clone(), c.start)).collect();
        if r == 0 {
            out.start = probed_at.clone();
            out.values = probed_at.clone();
            out.columns = columns.clone();
            out.left_out = probed.left_out.clone();
        }
        out.notes
            .extend(probed.notes.iter().map(|n| if r == 0 { n.clone() } else { format!("round {r}: {n}") }));
        let round = Round {
            probed_at: probed_at.clone(),
            fitted: rounded(&columns, &fitted),
            k: fitted.k,
            start_valid_loss: fitted.start_valid_loss(),
            valid_loss: fitted.valid_loss(),
            nonlinear: probed.nonlinear().iter().map(|s| s.to_string()).collect(),
            findings: probed.findings.clone(),
        };
        // This round's start is the last round's fitted point, measured exactly: stop when it is
        // no better than the round before's.
        let improved = round.start_valid_loss < best_loss;
        if r > 0 && !improved {
            // The last round's fit was no better where measured exactly: its own probe point,
            // the best measured, stands.
            if let Some(last) = out.rounds.last() {
                out.values = last.probed_at.clone();
                out.values_valid_loss = best_loss;
            }
            out.rounds.push(round);
            break;
        }
        best_loss = round.start_valid_loss;
        out.values = round.fitted.clone();
        out.values_valid_loss = round.valid_loss;
        let all_linear = round.nonlinear.is_empty();
        // Move: the next round probes at the fitted values, and only the options that curve.
        for (name, value) in &round.fitted {
            let options = &mut settings.workers.engine.options;
            match options.iter_mut().find(|(n, _)| same_name(n, name)) {
                Some(slot) => slot.1 = value.to_string(),
                None => options.push((name.clone(), value.to_string())),
            }
        }
        if linear.is_none() {
            linear = Some(Linearised::new(&probed));
        }
        settings.options = round.nonlinear.clone();
        out.rounds.push(round);
        if all_linear {
            break;
        }
    }
    Ok(out)
}

/// Round 0's linear options: their columns and each position's coefficients for them.
struct Linearised {
    columns: Vec<Column>,
    /// Per position (FEN), its coefficients over `columns`.
    rows: HashMap<String, Vec<(u32, f64)>>,
}

impl Linearised {
    fn new(probed: &Probed) -> Linearised {
        let linear: Vec<bool> = probed
            .columns
            .iter()
            .map(|c| probed.findings.iter().any(|f| f.option == c.name && f.linearity == Linearity::Linear))
            .collect();
        let mut index = vec![None; linear.len()];
        let mut columns = Vec::new();
        for (j, column) in probed.columns.iter().enumerate() {
            if linear[j] {
                index[j] = Some(columns.len() as u32);
                columns.push(column.clone());
            }
        }
        let rows = probed
            .rows
            .iter()
            .map(|row| {
                let kept =
                    row.coefficients.iter().filter_map(|&(j, c)| Some((index[j as usize]?, c))).collect();
                (row.fen.clone(), kept)
            })
            .collect();
        Linearised { columns, rows }
    }

    /// A later round's columns and rows: the linear columns (starting at the values the round
    /// probed at, `moved`) and their coefficients, then the round's own probed columns. The
    /// round's base evaluation already holds every moved value.
    fn merged(&self, probed: &Probed, moved: &[(String, String)]) -> (Vec<Column>, Vec<ProbedRow>) {
        let mut columns = self.columns.clone();
        for c in &mut columns {
            if let Some(v) =
                moved.iter().find(|(n, _)| same_name(n, &c.name)).and_then(|(_, v)| v.parse().ok())
            {
                c.start = v;
            }
        }
        let shift = columns.len() as u32;
        columns.extend(probed.columns.iter().cloned());
        let rows = probed
            .rows
            .iter()
            .filter_map(|row| {
                let mut coefficients = self.rows.get(&row.fen)?.clone();
                coefficients.extend(row.coefficients.iter().map(|&(j, c)| (j + shift, c)));
                Some(ProbedRow { coefficients, ..row.clone() })
            })
            .collect();
        (columns, rows)
    }
}

/// The fitted values of the columns that are options, rounded.
pub fn rounded(columns: &[Column], fitted: &Fitted) -> Vec<(String, i32)> {
    columns
        .iter()
        .zip(&fitted.values)
        .filter(|(c, _)| c.option.is_some())
        .map(|(c, &v)| (c.name.clone(), (v.round() as i64).clamp(c.min as i64, c.max as i64) as i32))
        .collect()
}

/// The values as the engine takes them: `setoption` lines (for a GUI's or a script's engine
/// configuration), OpenBench SPSA input lines (`name, int, value, min, max, c_end, r_end`, to
/// go on tuning there) and JSON (before and after), written to `run_dir` as `options.txt`,
/// `openbench.txt` and `options.json`. Returns the file names.
pub fn write_option_values(
    run_dir: &Path,
    columns: &[Column],
    start: &[(String, i32)],
    values: &[(String, i32)],
) -> Result<Vec<&'static str>> {
    let mut setoption = String::new();
    let mut openbench = String::new();
    let mut json = Vec::new();
    for (name, value) in values {
        let column = columns.iter().find(|c| &c.name == name);
        let (min, max) = column.map_or((i32::MIN, i32::MAX), |c| (c.min, c.max));
        let before = start.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        setoption.push_str(&format!("setoption name {name} value {value}\n"));
        let c_end = ((max as f64 - min as f64) / 20.0).clamp(1.0, 1e6);
        openbench.push_str(&format!("{name}, int, {value}, {min}, {max}, {c_end:.1}, 0.002\n"));
        json.push(
            serde_json::json!({"option": name, "before": before, "after": value, "min": min, "max": max}),
        );
    }
    std::fs::write(run_dir.join("options.txt"), setoption)?;
    std::fs::write(run_dir.join("openbench.txt"), openbench)?;
    std::fs::write(run_dir.join("options.json"), serde_json::to_string_pretty(&json)?)?;
    Ok(vec!["options.txt", "openbench.txt", "options.json"])
}
