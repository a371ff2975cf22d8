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
mod tests {
    use super::*;
    use crate::report::page::render_block;

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
