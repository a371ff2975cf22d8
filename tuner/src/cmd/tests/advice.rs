//! No tuning command advises baking a result that failed, was not verified or was not played:
//! each one, run at toy size to an unverified, unplayed or failed end, records advice
//! (result.json `advice`, printed last) that names no `tune export` and no rebuild.

use std::path::Path;

use clap::Parser;

use crate::testutil::{small_dataset, TempDir};

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: crate::cmd::Command,
}

/// Runs `tune ARGS...` with `--out OUT` (a positional run folder for `verify`).
fn tune(words: &[&str]) {
    let argv = std::iter::once("tune").chain(words.iter().copied());
    Cli::parse_from(argv).command.run().unwrap();
}

/// The run's verdict outcome and its advice.
fn advice(out: &Path) -> (String, String) {
    let text = std::fs::read_to_string(out.join("result.json")).unwrap();
    let result: serde_json::Value = serde_json::from_str(&text).unwrap();
    (
        result["verdict"]["outcome"].as_str().unwrap().to_string(),
        result["advice"].as_str().unwrap().to_string(),
    )
}

fn assert_no_baking(out: &Path, outcome: &str) {
    let (found, text) = advice(out);
    assert_eq!(found, outcome, "{text}");
    assert!(!text.contains("tune export") && !text.contains("cargo build"), "{outcome}: {text}");
}

/// The verification both runs of the failed Texel fit play: a short screen with wide bounds.
const SCREEN: [&str; 8] =
    ["--verify-nodes", "300", "--verify-bounds", "0", "40", "--concurrency", "2", "--quiet"];

fn params() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../params/eval.toml").display().to_string()
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn every_tuner_run_with_no_verify_ends_unverified_without_baking_advice() {
    let dir = TempDir::new("advice");
    let data = small_dataset();
    let data = data.to_str().unwrap();
    let params = params();
    let common = ["--params", &params, "--only", "material", "--no-verify", "--quiet"];
    let texel = ["--data", data, "--min-coverage", "0"];
    for (tool, extra) in [
        ("texel", [&texel[..], &["--epochs", "3"]].concat()),
        ("pbil", [&texel[..], &["--generations", "3", "--population", "4"]].concat()),
        ("spsa", [&texel[..], &["--fitness", "texel", "--iterations", "5"]].concat()),
        ("bayes", [&texel[..], &["--fitness", "texel", "--games", "8"]].concat()),
        // CLOP fits game outcomes: a few self-play games.
        ("clop", vec!["--fitness", "selfplay", "--games", "8", "--nodes", "200", "--concurrency", "2"]),
    ] {
        let out = dir.path(tool);
        let out_text = out.display().to_string();
        let mut words = vec![tool];
        words.extend(common);
        words.extend(&extra);
        words.extend(["--out", &out_text]);
        tune(&words);
        let (outcome, _) = advice(&out);
        // A run that moved nothing is "unchanged"; either way nothing is advised for baking.
        assert!(["unverified", "unchanged"].contains(&outcome.as_str()), "{tool}: {outcome}");
        assert_no_baking(&out, &outcome);
    }
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn a_failed_verification_and_a_passed_screen_are_not_advised_for_baking() {
    let dir = TempDir::new("advice-failed");
    // Texel on results alone, pulled nowhere, at a learning rate that wrecks the values: the
    // verification fails.
    let data = small_dataset();
    let (out, flat) = (dir.path("texel"), dir.path("texel-flat"));
    let (data, out_text, params) = (data.to_str().unwrap(), out.display().to_string(), params());
    let wrecking = |out: &str, extra: &[&'static str]| {
        let mut words = vec![
            "texel",
            "--params",
            &params,
            "--data",
            data,
            "--only",
            "material",
            "--epochs",
            "20",
            "--learning-rate",
            "200",
            "--l2",
            "0",
            "--min-coverage",
            "0",
            "--verify-games",
            "60",
            "--out",
            out,
        ];
        words.extend(SCREEN);
        words.extend(extra);
        tune(&words);
    };
    // Wrecked values fit the held-out positions worse than the start: by default no games.
    wrecking(&flat.display().to_string(), &[]);
    assert_no_baking(&flat, "no_held_out_gain");
    assert!(!flat.join("verify").exists(), "a run the held-out loss did not favour played games");
    // --verify-flat plays them anyway.
    wrecking(&out_text, &["--verify-flat"]);
    let (outcome, _) = advice(&out);
    assert!(["failed", "undecided"].contains(&outcome.as_str()), "{outcome}");
    assert_no_baking(&out, &outcome);
    // `tune verify` of the same run, played again with more games, advises no baking either.
    tune(&[&["verify", &out_text, "--verify-games", "80"][..], &SCREEN[..]].concat());
    let (outcome, _) = advice(&out);
    assert_no_baking(&out, &outcome);
}
