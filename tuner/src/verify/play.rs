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

use super::{Contenders, EngineContenders, Pairing, SprtPlan, Verdict, VerdictOutcome};
use crate::play::engines::inprocess::EngineSetup;
use crate::play::games::identity::RunIdentity;
use crate::play::games::runner::Contestant;
use crate::play::games::stats::SprtDecision;
use crate::play::runs::match_run::{play_match, MatchPlan};
use crate::play::runs::settings::MatchSettings;

/// Plays the tuned values of `pairing` against their start into `dir` (continuing its journal
/// when `resume`), with the book, adjudication, hash and threads of `play`.
pub fn verify(
    dir: &Path,
    pairing: &Pairing,
    plan: &SprtPlan,
    play: &MatchSettings,
    resume: bool,
    stop: &AtomicBool,
) -> Result<Verdict> {
    let sprt = plan.sprt()?;
    let (contestants, identity) = match pairing {
        Pairing::Values(contenders) => values_pair(contenders, plan, play)?,
        Pairing::Engine(engine) => engine_pair(engine, plan, play)?,
    };
    let (openings, _) = play.openings()?;
    let pairs = (plan.games / 2).max(1) as usize;
    let settings = play.game_settings_at(plan.limit);
    let matched = MatchPlan {
        contestants,
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
            "verification interrupted after {} games; the same command continues it (with --resume for a tuning run; nothing is lost)",
            tally.games()
        );
    }
    let elo = tally.elo();
    let llr = tally.llr(&sprt);
    let (lower, upper) = sprt.bounds();
    Ok(Verdict {
        outcome: match sprt.decision(llr) {
            Some(SprtDecision::AcceptH1) => VerdictOutcome::Passed,
            Some(SprtDecision::AcceptH0) => VerdictOutcome::Failed,
            None => VerdictOutcome::Undecided,
        },
        elo: elo.elo,
        elo_error: elo.error,
        llr,
        llr_bounds: [lower, upper],
        elo_bounds: plan.bounds,
        games: tally.games(),
        pentanomial: tally.pairs.0,
        wld: Some([tally.wld.wins, tally.wld.losses, tally.wld.draws]),
        control: plan.limit.to_string(),
        screen: plan.is_screen(),
        opponent: "the starting values".into(),
    })
}

/// Our values in this process: the tuned sets (or the start where a set was not tuned) against
/// the start, and what identifies the match for `--resume`.
fn values_pair(
    contenders: &Contenders,
    plan: &SprtPlan,
    play: &MatchSettings,
) -> Result<([Contestant; 2], RunIdentity)> {
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
    Ok(([engine("tuned", true), engine("start", false)], identity))
}

/// An engine binary with the tuned option values against itself with the starting ones.
fn engine_pair(
    engine: &EngineContenders,
    plan: &SprtPlan,
    play: &MatchSettings,
) -> Result<([Contestant; 2], RunIdentity)> {
    let identity = RunIdentity::from_options(
        &serde_json::json!({
            "verify": plan,
            "engine": engine.spec.command,
            "engine_args": engine.spec.args,
            "fixed_options": engine.spec.options,
            "tuned_options": engine.tuned,
            "start_options": engine.start,
            "book": play.book,
            "seed": play.seed,
        }),
        &["games"],
        &["book"],
    )?;
    let side = |name: &str, values: &[(String, String)]| Contestant::External(engine.spec_with(name, values));
    Ok(([side("tuned", &engine.tuned), side("start", &engine.start)], identity))
}

#[cfg(test)]
#[path = "play_tests.rs"]
mod tests;
