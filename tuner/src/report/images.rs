//! The report's pictures (PNG, drawn with plotters): piece-square tables as heat-mapped boards,
//! line charts of the list-shaped terms and the king-safety curve, bar charts of the per-piece
//! and scalar terms, and plots of a tuning run's `log.csv` and `trajectory.csv`.
//!
//! Every function writes its files into `dir` and returns what it wrote as [`Image`]s (file names
//! relative to `dir`), which `html.rs` lays out on the page.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use whetstone::eval::weights::{king_curve, MAX_KING_UNITS};
use whetstone::params::{ParamSet, Shape, Term};

/// One picture of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// File name relative to the report folder.
    pub file: String,
    pub title: String,
    /// Which part of the page shows it: "tables", "curves" or "run".
    pub group: String,
}

impl Image {
    fn new(file: String, title: impl Into<String>, group: &str) -> Image {
        Image { file, title: title.into(), group: group.to_string() }
    }
}

const FONT: FontFamily<'static> = FontFamily::SansSerif;
const FILES: [char; 8] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const PIECES: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];
/// Colours of the lines of one chart (Tableau 10), distinguishable and print-safe.
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];
const MG_COLOUR: RGBColor = PALETTE[0];
const EG_COLOUR: RGBColor = PALETTE[1];
/// Lines per chart before a trajectory is split over several charts.
const LINES_PER_CHART: usize = 8;
/// With more tuned parameters than this, only the ones that moved most are drawn.
const MAX_TRAJECTORIES: usize = 32;
const TOP_TRAJECTORIES: usize = 24;

/// The diverging colour scale shared by the PNG boards and the HTML tables: red for `-limit` and
/// below, white for zero, green for `+limit` and above (linear in between).
pub fn diverging_rgb(value: f64, limit: f64) -> (u8, u8, u8) {
    const RED: (f64, f64, f64) = (215.0, 48.0, 39.0);
    const GREEN: (f64, f64, f64) = (26.0, 152.0, 80.0);
    let t = if limit > 0.0 && value.is_finite() { (value / limit).clamp(-1.0, 1.0) } else { 0.0 };
    let end = if t < 0.0 { RED } else { GREEN };
    let a = t.abs();
    let mix = |e: f64| (255.0 + (e - 255.0) * a).round() as u8;
    (mix(end.0), mix(end.1), mix(end.2))
}

/// Whether text on a cell of this scale value needs to be white to stay readable.
pub fn needs_light_text(value: f64, limit: f64) -> bool {
    limit > 0.0 && (value / limit).abs() > 0.65
}

/// The scale's limit for a set of values: the largest magnitude, so zero stays white and both
/// boards of one picture share one scale; at least 1 so an all-zero table is not a division by 0.
pub fn scale_limit<'a>(values: impl IntoIterator<Item = &'a i32>) -> f64 {
    values.into_iter().map(|v| v.unsigned_abs()).max().unwrap_or(0).max(1) as f64
}

/// The square index (a1 = 0) shown at board row `row` (0 = rank 8) and file `file` (0 = a).
pub fn square_at(row: usize, file: usize) -> usize {
    (7 - row) * 8 + file
}

/// The piece-square tables of a set: (piece name for file names and titles, term).
pub fn piece_square_terms(params: &ParamSet) -> impl Iterator<Item = (&str, &Term)> {
    params
        .terms
        .iter()
        .filter(|t| t.shape == Shape::Square && t.len() == 64)
        .filter_map(|t| t.name.strip_prefix("pst.").map(|piece| (piece, t)))
}

/// A name safe to use in a file name: letters, digits and `-` only.
fn file_stem(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect()
}

fn draw_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("drawing: {e}")
}

/// Fails when plotters finds no font. Checked before drawing anything: plotters' ttf backend
/// looks fonts up through font-kit (fontconfig) and on a machine without fonts would fail
/// halfway through a picture; this makes that one clear error instead of a broken file.
pub fn check_font() -> Result<()> {
    FontDesc::new(FONT, 12.0, FontStyle::Normal).box_size("0").map(|_| ()).map_err(|e| {
        anyhow!(
            "no usable font for the report's pictures ({e}); install a sans-serif font (e.g. fonts-dejavu)"
        )
    })
}

// ----------------------------------------------------------------------------------------------
// Piece-square tables
// ----------------------------------------------------------------------------------------------

const CELL: i32 = 50;
const BOARD: i32 = 8 * CELL;
const LABEL: i32 = 22;
const TOP: i32 = 70;
const PANEL_GAP: i32 = 40;
const BAR_WIDTH: i32 = 22;

/// One PNG per piece-square table (middle game and end game side by side), and with a baseline
/// one more per table with the differences (`pst-knight-diff.png`).
pub fn heat_maps(params: &ParamSet, baseline: Option<&ParamSet>, dir: &Path) -> Result<Vec<Image>> {
    check_font()?;
    let mut out = Vec::new();
    for (piece, term) in piece_square_terms(params) {
        let file = format!("pst-{}.png", file_stem(piece));
        let panels = phase_panels(term, &term.mg, &term.eg);
        let title = format!("{piece}: piece-square table");
        board_picture(&dir.join(&file), &title, &panels).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, title, "tables"));

        let Some(before) = baseline.and_then(|b| b.term(&term.name)).filter(|b| b.len() == 64) else {
            continue;
        };
        let diff = |now: &[i32], then: &[i32]| now.iter().zip(then).map(|(a, b)| a - b).collect::<Vec<_>>();
        let (mg, eg) = (diff(&term.mg, &before.mg), diff(&term.eg, &before.eg));
        let file = format!("pst-{}-diff.png", file_stem(piece));
        let title = format!("{piece}: change from the baseline");
        board_picture(&dir.join(&file), &title, &phase_panels(term, &mg, &eg))
            .with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, title, "tables"));
    }
    Ok(out)
}

/// The boards to draw for a term: both phases, or the one value of an unphased term.
fn phase_panels<'a>(term: &Term, mg: &'a [i32], eg: &'a [i32]) -> Vec<(&'static str, &'a [i32])> {
    if term.phased {
        vec![("middle game", mg), ("end game", eg)]
    } else {
        vec![("both phases", mg)]
    }
}

/// Boards side by side under one colour scale (shared so the phases compare at a glance), each
/// cell coloured and showing its value, with a colour bar on the right.
fn board_picture(path: &Path, title: &str, panels: &[(&str, &[i32])]) -> Result<()> {
    let panel_width = LABEL + BOARD + PANEL_GAP;
    let width = panels.len() as i32 * panel_width + BAR_WIDTH + 70;
    let height = TOP + BOARD + LABEL + 16;
    let limit = scale_limit(panels.iter().flat_map(|(_, v)| v.iter()));
    let root = BitMapBackend::new(path, (width as u32, height as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_err)?;

    let centred = Pos::new(HPos::Center, VPos::Center);
    let title_style = TextStyle::from((FONT, 24).into_font()).pos(centred);
    root.draw(&Text::new(title.to_string(), (width / 2, 22), title_style)).map_err(draw_err)?;
    let label_style = TextStyle::from((FONT, 15).into_font()).color(&RGBColor(60, 60, 60)).pos(centred);
    let value_style = TextStyle::from((FONT, 14).into_font()).pos(centred);
    let light_value_style = value_style.clone().color(&WHITE);

    for (p, (name, values)) in panels.iter().enumerate() {
        let left = p as i32 * panel_width + LABEL;
        root.draw(&Text::new(name.to_string(), (left + BOARD / 2, TOP - 18), label_style.clone()))
            .map_err(draw_err)?;
        for row in 0..8 {
            let y = TOP + row as i32 * CELL;
            root.draw(&Text::new(
                format!("{}", 8 - row),
                (left - LABEL / 2, y + CELL / 2),
                label_style.clone(),
            ))
            .map_err(draw_err)?;
            for file in 0..8 {
                let x = left + file as i32 * CELL;
                let value = values[square_at(row, file)];
                let (r, g, b) = diverging_rgb(value as f64, limit);
                root.draw(&Rectangle::new([(x, y), (x + CELL, y + CELL)], RGBColor(r, g, b).filled()))
                    .map_err(draw_err)?;
                let style =
                    if needs_light_text(value as f64, limit) { &light_value_style } else { &value_style };
                root.draw(&Text::new(value.to_string(), (x + CELL / 2, y + CELL / 2), style.clone()))
                    .map_err(draw_err)?;
            }
        }
        for (file, letter) in FILES.iter().enumerate() {
            let x = left + file as i32 * CELL + CELL / 2;
            root.draw(&Text::new(letter.to_string(), (x, TOP + BOARD + LABEL / 2 + 2), label_style.clone()))
                .map_err(draw_err)?;
        }
        let frame = RGBColor(90, 90, 90);
        root.draw(&Rectangle::new([(left, TOP), (left + BOARD, TOP + BOARD)], frame.stroke_width(1)))
            .map_err(draw_err)?;
    }

    // Colour bar: one-pixel rows from +limit at the top to -limit at the bottom.
    let bar_left = panels.len() as i32 * panel_width + 4;
    for y in 0..BOARD {
        let value = limit * (1.0 - 2.0 * y as f64 / (BOARD - 1) as f64);
        let (r, g, b) = diverging_rgb(value, limit);
        root.draw(&Rectangle::new(
            [(bar_left, TOP + y), (bar_left + BAR_WIDTH, TOP + y + 1)],
            RGBColor(r, g, b).filled(),
        ))
        .map_err(draw_err)?;
    }
    root.draw(&Rectangle::new(
        [(bar_left, TOP), (bar_left + BAR_WIDTH, TOP + BOARD)],
        RGBColor(90, 90, 90).stroke_width(1),
    ))
    .map_err(draw_err)?;
    let tick_style = TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (y, value) in [(TOP, limit), (TOP + BOARD / 2, 0.0), (TOP + BOARD, -limit)] {
        root.draw(&Text::new(format!("{value:+}"), (bar_left + BAR_WIDTH + 5, y), tick_style.clone()))
            .map_err(draw_err)?;
    }
    root.present().map_err(draw_err)?;
    Ok(())
}

// ----------------------------------------------------------------------------------------------
// Line and bar charts
// ----------------------------------------------------------------------------------------------

/// One line of a chart. NaN values leave a gap.
struct Series {
    name: String,
    points: Vec<(f64, f64)>,
    colour: RGBColor,
    /// Baselines are drawn dashed and lighter, under the current values.
    dashed: bool,
    /// Marks each point: lists have few, discrete elements.
    markers: bool,
}

struct LineChart<'a> {
    title: &'a str,
    x_desc: &'a str,
    y_desc: &'a str,
    series: &'a [Series],
}

/// The finite range of some values, widened so the lines do not touch the frame and a flat line
/// still gets a visible range.
fn padded_range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return None;
    }
    let pad = if hi > lo { (hi - lo) * 0.06 } else { lo.abs().max(1.0) * 0.1 };
    Some((lo - pad, hi + pad))
}

/// Splits a line at its NaN points, so an empty log cell is a gap rather than a wrong value.
fn segments(points: &[(f64, f64)]) -> Vec<Vec<(f64, f64)>> {
    points
        .split(|(x, y)| !x.is_finite() || !y.is_finite())
        .filter(|s| !s.is_empty())
        .map(<[_]>::to_vec)
        .collect()
}

fn line_chart(path: &Path, chart: &LineChart) -> Result<()> {
    let all = || chart.series.iter().flat_map(|s| s.points.iter());
    let (Some((x0, x1)), Some((y0, y1))) =
        (padded_range(all().map(|p| p.0)), padded_range(all().map(|p| p.1)))
    else {
        bail!("nothing to draw");
    };
    let root = BitMapBackend::new(path, (800, 460)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_err)?;
    let mut ctx = ChartBuilder::on(&root)
        .caption(chart.title, (FONT, 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(draw_err)?;
    ctx.configure_mesh()
        .x_desc(chart.x_desc)
        .y_desc(chart.y_desc)
        .light_line_style(RGBColor(240, 240, 240))
        .label_style((FONT, 14))
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .draw()
        .map_err(draw_err)?;
    // Baselines first, so the current values are drawn over them.
    let order = chart.series.iter().filter(|s| s.dashed).chain(chart.series.iter().filter(|s| !s.dashed));
    for s in order {
        let style = if s.dashed { s.colour.mix(0.55).stroke_width(2) } else { s.colour.stroke_width(2) };
        let mut first = true;
        for seg in segments(&s.points) {
            let anno = if s.dashed {
                ctx.draw_series(DashedLineSeries::new(seg.clone(), 6, 4, style)).map_err(draw_err)?
            } else {
                ctx.draw_series(LineSeries::new(seg.clone(), style)).map_err(draw_err)?
            };
            // Only one legend entry per series, however many gaps it has.
            if first {
                let colour = style;
                anno.label(s.name.clone())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
                first = false;
            }
            // A lone point between gaps has no line, so it always gets a marker.
            if s.markers || seg.len() == 1 {
                let fill = if s.dashed { s.colour.mix(0.55).filled() } else { s.colour.filled() };
                ctx.draw_series(seg.iter().map(|&p| Circle::new(p, 3, fill))).map_err(draw_err)?;
            }
        }
    }
    ctx.configure_series_labels()
        .position(legend_position(chart.series, y0, y1))
        .label_font((FONT, 13))
        .border_style(RGBColor(180, 180, 180))
        .background_style(WHITE.mix(0.85))
        .draw()
        .map_err(draw_err)?;
    root.present().map_err(draw_err)?;
    Ok(())
}

/// Bars grouped by category: `groups[i]` holds the value of every series for category `i`.
struct BarChart<'a> {
    title: &'a str,
    y_desc: &'a str,
    categories: Vec<String>,
    /// (name, colour, value per category)
    series: Vec<(String, RGBColor, Vec<f64>)>,
}

fn bar_chart(path: &Path, chart: &BarChart) -> Result<()> {
    let n = chart.categories.len();
    let values = chart.series.iter().flat_map(|s| s.2.iter().copied()).chain([0.0]);
    let Some((v0, v1)) = padded_range(values) else { bail!("nothing to draw") };
    let k = chart.series.len().max(1);
    // Many categories (long term names) lie along the vertical axis, where their names fit.
    let horizontal = n > 6;
    let (width, height) = if horizontal {
        (900, (90 + n * (8 + 7 * k)).clamp(300, 1600) as u32)
    } else {
        ((140 + n * 30 * k).clamp(600, 1400) as u32, 460)
    };
    let label_width = chart.categories.iter().map(|c| c.chars().count()).max().unwrap_or(0) as u32 * 8 + 16;
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_err)?;
    let categories = chart.categories.clone();
    // The category axis is continuous; only the integer positions (the bar groups) get a name.
    let name_of = move |x: &f64| {
        let i = x.round();
        let i = if horizontal { n as f64 - 1.0 - i } else { i };
        if (x - x.round()).abs() < 1e-6 && i >= 0.0 && (i as usize) < categories.len() {
            categories[i as usize].clone()
        } else {
            String::new()
        }
    };
    let category_range = -0.5..n as f64 - 0.5;
    let (x_range, y_range) =
        if horizontal { (v0..v1, category_range.clone()) } else { (category_range.clone(), v0..v1) };
    let mut ctx = ChartBuilder::on(&root)
        .caption(chart.title, (FONT, 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(if horizontal { label_width.max(64) } else { 64 })
        .build_cartesian_2d(x_range, y_range)
        .map_err(draw_err)?;
    let mut mesh = ctx.configure_mesh();
    mesh.light_line_style(RGBColor(240, 240, 240)).label_style((FONT, 14));
    if horizontal {
        mesh.disable_y_mesh()
            .y_labels(n)
            .y_label_formatter(&name_of)
            .x_desc(chart.y_desc)
            .x_label_formatter(&tick);
    } else {
        mesh.disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&name_of)
            .y_desc(chart.y_desc)
            .y_label_formatter(&tick);
    }
    mesh.draw().map_err(draw_err)?;
    let bar = 0.8 / k as f64;
    for (j, (name, colour, values)) in chart.series.iter().enumerate() {
        let colour = *colour;
        let bars = values.iter().enumerate().filter(|(_, v)| v.is_finite()).map(move |(i, &v)| {
            if horizontal {
                // First category and first series at the top.
                let top = (n - 1 - i) as f64 + 0.4 - j as f64 * bar;
                Rectangle::new([(0.0, top), (v, top - bar * 0.9)], colour.filled())
            } else {
                let left = i as f64 - 0.4 + j as f64 * bar;
                Rectangle::new([(left, 0.0), (left + bar * 0.9, v)], colour.filled())
            }
        });
        ctx.draw_series(bars)
            .map_err(draw_err)?
            .label(name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
    }
    let (c0, c1) = (-0.5, n as f64 - 0.5);
    let zero = if horizontal { vec![(0.0, c0), (0.0, c1)] } else { vec![(c0, 0.0), (c1, 0.0)] };
    ctx.draw_series(std::iter::once(PathElement::new(zero, BLACK))).map_err(draw_err)?;
    ctx.configure_series_labels()
        .position(if horizontal { SeriesLabelPosition::UpperRight } else { SeriesLabelPosition::UpperLeft })
        .label_font((FONT, 13))
        .border_style(RGBColor(180, 180, 180))
        .background_style(WHITE.mix(0.85))
        .draw()
        .map_err(draw_err)?;
    root.present().map_err(draw_err)?;
    Ok(())
}

/// An axis label without float noise: `60` rather than `60.0`, `0.3` rather than
/// `0.30000000000000004`.
fn tick(v: &f64) -> String {
    let rounded = (v * 1e6).round() / 1e6;
    if rounded == 0.0 {
        "0".into()
    } else {
        format!("{rounded}")
    }
}

/// Where a line chart's legend hides the least: the corner on the side away from the lines at
/// the right-hand end (mobility rises, distances fall).
fn legend_position(series: &[Series], y0: f64, y1: f64) -> SeriesLabelPosition {
    let ends: Vec<f64> =
        series.iter().filter_map(|s| s.points.iter().rev().find(|p| p.1.is_finite())).map(|p| p.1).collect();
    if ends.is_empty() {
        return SeriesLabelPosition::UpperRight;
    }
    let mean = ends.iter().sum::<f64>() / ends.len() as f64;
    if mean > (y0 + y1) / 2.0 {
        SeriesLabelPosition::LowerRight
    } else {
        SeriesLabelPosition::UpperRight
    }
}

/// Middle-game and end-game lines of a term's values against `x` (one line if unphased), with
/// the baseline's dashed and lighter.
fn phase_series(term: &Term, baseline: Option<&Term>, x: impl Fn(usize) -> f64) -> Vec<Series> {
    let line = |name: String, values: &[i32], colour, dashed| Series {
        name,
        points: values.iter().enumerate().map(|(i, &v)| (x(i), v as f64)).collect(),
        colour,
        dashed,
        markers: values.len() <= 40,
    };
    let mut out = Vec::new();
    let phases: &[(&str, bool, RGBColor)] = if term.phased {
        &[("mg", false, MG_COLOUR), ("eg", true, EG_COLOUR)]
    } else {
        &[("value", false, MG_COLOUR)]
    };
    let values = |t: &'_ Term, eg: bool| if eg { t.eg.clone() } else { t.mg.clone() };
    for &(name, eg, colour) in phases {
        out.push(line(name.to_string(), &values(term, eg), colour, false));
        if let Some(base) = baseline {
            out.push(line(format!("{name} (baseline)"), &values(base, eg), colour, true));
        }
    }
    out
}

/// Line charts of every list-shaped term and of the king-safety curve, and bar charts of the
/// per-piece terms and of the scalars.
pub fn curves(params: &ParamSet, baseline: Option<&ParamSet>, dir: &Path) -> Result<Vec<Image>> {
    check_font()?;
    let mut out = Vec::new();
    for term in params.terms.iter().filter(|t| t.shape == Shape::List && !t.is_empty()) {
        let base = baseline.and_then(|b| b.term(&term.name)).filter(|b| b.len() == term.len());
        let file = format!("{}.png", file_stem(&term.name));
        let series = phase_series(term, base, |i| i as f64);
        let chart = LineChart { title: &term.name, x_desc: "index", y_desc: "value", series: &series };
        line_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, term.name.clone(), "curves"));
    }

    if let Some(series) = king_curve_series(params, baseline) {
        let file = "king-safety-curve.png".to_string();
        let title = "king safety: penalty by attack units";
        let chart = LineChart { title, x_desc: "attack units", y_desc: "penalty", series: &series };
        line_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, title, "curves"));
    }

    for term in params.terms.iter().filter(|t| t.shape == Shape::Piece && !t.is_empty()) {
        let base = baseline.and_then(|b| b.term(&term.name)).filter(|b| b.len() == term.len());
        let categories =
            (0..term.len()).map(|i| PIECES.get(i).map_or_else(|| i.to_string(), |p| p.to_string()));
        let chart = BarChart {
            title: &term.name,
            y_desc: "value",
            categories: categories.collect(),
            series: bar_series(&[term], base.map(|b| vec![b]).as_deref()),
        };
        let file = format!("{}.png", file_stem(&term.name));
        bar_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, term.name.clone(), "curves"));
    }

    // The curve's own parameters are drawn as the curve; as bars their hundreds would flatten
    // every other scalar.
    let scalars: Vec<&Term> = params
        .terms
        .iter()
        .filter(|t| t.shape == Shape::Scalar && t.len() == 1 && !t.name.starts_with("king_safety.curve_"))
        .collect();
    if !scalars.is_empty() {
        let base: Option<Vec<&Term>> =
            baseline.and_then(|b| scalars.iter().map(|t| b.term(&t.name).filter(|b| b.len() == 1)).collect());
        let chart = BarChart {
            title: "scalar terms",
            y_desc: "value",
            categories: scalars.iter().map(|t| t.name.clone()).collect(),
            series: bar_series(&scalars, base.as_deref()),
        };
        let file = "scalars.png".to_string();
        bar_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, "scalar terms", "curves"));
    }
    Ok(out)
}

/// Bar series of the elements of `terms` (all of one term, or the one value of each scalar):
/// mg and eg (the value alone if none is phased), and the baseline's in lighter colours.
fn bar_series(terms: &[&Term], baseline: Option<&[&Term]>) -> Vec<(String, RGBColor, Vec<f64>)> {
    let values = |ts: &[&Term], eg: bool| -> Vec<f64> {
        ts.iter().flat_map(|t| if eg { &t.eg } else { &t.mg }).map(|&v| v as f64).collect()
    };
    let phased = terms.iter().any(|t| t.phased);
    let mut out = Vec::new();
    let phases: &[(&str, bool, RGBColor)] = if phased {
        &[("mg", false, MG_COLOUR), ("eg", true, EG_COLOUR)]
    } else {
        &[("value", false, MG_COLOUR)]
    };
    for &(name, eg, colour) in phases {
        out.push((name.to_string(), colour, values(terms, eg)));
        if let Some(base) = baseline {
            let light = RGBColor(
                ((colour.0 as u16 + 2 * 255) / 3) as u8,
                ((colour.1 as u16 + 2 * 255) / 3) as u8,
                ((colour.2 as u16 + 2 * 255) / 3) as u8,
            );
            out.push((format!("{name} (baseline)"), light, values(base, eg)));
        }
    }
    out
}

/// The king-safety penalty by attack units, as the engine tabulates it from
/// `king_safety.curve_scale` (phased) and `king_safety.curve_power`.
fn king_curve_series(params: &ParamSet, baseline: Option<&ParamSet>) -> Option<Vec<Series>> {
    let curves = |set: &ParamSet| -> Option<(Vec<i32>, Vec<i32>)> {
        let scale = set.term("king_safety.curve_scale")?;
        let power = *set.term("king_safety.curve_power")?.mg.first()?;
        Some((king_curve(*scale.mg.first()?, power), king_curve(*scale.eg.first()?, power)))
    };
    let line = |name: &str, values: &[i32], colour, dashed| Series {
        name: name.to_string(),
        points: values
            .iter()
            .take(MAX_KING_UNITS + 1)
            .enumerate()
            .map(|(u, &v)| (u as f64, v as f64))
            .collect(),
        colour,
        dashed,
        markers: false,
    };
    let (mg, eg) = curves(params)?;
    let mut out = vec![line("mg", &mg, MG_COLOUR, false), line("eg", &eg, EG_COLOUR, false)];
    if let Some((bmg, beg)) = baseline.and_then(curves) {
        out.push(line("mg (baseline)", &bmg, MG_COLOUR, true));
        out.push(line("eg (baseline)", &beg, EG_COLOUR, true));
    }
    Some(out)
}

// ----------------------------------------------------------------------------------------------
// Run logs
// ----------------------------------------------------------------------------------------------

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

/// Charts of a run's `log.csv` (the losses together, every other column alone, `seconds`
/// skipped) and of its `trajectory.csv` if there is one.
pub fn log_plots(run_dir: &Path, dir: &Path) -> Result<Vec<Image>> {
    check_font()?;
    let mut out = Vec::new();
    let log_path = run_dir.join("log.csv");
    if log_path.exists() {
        let log = read_numeric_csv(&log_path)?;
        let step_name = log.header.first().cloned().unwrap_or_else(|| "step".into());
        let steps = log.steps();
        let has_values = |c: &Vec<f64>| c.iter().any(|v| v.is_finite());
        let columns: Vec<(&String, &Vec<f64>)> = log
            .header
            .iter()
            .zip(&log.columns)
            .skip(1)
            .filter(|(name, c)| !skip_log_column(name) && has_values(c))
            .collect();
        let (losses, others): (Vec<_>, Vec<_>) =
            columns.into_iter().partition(|(name, _)| name.contains("loss"));
        let mut groups: Vec<(String, Vec<Column>)> = Vec::new();
        if !losses.is_empty() {
            groups.push(("loss".into(), losses));
        }
        groups.extend(others.into_iter().map(|c| (c.0.clone(), vec![c])));
        for (name, columns) in groups {
            let series = step_series(&columns, &steps);
            let file = format!("log-{}.png", file_stem(&name));
            let title = format!("{name} by {step_name}");
            let chart = LineChart { title: &title, x_desc: &step_name, y_desc: &name, series: &series };
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
        let y_desc = if selected { "change from start" } else { "value" };
        let chart = LineChart { title: &title, x_desc: &step_name, y_desc, series: &series };
        line_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, title, "run"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("whetstone-images-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Checks the PNG signature and returns the width and height from the IHDR chunk.
    fn png_size(path: &Path) -> (u32, u32) {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{} is not a PNG", path.display());
        assert_eq!(&bytes[12..16], b"IHDR");
        let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
        (be(16), be(20))
    }

    #[test]
    fn heat_map_per_table_and_diffs() {
        let dir = temp_dir("heat");
        let params = ParamSet::baked();
        let pieces = piece_square_terms(&params).count();
        assert_eq!(pieces, 6);
        let images = heat_maps(&params, None, &dir).unwrap();
        assert_eq!(images.len(), pieces);
        assert!(images.iter().any(|i| i.file == "pst-knight.png"));
        for img in &images {
            let (w, h) = png_size(&dir.join(&img.file));
            assert!(w > 2 * BOARD as u32 && h > BOARD as u32, "{}: {w}x{h}", img.file);
            assert_eq!(img.group, "tables");
        }
        let mut baseline = params.clone();
        baseline.terms.iter_mut().for_each(|t| t.eg.iter_mut().for_each(|v| *v += 5));
        let images = heat_maps(&params, Some(&baseline), &dir).unwrap();
        assert_eq!(images.len(), 2 * pieces);
        png_size(&dir.join("pst-knight-diff.png"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn curves_for_lists_the_king_curve_and_bars() {
        let dir = temp_dir("curves");
        let params = ParamSet::baked();
        let mut baseline = params.clone();
        baseline.terms.iter_mut().for_each(|t| t.mg.iter_mut().for_each(|v| *v += 4));
        let images = curves(&params, Some(&baseline), &dir).unwrap();
        let count = |shape| params.terms.iter().filter(|t| t.shape == shape).count();
        let (lists, pieces) = (count(Shape::List), count(Shape::Piece));
        for expected in ["mobility-knight.png", "king-safety-curve.png", "material.png", "scalars.png"] {
            assert!(images.iter().any(|i| i.file == expected), "no {expected}");
        }
        // A line chart per list, a bar chart per piece-shaped term, the king curve, the scalars.
        assert_eq!(images.len(), lists + pieces + 2);
        for img in &images {
            let (w, h) = png_size(&dir.join(&img.file));
            assert!(w >= 600 && h >= 300, "{}: {w}x{h}", img.file);
            assert_eq!(img.group, "curves");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn log_plots_with_gaps_and_without_trajectory() {
        let run = temp_dir("log");
        let out = run.join("out");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(
            run.join("log.csv"),
            "generation,train_loss,valid_loss,fitness,elo,entropy,seconds\n\
             0,0.1,,1,NaN,0.5,1\n1,0.09,0.095,,,0.4,2\n2,0.08,NaN,3,12,,3\n3,0.07,0.08,4,15,0.2\n",
        )
        .unwrap();
        let images = log_plots(&run, &out).unwrap();
        let files: Vec<&str> = images.iter().map(|i| i.file.as_str()).collect();
        assert_eq!(files, ["log-loss.png", "log-fitness.png", "log-elo.png", "log-entropy.png"]);
        for f in &files {
            png_size(&out.join(f));
        }
        assert!(images[0].title.contains("generation"));

        // A column with nothing but empty cells gets no chart; trajectories come in charts of 8.
        std::fs::write(run.join("log.csv"), "iteration,elo,k\n0,,1.1\n1,,1.2\n").unwrap();
        let header: Vec<String> = (0..20).map(|i| format!("p{i}")).collect();
        let mut trajectory = format!("iteration,{}\n", header.join(","));
        for step in 0..4 {
            let row: Vec<String> = (0..20).map(|i| (i * step).to_string()).collect();
            trajectory.push_str(&format!("{step},{}\n", row.join(",")));
        }
        std::fs::write(run.join("trajectory.csv"), trajectory).unwrap();
        let files: Vec<String> = log_plots(&run, &out).unwrap().into_iter().map(|i| i.file).collect();
        assert_eq!(files, ["log-k.png", "trajectory-1.png", "trajectory-2.png", "trajectory-3.png"]);
        std::fs::remove_dir_all(&run).unwrap();
    }

    #[test]
    fn many_parameters_plot_the_top_movers() {
        let dir = temp_dir("many");
        let names: Vec<String> = (0..100).map(|i| format!("x{i}")).collect();
        let mut text = format!("epoch,{}\n", names.join(","));
        for step in 0..5 {
            let row: Vec<String> = (0..100).map(|i| (100 + i * step).to_string()).collect();
            text.push_str(&format!("{step},{}\n", row.join(",")));
        }
        std::fs::write(dir.join("trajectory.csv"), text).unwrap();
        let table = read_numeric_csv(&dir.join("trajectory.csv")).unwrap();
        let images = trajectory_plots(&table, &dir).unwrap();
        assert_eq!(images.len(), TOP_TRAJECTORIES / LINES_PER_CHART);
        assert!(images[0].title.contains("24 of 100"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn font_is_found_here() {
        // The machines the report runs on have fonts; without, every picture function fails
        // with check_font's message instead of drawing.
        check_font().unwrap();
    }

    /// `cargo test --release -- --ignored --nocapture timing`: the time of every picture of the
    /// baked parameters.
    #[test]
    #[ignore]
    fn timing() {
        let dir = temp_dir("timing");
        let params = ParamSet::baked();
        let start = std::time::Instant::now();
        let n = heat_maps(&params, None, &dir).unwrap().len() + curves(&params, None, &dir).unwrap().len();
        println!("{n} images in {:?}", start.elapsed());
        let start = std::time::Instant::now();
        let n = heat_maps(&params, Some(&params), &dir).unwrap().len()
            + curves(&params, Some(&params), &dir).unwrap().len();
        println!("{n} images with a baseline in {:?}", start.elapsed());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
