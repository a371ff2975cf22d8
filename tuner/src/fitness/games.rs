//! The seam's three questions answered by games, once for every game source: a ranking is each
//! candidate's points per game against the reference, a comparison is a duel when the source
//! can set two candidates against each other (or both against the reference when it cannot),
//! and outcomes are single games against the reference.

use std::sync::atomic::AtomicBool;

use anyhow::Result;

use super::{Compared, Fitness, GameFitness, Games, Scored, Trial};

impl<G: GameFitness> Fitness for G {
    fn describe(&self) -> String {
        GameFitness::describe(self)
    }

    fn plays_games(&self) -> bool {
        true
    }

    fn engine_under_test(&self) -> Option<&crate::play::engines::engine_process::EngineSpec> {
        GameFitness::engine_under_test(self)
    }

    fn games_per_trial(&self, games: u32) -> u32 {
        GameFitness::games_per_trial(self, games)
    }

    fn rank(
        &self,
        candidates: &[Vec<f64>],
        games_each: u32,
        seed: u64,
        stop: &AtomicBool,
    ) -> Result<Vec<Scored>> {
        let trials: Vec<Trial> = candidates
            .iter()
            .map(|x| Trial { candidate: x.clone(), opponent: None, games: games_each })
            .collect();
        let results = self.play(&trials, seed, stop, &mut |_| {})?;
        Ok(results.into_iter().map(|games| Scored { fitness: games.score(), games }).collect())
    }

    fn compare(&self, pairs: &[(Vec<f64>, Vec<f64>)], seed: u64, stop: &AtomicBool) -> Result<Vec<Compared>> {
        let net = |g: &Games| g.wld.wins as f64 - g.wld.losses as f64;
        if self.duels() {
            let trials: Vec<Trial> = pairs
                .iter()
                .map(|(plus, minus)| Trial {
                    candidate: plus.clone(),
                    opponent: Some(minus.clone()),
                    games: 2,
                })
                .collect();
            let results = self.play(&trials, seed, stop, &mut |_| {})?;
            return Ok(results.into_iter().map(|games| Compared { result: net(&games), games }).collect());
        }
        // Both sides against the reference: the plus side's games, and the minus side's seen
        // from the plus side (its wins are the plus side's losses).
        let trials: Vec<Trial> = pairs
            .iter()
            .flat_map(|(plus, minus)| {
                [plus, minus].map(|x| Trial { candidate: x.clone(), opponent: None, games: 1 })
            })
            .collect();
        let results = self.play(&trials, seed, stop, &mut |_| {})?;
        Ok(results
            .chunks(2)
            .map(|pair| {
                let (plus, minus) = (pair[0], pair[1]);
                // The minus side's games mirrored: its wins and pairs count against the plus
                // side; both candidates' failures stay on the candidate side, the reference's on
                // the other.
                let mut games = plus;
                games.add(&minus.mirrored());
                Compared { result: net(&plus) - net(&minus), games }
            })
            .collect())
    }

    fn outcomes(&self, candidates: &[Vec<f64>], seed: u64, stop: &AtomicBool) -> Result<Vec<Games>> {
        let trials: Vec<Trial> =
            candidates.iter().map(|x| Trial { candidate: x.clone(), opponent: None, games: 1 }).collect();
        self.play(&trials, seed, stop, &mut |_| {})
    }
}

#[cfg(test)]
#[path = "games_tests.rs"]
mod tests;
