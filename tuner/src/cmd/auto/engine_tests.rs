//! Tests of `cmd/auto/engine.rs`: the loop on the toy engine (`tuner/testdata/toy_engine.py`).

use std::path::Path;

use whetstone::search::SearchParamSet;

use super::super::record::{keep_values, read_json, State};
use super::super::stages::stage_words;
use super::super::{run, AutoArgs, Stage};
use super::*;
use crate::cmd::args::parse_args;
use crate::testutil::{small_dataset, testdata, TempDir};

fn engine_args(out: &Path, extra: &[&str]) -> AutoArgs {
    let (out, toy, data) =
        (out.display().to_string(), testdata("toy_engine.py").display().to_string(), small_dataset());
    let data = data.display().to_string();
    let mut words: Vec<String> =
        ["--hours", "1", "--out", &out, "--engine", &toy, "--data", &data, "--concurrency", "2", "--quiet"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    words.extend(extra.iter().map(|s| s.to_string()));
    parse_args(&words).unwrap()
}

#[test]
fn a_passed_stage_s_values_go_on_as_the_engine_s_options_in_every_later_stage() {
    let dir = TempDir::new("auto-engine-words");
    let space = dir.join("space.txt");
    std::fs::write(&space, "# the toy's search has no options: its evaluation's stand in\ntempo_mg, int, 10, -50, 50, 5, 0.002\n")
        .unwrap();
    let args = engine_args(
        &dir.join("run"),
        &[
            "--stages",
            "texel,spsa",
            "--probe",
            "material_1_mg",
            "--space",
            space.to_str().unwrap(),
            "--engine-option",
            "tempo_mg=12",
        ],
    );
    let mut state = State::start(Path::new("eval.toml"), Path::new("search.toml"), &args.stages);
    let result =
        serde_json::json!({"engine_pairing": {"tuned": [["material_1_mg", "348"], ["tempo_mg", "14"]]}});
    keep_values(&mut state, &result);
    assert_eq!(
        state.options,
        [("material_1_mg".to_string(), "348".into()), ("tempo_mg".into(), "14".into())]
    );
    let search = SearchParamSet::baked();
    let texel_dir = dir.join("run/cycle-1/texel");
    let texel = stage_words(&args, &state, Stage::Texel, &texel_dir, &search, false).unwrap().join(" ");
    // The current values win over the fixed ones, and the probe starts from them.
    assert!(texel.contains("--engine-option material_1_mg=348 --engine-option tempo_mg=14"), "{texel}");
    assert!(!texel.contains("tempo_mg=12"), "{texel}");
    assert!(texel.contains("--probe material_1_mg --data"), "{texel}");
    let spsa_dir = dir.join("run/cycle-1/spsa");
    let names = write_space(&args, &state, &spsa_dir).unwrap();
    assert_eq!(names, ["tempo_mg"]);
    let written = std::fs::read_to_string(space_file(&spsa_dir)).unwrap();
    assert!(written.contains("tempo_mg, int, 14, -50, 50, 5, 0.002"), "{written}");
    let spsa = stage_words(&args, &state, Stage::Spsa, &spsa_dir, &search, false).unwrap().join(" ");
    // The space's own options are not also fixed.
    assert!(spsa.contains("--fitness engine") && !spsa.contains("tempo_mg="), "{spsa}");
    assert!(spsa.contains("--engine-option material_1_mg=348"), "{spsa}");
    // Every stage's command line parses as the user's would.
    for (stage, d) in [(Stage::Texel, &texel_dir), (Stage::Spsa, &spsa_dir)] {
        let words = stage_words(&args, &state, stage, d, &search, false).unwrap();
        super::super::stages::parse_stage(stage, &words).unwrap();
    }
}

#[test]
fn an_engine_run_s_texel_stage_probes_verifies_and_is_recorded() {
    let dir = TempDir::reserve("auto-engine-run");
    let args = engine_args(
        &dir,
        &[
            "--stages",
            "texel",
            "--cycles",
            "1",
            "--probe",
            "material_1_mg",
            "material_3_mg",
            "--texel-epochs",
            "40",
            "--texel-args",
            "--min-coverage 5 --fresh new-game --verify-flat",
            "--verify-nodes",
            "1",
            "--verify-games",
            "4",
        ],
    );
    run(&args).unwrap();
    let result = read_json(&dir.join("result.json")).unwrap();
    let stage = &result["stages"][0];
    assert!(stage["command"].as_str().unwrap().contains("--engine"), "{stage}");
    assert!(
        ["passed", "failed", "undecided", "unchanged"].contains(&stage["verdict"].as_str().unwrap()),
        "{stage}"
    );
    // Options carried only from a passed stage (--verify-flat: the toy fit need not lower the
    // held-out loss for its verification to be played).
    let kept = stage["kept"].as_bool().unwrap();
    assert_eq!(result["options"].as_array().unwrap().is_empty(), !kept, "{result}");
    assert!(dir.join("options.txt").is_file());
    // An engine run cannot bake, and its stages need what they tune.
    let error = |extra: &[&str]| {
        let out = TempDir::reserve("auto-engine-bad");
        format!("{:#}", run(&engine_args(&out, extra)).unwrap_err())
    };
    assert!(error(&["--stages", "texel", "--probe", "x", "--bake"])
        .contains("--bake bakes Whetstone's own build"));
    assert!(error(&["--stages", "texel"]).contains("needs --probe OPTION... or --trace"));
    assert!(error(&["--stages", "spsa"]).contains("needs --space FILE"));
}
