//! Tests of `cmd/sprt.rs`: the options as a user gives them, and bad input as clear errors.

use clap::Parser;

use super::*;
use crate::testutil::TempDir;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    sprt: SprtArgs,
}

fn args(words: &[&str]) -> SprtArgs {
    Cli::try_parse_from(std::iter::once(&"tune").chain(words)).unwrap().sprt
}

#[test]
fn defaults_are_the_tuners_verification_at_this_engines_spread() {
    let a = args(&[]);
    assert_eq!((a.bounds.clone(), a.error, a.elo_model), (vec![0.0, 5.0], 0.05, ModelArg::Normalized));
    let (profile, source) = profile(&a).unwrap();
    assert_eq!(profile.0, DEFAULT_PROFILE);
    assert!(source.contains("test 57"), "{source}");
    run(&a).unwrap();
    run(&args(&[
        "--bounds",
        "-5",
        "0",
        "--elo-model",
        "logistic",
        "--elo",
        "-3",
        "0",
        "--games-per-minute",
        "13.5",
        "--max-games",
        "6000",
    ]))
    .unwrap();
}

#[test]
fn the_spread_comes_from_counts_or_a_match_run() {
    let given = args(&["--pentanomial", "1", "2", "3", "2", "1"]);
    assert_eq!(profile(&given).unwrap().0 .0, [1, 2, 3, 2, 1]);
    let dir = TempDir::new("sprt-from");
    std::fs::write(dir.join("summary.json"), r#"{"pentanomial": [17, 82, 151, 81, 20], "games": 702}"#)
        .unwrap();
    let from = args(&["--from", dir.to_str().unwrap()]);
    assert_eq!(profile(&from).unwrap().0 .0, [17, 82, 151, 81, 20]);
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = TempDir::new("sprt-bad");
    let missing = format!("{:#}", profile(&args(&["--from", dir.to_str().unwrap()])).unwrap_err());
    assert!(missing.contains("summary.json") && missing.contains("cannot read"), "{missing}");
    std::fs::write(dir.join("summary.json"), r#"{"games": 10}"#).unwrap();
    let no_counts = format!("{:#}", profile(&args(&["--from", dir.to_str().unwrap()])).unwrap_err());
    assert!(no_counts.contains("no 'pentanomial'"), "{no_counts}");
    let flat = format!("{:#}", run(&args(&["--pentanomial", "0", "0", "9", "0", "0"])).unwrap_err());
    assert!(flat.contains("no spread"), "{flat}");
    let reversed = format!("{:#}", run(&args(&["--bounds", "5", "0"])).unwrap_err());
    assert!(reversed.contains("--bounds") && reversed.contains("less than"), "{reversed}");
    let rate = format!("{:#}", run(&args(&["--games-per-minute", "0"])).unwrap_err());
    assert!(rate.contains("--games-per-minute"), "{rate}");
    let cap = format!("{:#}", run(&args(&["--max-games", "0"])).unwrap_err());
    assert!(cap.contains("--max-games"), "{cap}");
    assert!(Cli::try_parse_from(["tune", "--pentanomial", "1", "2", "--from", "x"]).is_err());
}
