//! Tests of `cmd/texel_engine.rs`: `tune texel --engine` end to end on the toy engine
//! (`tuner/testdata/toy_engine.py`, a UCI engine whose weights are spin options, with `eval`
//! and `trace`).

use std::path::{Path, PathBuf};

use whetstone::{Color, PieceType};

use super::super::texel::TexelArgs;
use crate::cmd::args::tuner_args;
use crate::testutil::{random_positions, testdata, TempDir};

/// `n` random positions labelled by their material balance (pawn 1, minor 3, rook 5, queen 9):
/// a win for the side ahead by 2 or more, else a draw; as EPD.
fn material_data(dir: &TempDir, n: usize) -> PathBuf {
    const WORTH: [(PieceType, i32); 5] = [
        (PieceType::Pawn, 1),
        (PieceType::Knight, 3),
        (PieceType::Bishop, 3),
        (PieceType::Rook, 5),
        (PieceType::Queen, 9),
    ];
    let lines: Vec<String> = random_positions(n, 11)
        .iter()
        .map(|pos| {
            let side = |c: Color| WORTH.iter().map(|&(pt, v)| pos.count(c, pt) as i32 * v).sum::<i32>();
            let balance = side(Color::White) - side(Color::Black);
            let result = match balance {
                b if b >= 2 => "1-0",
                b if b <= -2 => "0-1",
                _ => "1/2-1/2",
            };
            format!("{} c9 \"{result}\";", pos.to_fen())
        })
        .collect();
    let path = dir.join("material.epd");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

fn toy() -> String {
    testdata("toy_engine.py").display().to_string()
}

fn args(out: &Path, data: &Path, extra: &[&str]) -> TexelArgs {
    let toy = toy();
    let data = data.display().to_string();
    let mut words =
        vec!["--engine", toy.as_str(), "--data", data.as_str(), "--min-coverage", "5", "--concurrency", "2"];
    words.extend(extra);
    tuner_args(out, &words)
}

fn result(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("result.json")).unwrap()).unwrap()
}

#[test]
fn a_probe_through_the_toy_engine_fits_its_options_and_writes_them_as_its_own() {
    let dir = TempDir::new("texel-engine-probe");
    let data = material_data(&dir, 150);
    let out = dir.join("run");
    let extra =
        ["--probe", "material_*_mg", "--fresh", "new-game", "--epochs", "80", "--rounds", "1", "--no-verify"];
    super::run_texel(&args(&out, &data, &extra)).unwrap();
    let result = result(&out);
    assert_eq!(result["mode"], "probe");
    // The glob reached every middle-game material option the toy declares.
    let values = result["values"].as_object().unwrap();
    for i in 0..5 {
        assert!(values.contains_key(&format!("material_{i}_mg")), "{result}");
    }
    assert!(
        result["valid_loss"].as_f64().unwrap() <= result["start_valid_loss"].as_f64().unwrap(),
        "{result}"
    );
    assert_eq!(result["verdict"]["outcome"], "unverified", "{result}");
    let setoption = std::fs::read_to_string(out.join("options.txt")).unwrap();
    assert!(setoption.lines().all(|l| l.starts_with("setoption name material_")), "{setoption}");
    assert!(std::fs::read_to_string(out.join("openbench.txt")).unwrap().contains(", int, "));
    assert!(out.join("options.json").is_file() && out.join("rounds.json").is_file());
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(summary.contains("round 0: K = "), "{summary}");
    // Run again with --resume: the journals hold every answer, and the values are the same.
    let resumed: Vec<&str> = extra.iter().copied().chain(["--resume"]).collect();
    super::run_texel(&args(&out, &data, &resumed)).unwrap();
    assert_eq!(self::result(&out)["values"], result["values"]);
}

#[test]
fn a_trace_through_the_toy_engine_fits_every_weight_an_option_holds() {
    let dir = TempDir::new("texel-engine-trace");
    let data = material_data(&dir, 120);
    let out = dir.join("run");
    super::run_texel(&args(&out, &data, &["--trace", "--epochs", "60", "--no-verify"])).unwrap();
    let result = result(&out);
    assert_eq!(result["mode"], "trace");
    let values = result["values"].as_object().unwrap();
    // Every weight of the toy is an option (25), the stand-in column is not.
    assert_eq!(values.len(), 25, "{result}");
    assert!(values.contains_key("material_1_mg") && values.contains_key("danger_power"), "{result}");
    assert!(
        result["train_loss"].as_f64().unwrap() < result["start_train_loss"].as_f64().unwrap(),
        "{result}"
    );
    assert!(out.join(crate::probe::trace_run::TRACE_JOURNAL).is_file());
}

#[test]
fn bad_requests_are_refused_by_name() {
    let dir = TempDir::new("texel-engine-bad");
    let data = material_data(&dir, 20);
    let out = dir.join("run");
    let error = |extra: &[&str]| format!("{:#}", super::run_texel(&args(&out, &data, extra)).unwrap_err());
    assert!(error(&[]).contains("--engine needs what to tune: --probe OPTION... "), "{}", error(&[]));
    let e = error(&["--probe", "queen_bonus*"]);
    assert!(
        e.contains("--probe queen_bonus*: no spin option of the engine matches")
            && e.contains("material_0_mg"),
        "{e}"
    );
    let e = error(&["--probe", "material_1_mg", "--valid", "x.epd"]);
    assert!(e.contains("--valid applies to Whetstone's own evaluation"), "{e}");
    let e = error(&["--probe", "material_1_mg", "--bake"]);
    assert!(e.contains("--bake bakes Whetstone's own build"), "{e}");
    let toy = toy();
    let alone = |words: &[&str]| {
        format!("{:#}", super::run_texel(&tuner_args::<TexelArgs>(&out, words)).unwrap_err())
    };
    let e = alone(&["--engine", &toy, "--probe", "material_1_mg"]);
    assert!(e.contains("--engine needs --data"), "{e}");
    let data = data.display().to_string();
    let e = alone(&["--engine", "/no/such/engine", "--probe", "material_1_mg", "--data", &data]);
    assert!(e.contains("/no/such/engine: no such params file or engine binary"), "{e}");
}

#[test]
fn the_tuned_options_play_the_start_over_uci_and_the_verdict_is_recorded() {
    let dir = TempDir::new("texel-engine-verify");
    let data = material_data(&dir, 150);
    let out = dir.join("run");
    let extra = ["--probe", "material_1_mg", "material_3_mg", "--fresh", "new-game", "--epochs", "80"];
    // --verify-flat: the games are this test's point, whether or not the toy fit lowers the
    // held-out loss.
    let verify = ["--verify-nodes", "1", "--verify-games", "4", "--verify-flat"];
    super::run_texel(&args(&out, &data, &[&extra[..], &verify[..]].concat())).unwrap();
    let result = result(&out);
    let outcome = result["verdict"]["outcome"].as_str().unwrap();
    assert!(["passed", "failed", "undecided"].contains(&outcome), "{result}");
    assert!(result["verdict"]["games"].as_u64().unwrap() >= 2, "{result}");
    let pgn = std::fs::read_to_string(out.join("verify").join("games.pgn")).unwrap();
    assert!(pgn.contains("[White \"tuned\"]") || pgn.contains("[Black \"tuned\"]"), "{pgn}");
    // The advice follows the verdict: where the values are after a pass at a clock, more games or a
    // clock with tune verify otherwise.
    let advice = result["advice"].as_str().unwrap();
    assert!(
        advice.contains("options.txt") || advice.contains("tune verify") || outcome == "failed",
        "{advice}"
    );
    assert!(result["engine_pairing"]["tuned"].as_array().unwrap().len() == 2, "{result}");
}
