//! The building blocks of the report's pictures (PNG, drawn with plotters): the [`Image`] a
//! picture function returns, the diverging colour scale the boards share (PNG and HTML alike),
//! legends in a strip under the plot, and the line and bar charts every other picture is drawn
//! with. The pictures themselves are in `term_pictures.rs` (evaluation terms), `run_plots.rs`
//! (a run's logs) and `bayes.rs` (a Bayesian run's model).
//!
//! Legends sit under the plot, never over the data; values a run froze are crossed, with a
//! legend entry saying so.

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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
    pub(crate) fn new(file: String, title: impl Into<String>, group: &str) -> Image {
        Image { file, title: title.into(), group: group.to_string() }
    }
}

/// The font of every picture's text.
pub(super) const FONT: FontFamily<'static> = FontFamily::SansSerif;
/// Colours of the lines of one chart (Tableau 10), distinguishable and print-safe.
pub(crate) const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];
/// The marks of frozen values.
const FROZEN_INK: RGBColor = RGBColor(60, 60, 60);
const FROZEN_LABEL: &str = "frozen (--min-coverage)";

// ----------------------------------------------------------------------------------------------
// The colour scale of the boards
// ----------------------------------------------------------------------------------------------

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

// ----------------------------------------------------------------------------------------------
// Files and fonts
// ----------------------------------------------------------------------------------------------

/// A name safe to use in a file name: letters, digits and `-` only.
pub(super) fn file_stem(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect()
}

/// A plotters error as the report's error.
pub(super) fn draw_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
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
// Legends
// ----------------------------------------------------------------------------------------------

/// How a legend entry shows its series.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Swatch {
    Line,
    Dashed,
    Bar,
    Cross,
}

struct LegendEntry {
    name: String,
    colour: RGBColor,
    swatch: Swatch,
}

const LEGEND_FONT: f64 = 13.0;
const LEGEND_ROW: u32 = 20;
const SWATCH_WIDTH: i32 = 24;

fn text_width(text: &str) -> u32 {
    FontDesc::new(FONT, LEGEND_FONT, FontStyle::Normal)
        .box_size(text)
        .map(|(w, _)| w)
        .unwrap_or(7 * text.chars().count() as u32)
}

/// The legend's entries in rows that fit `width` (each entry's width alongside).
fn legend_rows(entries: &[LegendEntry], width: u32) -> Vec<Vec<(usize, u32)>> {
    let mut rows: Vec<Vec<(usize, u32)>> = Vec::new();
    let mut used = 0;
    for (i, e) in entries.iter().enumerate() {
        let w = SWATCH_WIDTH as u32 + 6 + text_width(&e.name) + 22;
        if rows.is_empty() || used + w > width.saturating_sub(24) {
            rows.push(Vec::new());
            used = 0;
        }
        rows.last_mut().expect("a row").push((i, w));
        used += w;
    }
    rows
}

/// The height of the strip under a chart that holds its legend (0 without entries).
fn legend_height(entries: &[LegendEntry], width: u32) -> u32 {
    let rows = legend_rows(entries, width).len() as u32;
    if rows == 0 {
        0
    } else {
        rows * LEGEND_ROW + 12
    }
}

/// Draws the legend into its strip, rows centred.
fn draw_legend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entries: &[LegendEntry]) -> Result<()> {
    let width = area.dim_in_pixel().0;
    let style = TextStyle::from((FONT, LEGEND_FONT).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (r, row) in legend_rows(entries, width).iter().enumerate() {
        let total: u32 = row.iter().map(|(_, w)| w).sum();
        let mut x = (width.saturating_sub(total) / 2) as i32;
        let y = 6 + r as i32 * LEGEND_ROW as i32 + LEGEND_ROW as i32 / 2;
        for &(i, w) in row {
            let e = &entries[i];
            let (x0, x1) = (x, x + SWATCH_WIDTH);
            match e.swatch {
                Swatch::Line => {
                    area.draw(&PathElement::new(vec![(x0, y), (x1, y)], e.colour.stroke_width(2)))
                        .map_err(draw_err)?;
                }
                Swatch::Dashed => {
                    let faded = e.colour.mix(0.55).stroke_width(2);
                    for s in (x0..x1).step_by(9) {
                        area.draw(&PathElement::new(vec![(s, y), ((s + 5).min(x1), y)], faded))
                            .map_err(draw_err)?;
                    }
                }
                Swatch::Bar => {
                    area.draw(&Rectangle::new([(x0 + 6, y - 6), (x1 - 6, y + 6)], e.colour.filled()))
                        .map_err(draw_err)?;
                }
                Swatch::Cross => {
                    area.draw(&Cross::new((x0 + SWATCH_WIDTH / 2, y), 5, e.colour.stroke_width(2)))
                        .map_err(draw_err)?;
                }
            }
            area.draw(&Text::new(e.name.clone(), (x1 + 6, y), style.clone())).map_err(draw_err)?;
            x += w as i32;
        }
    }
    Ok(())
}

// ----------------------------------------------------------------------------------------------
// Line and bar charts
// ----------------------------------------------------------------------------------------------

/// One line of a chart. NaN values leave a gap.
pub(crate) struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub colour: RGBColor,
    /// Baselines are drawn dashed and lighter, under the current values.
    pub dashed: bool,
    /// Marks each point: lists have few, discrete elements.
    pub markers: bool,
    /// Points (by position in `points`) of frozen values: crossed.
    pub frozen: Vec<usize>,
}

/// A line chart: its title, the axes' descriptions and the lines.
pub(crate) struct LineChart<'a> {
    pub title: &'a str,
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    pub series: &'a [Series],
    /// Names of the x positions that are whole numbers (list elements: ranks, pieces); `None`
    /// for plain numbers.
    pub x_labels: Option<&'a [String]>,
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

const CHART_WIDTH: u32 = 800;
const CHART_HEIGHT: u32 = 440;

/// The legend of a line chart: baselines first, as drawn, then a cross for frozen values.
fn line_legend(series: &[Series]) -> Vec<LegendEntry> {
    // A series without a name (the second edge of a band) shares the legend entry before it.
    let drawn = series
        .iter()
        .filter(|s| !s.name.is_empty() && s.points.iter().any(|p| p.0.is_finite() && p.1.is_finite()));
    let mut entries: Vec<LegendEntry> = drawn
        .map(|s| LegendEntry {
            name: s.name.clone(),
            colour: s.colour,
            swatch: if s.dashed { Swatch::Dashed } else { Swatch::Line },
        })
        .collect();
    if series.iter().any(|s| !s.frozen.is_empty()) {
        entries.push(LegendEntry { name: FROZEN_LABEL.into(), colour: FROZEN_INK, swatch: Swatch::Cross });
    }
    entries
}

/// Draws a line chart, its legend in a strip underneath.
pub(crate) fn line_chart(path: &Path, chart: &LineChart) -> Result<()> {
    let all = || chart.series.iter().flat_map(|s| s.points.iter());
    let (Some((x0, x1)), Some((y0, y1))) =
        (padded_range(all().map(|p| p.0)), padded_range(all().map(|p| p.1)))
    else {
        bail!("nothing to draw");
    };
    let legend = line_legend(chart.series);
    let legend_h = legend_height(&legend, CHART_WIDTH);
    let root = BitMapBackend::new(path, (CHART_WIDTH, CHART_HEIGHT + legend_h)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_err)?;
    let (plot, strip) = root.split_vertically(CHART_HEIGHT);
    let mut ctx = ChartBuilder::on(&plot)
        .caption(chart.title, (FONT, 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(draw_err)?;
    let names = chart.x_labels;
    let x_label = move |x: &f64| match names {
        Some(names) => {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
                names[i as usize].clone()
            } else {
                String::new()
            }
        }
        None => tick(x),
    };
    let mut mesh = ctx.configure_mesh();
    mesh.x_desc(chart.x_desc)
        .y_desc(chart.y_desc)
        .light_line_style(RGBColor(240, 240, 240))
        .label_style((FONT, 14))
        .x_label_formatter(&x_label)
        .y_label_formatter(&tick);
    if let Some(names) = names {
        // One tick per whole position in range (at most 30), so every element is named.
        let count = ((x1.floor() - x0.ceil()) as usize + 1).min(30);
        mesh.x_labels(count.max(2));
        if names.len() > 30 {
            mesh.x_labels(10);
        }
    }
    mesh.draw().map_err(draw_err)?;
    // Baselines first, so the current values are drawn over them.
    let order = chart.series.iter().filter(|s| s.dashed).chain(chart.series.iter().filter(|s| !s.dashed));
    for s in order {
        let style = if s.dashed { s.colour.mix(0.55).stroke_width(2) } else { s.colour.stroke_width(2) };
        for seg in segments(&s.points) {
            if s.dashed {
                ctx.draw_series(DashedLineSeries::new(seg.clone(), 6, 4, style)).map_err(draw_err)?;
            } else {
                ctx.draw_series(LineSeries::new(seg.clone(), style)).map_err(draw_err)?;
            }
            // A lone point between gaps has no line, so it always gets a marker.
            if s.markers || seg.len() == 1 {
                let fill = if s.dashed { s.colour.mix(0.55).filled() } else { s.colour.filled() };
                ctx.draw_series(seg.iter().map(|&p| Circle::new(p, 3, fill))).map_err(draw_err)?;
            }
        }
    }
    for s in chart.series {
        let crosses =
            s.frozen.iter().filter_map(|&i| s.points.get(i)).filter(|p| p.0.is_finite() && p.1.is_finite());
        ctx.draw_series(crosses.map(|&p| Cross::new(p, 5, FROZEN_INK.stroke_width(2)))).map_err(draw_err)?;
    }
    draw_legend(&strip, &legend)?;
    root.present().map_err(draw_err)?;
    Ok(())
}

/// Bars grouped by category: every series has one value per category (NaN: no bar).
pub(super) struct BarChart<'a> {
    pub title: &'a str,
    /// What the categories are (the category axis' description).
    pub category_desc: &'a str,
    pub y_desc: &'a str,
    pub categories: Vec<String>,
    pub series: Vec<BarSeries>,
}

/// The bars of one colour, one per category.
pub(super) struct BarSeries {
    pub name: String,
    pub colour: RGBColor,
    pub values: Vec<f64>,
    /// Per category: the value is frozen (a cross at the bar's end).
    pub frozen: Vec<bool>,
}

/// Draws a bar chart: categories along the bottom, or down the side when there are many.
pub(super) fn bar_chart(path: &Path, chart: &BarChart) -> Result<()> {
    let n = chart.categories.len();
    if n == 0 {
        bail!("nothing to draw");
    }
    let values = chart.series.iter().flat_map(|s| s.values.iter().copied()).chain([0.0]);
    let Some((v0, v1)) = padded_range(values) else { bail!("nothing to draw") };
    let k = chart.series.len().max(1);
    // Many categories (long term names) lie along the vertical axis, where their names fit.
    let horizontal = n > 6;
    let (width, height) = if horizontal {
        (900, (90 + n * (8 + 7 * k)).clamp(300, 1600) as u32)
    } else {
        ((140 + n * 30 * k).clamp(600, 1400) as u32, 440)
    };
    let mut legend: Vec<LegendEntry> = chart
        .series
        .iter()
        .map(|s| LegendEntry { name: s.name.clone(), colour: s.colour, swatch: Swatch::Bar })
        .collect();
    if chart.series.iter().any(|s| s.frozen.iter().any(|&f| f)) {
        legend.push(LegendEntry { name: FROZEN_LABEL.into(), colour: FROZEN_INK, swatch: Swatch::Cross });
    }
    let legend_h = legend_height(&legend, width);
    let label_width = chart.categories.iter().map(|c| c.chars().count()).max().unwrap_or(0) as u32 * 8 + 16;
    let root = BitMapBackend::new(path, (width, height + legend_h)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_err)?;
    let (plot, strip) = root.split_vertically(height);
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
    let mut ctx = ChartBuilder::on(&plot)
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
            .y_desc(chart.category_desc)
            .x_desc(chart.y_desc)
            .x_label_formatter(&tick);
    } else {
        mesh.disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&name_of)
            .x_desc(chart.category_desc)
            .y_desc(chart.y_desc)
            .y_label_formatter(&tick);
    }
    mesh.draw().map_err(draw_err)?;
    let bar = 0.8 / k as f64;
    // Where bar (category i, series j) starts across the category axis and where its value ends.
    let slot = |i: usize, j: usize| {
        if horizontal {
            (n - 1 - i) as f64 + 0.4 - j as f64 * bar
        } else {
            i as f64 - 0.4 + j as f64 * bar
        }
    };
    for (j, s) in chart.series.iter().enumerate() {
        let colour = s.colour;
        let bars = s.values.iter().enumerate().filter(|(_, v)| v.is_finite()).map(|(i, &v)| {
            let at = slot(i, j);
            if horizontal {
                // First category and first series at the top.
                Rectangle::new([(0.0, at), (v, at - bar * 0.9)], colour.filled())
            } else {
                Rectangle::new([(at, 0.0), (at + bar * 0.9, v)], colour.filled())
            }
        });
        ctx.draw_series(bars).map_err(draw_err)?;
        let crosses =
            s.values.iter().enumerate().filter(|(i, v)| v.is_finite() && s.frozen.get(*i) == Some(&true));
        let crosses = crosses.map(|(i, &v)| {
            let mid = if horizontal { slot(i, j) - bar * 0.45 } else { slot(i, j) + bar * 0.45 };
            let p = if horizontal { (v, mid) } else { (mid, v) };
            Cross::new(p, 5, FROZEN_INK.stroke_width(2))
        });
        ctx.draw_series(crosses).map_err(draw_err)?;
    }
    let (c0, c1) = (-0.5, n as f64 - 0.5);
    let zero = if horizontal { vec![(0.0, c0), (0.0, c1)] } else { vec![(c0, 0.0), (c1, 0.0)] };
    ctx.draw_series(std::iter::once(PathElement::new(zero, BLACK))).map_err(draw_err)?;
    draw_legend(&strip, &legend)?;
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

#[cfg(test)]
#[path = "charts_tests.rs"]
mod tests;
