//! Tests of `report/bayes.rs`.

use super::*;
use crate::testutil::TempDir;

fn sample() -> BayesPlots {
    let grid: Vec<f64> = (0..5).map(|k| k as f64 * 25.0).collect();
    let dep = |name: &str| Dependence {
        name: name.into(),
        grid: grid.clone(),
        partial: vec![-5.0, 0.0, 3.0, 1.0, -2.0],
        slice: vec![-4.0, 1.0, 4.0, 2.0, -1.0],
        slice_low: vec![-9.0, -3.0, 0.0, -2.0, -6.0],
        slice_high: vec![1.0, 5.0, 8.0, 6.0, 4.0],
        length: 0.7,
    };
    let region = |step: u64, v: f64| Region {
        step,
        optimum: vec![v, 40.0],
        low_1sd: vec![v - 10.0, 30.0],
        high_1sd: vec![v + 10.0, 50.0],
        low_2sd: vec![v - 20.0, 20.0],
        high_2sd: vec![v + 20.0, 60.0],
    };
    BayesPlots {
        names: vec!["a".into(), "b".into()],
        unit: "Elo against the start".into(),
        bounds: vec![(0.0, 100.0), (0.0, 100.0)],
        optimum: vec![55.0, 40.0],
        dependence: vec![dep("a"), dep("b")],
        paired: vec![0, 1],
        pairs: vec![Pair {
            x: 0,
            y: 1,
            values: (0..5).map(|r| (0..5).map(|c| (r * c) as f64).collect()).collect(),
        }],
        points: vec![vec![10.0, 20.0], vec![60.0, 45.0]],
        history: vec![region(1, 50.0), region(2, 55.0)],
    }
}

#[test]
fn a_bayes_run_folder_gets_its_matrix_dependence_and_optimum_pictures() {
    let dir = TempDir::new("bayes-plots");
    assert!(plots(&dir, &dir).unwrap().is_empty(), "no bayes.json, no pictures");
    std::fs::write(dir.join("bayes.json"), serde_json::to_string(&sample()).unwrap()).unwrap();
    let files: Vec<String> = plots(&dir, &dir).unwrap().into_iter().map(|i| i.file).collect();
    assert_eq!(
        files,
        [
            "bayes-objective.png",
            "bayes-dependence-1.png",
            "bayes-dependence-2.png",
            "bayes-optimum-1.png",
            "bayes-optimum-2.png"
        ]
    );
    for f in &files {
        let bytes = std::fs::read(dir.join(f)).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{f}");
    }
    std::fs::write(dir.join("bayes.json"), "{").unwrap();
    assert!(format!("{:#}", plots(&dir, &dir).unwrap_err()).contains("bayes.json"));
}

#[test]
fn the_colour_scale_runs_from_dark_to_yellow() {
    assert_eq!(viridis(0.0), RGBColor(68, 1, 84));
    assert_eq!(viridis(1.0), RGBColor(253, 231, 37));
    assert_eq!(viridis(f64::NAN), viridis(0.0));
}
