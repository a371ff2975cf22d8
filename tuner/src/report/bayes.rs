//! The pictures of a `tune bayes` run, drawn from its `bayes.json` (written by the command with
//! each step's checkpoint, so `tune report --log RUN` finds them as it finds `log.csv`, for a
//! stopped run too): the model's
//! partial dependence as chess-tuning-tools draws it (a matrix: one parameter on the diagonal,
//! pairs as heat maps below it, with the points played and the optimum), each parameter's
//! dependence and the slice through the optimum with its band, and the optimum with its one- and
//! two-standard-deviation regions over the run.

use std::path::Path;

use anyhow::{Context, Result};
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use super::charts::{self, Image, LineChart, Series, PALETTE};

/// The optimum and the ranges of the points predicted within one and two standard deviations of
/// it, per parameter (values), after one step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Region {
    pub step: u64,
    pub optimum: Vec<f64>,
    pub low_1sd: Vec<f64>,
    pub high_1sd: Vec<f64>,
    pub low_2sd: Vec<f64>,
    pub high_2sd: Vec<f64>,
}

/// The model along one parameter: partial dependence (averaged over the others) and the slice
/// through the optimum with a two-standard-deviation band, in the plots' unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dependence {
    pub name: String,
    pub grid: Vec<f64>,
    pub partial: Vec<f64>,
    pub slice: Vec<f64>,
    pub slice_low: Vec<f64>,
    pub slice_high: Vec<f64>,
    /// The model's length scale of this parameter (unit coordinates, the box is 2 wide).
    pub length: f64,
}

/// The partial dependence on parameters `x` and `y` (indices): rows follow `y`, columns `x`,
/// over each one's bounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    pub x: usize,
    pub y: usize,
    pub values: Vec<Vec<f64>>,
}

/// Everything the pictures of a Bayesian run need (`bayes.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BayesPlots {
    pub names: Vec<String>,
    /// What the model's values are (Elo against the start, or the fitness).
    pub unit: String,
    pub bounds: Vec<(f64, f64)>,
    pub optimum: Vec<f64>,
    pub dependence: Vec<Dependence>,
    /// The parameters of the matrix (the most influential), in order.
    pub paired: Vec<usize>,
    pub pairs: Vec<Pair>,
    /// Every point played (values).
    pub points: Vec<Vec<f64>>,
    pub history: Vec<Region>,
}

/// Parameters drawn one by one (dependence, optimum by step); the rest are in bayes.json.
const MAX_SINGLE: usize = 12;
const FONT: FontFamily<'static> = FontFamily::SansSerif;

fn draw_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing: {e}")
}

/// The pictures of `run_dir/bayes.json` in `dir` (none when the run has no such file).
pub fn plots(run_dir: &Path, dir: &Path) -> Result<Vec<Image>> {
    let path = run_dir.join("bayes.json");
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let data: BayesPlots =
        serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    charts::check_font()?;
    let mut out = Vec::new();
    if !data.paired.is_empty() {
        let file = "bayes-objective.png".to_string();
        objective_matrix(&data, &dir.join(&file)).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, "the model: partial dependence on each parameter and pair, the points played (dots) and the optimum (red)", "run"));
    }
    for (d, dep) in data.dependence.iter().enumerate().take(MAX_SINGLE) {
        let file = format!("bayes-dependence-{}.png", d + 1);
        let title = format!("{} (length scale {:.2})", dep.name, dep.length);
        let line = |name: &str, values: &[f64], colour: usize, dashed: bool| Series {
            name: name.to_string(),
            points: dep.grid.iter().copied().zip(values.iter().copied()).collect(),
            colour: PALETTE[colour],
            dashed,
            markers: false,
            frozen: Vec::new(),
        };
        let series = [
            line("partial dependence", &dep.partial, 0, false),
            line("through the optimum", &dep.slice, 1, false),
            line("± 2 standard deviations", &dep.slice_low, 1, true),
            line("", &dep.slice_high, 1, true),
        ];
        let chart = LineChart {
            title: &title,
            x_desc: &dep.name,
            y_desc: &data.unit,
            series: &series,
            x_labels: None,
        };
        charts::line_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, title, "run"));
    }
    if data.history.len() >= 2 {
        for (d, name) in data.names.iter().enumerate().take(MAX_SINGLE) {
            let file = format!("bayes-optimum-{}.png", d + 1);
            let title =
                format!("{name}: the optimum by step, and where the model is within 1 and 2 sd of it");
            let line = |label: &str, pick: fn(&Region) -> &Vec<f64>, colour: usize, dashed: bool| Series {
                name: label.to_string(),
                points: data.history.iter().map(|r| (r.step as f64, pick(r)[d])).collect(),
                colour: PALETTE[colour],
                dashed,
                markers: data.history.len() <= 30,
                frozen: Vec::new(),
            };
            let series = [
                line("optimum", |r| &r.optimum, 3, false),
                line("within 1 sd", |r| &r.low_1sd, 0, true),
                line("", |r| &r.high_1sd, 0, true),
                line("within 2 sd", |r| &r.low_2sd, 7, true),
                line("", |r| &r.high_2sd, 7, true),
            ];
            let chart =
                LineChart { title: &title, x_desc: "step", y_desc: name, series: &series, x_labels: None };
            charts::line_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
            out.push(Image::new(file, title, "run"));
        }
    }
    Ok(out)
}

/// A sequential colour scale (viridis' anchors, interpolated) for `t` in [0, 1].
fn viridis(t: f64) -> RGBColor {
    const ANCHORS: [(f64, f64, f64); 5] = [
        (68.0, 1.0, 84.0),
        (59.0, 82.0, 139.0),
        (33.0, 145.0, 140.0),
        (94.0, 201.0, 98.0),
        (253.0, 231.0, 37.0),
    ];
    let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 };
    let x = t * (ANCHORS.len() - 1) as f64;
    let i = (x.floor() as usize).min(ANCHORS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (ANCHORS[i], ANCHORS[i + 1]);
    let mix = |p: f64, q: f64| (p + (q - p) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// chess-tuning-tools' objective plot: a k × k matrix of the paired parameters, the diagonal the
/// partial dependence on one parameter (with the optimum as a red line), the cells below it the
/// partial dependence on a pair as a heat map (yellow is better), the points played as dots and
/// the optimum as a red cross.
fn objective_matrix(data: &BayesPlots, path: &Path) -> Result<()> {
    let k = data.paired.len();
    let cell: u32 = if k == 1 { 560 } else { (1000 / k as u32).max(200) };
    let size = cell * k as u32;
    let root = BitMapBackend::new(path, (size + 60, size + 90)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_err)?;
    let (title, body) = root.split_vertically(40);
    title
        .draw(&Text::new(format!("partial dependence ({})", data.unit), (20, 10), (FONT, 20).into_font()))
        .map_err(draw_err)?;
    let cells = body.margin(0, 10, 10, 10).split_evenly((k, k));
    let red = PALETTE[3];
    for r in 0..k {
        for c in 0..k {
            let area = &cells[r * k + c];
            let (i, j) = (data.paired[c], data.paired[r]);
            let (xb, yb) = (data.bounds[i], data.bounds[j]);
            let label_x = if r == k - 1 { 30 } else { 14 };
            let label_y = if c == 0 { 50 } else { 14 };
            if r == c {
                let dep = &data.dependence[i];
                let (lo, hi) = dep
                    .partial
                    .iter()
                    .filter(|v| v.is_finite())
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
                let pad = ((hi - lo) * 0.1).max(1e-9);
                let mut chart = ChartBuilder::on(area)
                    .margin(4)
                    .x_label_area_size(label_x)
                    .y_label_area_size(label_y)
                    .build_cartesian_2d(xb.0..xb.1, (lo - pad)..(hi + pad))
                    .map_err(draw_err)?;
                let mut mesh = chart.configure_mesh();
                mesh.label_style((FONT, 11))
                    .x_labels(4)
                    .y_labels(4)
                    .light_line_style(RGBColor(240, 240, 240));
                if r == k - 1 {
                    mesh.x_desc(data.names[i].as_str());
                }
                mesh.draw().map_err(draw_err)?;
                chart
                    .draw_series(LineSeries::new(
                        dep.grid.iter().copied().zip(dep.partial.iter().copied()),
                        PALETTE[0].stroke_width(2),
                    ))
                    .map_err(draw_err)?;
                let opt = data.optimum[i];
                chart
                    .draw_series(LineSeries::new([(opt, lo - pad), (opt, hi + pad)], red.stroke_width(2)))
                    .map_err(draw_err)?;
                // The points played, as a rug along the bottom.
                let rug = data.points.iter().map(|p| {
                    PathElement::new(
                        [(p[i], lo - pad), (p[i], lo - pad + 0.08 * (hi - lo + 2.0 * pad))],
                        BLACK.mix(0.3),
                    )
                });
                chart.draw_series(rug).map_err(draw_err)?;
            } else if r > c {
                let Some(pair) = data.pairs.iter().find(|p| p.x == i && p.y == j) else { continue };
                let g = pair.values.len();
                let (lo, hi) = pair
                    .values
                    .iter()
                    .flatten()
                    .filter(|v| v.is_finite())
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
                let mut chart = ChartBuilder::on(area)
                    .margin(4)
                    .x_label_area_size(label_x)
                    .y_label_area_size(label_y)
                    .build_cartesian_2d(xb.0..xb.1, yb.0..yb.1)
                    .map_err(draw_err)?;
                let mut mesh = chart.configure_mesh();
                mesh.label_style((FONT, 11)).x_labels(4).y_labels(4).disable_mesh();
                if r == k - 1 {
                    mesh.x_desc(data.names[i].as_str());
                }
                if c == 0 {
                    mesh.y_desc(data.names[j].as_str());
                }
                mesh.draw().map_err(draw_err)?;
                let step = |b: (f64, f64)| (b.1 - b.0) / (g - 1).max(1) as f64;
                let (dx, dy) = (step(xb), step(yb));
                let cells = (0..g).flat_map(|row| (0..g).map(move |col| (row, col))).map(|(row, col)| {
                    let (x, y) = (xb.0 + col as f64 * dx, yb.0 + row as f64 * dy);
                    let t = (pair.values[row][col] - lo) / (hi - lo).max(1e-12);
                    Rectangle::new(
                        [
                            ((x - dx / 2.0).max(xb.0), (y - dy / 2.0).max(yb.0)),
                            ((x + dx / 2.0).min(xb.1), (y + dy / 2.0).min(yb.1)),
                        ],
                        viridis(t).filled(),
                    )
                });
                chart.draw_series(cells).map_err(draw_err)?;
                chart
                    .draw_series(
                        data.points.iter().map(|p| Circle::new((p[i], p[j]), 2, BLACK.mix(0.6).filled())),
                    )
                    .map_err(draw_err)?;
                chart
                    .draw_series([Cross::new((data.optimum[i], data.optimum[j]), 6, red.stroke_width(3))])
                    .map_err(draw_err)?;
            }
        }
    }
    root.present().map_err(draw_err)?;
    Ok(())
}

#[cfg(test)]
#[path = "bayes_tests.rs"]
mod tests;
