//! Games of our engine as a fitness: each candidate is an in-process engine (the starting params
//! with the candidate's values written in) playing game pairs against the reference (the
//! starting values) or against another candidate, through the match runner, in parallel; each
//! pair's points are counted too (`Games::pairs`).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::{bail, Result};
use whetstone::eval::EvalParamSet;
use whetstone::eval::Weights;
use whetstone::search::SearchParamSet;
use whetstone::search::SearchParams;

use super::{GameFitness, Games, Trial};
use crate::optim::space::Space;
use crate::play::engines::inprocess::EngineSetup;
use crate::play::games::book::{self, BookOrder, Opening};
use crate::play::games::game::GameSettings;
use crate::play::games::pool::Flow;
use crate::play::games::runner::{self, Contestant, PairJob};
use crate::play::games::tally::GameSummary;

pub struct SelfPlay {
    pub space: Space,
    pub eval: EvalParamSet,
    pub search: SearchParamSet,
    pub settings: GameSettings,
    pub openings: Vec<Opening>,
    pub concurrency: usize,
    pub hash_mb: usize,
}

impl SelfPlay {
    /// The engine with the candidate's values.
    fn setup(&self, name: String, x: &[f64]) -> EngineSetup {
        let (mut eval, mut search) = (self.eval.clone(), self.search.clone());
        self.space.apply(x, &mut eval, &mut search);
        let mut setup = EngineSetup::built_in(&name);
        setup.weights = Arc::new(Weights::from_params(&eval));
        setup.search = Arc::new(SearchParams::from_set(&search));
        setup.hash_mb = self.hash_mb;
        setup
    }
}

impl GameFitness for SelfPlay {
    fn describe(&self) -> String {
        format!("self-play game pairs at {}, {} threads", self.settings.limit, self.concurrency)
    }

    fn duels(&self) -> bool {
        true
    }

    fn games_per_trial(&self, games: u32) -> u32 {
        2 * games.div_ceil(2).max(1)
    }

    fn play(
        &self,
        trials: &[Trial],
        seed: u64,
        stop: &AtomicBool,
        on_games: &mut dyn FnMut(u64),
    ) -> Result<Vec<Games>> {
        // Contestant 0 is the reference; then each trial's candidate and, if any, its opponent.
        let mut contestants = vec![Contestant::InProcess(self.setup("start".into(), &self.space.starts()))];
        let mut jobs = Vec::new();
        let mut trial_of_job = Vec::new();
        let pairs: usize = trials.iter().map(|t| self.games_per_trial(t.games) as usize / 2).sum();
        let schedule = book::schedule(self.openings.len(), pairs, BookOrder::Random, seed, 1);
        for (t, trial) in trials.iter().enumerate() {
            let first = contestants.len();
            contestants.push(Contestant::InProcess(self.setup(format!("candidate{t}"), &trial.candidate)));
            let second = match &trial.opponent {
                Some(x) => {
                    contestants.push(Contestant::InProcess(self.setup(format!("opponent{t}"), x)));
                    contestants.len() - 1
                }
                None => 0,
            };
            for _ in 0..self.games_per_trial(trial.games) / 2 {
                let opening = &self.openings[schedule[jobs.len()]];
                jobs.push(PairJob {
                    start_fen: opening.fen.clone(),
                    second_start: None,
                    opening: opening.source.clone(),
                    first,
                    second,
                });
                trial_of_job.push(t);
            }
        }
        let mut results = vec![Games::default(); trials.len()];
        let mut finished = 0;
        runner::run(&contestants, &jobs, &self.settings, self.concurrency, stop, |pair| {
            // The candidate had White in the pair's first game and Black in its second.
            let [first, second] = GameSummary::of_pair(&pair);
            results[trial_of_job[pair.index]].record_pair(first.score, second.score);
            finished += 1;
            on_games(2);
            Ok(Flow::Continue)
        })?;
        if finished < jobs.len() {
            bail!("interrupted with {} of {} game pairs played", finished, jobs.len());
        }
        Ok(results)
    }
}

#[cfg(test)]
#[path = "selfplay_tests.rs"]
mod tests;
