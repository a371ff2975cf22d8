//! Match statistics as fastchess, cutechess-cli and OpenBench report them, from the first
//! engine's point of view: W/L/D, pentanomial pair counts, logistic Elo with its 95% interval
//! (per-game or per-pair variance), normalised Elo (nElo), LOS, the generalised SPRT over the
//! pentanomial (or trinomial) distribution, and a performance rating against rated opponents.
//!
//! The SPRT is the GSPRT of Michel Van den Bergh ("Comparing the approximations for the
//! generalized log likelihood ratio of a multinomial distribution"; "Comments on normalized Elo"):
//! the log-likelihood ratio of the empirical distribution under the maximum-likelihood
//! distributions whose expected score (logistic) or normalised score (nElo) equals each bound.

use std::fmt;

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

/// The 97.5% quantile of the standard normal distribution: a 95% two-sided interval.
const Z95: f64 = 1.959_963_984_540_054;

/// nElo per unit of normalised score: 800 / ln 10.
pub(crate) const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// One game's result for the first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameScore {
    Win,
    Draw,
    Loss,
}

/// Wins, losses and draws of the first engine: the plain count of games every richer count
/// builds on (a match's [`MatchTally`], a fitness's [`Games`]).
///
/// [`MatchTally`]: crate::play::games::tally::MatchTally
/// [`Games`]: crate::fitness::Games
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wld {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Wld {
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points per game, in [0, 1] (0.5 with no games).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games().max(1) as f64
    }

    pub fn record(&mut self, score: GameScore) {
        match score {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// Adds another count.
    pub fn merge(&mut self, other: &Wld) {
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
    }

    /// The same games from the other engine's side.
    pub fn mirrored(&self) -> Wld {
        Wld { wins: self.losses, losses: self.wins, draws: self.draws }
    }
}

/// Game pairs by the first engine's points over the pair: 0, ½, 1, 1½, 2 (LL, LD, WL or DD, WD,
/// WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    pub fn add(&mut self, first: GameScore, second: GameScore) {
        let half_points = |s: GameScore| match s {
            GameScore::Win => 2,
            GameScore::Draw => 1,
            GameScore::Loss => 0,
        };
        self.0[half_points(first) + half_points(second)] += 1;
    }

    /// Adds another set of pair counts.
    pub fn merge(&mut self, other: &Pentanomial) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine += theirs;
        }
    }

    /// The same pairs from the other engine's side.
    pub fn mirrored(&self) -> Pentanomial {
        let mut counts = self.0;
        counts.reverse();
        Pentanomial(counts)
    }

    /// Points over the pairs (each pair worth 2).
    pub fn points(&self) -> f64 {
        self.0.iter().enumerate().map(|(half, &c)| 0.5 * half as f64 * c as f64).sum()
    }
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    pub elo: f64,
    /// Half the interval's width, as fastchess prints it after `+/-`.
    pub error: f64,
    pub lower: f64,
    pub upper: f64,
}

/// Logistic Elo of an expected score: `-400 log10(1/s - 1)`. Scores of exactly 0 or 1 give
/// infinite Elo; callers clamp (see [`clamp_score`]).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score of a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Keeps a score inside (0, 1) so that a run of only wins or only losses still has a finite Elo
/// (±1,200 or so, the Elo of a score of 0.001 from 1).
fn clamp_score(score: f64) -> f64 {
    score.clamp(1e-3, 1.0 - 1e-3)
}

/// Mean and variance of a discrete distribution: outcomes `x` with counts `n`.
fn mean_variance(x: &[f64], n: &[u64]) -> (f64, f64, f64) {
    let total: f64 = n.iter().map(|&c| c as f64).sum();
    if total == 0.0 {
        return (0.5, 0.0, 0.0);
    }
    let mean = x.iter().zip(n).map(|(x, &c)| x * c as f64).sum::<f64>() / total;
    let var = x.iter().zip(n).map(|(x, &c)| c as f64 * (x - mean).powi(2)).sum::<f64>() / total;
    (mean, var, total)
}

/// The Elo of `mean` with the interval `mean ± Z95 * sqrt(var / count)`.
fn interval(mean: f64, var: f64, count: f64, to_elo: impl Fn(f64) -> f64) -> EloEstimate {
    let spread = if count > 0.0 { Z95 * (var / count).sqrt() } else { 0.0 };
    let (elo, lower, upper) = (to_elo(mean), to_elo(mean - spread), to_elo(mean + spread));
    EloEstimate { elo, error: (upper - lower) / 2.0, lower, upper }
}

/// Logistic Elo with the per-game (trinomial) variance, as cutechess-cli reports it.
pub fn trinomial_elo(wld: &Wld) -> EloEstimate {
    let (mean, var, games) = mean_variance(&[0.0, 0.5, 1.0], &[wld.losses, wld.draws, wld.wins]);
    interval(mean, var, games, |s| elo_from_score(clamp_score(s)))
}

/// Per-pair score (points over the pair / 2), its variance, and the number of pairs.
fn pair_stats(p: &Pentanomial) -> (f64, f64, f64) {
    mean_variance(&[0.0, 0.25, 0.5, 0.75, 1.0], &p.0)
}

/// The variance of a pair's score (points over the pair / 2) in these counts.
pub fn pair_score_variance(p: &Pentanomial) -> f64 {
    pair_stats(p).1
}

/// Logistic Elo with the per-pair (pentanomial) variance, as fastchess reports it: pairs share
/// an opening, so their games are correlated and the per-game variance would overstate the
/// error.
pub fn pentanomial_elo(p: &Pentanomial) -> EloEstimate {
    let (mean, var, pairs) = pair_stats(p);
    interval(mean, var, pairs, |s| elo_from_score(clamp_score(s)))
}

/// Normalised Elo (nElo, fastchess and OpenBench): the score's distance from ½ in units of its
/// per-pair standard deviation, `(s - ½) / sqrt(2 var) * 800 / ln 10`; independent of the draw
/// rate, so results at different time controls compare.
pub fn normalized_elo(p: &Pentanomial) -> EloEstimate {
    let (mean, var, pairs) = pair_stats(p);
    if var <= 0.0 {
        return EloEstimate { elo: 0.0, error: 0.0, lower: 0.0, upper: 0.0 };
    }
    interval(mean, var, pairs, |s| (s - 0.5) / (2.0 * var).sqrt() * NELO_PER_T)
}

/// Likelihood of superiority from the game results, as fastchess prints it for games without
/// pairs: `Φ((s - ½) / sqrt(var / games))` with the per-game variance.
pub fn los(wld: &Wld) -> f64 {
    let (mean, var, games) = mean_variance(&[0.0, 0.5, 1.0], &[wld.losses, wld.draws, wld.wins]);
    superiority(mean, var, games)
}

/// Likelihood of superiority from the pair scores, as fastchess prints it:
/// `Φ((s - ½) / sqrt(var / pairs))` with the per-pair variance.
pub fn los_pentanomial(p: &Pentanomial) -> f64 {
    let (mean, var, pairs) = pair_stats(p);
    superiority(mean, var, pairs)
}

/// `Φ((mean - ½) / sqrt(var / count))`; certain (0 or 1) when there is no spread, ½ with no data.
fn superiority(mean: f64, var: f64, count: f64) -> f64 {
    if count == 0.0 || var <= 0.0 {
        return if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        };
    }
    standard_normal_cdf((mean - 0.5) / (var / count).sqrt())
}

fn standard_normal_cdf(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// What an SPRT's Elo bounds mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EloModel {
    Logistic,
    Normalized,
}

/// A sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SprtDecision {
    AcceptH0,
    AcceptH1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::AcceptH0 => "H0 was accepted",
            SprtDecision::AcceptH1 => "H1 was accepted",
        })
    }
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: EloModel) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return Err(format!("elo0 ({elo0}) must be less than elo1 ({elo1})"));
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(format!("{name} ({value}) must lie strictly between 0 and 1"));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(format!("alpha + beta ({}) must be less than 1", alpha + beta));
        }
        Ok(Sprt { elo0, elo1, alpha, beta, model })
    }

    /// Wald's bounds: (ln(β / (1 - α)), ln((1 - β) / α)).
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the pair results.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        self.llr_of(&[0.0, 0.25, 0.5, 0.75, 1.0], &p.0, std::f64::consts::SQRT_2)
    }

    /// The log-likelihood ratio of the game results, for runs without pairs.
    pub fn llr_trinomial(&self, wld: &Wld) -> f64 {
        self.llr_of(&[0.0, 0.5, 1.0], &[wld.losses, wld.draws, wld.wins], 1.0)
    }

    /// `nelo_scale`: nElo bounds become normalised scores per outcome as bound / (800 / ln 10),
    /// times √2 for pairs (a pair's score is the mean of two games).
    fn llr_of(&self, scores: &[f64], counts: &[u64], nelo_scale: f64) -> f64 {
        if counts.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        // Empty outcome classes get a tiny count, so the distribution has full support (as
        // fastchess does); this changes the LLR by a negligible amount.
        let regularised: Vec<f64> = counts.iter().map(|&c| if c == 0 { 1e-3 } else { c as f64 }).collect();
        let total: f64 = regularised.iter().sum();
        let probs: Vec<f64> = regularised.iter().map(|c| c / total).collect();
        let (p0, p1) = match self.model {
            EloModel::Logistic => (
                mle_with_mean(scores, &probs, score_from_elo(self.elo0)),
                mle_with_mean(scores, &probs, score_from_elo(self.elo1)),
            ),
            EloModel::Normalized => (
                mle_with_t(scores, &probs, nelo_scale * self.elo0 / NELO_PER_T),
                mle_with_t(scores, &probs, nelo_scale * self.elo1 / NELO_PER_T),
            ),
        };
        total * probs.iter().zip(p0.iter().zip(&p1)).map(|(p, (a, b))| p * (b.ln() - a.ln())).sum::<f64>()
    }

    pub fn decision(&self, llr: f64) -> Option<SprtDecision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::AcceptH1)
        } else if llr <= lower {
            Some(SprtDecision::AcceptH0)
        } else {
            None
        }
    }
}

/// The distribution over `scores` closest to `probs` (maximum likelihood) whose mean is `s`:
/// `p_i = probs_i / (1 + θ (a_i - s))`, θ the root of `Σ probs_i (a_i - s) / (1 + θ (a_i - s))`
/// (Van den Bergh, Proposition 1.1).
fn mle_with_mean(scores: &[f64], probs: &[f64], s: f64) -> Vec<f64> {
    let deviations: Vec<f64> = scores.iter().map(|a| a - s).collect();
    let theta = solve_theta(probs, &deviations);
    probs.iter().zip(&deviations).map(|(p, d)| p / (1.0 + theta * d)).collect()
}

/// The distribution closest to `probs` whose normalised score `(mean - ½) / sd` is `t`: a fixed
/// point of `p_i = probs_i / (1 + θ φ_i)` with `φ_i = a_i - ½ - t sd (1 + ((a_i - mean)/sd)²) / 2`
/// (Van den Bergh, "Comments on normalized Elo", section 4.1), from the uniform distribution.
fn mle_with_t(scores: &[f64], probs: &[f64], t: f64) -> Vec<f64> {
    let n = scores.len();
    let mut p = vec![1.0 / n as f64; n];
    for _ in 0..10 {
        let mean: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
        let sd = scores.iter().zip(&p).map(|(a, q)| q * (a - mean).powi(2)).sum::<f64>().sqrt();
        let phi: Vec<f64> =
            scores.iter().map(|a| a - 0.5 - 0.5 * t * sd * (1.0 + ((a - mean) / sd).powi(2))).collect();
        let theta = solve_theta(probs, &phi);
        let mut change: f64 = 0.0;
        for i in 0..n {
            let next = probs[i] / (1.0 + theta * phi[i]);
            change = change.max((next - p[i]).abs());
            p[i] = next;
        }
        if change < 1e-9 {
            break;
        }
    }
    p
}

/// The root θ of `f(θ) = Σ probs_i d_i / (1 + θ d_i)` inside the interval where every
/// `1 + θ d_i > 0` (there f falls strictly from +∞ to -∞), by bisection.
fn solve_theta(probs: &[f64], d: &[f64]) -> f64 {
    let (lo_d, hi_d) =
        d.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    if !(lo_d < 0.0 && hi_d > 0.0) {
        return 0.0;
    }
    let f = |theta: f64| probs.iter().zip(d).map(|(p, x)| p * x / (1.0 + theta * x)).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / hi_d, -1.0 / lo_d);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The rating at which the logistic expected scores against `(rating, games, points)` opponents
/// add up to the points scored (FIDE's and Ordo's performance). A perfect or zero score has no
/// finite solution; its points are moved half a point inward first. None without games.
pub fn performance_rating(results: &[(f64, f64, f64)]) -> Option<f64> {
    let games: f64 = results.iter().map(|r| r.1).sum();
    if games <= 0.0 {
        return None;
    }
    let points = results
        .iter()
        .map(|r| r.2)
        .sum::<f64>()
        .clamp(0.5_f64.min(games / 2.0), games - 0.5_f64.min(games / 2.0));
    let expected = |r: f64| results.iter().map(|&(opp, n, _)| n * score_from_elo(r - opp)).sum::<f64>();
    let (mut lo, mut hi) = (-10_000.0, 20_000.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if expected(mid) < points {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;
