//! Tests of `report/term_pictures.rs`.

use super::*;
use crate::testutil::{png_size, TempDir};

#[test]
fn heat_map_per_table_and_diffs() {
    let dir = TempDir::new("images-heat");
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
}

#[test]
fn curves_for_lists_the_king_curve_and_bars() {
    let dir = TempDir::new("images-curves");
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
fn cell_looks() {
    assert_eq!(cell_look(0, true, false, 10.0).text, "");
    assert_eq!(cell_look(0, true, true, 10.0).fill, (240, 240, 240));
    let frozen = cell_look(-4, false, true, 10.0);
    assert!(frozen.hatched);
    assert_eq!(frozen.text, "-4*");
    assert_eq!(frozen.fill, diverging_rgb(-4.0, 10.0));
    assert!(!cell_look(5, false, false, 10.0).hatched);
}

#[test]
fn heat_maps_with_frozen_squares() {
    let dir = TempDir::new("images-heat-frozen");
    let params = whetstone::eval::EvalParamSet::baked().into_set();
    let frozen = Frozen::from_names(["pst.pawn[e4].mg"]);
    let images = heat_maps(&params, None, &frozen, &dir).unwrap();
    // The pawn picture has room for its note under the boards; the knight's none.
    let (_, pawn_h) = png_size(&dir.join("pst-pawn.png"));
    let (_, knight_h) = png_size(&dir.join("pst-knight.png"));
    assert_eq!(pawn_h, knight_h + NOTE as u32);
    assert_eq!(images.len(), 6);
}

/// `WHETSTONE_MEASURE=1 cargo test -p whetstone-tuner -- --ignored --nocapture timing`: the time
/// of every picture of the baked parameters.
#[test]
#[ignore]
fn timing() {
    if !crate::testutil::measuring("timing") {
        return;
    }
    let dir = TempDir::new("images-timing");
    let params = whetstone::eval::EvalParamSet::baked().into_set();
    let start = std::time::Instant::now();
    let n = heat_maps(&params, None, &Frozen::default(), &dir).unwrap().len()
        + curves(&params, None, &Frozen::default(), &dir).unwrap().len();
    println!("{n} images in {:?}", start.elapsed());
    let start = std::time::Instant::now();
    let n = heat_maps(&params, Some(&params), &Frozen::default(), &dir).unwrap().len()
        + curves(&params, Some(&params), &Frozen::default(), &dir).unwrap().len();
    println!("{n} images with a baseline in {:?}", start.elapsed());
}
