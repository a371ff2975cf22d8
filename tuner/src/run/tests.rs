//! Tests of `run/mod.rs`.

use super::*;
use crate::testutil::TempDir;

#[test]
fn files_are_written_whole_and_checkpoints_read_back() {
    let dir = TempDir::new("run");
    let run = RunDir::create(&dir.join("a/b")).unwrap();
    run.save_checkpoint(&vec![1.5, 2.0]).unwrap();
    let back: Vec<f64> = run.load_checkpoint().unwrap();
    assert_eq!(back, vec![1.5, 2.0]);
    assert!(!run.file("checkpoint.json.tmp").exists());
    std::fs::write(run.file("checkpoint.json"), "{").unwrap();
    let err = run.load_checkpoint::<Vec<f64>>().unwrap_err();
    assert!(format!("{err:#}").contains("damaged"), "{err:#}");
    let names = ["x".to_string(), "y".to_string()];
    for (step, values) in [(0, [1.0, 0.25]), (1, [2.0, 0.5]), (2, [3.0, 0.75])] {
        run.append_trajectory("iteration", &names, step, &values).unwrap();
    }
    run.trim_trajectory(1).unwrap();
    let text = std::fs::read_to_string(run.file("trajectory.csv")).unwrap();
    assert_eq!(text, "iteration,x,y\n0,1,0.25\n1,2,0.5\n");
    run.write_meta("test", &serde_json::json!({"a": 1}), false, None).unwrap();
    let started =
        serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(run.file("run.json")).unwrap())
            .unwrap()["started"]
            .clone();
    run.write_meta("test", &serde_json::json!({"a": 1}), false, Some(serde_json::json!({"loss": 0.1})))
        .unwrap();
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.file("run.json")).unwrap()).unwrap();
    assert_eq!(meta["started"], started);
    assert_eq!(meta["results"]["loss"], 0.1);
    assert!(meta["finished"].is_string());
}
