//! The plots of a tuning run's logs (PNG): its `log.csv` column by column (the losses together,
//! a value with its bounds together) and its `trajectory.csv`, the parameters by step, a few to a
//! chart. Both are read as numeric CSV, an empty or unreadable cell a gap in the line.

use std::path::Path;

use anyhow::{Context, Result};

use super::charts::{check_font, file_stem, line_chart, Image, LineChart, Series, PALETTE};
use super::term_pictures::value_unit;

/// Lines per chart before a trajectory is split over several charts.
const LINES_PER_CHART: usize = 8;
/// With more tuned parameters than this, only the ones that moved most are drawn.
const MAX_TRAJECTORIES: usize = 32;
const TOP_TRAJECTORIES: usize = 24;

/// A numeric CSV file: the header and, per column, the values (NaN where a cell is empty or not
/// a number).
pub struct Table {
    pub header: Vec<String>,
    pub columns: Vec<Vec<f64>>,
}

impl Table {
    /// The step of every row: the first column, or the row number where it is not a number.
    pub fn steps(&self) -> Vec<f64> {
        let first = self.columns.first().cloned().unwrap_or_default();
        first.iter().enumerate().map(|(i, &s)| if s.is_finite() { s } else { i as f64 }).collect()
    }
}

/// One line per named column over the steps, in palette order (markers when points are few).
fn step_series<N: std::fmt::Display, V: AsRef<[f64]>>(columns: &[(N, V)], steps: &[f64]) -> Vec<Series> {
    columns
        .iter()
        .enumerate()
        .map(|(i, (name, values))| Series {
            name: name.to_string(),
            points: steps.iter().copied().zip(values.as_ref().iter().copied()).collect(),
            colour: PALETTE[i % PALETTE.len()],
            dashed: false,
            markers: steps.len() <= 30,
            frozen: Vec::new(),
        })
        .collect()
}

/// Reads a CSV log; rows may be ragged (a run stopped mid-write), missing cells are NaN.
pub fn read_numeric_csv(path: &Path) -> Result<Table> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_path(path)
        .with_context(|| format!("reading {}", path.display()))?;
    let header: Vec<String> = reader
        .headers()
        .with_context(|| format!("reading {}", path.display()))?
        .iter()
        .map(String::from)
        .collect();
    let mut columns = vec![Vec::new(); header.len()];
    for record in reader.records() {
        let record = record.with_context(|| format!("reading {}", path.display()))?;
        for (i, column) in columns.iter_mut().enumerate() {
            column.push(record.get(i).and_then(|c| c.parse::<f64>().ok()).unwrap_or(f64::NAN));
        }
    }
    Ok(Table { header, columns })
}

/// A named column of a log.
type Column<'a> = (&'a String, &'a Vec<f64>);

/// Log columns that are not worth a chart: wall time and bookkeeping.
fn skip_log_column(name: &str) -> bool {
    matches!(name, "seconds" | "time" | "elapsed" | "step")
}

/// Whether a log column has something to draw: some number, and not only zeros (a run that
/// played no games logs `games` as 0 throughout).
pub fn worth_a_chart(column: &[f64]) -> bool {
    let mut finite = column.iter().filter(|v| v.is_finite()).peekable();
    finite.peek().is_some() && finite.any(|&v| v != 0.0)
}

/// The vertical axis' description of a log chart: what the column is, with its unit.
pub fn log_axis(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        n if n.contains("loss") => "mean squared error".into(),
        n if n == "elo" || n.ends_with("_elo") || n.starts_with("elo") => "Elo".into(),
        "k" => "K (sigmoid scale)".into(),
        "learning_rate" => "learning rate (centipawns per step)".into(),
        "entropy" => "mean entropy per bit".into(),
        n if n.contains("win_rate") || n.contains("score") => {
            format!("{} (fraction of points)", n.replace('_', " "))
        }
        "recentred" => "values recentred".into(),
        n => n.replace('_', " "),
    }
}

/// Charts of a run's `log.csv` (the losses together, a column with its `_low`/`_high` bounds
/// together, every other column alone; wall time and columns of nothing but zeros skipped) and
/// of its `trajectory.csv` if there is one.
pub fn log_plots(run_dir: &Path, dir: &Path) -> Result<Vec<Image>> {
    check_font()?;
    let mut out = Vec::new();
    let log_path = run_dir.join("log.csv");
    if log_path.exists() {
        let log = read_numeric_csv(&log_path)?;
        let step_name = log.header.first().cloned().unwrap_or_else(|| "step".into());
        let steps = log.steps();
        let columns: Vec<(&String, &Vec<f64>)> = log
            .header
            .iter()
            .zip(&log.columns)
            .skip(1)
            .filter(|(name, c)| !skip_log_column(name) && worth_a_chart(c))
            .collect();
        let (losses, others): (Vec<_>, Vec<_>) =
            columns.into_iter().partition(|(name, _)| name.contains("loss"));
        let mut groups: Vec<(String, Vec<Column>)> = Vec::new();
        if !losses.is_empty() {
            groups.push(("loss".into(), losses));
        }
        for c in others {
            let bound_of = ["_low", "_high"].iter().find_map(|s| c.0.strip_suffix(s));
            match bound_of.and_then(|base| groups.iter_mut().find(|g| g.0 == base)) {
                Some(group) => group.1.push(c),
                None => groups.push((c.0.clone(), vec![c])),
            }
        }
        for (name, columns) in groups {
            let series = step_series(&columns, &steps);
            let file = format!("log-{}.png", file_stem(&name));
            let title = format!("{name} by {step_name}");
            let y_desc = log_axis(&name);
            let chart = LineChart {
                title: &title,
                x_desc: &step_name,
                y_desc: &y_desc,
                series: &series,
                x_labels: None,
            };
            line_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
            out.push(Image::new(file, title, "run"));
        }
    }
    let trajectory = run_dir.join("trajectory.csv");
    if trajectory.exists() {
        out.extend(trajectory_plots(&read_numeric_csv(&trajectory)?, dir)?);
    }
    Ok(out)
}

/// The units of some trajectory columns: those of the evaluation values they name (in either
/// spelling, as [`super::Frozen`] compares names), "own units" for others (search constants),
/// joined by "; ".
pub fn trajectory_units<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let baked = whetstone::eval::EvalParamSet::baked().into_set();
    let mut unit_of = std::collections::HashMap::new();
    for term in &baked.terms {
        for i in 0..term.len() {
            for eg in [false, true] {
                unit_of.insert(super::flat_name(&term.value_name(i, eg)), value_unit(term));
            }
        }
    }
    let mut units: Vec<&str> = Vec::new();
    for name in names {
        let unit = unit_of.get(&super::flat_name(name)).copied().unwrap_or("own units");
        if !units.contains(&unit) {
            units.push(unit);
        }
    }
    units.join("; ")
}

/// Parameter values by step, [`LINES_PER_CHART`] to a chart. With very many parameters only the
/// [`TOP_TRAJECTORIES`] that moved most are drawn, as their change from the start, so that lines
/// of very different magnitudes share one axis.
fn trajectory_plots(table: &Table, dir: &Path) -> Result<Vec<Image>> {
    let step_name = table.header.first().cloned().unwrap_or_else(|| "step".into());
    let steps = table.steps();
    let mut params: Vec<(&String, Vec<f64>)> = table
        .header
        .iter()
        .zip(&table.columns)
        .skip(1)
        .filter(|(_, c)| c.iter().any(|v| v.is_finite()))
        .map(|(n, c)| (n, c.clone()))
        .collect();
    let total = params.len();
    let selected = total > MAX_TRAJECTORIES;
    if selected {
        let movement = |c: &[f64]| {
            let (lo, hi) = c
                .iter()
                .filter(|v| v.is_finite())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
            hi - lo
        };
        // Stable sort: equal movers keep file order, so the pictures are reproducible.
        params.sort_by(|a, b| movement(&b.1).total_cmp(&movement(&a.1)));
        params.truncate(TOP_TRAJECTORIES);
        for (_, c) in &mut params {
            let start = c.iter().copied().find(|v| v.is_finite()).unwrap_or(0.0);
            c.iter_mut().for_each(|v| *v -= start);
        }
    }
    let charts = params.len().div_ceil(LINES_PER_CHART);
    let mut out = Vec::new();
    for (n, chunk) in params.chunks(LINES_PER_CHART).enumerate() {
        let series = step_series(chunk, &steps);
        let part = if charts > 1 { format!(" ({} of {charts})", n + 1) } else { String::new() };
        let title = if selected {
            format!("the {} of {total} parameters that moved most, change from start{part}", params.len())
        } else {
            format!("parameters by {step_name}{part}")
        };
        let file = format!("trajectory-{}.png", n + 1);
        let units = trajectory_units(chunk.iter().map(|c| c.0.as_str()));
        let y_desc =
            if selected { format!("change from start ({units})") } else { format!("value ({units})") };
        let chart =
            LineChart { title: &title, x_desc: &step_name, y_desc: &y_desc, series: &series, x_labels: None };
        line_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, title, "run"));
    }
    Ok(out)
}

#[cfg(test)]
#[path = "run_plots_tests.rs"]
mod tests;
