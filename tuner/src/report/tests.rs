//! Tests of `report/mod.rs`.

use super::*;
use crate::testutil::TempDir;

#[test]
fn the_params_option_of_a_run_json() {
    let texel = serde_json::json!({"data": ["a.epd"], "params": "p.toml"});
    assert_eq!(options_params(&texel).as_deref(), Some("p.toml"));
    let nested = serde_json::json!({"common": {"params": "q.toml", "search_params": null}, "generations": 3});
    assert_eq!(options_params(&nested).as_deref(), Some("q.toml"));
    let as_text = serde_json::json!("{\"params\": \"r.toml\"}");
    assert_eq!(options_params(&as_text).as_deref(), Some("r.toml"));
    // Options an older run stored as a Debug string name no file.
    let debug = serde_json::json!("PbilArgs { common: TuneArgs { params: \"params/eval.toml\" } }");
    assert_eq!(options_params(&debug), None);
    assert_eq!(options_params(&serde_json::json!(3)), None);
}

#[test]
fn frozen_names_in_either_spelling() {
    let params = whetstone::eval::EvalParamSet::baked().into_set();
    let frozen =
        Frozen::from_names(["pst.pawn[a2].mg", "pst_pawn_b2_eg", "king_safety_attackers_0", "tempo.eg"]);
    assert_eq!(frozen.len(), 4);
    let pawn = params.term("pst.pawn").unwrap();
    assert!(frozen.element(pawn, 8, false) && !frozen.element(pawn, 8, true));
    assert!(frozen.element(pawn, 9, true));
    let attackers = params.term("king_safety.attackers").unwrap();
    assert_eq!(frozen.phases(attackers, 0), "yes");
    assert_eq!(frozen.phases(params.term("tempo").unwrap(), 0), "eg");
    assert!(frozen.contains("PST.PAWN[A2].MG"));
    assert!(!Frozen::default().contains("tempo.eg"));
    // Value names are already flat, so a name written by a run matches itself and nothing else.
    let names = params.value_names();
    assert!(names.iter().all(|n| flat_name(n) == *n));
    assert!(frozen.contains("pst_pawn_a2_mg") && frozen.contains("tempo_eg"));
}

#[test]
fn frozen_values_are_read_from_result_json_or_run_json() {
    let dir = TempDir::new("report-frozen");
    assert!(Frozen::read(&dir).is_empty());
    std::fs::write(dir.join("run.json"), r#"{"results": {"frozen": ["tempo.mg"]}}"#).unwrap();
    assert!(Frozen::read(&dir).contains("tempo.mg"));
    std::fs::write(dir.join("result.json"), r#"{"games": 0, "frozen": ["pst_pawn_a2_mg", "tempo.eg"]}"#)
        .unwrap();
    let frozen = Frozen::read(&dir);
    assert_eq!(frozen.len(), 2);
    assert!(frozen.contains("pst.pawn[a2].mg") && !frozen.contains("tempo.mg"));
}

#[test]
fn unused_elements() {
    let params = whetstone::eval::EvalParamSet::baked().into_set();
    let unused_of = |name: &str| -> Vec<usize> {
        unused(params.term(name).unwrap()).iter().enumerate().filter(|(_, u)| **u).map(|(i, _)| i).collect()
    };
    assert_eq!(unused_of("passed.rank"), [0, 7]);
    assert_eq!(unused_of("passed.free_path"), [0, 7]);
    assert_eq!(unused_of("passed.candidate"), [0, 7]);
    assert_eq!(unused_of("king.shield"), [7]);
    assert_eq!(unused_of("king.storm"), [7]);
    assert_eq!(unused_of("threat.by_pawn"), [0]);
    assert_eq!(unused_of("pst.pawn"), (0..8).chain(56..64).collect::<Vec<_>>());
    for name in ["pst.knight", "mobility.knight", "material", "passed.own_king_distance", "tempo"] {
        assert!(unused_of(name).is_empty(), "{name}");
    }
    // A term declared not tunable: its zeros are not values.
    let mut fixed = params.term("mobility.knight").unwrap().clone();
    fixed.tunable = false;
    fixed.mg[2] = 0;
    fixed.eg[2] = 0;
    fixed.mg[3] = 0;
    fixed.eg[3] = 4;
    let u = unused(&fixed);
    assert!(u[2] && !u[3]);
}

#[test]
fn largest_changes_by_share_of_the_range() {
    let before = whetstone::eval::EvalParamSet::baked().into_set();
    let mut after = before.clone();
    let mut values = after.values();
    let names = after.value_names();
    let at = |n: &str| names.iter().position(|x| x == n).unwrap();
    values[at("tempo_mg")] += 5; // 5 of 100
    values[at("material_queen_eg")] += 60; // 60 of 2000
    values[at("pst_king_g1_mg")] -= 60; // 60 of 600
    after.set_values(&values);
    let changes = largest_changes(&after, &before, 10);
    let order: Vec<&str> = changes.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(order, ["pst_king_g1_mg", "tempo_mg", "material_queen_eg"]);
    assert!((changes[0].relative + 0.1).abs() < 1e-12);
    assert_eq!(changes[1].after - changes[1].before, 5);
    assert_eq!(largest_changes(&after, &before, 1).len(), 1);
    assert!(largest_changes(&before, &before, 10).is_empty());
}

#[test]
fn the_header_names_the_file_shown_and_the_baseline() {
    let run = TempDir::new("report-labels");
    let out = run.join("report");
    std::fs::write(
        run.join("run.json"),
        r#"{"tool":"pbil","command":"tune pbil","options":{"common":{"params":"params/eval.toml"}}}"#,
    )
    .unwrap();
    std::fs::write(run.join("tuned.toml"), "").unwrap();
    std::fs::write(run.join("result.json"), r#"{"games": 0, "frozen": ["tempo.mg"]}"#).unwrap();
    let labels = Labels::from_run(&run);
    assert_eq!(labels.params, Some(run.join("tuned.toml").display().to_string()));
    assert_eq!(labels.baseline.as_deref(), Some("params/eval.toml (the run's start)"));

    let params = whetstone::eval::EvalParamSet::baked().into_set();
    let mut baseline = params.clone();
    baseline.terms.iter_mut().for_each(|t| t.mg.iter_mut().for_each(|v| *v += 1));
    let index = write_report(&params, Some(&baseline), Some(&run), &out).unwrap();
    let html = std::fs::read_to_string(&index).unwrap();
    let shown = format!(
        "<tr><th>shown</th><td>{}</td></tr>",
        page::escape(&run.join("tuned.toml").display().to_string())
    );
    assert!(html.contains(&shown), "{shown}");
    assert!(html.contains("<tr><th>baseline</th><td>params/eval.toml (the run&#39;s start)</td></tr>"));
    assert!(html.contains("<tr><th>frozen</th><td>1 values"));
    assert!(html.contains("<h2>Largest changes</h2>") && html.contains("<h2>Frozen values</h2>"));

    // Explicit labels win; without a baseline the header says so.
    let labels = Labels { params: Some("mine.toml".into()), baseline: None };
    let index = write_report_labelled(&params, None, None, &out, &labels).unwrap();
    let html = std::fs::read_to_string(&index).unwrap();
    assert!(html.contains("<tr><th>shown</th><td>mine.toml</td></tr>"));
    assert!(html.contains("<tr><th>baseline</th><td>none</td></tr>"));
    assert!(!html.contains("<h2>Largest changes</h2>"));
}

#[test]
fn an_old_run_json_with_options_as_a_debug_string_still_gives_a_report() {
    let run = TempDir::new("report-debug-options");
    let options = r#"PbilArgs { common: TuneArgs { params: \"params/eval.toml\" }, window: 16 }"#;
    std::fs::write(run.join("run.json"), format!(r#"{{"tool":"pbil","options":"{options}"}}"#)).unwrap();
    assert_eq!(Labels::from_run(&run).baseline, None, "the text names no file");
    let params = whetstone::eval::EvalParamSet::baked().into_set();
    let index = write_report(&params, Some(&params), Some(&run), &run.join("report")).unwrap();
    let html = std::fs::read_to_string(&index).unwrap();
    assert!(html.contains("<tr><th>baseline</th><td>a baseline (no file named)</td></tr>"));
    assert!(html.contains("<tr><th>options</th><td>PbilArgs { common: TuneArgs { params: &quot;"));
}
