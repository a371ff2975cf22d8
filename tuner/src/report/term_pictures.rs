//! The pictures of evaluation terms (PNG): piece-square tables as heat-mapped boards (and their
//! change from a baseline), line charts of the list-shaped terms and of the king-safety curve,
//! and bar charts of the per-piece and scalar terms; with what their axes stand for and in which
//! unit, which the workbook's charts use too.
//!
//! Every function writes its files into `dir` and returns what it wrote as [`Image`]s (file names
//! relative to `dir`), which the page lays out. Elements no position can use are not drawn (see
//! [`super::unused`]); values a run froze are hatched (boards) or crossed (charts).

use std::path::Path;

use anyhow::{Context, Result};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use whetstone::eval::weights::{king_curve, MAX_KING_UNITS};
use whetstone::params::{ParamSet, Shape, Term};

use super::charts::{
    bar_chart, check_font, diverging_rgb, draw_err, file_stem, line_chart, needs_light_text, scale_limit,
    square_at, BarChart, BarSeries, Image, LineChart, Series, FONT, PALETTE,
};
use super::{unused, Frozen};

const FILES: [char; 8] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const PIECES: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];
/// The colours of the two phases in every chart of a term.
const MG_COLOUR: RGBColor = PALETTE[0];
const EG_COLOUR: RGBColor = PALETTE[1];

/// The piece-square tables of a set: (piece name for file names and titles, term).
pub fn piece_square_terms(params: &ParamSet) -> impl Iterator<Item = (&str, &Term)> {
    params
        .terms
        .iter()
        .filter(|t| t.shape == Shape::Square && t.len() == 64)
        .filter_map(|t| t.name.strip_prefix("pst.").map(|piece| (piece, t)))
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
// Curves and bars
// ----------------------------------------------------------------------------------------------

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

#[cfg(test)]
#[path = "term_pictures_tests.rs"]
mod tests;
