//! Tests of `run/advice.rs`.

use super::super::verdict::example as verdict;
use super::*;

fn advise(standing: Standing, baked: bool) -> String {
    let eval = Path::new("reports/pbil/tuned.toml");
    advice(&standing, Path::new("reports/pbil"), &Baking { eval: Some(eval), search: None, baked })
}

#[test]
fn only_a_pass_at_a_clock_is_advised_for_baking() {
    let clock = advise(Standing::Verified(verdict(VerdictOutcome::Passed, false)), false);
    assert!(clock.contains("tune export --params reports/pbil/tuned.toml"), "{clock}");
    for standing in [
        Standing::Verified(verdict(VerdictOutcome::Passed, true)),
        Standing::Verified(verdict(VerdictOutcome::Failed, false)),
        Standing::Verified(verdict(VerdictOutcome::Failed, true)),
        Standing::Verified(verdict(VerdictOutcome::Undecided, false)),
        Standing::Unverified("--no-verify".into()),
        Standing::NoHeldOutGain { start: 0.115523, end: 0.115527 },
        Standing::Unchanged,
    ] {
        let text = advise(standing.clone(), false);
        assert!(!text.contains("tune export"), "{standing:?}: {text}");
        assert!(!text.contains("cargo build"), "{standing:?}: {text}");
    }
    let screen = advise(Standing::Verified(verdict(VerdictOutcome::Passed, true)), false);
    assert!(screen.contains("tune verify reports/pbil --verify-tc 3+0.03"), "{screen}");
    let unverified = advise(Standing::Unverified("--no-verify".into()), false);
    assert!(unverified.starts_with("UNVERIFIED (--no-verify)"), "{unverified}");
    let flat = advise(Standing::NoHeldOutGain { start: 0.115523, end: 0.115527 }, false);
    assert!(flat.starts_with("NOT PLAYED") && flat.contains("0.115523 -> 0.115527"), "{flat}");
    assert!(flat.contains("tune verify reports/pbil --verify-tc 3+0.03"), "{flat}");
    let undecided = advise(Standing::Verified(verdict(VerdictOutcome::Undecided, false)), false);
    assert!(undecided.contains("--verify-games 1576 --verify-tc 3+0.03"), "{undecided}");
    assert!(advise(Standing::Verified(verdict(VerdictOutcome::Passed, false)), true).starts_with("baked"));
}
