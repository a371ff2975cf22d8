//! Tests of `report/param_sections.rs`.

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
    assert_eq!(rows[0][1..5], [tempo.to_string(), (tempo + 10).to_string(), "+10".into(), "+10.0%".into()]);
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
    let frozen =
        Frozen::from_names(["pst_pawn_e4_mg", "threat.by_minor[rook].eg", "tempo.eg", "passed.rank[3].mg"]);
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
