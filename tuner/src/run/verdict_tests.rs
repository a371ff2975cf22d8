//! Tests of `run/verdict.rs`.

use super::*;

fn verdict(outcome: VerdictOutcome, screen: bool) -> Verdict {
    example(outcome, screen)
}

#[test]
fn a_verdict_reads_as_one_sentence_of_rounded_figures() {
    assert_eq!(
            verdict(VerdictOutcome::Passed, true).sentence(),
            "PASSED: +92.0 ± 23.1 Elo over 788 games, SPRT [0, 5], LLR 2.95 of ±2.94, at 5000 nodes per move (a screen)"
        );
    assert!(verdict(VerdictOutcome::Failed, false).lines().starts_with("verdict: FAILED: +92.0"));
}

#[test]
fn only_a_clock_pass_is_bakeable_and_every_standing_round_trips() {
    let standings = [
        Standing::Verified(verdict(VerdictOutcome::Passed, false)),
        Standing::Verified(verdict(VerdictOutcome::Passed, true)),
        Standing::Verified(verdict(VerdictOutcome::Failed, false)),
        Standing::Verified(verdict(VerdictOutcome::Undecided, false)),
        Standing::Unverified("--no-verify".into()),
        Standing::NoHeldOutGain { start: 0.115523, end: 0.115527 },
        Standing::Unchanged,
    ];
    let bakeable: Vec<bool> = standings.iter().map(Standing::bakeable).collect();
    assert_eq!(bakeable, [true, false, false, false, false, false, false]);
    for standing in standings {
        assert_eq!(Standing::from_json(&standing.to_json()), Some(standing));
    }
    assert_eq!(Standing::from_json(&serde_json::json!({"elo": 3})), None);
}
