//! Tests of `report/charts.rs`.

use super::*;

#[test]
fn long_legends_wrap() {
    let entries: Vec<LegendEntry> = (0..12)
        .map(|i| LegendEntry { name: format!("series number {i}"), colour: PALETTE[0], swatch: Swatch::Line })
        .collect();
    let rows = legend_rows(&entries, 800);
    assert!(rows.len() > 1, "a long legend wraps");
    assert!(rows.iter().all(|r| r.iter().map(|e| e.1).sum::<u32>() <= 800));
    assert_eq!(rows.iter().map(Vec::len).sum::<usize>(), 12);
    assert_eq!(legend_height(&entries, 800), rows.len() as u32 * LEGEND_ROW + 12);
    assert_eq!(legend_height(&[], 800), 0);
}

#[test]
fn a_frozen_point_puts_a_cross_in_the_legend() {
    let line = |name: &str, frozen: Vec<usize>| Series {
        name: name.into(),
        points: vec![(0.0, 1.0), (1.0, 2.0)],
        colour: PALETTE[0],
        dashed: false,
        markers: true,
        frozen,
    };
    let plain = line_legend(&[line("mg", vec![])]);
    assert_eq!(plain.len(), 1);
    assert_eq!(plain[0].swatch, Swatch::Line);
    let legend = line_legend(&[line("mg", vec![]), line("eg", vec![1])]);
    assert_eq!(legend.last().map(|e| e.name.as_str()), Some(FROZEN_LABEL));
    assert_eq!(legend.last().map(|e| e.swatch), Some(Swatch::Cross));
}

#[test]
fn board_colours_follow_the_scale() {
    assert_eq!(diverging_rgb(0.0, 10.0), (255, 255, 255));
    let (r, g, _) = diverging_rgb(-10.0, 10.0);
    assert!(r > g);
    let (r, g, _) = diverging_rgb(10.0, 10.0);
    assert!(g > r);
    assert_eq!(diverging_rgb(50.0, 10.0), diverging_rgb(10.0, 10.0));
}

#[test]
fn font_is_found_here() {
    // The machines the report runs on have fonts; without, every picture function fails
    // with check_font's message instead of drawing.
    check_font().unwrap();
}
