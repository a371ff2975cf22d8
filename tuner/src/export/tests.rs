//! Tests of `export/mod.rs`.

use super::*;
use crate::testutil::TempDir;

#[test]
fn result_json_names_the_values_and_says_whether_anything_changed() {
    let dir = TempDir::new("export-end");
    let run = RunDir::create(&dir).unwrap();
    let start = EvalParamSet::baked();
    let mut found = Found {
        start_eval: start.clone(),
        start_search: SearchParamSet::baked(),
        eval: Some(start.clone()),
        search: None,
        values: vec![("tempo_mg".into(), 12.0)],
        frozen: vec!["pst_pawn_a2_mg".into()],
        games: 0,
        measured: serde_json::json!({ "k": 1.5 }),
        space_moved: false,
        provenance: Provenance::default(),
        engine: None,
    };
    assert!(!found.changed(), "the start itself changed nothing");
    let written = finish_run(&run, &found).unwrap();
    assert_eq!(written, ["result.json", "tuned.toml", "eval_params.rs", START_EVAL, START_SEARCH]);
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("result.json")).unwrap()).unwrap();
    assert_eq!(result["changed"], false);
    assert_eq!(result["values"]["tempo_mg"], 12.0);
    assert_eq!((result["k"].as_f64(), result["frozen"][0].as_str()), (Some(1.5), Some("pst_pawn_a2_mg")));
    let mut values = start.values();
    values[0] += 1;
    found.eval = Some(start.with_values(&values));
    assert!(found.changed());
}
