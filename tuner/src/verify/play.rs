//! The verification match: the tuned values against the start, in this process, through the
//! match runner, as an SPRT on pentanomial pairs, until it decides or reaches its game cap
//! ("undecided"). Each SPRT lives in its own folder of the run (`verify/` for the first,
//! `verify-clock/` for a clock confirmation), with its games.pgn and journal, so a killed
//! verification continues with the run's `--resume`.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::{bail, Result};
use whetstone::eval::Weights;
use whetstone::search::SearchParams;

use super::{Contenders, Outcome, SprtPlan, Verdict};
use crate::play::engines::inprocess::EngineSetup;
use crate::play::games::identity::RunIdentity;
use crate::play::games::runner::Contestant;
use crate::play::games::stats::SprtDecision;
use crate::play::runs::match_run::{play_match, MatchPlan};
use crate::play::runs::settings::MatchSettings;

/// Plays the tuned values of `contenders` against their start into `dir` (continuing its
/// journal when `resume`), with the book, adjudication, hash and threads of `play`.
pub fn verify(
    dir: &Path,
    contenders: &Contenders,
    plan: &SprtPlan,
    play: &MatchSettings,
    resume: bool,
    stop: &AtomicBool,
) -> Result<Verdict> {
    let sprt = plan.sprt()?;
    let engine = |name: &str, tuned: bool| {
        let eval = if tuned { contenders.eval.as_ref() } else { None }.unwrap_or(&contenders.start_eval);
        let search =
            if tuned { contenders.search.as_ref() } else { None }.unwrap_or(&contenders.start_search);
        let mut setup = EngineSetup::built_in(name);
        setup.weights = Arc::new(Weights::from_params(eval));
        setup.search = Arc::new(SearchParams::from_set(search));
        if let Some(mb) = play.hash_mb {
            setup.hash_mb = mb;
        }
        Contestant::InProcess(setup)
    };
    let (openings, _) = play.openings()?;
    let pairs = (plan.games / 2).max(1) as usize;
    let settings = play.game_settings_at(plan.limit);
    let identity = RunIdentity::from_options(
        &serde_json::json!({
            "verify": plan,
            "tuned_values": contenders.eval.as_ref().map(|e| e.values()),
            "tuned_search": contenders.search.as_ref().map(|s| s.values()),
            "start_values": contenders.start_eval.values(),
            "start_search": contenders.start_search.values(),
            "book": play.book,
            "seed": play.seed,
        }),
        &["games"],
        &["book"],
    )?;
    let matched = MatchPlan {
        contestants: [engine("tuned", true), engine("start", false)],
        settings,
        jobs: play.match_jobs(&openings, pairs)?,
        sprt: Some(sprt),
        concurrency: play.concurrency,
        quiet: play.quiet,
        event: "whetstone verification".into(),
        identity,
    };
    let resume = resume && dir.join(crate::play::games::journal::JOURNAL_FILE).exists();
    eprintln!(
        "verifying: the tuned values against the start, SPRT [{}, {}] at {}, at most {} games{}",
        plan.bounds[0],
        plan.bounds[1],
        plan.limit,
        plan.games,
        if plan.is_screen() { " (a screen)" } else { "" }
    );
    let outcome = play_match(&matched, dir, resume, stop)?;
    let tally = &outcome.tally;
    if outcome.interrupted {
        bail!(
            "verification interrupted after {} games; the run's --resume continues it (nothing is lost)",
            tally.games()
        );
    }
    let elo = tally.elo();
    let llr = tally.llr(&sprt);
    let (lower, upper) = sprt.bounds();
    Ok(Verdict {
        outcome: match sprt.decision(llr) {
            Some(SprtDecision::AcceptH1) => Outcome::Passed,
            Some(SprtDecision::AcceptH0) => Outcome::Failed,
            None => Outcome::Undecided,
        },
        elo: elo.elo,
        elo_error: elo.error,
        llr,
        llr_bounds: [lower, upper],
        elo_bounds: plan.bounds,
        games: tally.games(),
        pentanomial: tally.pentanomial.0,
        control: plan.limit.to_string(),
        screen: plan.is_screen(),
        opponent: "the starting values".into(),
    })
}

#[cfg(test)]
mod tests {
    use whetstone::eval::EvalParamSet;
    use whetstone::search::SearchParamSet;

    use super::*;
    use crate::dataset::testutil::TempDir;
    use crate::play::limit::{LimitChoice, MoveLimit};
    use crate::play::runs::settings::test_settings;

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

    fn contenders(start: EvalParamSet, tuned: EvalParamSet) -> Contenders {
        Contenders {
            start_eval: start,
            start_search: SearchParamSet::baked(),
            eval: Some(tuned),
            search: None,
        }
    }

    #[test]
    #[cfg_attr(
        not(feature = "slow-tests"),
        ignore = "slow: cargo test -p whetstone-tuner --features slow-tests"
    )]
    fn a_loss_fails_and_a_gain_passes_and_a_decided_verification_resumes_to_itself() {
        let dir = TempDir::new("verify");
        // A fresh flag for each match: a decided SPRT raises it.
        let no = AtomicBool::new;
        let lost = contenders(EvalParamSet::baked(), crippled());
        let verdict = verify(&dir.path("worse"), &lost, &plan(40.0), &play(2), false, &no(false)).unwrap();
        assert_eq!(verdict.outcome, Outcome::Failed, "{}", verdict.lines());
        assert!(verdict.elo < 0.0 && verdict.llr <= verdict.llr_bounds[0] && verdict.screen);
        let gained = contenders(crippled(), EvalParamSet::baked());
        let verdict = verify(&dir.path("better"), &gained, &plan(40.0), &play(2), false, &no(false)).unwrap();
        assert_eq!(verdict.outcome, Outcome::Passed, "{}", verdict.lines());
        assert!(verdict.lines().starts_with("verdict: PASSED"), "{}", verdict.lines());
        let again = verify(&dir.path("better"), &gained, &plan(40.0), &play(2), true, &no(false)).unwrap();
        assert_eq!((again.games, again.outcome), (verdict.games, Outcome::Passed));
    }

    /// A verification stopped mid-way (Ctrl-C) is an error, not a verdict; resumed, it ends where
    /// an uninterrupted one ends (one thread, so pairs finish in order).
    #[test]
    #[cfg_attr(
        not(feature = "slow-tests"),
        ignore = "slow: cargo test -p whetstone-tuner --features slow-tests"
    )]
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
        assert!(format!("{e:#}").contains("--resume continues it"), "{e:#}");
        let resumed =
            verify(&halted_dir, &gained, &plan(40.0), &play(1), true, &AtomicBool::new(false)).unwrap();
        assert_eq!(
            (resumed.outcome, resumed.games, resumed.pentanomial),
            (straight.outcome, straight.games, straight.pentanomial)
        );
    }
}
