//! Tests of `model/prior.rs`.

use super::*;

fn set() -> ParamSet {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../params/eval.toml");
    ParamSet::load(&path).unwrap()
}

fn slot_of(set: &ParamSet, name: &str) -> usize {
    set.value_names().iter().position(|n| n == name).unwrap()
}

#[test]
fn ties_join_neighbours_and_mirrors_of_one_phase_and_skip_fixed_squares() {
    let set = set();
    let prior = Prior::new(&set, &["pst.knight".into()], 1.0, 0.0).unwrap();
    // 2 phases x (7·8 horizontal + 8·7 vertical) neighbour ties.
    assert_eq!(prior.ties.len(), 2 * 112);
    let (e4, e5, d4) = (
        slot_of(&set, "pst_knight_e4_mg"),
        slot_of(&set, "pst_knight_e5_mg"),
        slot_of(&set, "pst_knight_d4_mg"),
    );
    let has = |a: usize, b: usize| prior.ties.iter().any(|t| (t.a, t.b) == (a, b) || (t.a, t.b) == (b, a));
    assert!(has(e4, e5) && has(d4, e4));
    assert!(!has(e4, slot_of(&set, "pst_knight_e5_eg")), "phases are never tied");
    let mirrored = Prior::new(&set, &["pst.knight".into()], 0.0, 1.0).unwrap();
    assert_eq!(mirrored.ties.len(), 2 * 32);
    assert!(mirrored.ties.iter().any(|t| (t.a, t.b) == (d4, e4)));
    // The pawn table's first and last ranks are fixed: no tie reaches them.
    let pawn = Prior::new(&set, &["pst.pawn".into()], 1.0, 0.0).unwrap();
    let a1 = slot_of(&set, "pst_pawn_a1_mg");
    assert!(!pawn.ties.iter().any(|t| t.a == a1 || t.b == a1));
    assert_eq!(pawn.ties.len(), 2 * (7 * 6 + 8 * 5), "6 ranks: 7·6 across, 8·5 up");
}

#[test]
fn a_rare_value_moves_toward_its_neighbours() {
    let set = set();
    let prior = Prior::new(&set, &["mobility.queen".into()], 1.0, 0.0).unwrap();
    let mut w: Vec<f64> = set.values().iter().map(|&v| v as f64).collect();
    let (q25, q26, q27) = (
        slot_of(&set, "mobility_queen_25_mg"),
        slot_of(&set, "mobility_queen_26_mg"),
        slot_of(&set, "mobility_queen_27_mg"),
    );
    // Neighbours at 50, the value itself at -50: descending the prior's gradient (with no
    // data to hold it) lifts it toward 50 and does not push it past them.
    (w[q25], w[q26], w[q27]) = (50.0, -50.0, 50.0);
    let before = prior.penalty(&w);
    for _ in 0..2000 {
        let mut grad = vec![0.0; w.len()];
        prior.add_gradient(&w, &mut grad);
        w[q26] -= 0.1e4 * grad[q26];
    }
    assert!(prior.penalty(&w) < before);
    assert!((w[q26] - 50.0).abs() < 1.0, "{}", w[q26]);
    // The gradient matches the penalty's finite difference.
    let mut grad = vec![0.0; w.len()];
    prior.add_gradient(&w, &mut grad);
    let mut bumped = w.clone();
    bumped[q25] += 1e-3;
    let numeric = (prior.penalty(&bumped) - prior.penalty(&w)) / 1e-3;
    assert!((numeric - grad[q25]).abs() < 1e-6, "{numeric} vs {}", grad[q25]);
}

#[test]
fn a_prior_that_names_no_table_is_an_error() {
    let set = set();
    let e = Prior::new(&set, &["tempo".into(), "nothing.*".into()], 0.01, 0.0).unwrap_err();
    assert!(format!("{e}").contains("the prior names no table"), "{e}");
    assert!(Prior::new(&set, &["pst.*".into()], -1.0, 0.0).is_err());
    assert!(Prior::new(&set, &["nothing".into()], 0.0, 0.0).unwrap().is_empty(), "no strength: no prior");
}
