//! Tests of `verify/play.rs`.

use whetstone::eval::EvalParamSet;
use whetstone::search::SearchParamSet;

use super::*;
use crate::play::limit::{LimitChoice, MoveLimit};
use crate::testutil::{test_settings, TempDir};

/// `tune match`'s defaults on `concurrency` threads, quiet (the verification's own limit
/// is its plan's).
fn play(concurrency: usize) -> MatchSettings {
    MatchSettings { concurrency, ..test_settings(LimitChoice::default()) }
}

fn plan(elo1: f64) -> SprtPlan {
    SprtPlan { limit: MoveLimit::Nodes(400), games: 2000, bounds: [0.0, elo1], error: 0.05 }
}

/// Every piece worth one centipawn: an engine that gives its pieces away.
fn crippled() -> EvalParamSet {
    let baked = EvalParamSet::baked();
    let mut values = baked.values();
    for slot in baked.select(&["material"]).unwrap() {
        values[slot] = 1;
    }
    baked.with_values(&values)
}

fn contenders(start: EvalParamSet, tuned: EvalParamSet) -> Pairing {
    Pairing::Values(Contenders {
        start_eval: start,
        start_search: SearchParamSet::baked(),
        eval: Some(tuned),
        search: None,
    })
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn a_loss_fails_and_a_gain_passes_and_a_decided_verification_resumes_to_itself() {
    let dir = TempDir::new("verify");
    // A fresh flag for each match: a decided SPRT raises it.
    let no = AtomicBool::new;
    let lost = contenders(EvalParamSet::baked(), crippled());
    let verdict = verify(&dir.path("worse"), &lost, &plan(40.0), &play(2), false, &no(false)).unwrap();
    assert_eq!(verdict.outcome, VerdictOutcome::Failed, "{}", verdict.lines());
    assert!(verdict.elo < 0.0 && verdict.llr <= verdict.llr_bounds[0] && verdict.screen);
    let gained = contenders(crippled(), EvalParamSet::baked());
    let verdict = verify(&dir.path("better"), &gained, &plan(40.0), &play(2), false, &no(false)).unwrap();
    assert_eq!(verdict.outcome, VerdictOutcome::Passed, "{}", verdict.lines());
    assert!(verdict.lines().starts_with("verdict: PASSED"), "{}", verdict.lines());
    let again = verify(&dir.path("better"), &gained, &plan(40.0), &play(2), true, &no(false)).unwrap();
    assert_eq!((again.games, again.outcome), (verdict.games, VerdictOutcome::Passed));
}

/// A verification stopped mid-way (Ctrl-C) is an error, not a verdict; resumed, it ends where
/// an uninterrupted one ends (one thread, so pairs finish in order).
#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn an_interrupted_verification_resumes_to_the_uninterrupted_verdict() {
    let dir = TempDir::new("verify-resume");
    let gained = contenders(crippled(), EvalParamSet::baked());
    let straight =
        verify(&dir.path("straight"), &gained, &plan(40.0), &play(1), false, &AtomicBool::new(false))
            .unwrap();
    assert!(straight.games >= 20, "the SPRT must outlast the halt: {}", straight.lines());
    let (stop, finished) = (AtomicBool::new(false), AtomicBool::new(false));
    let halted_dir = dir.path("halted");
    let journal = halted_dir.join(crate::play::games::journal::JOURNAL_FILE);
    let halted = std::thread::scope(|s| {
        s.spawn(|| {
            // Raise the flag once a few pairs are in the journal (its first line is the identity).
            while !finished.load(std::sync::atomic::Ordering::SeqCst)
                && std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 4
            {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        let result = verify(&halted_dir, &gained, &plan(40.0), &play(1), false, &stop);
        finished.store(true, std::sync::atomic::Ordering::SeqCst);
        result
    });
    let e = halted.expect_err("an interrupted verification has no verdict");
    assert!(format!("{e:#}").contains("the same command continues it"), "{e:#}");
    let resumed = verify(&halted_dir, &gained, &plan(40.0), &play(1), true, &AtomicBool::new(false)).unwrap();
    assert_eq!(
        (resumed.outcome, resumed.games, resumed.pentanomial),
        (straight.outcome, straight.games, straight.pentanomial)
    );
}
