//! The report's pictures (PNG, drawn with plotters): piece-square tables as heat-mapped boards,
//! line charts of the list-shaped terms and the king-safety curve, bar charts of the per-piece
//! and scalar terms, and plots of a tuning run's `log.csv` and `trajectory.csv`.
//!
//! Every function writes its files into `dir` and returns what it wrote as [`Image`]s (file names
//! relative to `dir`), which `html.rs` lays out on the page. Legends sit in a strip under the
//! plot, never over the data; elements no position can use are not drawn (see
//! [`super::unused`]); values a run froze are hatched (boards) or crossed (charts).

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use whetstone::eval::weights::{king_curve, MAX_KING_UNITS};
use whetstone::params::{ParamSet, Shape, Term};

use super::{unused, Frozen};

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

const FONT: FontFamily<'static> = FontFamily::SansSerif;
const FILES: [char; 8] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const PIECES: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];
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
const MG_COLOUR: RGBColor = PALETTE[0];
const EG_COLOUR: RGBColor = PALETTE[1];
/// The marks of frozen values.
const FROZEN_INK: RGBColor = RGBColor(60, 60, 60);
const FROZEN_LABEL: &str = "frozen (--min-coverage)";
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
// What the values are: axes and units
// ----------------------------------------------------------------------------------------------

/// The unit of a term's values, for axis labels.
pub fn value_unit(term: &Term) -> &'static str {
    match term.name.as_str() {
        "king_safety.curve_power" => "hundredths of the exponent",
        "king_safety.curve_scale" => "centipawns",
        name if name.starts_with("king_safety.") => "attack units",
        _ => "centipawns",
    }
}

/// What the elements of a list- or piece-shaped term stand for: the axis description (with its
/// unit) and one label per element; `categorical` when they are kinds (pieces), not counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementAxis {
    pub desc: String,
    pub labels: Vec<String>,
    pub categorical: bool,
}

pub fn element_axis(term: &Term) -> ElementAxis {
    let n = term.len();
    let counts = |desc: &str| ElementAxis {
        desc: desc.to_string(),
        labels: (0..n).map(|i| i.to_string()).collect(),
        categorical: false,
    };
    let doc = term.doc.to_ascii_lowercase();
    let name = term.name.as_str();
    if term.shape == Shape::Piece {
        let labels = (0..n).map(|i| PIECES.get(i).map_or_else(|| i.to_string(), |p| p.to_string()));
        let desc = if name.starts_with("threat.") { "attacked piece" } else { "piece" };
        return ElementAxis { desc: desc.into(), labels: labels.collect(), categorical: true };
    }
    if n == 4 && doc.contains("knight, bishop, rook, queen") {
        let labels = ["knight", "bishop", "rook", "queen"].map(String::from).to_vec();
        return ElementAxis { desc: "attacking piece".into(), labels, categorical: true };
    }
    if name.starts_with("mobility.") {
        return counts("reachable squares");
    }
    if name.contains("king_distance") {
        return counts("king's distance to the promotion square (squares)");
    }
    if doc.contains("relative rank") {
        // Element i is the relative rank i + 1; where 0 means "no pawn", element 0 says so.
        let none_at_zero = doc.contains("(0 = none)");
        let labels = (0..n)
            .map(|i| if none_at_zero && i == 0 { "none".to_string() } else { (i + 1).to_string() })
            .collect();
        let desc = match name {
            "king.shield" => "relative rank of the nearest own pawn",
            "king.storm" => "relative rank of the nearest enemy pawn",
            _ => "relative rank of the pawn",
        };
        return ElementAxis { desc: desc.into(), labels, categorical: false };
    }
    counts("count")
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
// Piece-square tables
// ----------------------------------------------------------------------------------------------

const CELL: i32 = 50;
const BOARD: i32 = 8 * CELL;
const LABEL: i32 = 22;
const TOP: i32 = 70;
const PANEL_GAP: i32 = 40;
const BAR_WIDTH: i32 = 22;
const NOTE: i32 = 26;

/// How a board cell is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellLook {
    pub fill: (u8, u8, u8),
    /// Diagonal hatching over the fill (a frozen value).
    pub hatched: bool,
    /// The text shown (empty for an unused square).
    pub text: String,
    pub light_text: bool,
}

/// The look of a cell: unused squares blank and grey, frozen ones hatched with `*` after the
/// value, the others on the colour scale.
pub fn cell_look(value: i32, unused: bool, frozen: bool, limit: f64) -> CellLook {
    if unused {
        return CellLook { fill: (240, 240, 240), hatched: false, text: String::new(), light_text: false };
    }
    CellLook {
        fill: diverging_rgb(value as f64, limit),
        hatched: frozen,
        text: if frozen { format!("{value}*") } else { value.to_string() },
        light_text: needs_light_text(value as f64, limit),
    }
}

/// One board of a picture: its caption, the 64 values, and which squares are unused / frozen.
struct Panel<'a> {
    name: &'static str,
    values: &'a [i32],
    unused: Vec<bool>,
    frozen: Vec<bool>,
}

/// One PNG per piece-square table (middle game and end game side by side), and with a baseline
/// one more per table with the differences (`pst-knight-diff.png`). Squares no piece of the kind
/// can use are blank; values in `frozen` hatched.
pub fn heat_maps(
    params: &ParamSet,
    baseline: Option<&ParamSet>,
    frozen: &Frozen,
    dir: &Path,
) -> Result<Vec<Image>> {
    check_font()?;
    let mut out = Vec::new();
    for (piece, term) in piece_square_terms(params) {
        let file = format!("pst-{}.png", file_stem(piece));
        let panels = phase_panels(term, &term.mg, &term.eg, frozen);
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
        board_picture(&dir.join(&file), &title, &phase_panels(term, &mg, &eg, frozen))
            .with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, title, "tables"));
    }
    Ok(out)
}

/// The boards to draw for a term: both phases, or the one value of an unphased term.
fn phase_panels<'a>(term: &Term, mg: &'a [i32], eg: &'a [i32], frozen: &Frozen) -> Vec<Panel<'a>> {
    let unused = unused(term);
    let frozen_in = |eg: bool| (0..term.len()).map(|i| frozen.element(term, i, eg)).collect::<Vec<_>>();
    if term.phased {
        vec![
            Panel { name: "middle game", values: mg, unused: unused.clone(), frozen: frozen_in(false) },
            Panel { name: "end game", values: eg, unused, frozen: frozen_in(true) },
        ]
    } else {
        vec![Panel { name: "both phases", values: mg, unused, frozen: frozen_in(false) }]
    }
}

/// Boards side by side under one colour scale (shared so the phases compare at a glance, over the
/// used squares), each cell coloured and showing its value, with a colour bar on the right and a
/// note on the marks under the boards.
fn board_picture(path: &Path, title: &str, panels: &[Panel]) -> Result<()> {
    let panel_width = LABEL + BOARD + PANEL_GAP;
    let width = panels.len() as i32 * panel_width + BAR_WIDTH + 70;
    let any_unused = panels.iter().any(|p| p.unused.iter().any(|&u| u));
    let any_frozen = panels.iter().any(|p| p.frozen.iter().any(|&f| f));
    let note = match (any_unused, any_frozen) {
        (false, false) => None,
        (true, false) => Some("blank: squares this piece never stands on"),
        (false, true) => Some("hatched, *: frozen by the run (--min-coverage), kept at the start"),
        (true, true) => {
            Some("blank: never used; hatched, *: frozen by the run (--min-coverage), kept at the start")
        }
    };
    let height = TOP + BOARD + LABEL + 16 + if note.is_some() { NOTE } else { 0 };
    let in_use =
        panels.iter().flat_map(|p| p.values.iter().zip(&p.unused).filter(|(_, u)| !**u).map(|(v, _)| v));
    let limit = scale_limit(in_use);
    let root = BitMapBackend::new(path, (width as u32, height as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(draw_err)?;

    let centred = Pos::new(HPos::Center, VPos::Center);
    let title_style = TextStyle::from((FONT, 24).into_font()).pos(centred);
    root.draw(&Text::new(title.to_string(), (width / 2, 22), title_style)).map_err(draw_err)?;
    let label_style = TextStyle::from((FONT, 15).into_font()).color(&RGBColor(60, 60, 60)).pos(centred);
    let value_style = TextStyle::from((FONT, 14).into_font()).pos(centred);
    let light_value_style = value_style.clone().color(&WHITE);
    let hatch = RGBColor(0, 0, 0).mix(0.22).stroke_width(1);

    for (p, panel) in panels.iter().enumerate() {
        let left = p as i32 * panel_width + LABEL;
        root.draw(&Text::new(panel.name.to_string(), (left + BOARD / 2, TOP - 18), label_style.clone()))
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
                let sq = square_at(row, file);
                let look = cell_look(
                    panel.values[sq],
                    panel.unused.get(sq).copied().unwrap_or(false),
                    panel.frozen.get(sq).copied().unwrap_or(false),
                    limit,
                );
                let (r, g, b) = look.fill;
                root.draw(&Rectangle::new([(x, y), (x + CELL, y + CELL)], RGBColor(r, g, b).filled()))
                    .map_err(draw_err)?;
                if look.hatched {
                    // Lines x + y = t across the cell.
                    for t in (6..2 * CELL).step_by(8) {
                        let (a, b) = ((t - CELL).max(0), t.min(CELL));
                        root.draw(&PathElement::new(vec![(x + t - a, y + a), (x + t - b, y + b)], hatch))
                            .map_err(draw_err)?;
                    }
                }
                if !look.text.is_empty() {
                    let style = if look.light_text { &light_value_style } else { &value_style };
                    root.draw(&Text::new(look.text, (x + CELL / 2, y + CELL / 2), style.clone()))
                        .map_err(draw_err)?;
                }
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
    if let Some(note) = note {
        let style = TextStyle::from((FONT, 14).into_font()).color(&RGBColor(70, 70, 70)).pos(centred);
        root.draw(&Text::new(note.to_string(), (width / 2, TOP + BOARD + LABEL + 8 + NOTE / 2), style))
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
    for (y, text) in
        [(TOP, format!("{limit:+}")), (TOP + BOARD / 2, "0".into()), (TOP + BOARD, format!("{:+}", -limit))]
    {
        root.draw(&Text::new(text, (bar_left + BAR_WIDTH + 5, y), tick_style.clone())).map_err(draw_err)?;
    }
    root.present().map_err(draw_err)?;
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
struct BarChart<'a> {
    title: &'a str,
    /// What the categories are (the category axis' description).
    category_desc: &'a str,
    y_desc: &'a str,
    categories: Vec<String>,
    series: Vec<BarSeries>,
}

struct BarSeries {
    name: String,
    colour: RGBColor,
    values: Vec<f64>,
    /// Per category: the value is frozen (a cross at the bar's end).
    frozen: Vec<bool>,
}

fn bar_chart(path: &Path, chart: &BarChart) -> Result<()> {
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

/// Middle-game and end-game lines of a term's used elements (one line if unphased), with the
/// baseline's dashed and lighter; frozen values of the current lines crossed.
fn phase_series(term: &Term, baseline: Option<&Term>, frozen: &Frozen) -> Vec<Series> {
    let unused = unused(term);
    let used: Vec<usize> = (0..term.len()).filter(|&i| !unused[i]).collect();
    let line = |name: String, values: &[i32], colour, dashed, eg: Option<bool>| Series {
        name,
        points: used.iter().map(|&i| (i as f64, values[i] as f64)).collect(),
        colour,
        dashed,
        markers: values.len() <= 40,
        frozen: match eg {
            Some(eg) => (0..used.len()).filter(|&p| frozen.element(term, used[p], eg)).collect(),
            None => Vec::new(),
        },
    };
    let mut out = Vec::new();
    let phases: &[(&str, bool, RGBColor)] = if term.phased {
        &[("mg", false, MG_COLOUR), ("eg", true, EG_COLOUR)]
    } else {
        &[("value", false, MG_COLOUR)]
    };
    let values = |t: &'_ Term, eg: bool| if eg { t.eg.clone() } else { t.mg.clone() };
    for &(name, eg, colour) in phases {
        out.push(line(name.to_string(), &values(term, eg), colour, false, Some(eg)));
        if let Some(base) = baseline {
            out.push(line(format!("{name} (baseline)"), &values(base, eg), colour, true, None));
        }
    }
    out
}

/// Line charts of every list-shaped term and of the king-safety curve, and bar charts of the
/// per-piece terms, of the lists by piece, and of the scalars (centipawns and attack units
/// apart). Unused elements are left out, frozen values crossed.
pub fn curves(
    params: &ParamSet,
    baseline: Option<&ParamSet>,
    frozen: &Frozen,
    dir: &Path,
) -> Result<Vec<Image>> {
    check_font()?;
    let mut out = Vec::new();
    let lists = params.terms.iter().filter(|t| t.shape == Shape::List && !t.is_empty());
    for term in lists.filter(|t| !element_axis(t).categorical) {
        let base = baseline.and_then(|b| b.term(&term.name)).filter(|b| b.len() == term.len());
        let file = format!("{}.png", file_stem(&term.name));
        let series = phase_series(term, base, frozen);
        let axis = element_axis(term);
        let chart = LineChart {
            title: &term.name,
            x_desc: &axis.desc,
            y_desc: value_unit(term),
            series: &series,
            x_labels: Some(&axis.labels),
        };
        line_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, term.name.clone(), "curves"));
    }

    if let Some((series, reach)) = king_curve_series(params, baseline) {
        let file = "king-safety-curve.png".to_string();
        let title = format!("king safety: penalty by attack units (0 to {reach} of {MAX_KING_UNITS})");
        let chart = LineChart {
            title: &title,
            x_desc: "attack units",
            y_desc: "penalty (centipawns)",
            series: &series,
            x_labels: None,
        };
        line_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, title, "curves"));
    }

    let by_kind = params
        .terms
        .iter()
        .filter(|t| !t.is_empty())
        .filter(|t| t.shape == Shape::Piece || (t.shape == Shape::List && element_axis(t).categorical));
    for term in by_kind {
        let base = baseline.and_then(|b| b.term(&term.name)).filter(|b| b.len() == term.len());
        let axis = element_axis(term);
        let unused = unused(term);
        let keep: Vec<usize> = (0..term.len()).filter(|&i| !unused[i]).collect();
        let mut series = bar_series(&[term], base.map(|b| vec![b]).as_deref(), frozen);
        for s in &mut series {
            s.values = keep.iter().map(|&i| s.values[i]).collect();
            s.frozen = keep.iter().map(|&i| s.frozen[i]).collect();
        }
        let chart = BarChart {
            title: &term.name,
            category_desc: &axis.desc,
            y_desc: value_unit(term),
            categories: keep.iter().map(|&i| axis.labels[i].clone()).collect(),
            series,
        };
        let file = format!("{}.png", file_stem(&term.name));
        bar_chart(&dir.join(&file), &chart).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file, term.name.clone(), "curves"));
    }

    // The curve's own parameters are drawn as the curve; as bars their hundreds would flatten
    // every other scalar. Attack units and centipawns get a chart each.
    let scalars = params
        .terms
        .iter()
        .filter(|t| t.shape == Shape::Scalar && t.len() == 1 && !t.name.starts_with("king_safety.curve_"));
    let (units, centipawns): (Vec<&Term>, Vec<&Term>) =
        scalars.partition(|t| value_unit(t) == "attack units");
    for (terms, file, title, unit) in [
        (centipawns, "scalars.png", "scalar terms", "centipawns"),
        (units, "king-safety-scalars.png", "king-safety scalars", "attack units"),
    ] {
        if terms.is_empty() {
            continue;
        }
        let base: Option<Vec<&Term>> =
            baseline.and_then(|b| terms.iter().map(|t| b.term(&t.name).filter(|b| b.len() == 1)).collect());
        let chart = BarChart {
            title,
            category_desc: "term",
            y_desc: unit,
            categories: terms.iter().map(|t| t.name.clone()).collect(),
            series: bar_series(&terms, base.as_deref(), frozen),
        };
        bar_chart(&dir.join(file), &chart).with_context(|| format!("drawing {file}"))?;
        out.push(Image::new(file.to_string(), title, "curves"));
    }
    Ok(out)
}

/// Bar series of the elements of `terms` (all of one term, or the one value of each scalar):
/// mg and eg (the value alone if none is phased), and the baseline's in lighter colours.
fn bar_series(terms: &[&Term], baseline: Option<&[&Term]>, frozen: &Frozen) -> Vec<BarSeries> {
    let values = |ts: &[&Term], eg: bool| -> Vec<f64> {
        ts.iter().flat_map(|t| if eg { &t.eg } else { &t.mg }).map(|&v| v as f64).collect()
    };
    let frozen_in = |eg: bool| -> Vec<bool> {
        terms.iter().flat_map(|t| (0..t.len()).map(move |i| frozen.element(t, i, eg))).collect()
    };
    let phased = terms.iter().any(|t| t.phased);
    let mut out = Vec::new();
    let phases: &[(&str, bool, RGBColor)] = if phased {
        &[("mg", false, MG_COLOUR), ("eg", true, EG_COLOUR)]
    } else {
        &[("value", false, MG_COLOUR)]
    };
    for &(name, eg, colour) in phases {
        out.push(BarSeries {
            name: name.to_string(),
            colour,
            values: values(terms, eg),
            frozen: frozen_in(eg),
        });
        if let Some(base) = baseline {
            let light = RGBColor(
                ((colour.0 as u16 + 2 * 255) / 3) as u8,
                ((colour.1 as u16 + 2 * 255) / 3) as u8,
                ((colour.2 as u16 + 2 * 255) / 3) as u8,
            );
            let values = values(base, eg);
            let none = vec![false; values.len()];
            out.push(BarSeries { name: format!("{name} (baseline)"), colour: light, values, frozen: none });
        }
    }
    out
}

/// How far along the attack units the king-safety curves are worth drawing: to where they stop
/// changing (the last unit whose penalty differs from the final one) or, for curves that keep
/// rising, to where the larger penalty first reaches `decisive` centipawns (a queen: positions
/// beyond are decided, and few get there), whichever comes first, plus a tenth (at least 20
/// units) of margin; at most the table's end.
pub fn king_curve_reach(curves: &[&[i32]], decisive: f64) -> usize {
    let last = curves.iter().map(|c| c.len()).max().unwrap_or(0).saturating_sub(1);
    let settled = curves
        .iter()
        .map(|c| {
            let end = c.last().copied().unwrap_or(0);
            c.iter().rposition(|&v| v != end).map_or(0, |i| i + 1)
        })
        .max()
        .unwrap_or(0);
    let reached = (0..=last)
        .find(|&u| curves.iter().any(|c| c.get(u).is_some_and(|&v| (v as f64).abs() >= decisive)))
        .unwrap_or(last);
    let end = settled.min(reached);
    (end + (end / 10).max(20)).min(last)
}

/// The penalty past which the king-safety curve is not drawn: a queen's middle-game value from
/// `material` (1000 centipawns without one).
pub fn decisive_penalty(params: &ParamSet) -> f64 {
    params.term("material").and_then(|m| m.mg.get(4)).map_or(1000.0, |&q| q.max(100) as f64)
}

/// The king-safety penalty by attack units, as the engine tabulates it from
/// `king_safety.curve_scale` (phased) and `king_safety.curve_power`, up to
/// [`king_curve_reach`] (returned with the lines) with [`decisive_penalty`].
fn king_curve_series(params: &ParamSet, baseline: Option<&ParamSet>) -> Option<(Vec<Series>, usize)> {
    let curves = |set: &ParamSet| -> Option<(Vec<i32>, Vec<i32>)> {
        let scale = set.term("king_safety.curve_scale")?;
        let power = *set.term("king_safety.curve_power")?.mg.first()?;
        Some((king_curve(*scale.mg.first()?, power), king_curve(*scale.eg.first()?, power)))
    };
    let (mg, eg) = curves(params)?;
    let base = baseline.and_then(curves);
    let mut all: Vec<&[i32]> = vec![&mg, &eg];
    if let Some((bmg, beg)) = &base {
        all.extend([bmg.as_slice(), beg.as_slice()]);
    }
    let reach = king_curve_reach(&all, decisive_penalty(params));
    let line = |name: &str, values: &[i32], colour, dashed| Series {
        name: name.to_string(),
        points: values.iter().take(reach + 1).enumerate().map(|(u, &v)| (u as f64, v as f64)).collect(),
        colour,
        dashed,
        markers: false,
        frozen: Vec::new(),
    };
    let mut out = vec![line("mg", &mg, MG_COLOUR, false), line("eg", &eg, EG_COLOUR, false)];
    if let Some((bmg, beg)) = &base {
        out.push(line("mg (baseline)", bmg, MG_COLOUR, true));
        out.push(line("eg (baseline)", beg, EG_COLOUR, true));
    }
    Some((out, reach))
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
/// spelling, as [`Frozen`] compares names), "own units" for others (search constants), joined by
/// "; ".
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
        let params = whetstone::eval::EvalParamSet::baked().into_set();
        let pieces = piece_square_terms(&params).count();
        assert_eq!(pieces, 6);
        let images = heat_maps(&params, None, &Frozen::default(), &dir).unwrap();
        assert_eq!(images.len(), pieces);
        assert!(images.iter().any(|i| i.file == "pst-knight.png"));
        for img in &images {
            let (w, h) = png_size(&dir.join(&img.file));
            assert!(w > 2 * BOARD as u32 && h > BOARD as u32, "{}: {w}x{h}", img.file);
            assert_eq!(img.group, "tables");
        }
        let mut baseline = params.clone();
        baseline.terms.iter_mut().for_each(|t| t.eg.iter_mut().for_each(|v| *v += 5));
        let images = heat_maps(&params, Some(&baseline), &Frozen::default(), &dir).unwrap();
        assert_eq!(images.len(), 2 * pieces);
        png_size(&dir.join("pst-knight-diff.png"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn curves_for_lists_the_king_curve_and_bars() {
        let dir = temp_dir("curves");
        let params = whetstone::eval::EvalParamSet::baked().into_set();
        let mut baseline = params.clone();
        baseline.terms.iter_mut().for_each(|t| t.mg.iter_mut().for_each(|v| *v += 4));
        let images = curves(&params, Some(&baseline), &Frozen::default(), &dir).unwrap();
        let count = |shape| params.terms.iter().filter(|t| t.shape == shape).count();
        let (lists, pieces) = (count(Shape::List), count(Shape::Piece));
        for expected in [
            "mobility-knight.png",
            "king-safety-curve.png",
            "material.png",
            "scalars.png",
            "king-safety-scalars.png",
            "king-safety-attackers.png",
        ] {
            assert!(images.iter().any(|i| i.file == expected), "no {expected}");
        }
        // A chart per list (lines, or bars for lists by piece), a bar chart per piece-shaped term,
        // the king curve, the scalars in centipawns and in attack units.
        assert_eq!(images.len(), lists + pieces + 3);
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
    fn runs_without_games_get_no_games_chart() {
        let run = temp_dir("nogames");
        let out = run.join("out");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(
            run.join("log.csv"),
            "generation,best_loss,games,recentred,win_rate,win_rate_low,win_rate_high,seconds\n\
             1,0.12,0,0,0.5,0.4,0.6,1\n2,0.11,0,0,0.52,0.45,0.6,2\n3,0.1,0,0,0.55,0.5,0.6,3\n",
        )
        .unwrap();
        let files: Vec<String> = log_plots(&run, &out).unwrap().into_iter().map(|i| i.file).collect();
        // No all-zero games or recentred chart; a value with its bounds in one chart.
        assert_eq!(files, ["log-loss.png", "log-win-rate.png"]);
        assert!(!worth_a_chart(&[0.0, 0.0, f64::NAN]));
        assert!(!worth_a_chart(&[f64::NAN]));
        assert!(worth_a_chart(&[0.0, 2.0]));
        std::fs::remove_dir_all(&run).unwrap();
    }

    #[test]
    fn axes_say_what_and_in_which_unit() {
        let params = whetstone::eval::EvalParamSet::baked().into_set();
        let axis = |name: &str| element_axis(params.term(name).unwrap());
        let rank = axis("passed.rank");
        assert_eq!(rank.desc, "relative rank of the pawn");
        assert_eq!(rank.labels, ["1", "2", "3", "4", "5", "6", "7", "8"]);
        assert_eq!(axis("king.shield").labels[..3], ["none", "2", "3"]);
        assert_eq!(axis("mobility.knight").desc, "reachable squares");
        assert_eq!(axis("mobility.knight").labels[0], "0");
        let attackers = axis("king_safety.attackers");
        assert!(attackers.categorical);
        assert_eq!(attackers.labels, ["knight", "bishop", "rook", "queen"]);
        assert_eq!(axis("threat.by_pawn").labels[1], "knight");
        for term in params.terms.iter().filter(|t| matches!(t.shape, Shape::List | Shape::Piece)) {
            let a = element_axis(term);
            assert!(!a.desc.contains("index") && !a.desc.is_empty(), "{}: {}", term.name, a.desc);
            assert_eq!(a.labels.len(), term.len(), "{}", term.name);
        }
        let unit = |name: &str| value_unit(params.term(name).unwrap());
        assert_eq!(unit("pst.knight"), "centipawns");
        assert_eq!(unit("king_safety.inner_ring"), "attack units");
        assert_eq!(unit("king_safety.curve_scale"), "centipawns");
        assert_eq!(log_axis("valid_loss"), "mean squared error");
        assert_eq!(log_axis("mean_elo"), "Elo");
        assert_eq!(trajectory_units(["pst_knight_e4_mg", "tempo.eg"].into_iter()), "centipawns");
        assert_eq!(
            trajectory_units(["king_safety_attackers_0", "pst.knight[e4].mg", "lmr_base"].into_iter()),
            "attack units; centipawns; own units"
        );
    }

    #[test]
    fn list_charts_leave_unused_elements_out_and_cross_frozen_ones() {
        let params = whetstone::eval::EvalParamSet::baked().into_set();
        let rank = params.term("passed.rank").unwrap();
        let frozen = Frozen::from_names(["passed.rank[2].eg"]);
        let series = phase_series(rank, Some(rank), &frozen);
        let xs: Vec<f64> = series[0].points.iter().map(|p| p.0).collect();
        assert_eq!(xs, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "ranks 1 and 8 (elements 0 and 7) are not drawn");
        let eg = series.iter().find(|s| s.name == "eg").unwrap();
        assert_eq!(eg.frozen, [1], "element 2 is the second point drawn");
        assert!(series.iter().filter(|s| s.name != "eg").all(|s| s.frozen.is_empty()));
        let legend = line_legend(&series);
        assert_eq!(legend.last().map(|e| e.name.as_str()), Some(FROZEN_LABEL));
    }

    #[test]
    fn king_curve_is_drawn_where_its_data_is() {
        // A curve that rises to unit 100 and stays: to 100 plus the margin.
        let plateau: Vec<i32> = (0..=800).map(|u: i32| u.min(100) * 3).collect();
        assert_eq!(king_curve_reach(&[&plateau], 1e9), 120);
        // One that keeps rising: to where it reaches the decisive penalty, plus a tenth.
        let rising: Vec<i32> = (0..=800).map(|u: i32| u * 5).collect();
        assert_eq!(king_curve_reach(&[&rising], 1000.0), 220);
        // The larger of two curves decides; never past the table.
        let flat = vec![0; 801];
        assert_eq!(king_curve_reach(&[&flat, &rising], 1000.0), 220);
        assert_eq!(king_curve_reach(&[&rising], 1e9), 800);
        // The engine's curve: far short of 800 units, and past a queen only in the margin.
        let params = whetstone::eval::EvalParamSet::baked().into_set();
        let (series, reach) = king_curve_series(&params, None).unwrap();
        assert!(reach < 600, "{reach}");
        assert_eq!(series[0].points.len(), reach + 1);
        let queen = params.term("material").unwrap().mg[4] as f64;
        let mg = &series[0].points;
        assert!(mg[reach * 10 / 11 - 1].1 < queen && mg[reach].1 >= queen, "{reach}");
    }

    #[test]
    fn cells_and_legends() {
        assert_eq!(cell_look(0, true, false, 10.0).text, "");
        assert_eq!(cell_look(0, true, true, 10.0).fill, (240, 240, 240));
        let frozen = cell_look(-4, false, true, 10.0);
        assert!(frozen.hatched);
        assert_eq!(frozen.text, "-4*");
        assert_eq!(frozen.fill, diverging_rgb(-4.0, 10.0));
        assert!(!cell_look(5, false, false, 10.0).hatched);
        let entries: Vec<LegendEntry> = (0..12)
            .map(|i| LegendEntry {
                name: format!("series number {i}"),
                colour: PALETTE[0],
                swatch: Swatch::Line,
            })
            .collect();
        let rows = legend_rows(&entries, 800);
        assert!(rows.len() > 1, "a long legend wraps");
        assert!(rows.iter().all(|r| r.iter().map(|e| e.1).sum::<u32>() <= 800));
        assert_eq!(rows.iter().map(Vec::len).sum::<usize>(), 12);
        assert_eq!(legend_height(&entries, 800), rows.len() as u32 * LEGEND_ROW + 12);
        assert_eq!(legend_height(&[], 800), 0);
    }

    #[test]
    fn heat_maps_with_frozen_squares() {
        let dir = temp_dir("heat-frozen");
        let params = whetstone::eval::EvalParamSet::baked().into_set();
        let frozen = Frozen::from_names(["pst.pawn[e4].mg"]);
        let images = heat_maps(&params, None, &frozen, &dir).unwrap();
        // The pawn picture has room for its note under the boards; the knight's none.
        let (_, pawn_h) = png_size(&dir.join("pst-pawn.png"));
        let (_, knight_h) = png_size(&dir.join("pst-knight.png"));
        assert_eq!(pawn_h, knight_h + NOTE as u32);
        assert_eq!(images.len(), 6);
        std::fs::remove_dir_all(&dir).unwrap();
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
        let params = whetstone::eval::EvalParamSet::baked().into_set();
        let start = std::time::Instant::now();
        let n = heat_maps(&params, None, &Frozen::default(), &dir).unwrap().len()
            + curves(&params, None, &Frozen::default(), &dir).unwrap().len();
        println!("{n} images in {:?}", start.elapsed());
        let start = std::time::Instant::now();
        let n = heat_maps(&params, Some(&params), &Frozen::default(), &dir).unwrap().len()
            + curves(&params, Some(&params), &Frozen::default(), &dir).unwrap().len();
        println!("{n} images with a baseline in {:?}", start.elapsed());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
