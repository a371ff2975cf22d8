//! The page's sections about a parameter set: its piece-square tables as pictures and coloured
//! boards, its list and per-piece terms as pictures and tables of their elements, its scalars as
//! one table; and, against a baseline, the values that moved most, and the values a run froze.
//! Unused elements are marked as such, frozen values hatched or starred.

use whetstone::params::{ParamSet, Shape, Term};

use super::charts::{self, Image};
use super::page::{Block, Entry, Mark, Section};
use super::term_pictures;
use super::{largest_changes, unused, Frozen};

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
        limit: charts::scale_limit(&scale),
        marks: marks(term, phase == Phase::Eg, frozen),
    }
}

/// The sections of a parameter set: the piece-square tables (pictures and boards), the curves
/// (pictures and the values of the list and per-piece terms), and a table of the scalars.
/// `images` are the pictures of [`term_pictures::heat_maps`] and [`term_pictures::curves`]; those of other
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
    for (_, term) in term_pictures::piece_square_terms(params) {
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

#[cfg(test)]
#[path = "param_sections_tests.rs"]
mod tests;
