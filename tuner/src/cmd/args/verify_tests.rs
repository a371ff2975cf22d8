//! Tests of `cmd/args/verify.rs`.

use clap::Parser;

use super::*;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    verify: VerifyArgs,
}

fn settings(args: &[&str]) -> Result<VerifySettings> {
    Cli::try_parse_from(std::iter::once(&"tune").chain(args))?.verify.settings()
}

#[test]
fn a_run_verifies_by_default_with_a_screen_and_bakes_only_after_a_clock() {
    let default = settings(&[]).unwrap();
    let first = default.first.as_ref().unwrap();
    assert_eq!((first.limit, first.games, default.confirm.is_none()), (MoveLimit::Nodes(5000), 1000, true));
    let bake = settings(&["--bake"]).unwrap();
    let confirm = bake.confirm.unwrap();
    assert_eq!((confirm.limit.to_string(), confirm.games), ("3+0.03".to_string(), 4000));
    let clock = settings(&["--verify-tc", "10+0.1", "--bake"]).unwrap();
    assert!(clock.confirm.is_none() && !clock.first.unwrap().is_screen());
    assert_eq!(settings(&["--no-verify"]).unwrap(), VerifySettings::skipped());
    assert!(settings(&["--verify"]).unwrap().first.is_some(), "the old flag still parses");
}

#[test]
fn bad_verification_options_are_refused_before_the_run() {
    let e = settings(&["--no-verify", "--bake"]).unwrap_err().to_string();
    assert!(e.contains("--bake with --no-verify") && e.contains("passed at a clock"), "{e}");
    assert!(settings(&["--verify-bounds", "5", "0"]).is_err());
    assert!(settings(&["--verify-games", "1"]).is_err());
    assert!(settings(&["--verify-tc", "nonsense"]).is_err());
}
