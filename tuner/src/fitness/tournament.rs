//! A ranking by a tournament among the candidates themselves, the fitness PBIL's users in chess
//! chose: Thomas Petzke tuned iCE's evaluation with PBIL whose individuals played each other, and
//! Steve Maughan's plan for Maverick did the same. Beside "each candidate against the start",
//! it has two merits: every game informs two candidates (the same games buy twice the
//! information), and a candidate is measured against the population's own level, which rises as
//! the run learns, instead of against a start that may be far behind.
//!
//! The schedule: rounds of random pairings (a seeded shuffle, so a seed replays the same
//! tournament); each pairing is one game pair, the same opening with each colour. With an odd
//! number of candidates, the one left over in a round plays the reference (the starting values).
//! A candidate's fitness is its points per game over its games.

use std::sync::atomic::AtomicBool;

use anyhow::{bail, Result};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Compared, Fitness, GameFitness, Games, Scored, Trial};

/// A game source whose `rank` is a tournament among the candidates; the other questions are
/// the source's own (games against the reference).
pub struct Tournament<G: GameFitness> {
    pub source: G,
}

impl<G: GameFitness> Tournament<G> {
    /// The pairings of every round: `(candidate, Some(opponent))`, or `(candidate, None)` for
    /// the one left over, who plays the reference.
    pub fn schedule(candidates: usize, rounds: u32, seed: u64) -> Vec<(usize, Option<usize>)> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut order: Vec<usize> = (0..candidates).collect();
        let mut pairings = Vec::new();
        for _ in 0..rounds {
            order.shuffle(&mut rng);
            for pair in order.chunks(2) {
                pairings.push((pair[0], pair.get(1).copied()));
            }
        }
        pairings
    }

    /// Game pairs each candidate plays for a request of `games_each` games.
    fn rounds(games_each: u32) -> u32 {
        games_each.div_ceil(2).max(1)
    }
}

impl<G: GameFitness> Fitness for Tournament<G> {
    fn describe(&self) -> String {
        format!("a tournament among each generation's candidates: {}", self.source.describe())
    }

    fn plays_games(&self) -> bool {
        true
    }

    fn engine_under_test(&self) -> Option<&crate::play::engines::engine_process::EngineSpec> {
        GameFitness::engine_under_test(&self.source)
    }

    /// Each game is shared by two candidates, so a candidate's `games` cost half as many.
    fn games_per_trial(&self, games: u32) -> u32 {
        Self::rounds(games)
    }

    fn rank(
        &self,
        candidates: &[Vec<f64>],
        games_each: u32,
        seed: u64,
        stop: &AtomicBool,
    ) -> Result<Vec<Scored>> {
        if !self.source.duels() {
            bail!("a tournament needs a game source that can set two candidates against each other");
        }
        let pairings = Self::schedule(candidates.len(), Self::rounds(games_each), seed);
        let trials: Vec<Trial> = pairings
            .iter()
            .map(|&(a, b)| Trial {
                candidate: candidates[a].clone(),
                opponent: b.map(|b| candidates[b].clone()),
                games: 2,
            })
            .collect();
        let results = self.source.play(&trials, seed, stop, &mut |_| {})?;
        // Points from both sides of every game; the cost (games played, and their pairs when the
        // source plays pairs) once, on the pairing's first candidate, so that summing the costs
        // counts each game once.
        let mut points = vec![Games::default(); candidates.len()];
        let mut cost = vec![Games::default(); candidates.len()];
        for (&(a, b), result) in pairings.iter().zip(&results) {
            points[a].add(result);
            cost[a].add(result);
            if let Some(b) = b {
                points[b].add(&result.mirrored());
            }
        }
        Ok(points.iter().zip(cost).map(|(points, games)| Scored { fitness: points.score(), games }).collect())
    }

    fn compare(&self, pairs: &[(Vec<f64>, Vec<f64>)], seed: u64, stop: &AtomicBool) -> Result<Vec<Compared>> {
        Fitness::compare(&self.source, pairs, seed, stop)
    }

    fn outcomes(&self, candidates: &[Vec<f64>], seed: u64, stop: &AtomicBool) -> Result<Vec<Games>> {
        Fitness::outcomes(&self.source, candidates, seed, stop)
    }
}

#[cfg(test)]
#[path = "tournament_tests.rs"]
mod tests;
