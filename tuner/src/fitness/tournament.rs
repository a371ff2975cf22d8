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
mod tests {
    use super::*;
    use crate::fitness::games::tests::{judge, pair_judge, Judge};

    #[test]
    fn every_candidate_plays_its_rounds_and_each_game_counts_for_both_sides() {
        let t = Tournament { source: judge(true) };
        let candidates: Vec<Vec<f64>> = (0..8).map(|i| vec![i as f64]).collect();
        // Four games each: two rounds of four pairings, one game pair each.
        let scored = t.rank(&candidates, 4, 11, &AtomicBool::new(false)).unwrap();
        assert_eq!(t.source.asked.lock().unwrap().len(), 8, "2 rounds x 4 pairings");
        let played: u64 = scored.iter().map(|s| s.games.played()).sum();
        assert_eq!(played, 16, "8 game pairs, each game counted once");
        // The strongest can only win, the weakest only lose: the ranking follows strength.
        assert_eq!(scored[7].fitness, 1.0);
        assert_eq!(scored[0].fitness, 0.0);
        assert_eq!(t.games_per_trial(4), 2, "each game is shared by two candidates");
    }

    #[test]
    fn an_odd_one_out_plays_the_reference_and_the_schedule_follows_the_seed() {
        let schedule = Tournament::<Judge>::schedule(5, 3, 2);
        assert_eq!(schedule.len(), 9, "three rounds of two pairings and one bye");
        assert_eq!(schedule.iter().filter(|(_, b)| b.is_none()).count(), 3);
        for round in schedule.chunks(3) {
            let mut seen: Vec<usize> = round.iter().flat_map(|&(a, b)| [Some(a), b]).flatten().collect();
            seen.sort();
            assert_eq!(seen, [0, 1, 2, 3, 4], "every candidate plays once a round");
        }
        assert_eq!(schedule, Tournament::<Judge>::schedule(5, 3, 2));
        assert_ne!(schedule, Tournament::<Judge>::schedule(5, 3, 3));
        let t = Tournament { source: judge(true) };
        let candidates: Vec<Vec<f64>> = [-1.0, 1.0, 2.0].iter().map(|&v| vec![v]).collect();
        let scored = t.rank(&candidates, 2, 5, &AtomicBool::new(false)).unwrap();
        let asked = t.source.asked.lock().unwrap();
        assert_eq!(asked.iter().filter(|trial| trial.opponent.is_none()).count(), 1);
        assert_eq!(scored.iter().map(|s| s.games.played()).sum::<u64>(), 4, "two pairs: one duel, one bye");
    }

    #[test]
    fn a_tournament_of_pairs_counts_each_pair_once_in_its_cost() {
        let t = Tournament { source: pair_judge(true) };
        let candidates: Vec<Vec<f64>> = (0..4).map(|i| vec![i as f64]).collect();
        let scored = t.rank(&candidates, 4, 3, &AtomicBool::new(false)).unwrap();
        let mut pairs = crate::play::games::stats::Pentanomial::default();
        for s in &scored {
            pairs.merge(&s.games.pairs);
            assert_eq!(2 * s.games.pairs.pairs(), s.games.played(), "{s:?}");
        }
        // Two rounds of two pairings, every pair 1½ points for the stronger side: from the
        // pairing's first candidate, 1½ or ½.
        assert_eq!(pairs.pairs(), 4);
        assert_eq!(pairs.0[1] + pairs.0[3], 4, "{pairs:?}");
        assert_eq!(scored[3].fitness, 0.75, "the strongest scores 1½ of 2 in every pair");
    }
}
