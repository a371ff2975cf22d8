//! A match between two contestants as a resumable run: game pairs in parallel, the tally, an
//! optional SPRT that stops it, `games.pgn`, and the journal (`journal.rs`) from which a killed
//! match continues where it stopped. `tune match` is one; a tuning run verifying its result by a
//! match in its own folder can be another.
//!
//! A resumed match replays the journal into the tally, stops at once if that already decides the
//! SPRT, and otherwise plays the pairs the journal lacks: pair i plays the same opening whenever
//! it is played, so with fixed nodes or depth the games equal an uninterrupted run's, and on one
//! thread (pairs finishing in order) an SPRT stops after the same pair.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::Result;

use crate::play::games::game::GameSettings;
use crate::play::games::identity::RunIdentity;
use crate::play::games::journal::{missing_pairs, PairEntry, PairJournal};
use crate::play::games::output::PgnFile;
use crate::play::games::pgn_out::PgnContext;
use crate::play::games::pool::Flow;
use crate::play::games::runner::{self, Contestant, PairJob};
use crate::play::games::stats::{Sprt, SprtDecision};
use crate::play::games::tally::{GameSummary, MatchTally};
use crate::run::game_bar;

/// Everything a match needs but its folder.
pub struct MatchPlan {
    /// The engine (whose view W/L/D and Elo take) and its opponent.
    pub contestants: [Contestant; 2],
    pub settings: GameSettings,
    /// Pair i starts from `jobs[i]`, contestant 0 against 1, whenever it is played.
    pub jobs: Vec<PairJob>,
    pub sprt: Option<Sprt>,
    pub concurrency: usize,
    /// No progress bar; a line per pair instead.
    pub quiet: bool,
    /// The PGN's `Event` tag.
    pub event: String,
    /// What defines the match: recorded when it starts, compared when it resumes.
    pub identity: RunIdentity,
}

/// A match's results so far (a resumed match's include the pairs played before).
pub struct MatchResults {
    pub tally: MatchTally,
    /// Pairs counted from the journal of earlier runs.
    pub pairs_replayed: usize,
    /// Pairs played by this run.
    pub pairs_played: usize,
    /// The players' thinking time in this run's games (seconds).
    pub think_seconds_this_run: f64,
    /// Stopped short of the planned pairs without an SPRT decision (Ctrl-C).
    pub interrupted: bool,
}

impl MatchPlan {
    /// Checked before anything starts: `dir` holds a journal of this match.
    pub fn check_resumable(&self, dir: &Path) -> Result<()> {
        PairJournal::check_resumable(dir, &self.identity, self.jobs.len()).map(drop)
    }

    /// The SPRT's decision on a tally, if there is an SPRT and it has decided.
    pub fn decision(&self, tally: &MatchTally) -> Option<SprtDecision> {
        self.sprt.as_ref().and_then(|s| s.decision(tally.llr(s)))
    }
}

/// Plays the plan into `dir` (when `resume`, the pairs its journal lacks) until every pair is
/// played, the SPRT decides, or `stop` is raised.
pub fn play_match(plan: &MatchPlan, dir: &Path, resume: bool, stop: &AtomicBool) -> Result<MatchResults> {
    let (mut journal, done) = PairJournal::start(dir, &plan.identity, plan.jobs.len(), resume)?;
    let mut tally = MatchTally::default();
    for entry in &done {
        tally.add(&entry.games);
    }
    let replayed_think_seconds = tally.think_seconds;
    let decided_before = plan.decision(&tally).is_some();
    let todo: Vec<usize> = if decided_before { Vec::new() } else { missing_pairs(plan.jobs.len(), &done) };
    let jobs: Vec<PairJob> = todo.iter().map(|&i| plan.jobs[i].clone()).collect();
    if resume {
        println!("resumed: {} pairs played before, {} to play", done.len(), jobs.len());
    }
    let context = PgnContext::new(&plan.event, plan.settings.limit.pgn_tag());
    let mut pgn = PgnFile::open(dir, context, resume)?;
    let bar = game_bar(2 * jobs.len() as u64, plan.quiet);
    let mut played = 0;
    runner::run(&plan.contestants, &jobs, &plan.settings, plan.concurrency, stop, |mut pair| {
        // Jobs are numbered from 0 in this run; the pair's number in the whole match is todo's.
        pair.index = todo[pair.index];
        pgn.write_pair(&pair)?;
        let games = GameSummary::of_pair(&pair);
        journal.append(&PairEntry { pair: pair.index, pgn_bytes: pgn.byte_len()?, games: games.clone() })?;
        tally.add(&games);
        played += 1;
        bar.inc(2);
        bar.set_message(tally.progress(plan.sprt.as_ref()));
        if plan.quiet {
            println!("pair {}: {}", pair.index + 1, tally.progress(plan.sprt.as_ref()));
        }
        Ok(if plan.decision(&tally).is_some() { Flow::Stop } else { Flow::Continue })
    })?;
    bar.finish_and_clear();
    let decision = plan.decision(&tally);
    let finished = done.len() + played;
    Ok(MatchResults {
        think_seconds_this_run: tally.think_seconds - replayed_think_seconds,
        tally,
        pairs_replayed: done.len(),
        pairs_played: played,
        interrupted: finished < plan.jobs.len() && decision.is_none(),
    })
}

#[cfg(test)]
#[path = "match_run_tests.rs"]
mod tests;
