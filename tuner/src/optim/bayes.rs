//! Bayesian optimisation over a Gaussian process, as chess-tuning-tools (built on bayes-skopt)
//! runs it: an initial space-filling design (a Latin hypercube), then batches of points chosen by
//! an acquisition function (`acquisition.rs`) from the posterior of a Gaussian process (`gp.rs`)
//! fitted to every point played so far; the estimate is the maximum of the posterior mean.
//!
//! Each point is a batch of games at one parameter vector: its value is the mean score of those
//! games. When they were played in pairs (one opening, each side once with each colour, as
//! self-play and UCI engines play them), its noise variance is the variance of the pair scores
//! (the pentanomial counts, as fastchess and OpenBench measure a match) over its pairs: the two
//! games of a pair share an opening, so they are correlated, and the per-game variance misstates
//! the noise (overstates it when the openings are lopsided, which they are). The pair counts are
//! shrunk toward the run's pooled pair frequencies (a Dirichlet prior of [`PRIOR_PAIRS`] pairs,
//! the same 16 games). Games not played in pairs (a command's, CLOP's test problems) take their
//! noise from their win/draw/loss counts in the same way, with a prior of [`PRIOR_GAMES`] games
//! at the pooled outcome frequencies, so a point of two games neither claims no noise after two
//! wins nor ignores its own draws. An exact fitness (the Texel loss) gives values without noise.
//! Points use unit coordinates, `[-1, 1]` per parameter; higher values are better.
//!
//! Cost: the process is conditioned on every point (one Cholesky factorisation, O(n³)), but its
//! hyperparameters are refitted only when the points have grown by `refit_rate`, on at most
//! `fit_points` of them (evenly strided), and a point gets more games as the run grows
//! (`replication`), as CLOP replicates its samples, so a long run keeps a few hundred points.
//!
//! The state serialises whole (the fitted model is rebuilt from it, deterministically), and every
//! random draw comes from the generator the caller passes for the step, so a resumed run is the
//! uninterrupted one.

use anyhow::{bail, Result};
use rand::Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

use super::acquisition::{self, Acquisition};
use super::clop_problems::{Problem, Solver};
use super::gp::{self, Gp, Hyper};
use crate::play::games::stats::{Pentanomial, Wld};

/// Games of prior weight in each point's outcome frequencies (at the run's pooled frequencies).
pub const PRIOR_GAMES: f64 = 16.0;

/// Game pairs of prior weight in each point's pair-score frequencies (at the run's pooled pair
/// frequencies): the same 16 games as [`PRIOR_GAMES`].
pub const PRIOR_PAIRS: f64 = PRIOR_GAMES / 2.0;

/// A pair's score (its points / 2) by pentanomial class.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The largest number of values `--metric auto` gives a full metric. Measured at 10,000 games
/// (docs/tuning.md): on Correlated (2 values) the full metric took the regret from 0.0075 to
/// 0.0016; on Log5 (5 independent values) it raised it from 0.022 to 0.17, its 10 correlations
/// fitted to noise.
pub const FULL_METRIC_MAX_DIMS: usize = 3;

/// The kernel's metric (`--metric`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MetricKind {
    /// One length scale per value.
    #[default]
    Axes,
    /// A full metric: the kernel's principal directions are learnt.
    Full,
    /// Full up to [`FULL_METRIC_MAX_DIMS`] values, per axis above.
    Auto,
}

impl MetricKind {
    pub const NAMES: [&'static str; 3] = ["auto", "axes", "full"];

    pub fn parse(name: &str) -> Result<MetricKind> {
        Ok(match name.to_ascii_lowercase().as_str() {
            "auto" => MetricKind::Auto,
            "axes" => MetricKind::Axes,
            "full" => MetricKind::Full,
            other => bail!("unknown metric {other:?}; known: {}", Self::NAMES.join(", ")),
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            MetricKind::Auto => "auto",
            MetricKind::Axes => "axes",
            MetricKind::Full => "full",
        }
    }

    /// Whether a space of `dims` values gets the full metric.
    pub fn is_full(self, dims: usize) -> bool {
        match self {
            MetricKind::Axes => false,
            MetricKind::Full => true,
            MetricKind::Auto => dims <= FULL_METRIC_MAX_DIMS,
        }
    }
}

/// The optimiser's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BayesSettings {
    pub acquisition: Acquisition,
    /// Points of the initial design (a Latin hypercube; with a start, the start is one of them).
    pub initial_points: usize,
    /// Points per step, played together.
    pub batch: usize,
    /// Games at each point before any replication.
    pub games_per_point: u32,
    /// Each point gets `games_per_point` more games per `replication` points already played
    /// (0: never more).
    pub replication: usize,
    /// Candidates the acquisition function chooses from (half spread over the box, half around
    /// the current best).
    pub candidates: usize,
    /// At most this many points (evenly strided) fit the hyperparameters.
    pub fit_points: usize,
    /// Refit the hyperparameters when the points have grown by this fraction.
    pub refit_rate: f64,
    /// L-BFGS steps per start of a hyperparameter fit.
    pub fit_iterations: usize,
    /// The kernel's metric: one length scale per axis, or full (its principal directions
    /// learnt, `gp.rs`), or full up to [`FULL_METRIC_MAX_DIMS`] values. (Absent from a checkpoint
    /// of an older run: axis-aligned.)
    #[serde(default)]
    pub metric: MetricKind,
    /// Each input is warped by a learnt Kumaraswamy distribution function (`gp.rs`).
    #[serde(default)]
    pub warp_inputs: bool,
}

impl Default for BayesSettings {
    fn default() -> Self {
        BayesSettings {
            acquisition: Acquisition::Kg,
            initial_points: 16,
            batch: 4,
            games_per_point: 4,
            replication: 20,
            candidates: 300,
            fit_points: 200,
            refit_rate: 0.2,
            fit_iterations: 50,
            metric: MetricKind::Auto,
            warp_inputs: false,
        }
    }
}

impl BayesSettings {
    /// Refuses settings the optimiser cannot run with.
    pub fn check(&self) -> Result<()> {
        if self.initial_points < 2 {
            bail!(
                "--n-initial-points {}: the Gaussian process needs at least 2 initial points",
                self.initial_points
            );
        }
        if self.batch == 0 || self.games_per_point == 0 || self.candidates < 2 || self.fit_points < 2 {
            bail!("the batch, the games per point, the candidates and the fit points must be positive");
        }
        if !(self.refit_rate >= 0.0 && self.refit_rate.is_finite()) {
            bail!("the refit rate must be a non-negative number");
        }
        Ok(())
    }
}

/// One played point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// Unit coordinates.
    pub x: Vec<f64>,
    /// The mean score of its games, or the exact fitness.
    pub value: f64,
    /// Its games (none for an exact fitness).
    pub games: Wld,
    /// Its games' pairs, when every game was played in a pair; empty otherwise (single games,
    /// and every point of a checkpoint written before pairs were kept).
    #[serde(default)]
    pub pairs: Pentanomial,
}

/// What the model says of its best point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The maximum of the posterior mean, in unit coordinates.
    pub x: Vec<f64>,
    /// The predicted value there (score, or fitness) and its posterior standard deviation.
    pub value: f64,
    pub sd: f64,
    /// Per parameter, the range (unit coordinates) of the points whose predicted value is within
    /// one and within two of those standard deviations of the optimum's.
    pub within_1sd: Vec<(f64, f64)>,
    pub within_2sd: Vec<(f64, f64)>,
    /// The length scales of the model, in unit coordinates.
    pub lengths: Vec<f64>,
}

/// The Bayesian optimiser's state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Bayes {
    dims: usize,
    settings: BayesSettings,
    /// Values are exact (no games, no noise).
    exact: bool,
    seed: u64,
    /// Initial design points not yet handed out.
    design: Vec<Vec<f64>>,
    observations: Vec<Observation>,
    hyper: Option<Hyper>,
    /// Point count at which the hyperparameters are refitted next.
    next_refit: usize,
    /// The process conditioned on every observation (rebuilt from the rest after a resume).
    #[serde(skip)]
    model: Option<Gp>,
}

/// A Latin hypercube of `n` points over `[-1, 1]^dims`: each parameter's range cut into `n`
/// slices, one point in each, the slices' order shuffled per parameter.
pub fn latin_hypercube(n: usize, dims: usize, rng: &mut impl Rng) -> Vec<Vec<f64>> {
    let mut points = vec![vec![0.0; dims]; n];
    for d in 0..dims {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for (p, slice) in points.iter_mut().zip(order) {
            p[d] = -1.0 + 2.0 * (slice as f64 + rng.random::<f64>()) / n as f64;
        }
    }
    points
}

/// The variance of one pair's score under pair-class weights `weights` (not normalised).
fn pair_variance(weights: &[f64; 5]) -> f64 {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    let mean = PAIR_SCORES.iter().zip(weights).map(|(s, w)| s * w).sum::<f64>() / total;
    PAIR_SCORES.iter().zip(weights).map(|(s, w)| w * (s - mean).powi(2)).sum::<f64>() / total
}

/// The noise variance of the mean pair score of `pairs`: the per-pair variance of its counts
/// shrunk toward the frequencies of `pooled` (a Dirichlet prior of [`PRIOR_PAIRS`] pairs), over
/// its pair count. (With two independent games a pair, this is the per-game variance over the
/// games, as for single games.)
fn pair_noise(pairs: &Pentanomial, pooled: &Pentanomial) -> f64 {
    let total = pooled.pairs().max(1) as f64;
    let weights: [f64; 5] =
        std::array::from_fn(|k| pairs.0[k] as f64 + PRIOR_PAIRS * pooled.0[k] as f64 / total);
    pair_variance(&weights) / pairs.pairs() as f64
}

fn normal(rng: &mut impl Rng) -> f64 {
    rng.sample(StandardNormal)
}

fn uniform_point(dims: usize, rng: &mut impl Rng) -> Vec<f64> {
    (0..dims).map(|_| rng.random_range(-1.0..=1.0)).collect()
}

/// Index of the largest finite value.
fn argmax(values: &[f64]) -> usize {
    values
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_finite())
        .fold(0, |b, (i, v)| if *v > values[b] { i } else { b })
}

impl Bayes {
    /// A fresh optimiser over `[-1, 1]^dims`; the design is drawn from `seed`, and `start` (the
    /// starting values, when there are some) is its first point.
    pub fn new(
        dims: usize,
        settings: BayesSettings,
        exact: bool,
        seed: u64,
        start: Option<&[f64]>,
    ) -> Result<Bayes> {
        if dims == 0 {
            bail!("nothing to tune: the space has no parameters");
        }
        settings.check()?;
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        let mut design = latin_hypercube(settings.initial_points, dims, &mut rng);
        if let Some(start) = start {
            if start.len() != dims {
                bail!("the start has {} values for {dims} parameters", start.len());
            }
            design[0] = start.iter().map(|v| v.clamp(-1.0, 1.0)).collect();
        }
        Ok(Bayes {
            dims,
            settings,
            exact,
            seed,
            design,
            observations: Vec::new(),
            hyper: None,
            next_refit: 0,
            model: None,
        })
    }

    pub fn settings(&self) -> &BayesSettings {
        &self.settings
    }

    pub fn observations(&self) -> &[Observation] {
        &self.observations
    }

    /// Games the next point gets.
    pub fn games_per_point(&self) -> u32 {
        let base = self.settings.games_per_point;
        match self.settings.replication {
            0 => base,
            r => base.saturating_mul(1 + (self.observations.len() / r) as u32),
        }
    }

    /// Records the games played at `x`, not in pairs (a point whose games all failed records
    /// nothing).
    pub fn record_games(&mut self, x: &[f64], games: Wld) -> Result<()> {
        self.record_paired_games(x, games, Pentanomial::default())
    }

    /// Records the games played at `x` and, when they were played in pairs, the pairs' counts
    /// (`pairs` empty: single games), which must then hold every game.
    pub fn record_paired_games(&mut self, x: &[f64], games: Wld, pairs: Pentanomial) -> Result<()> {
        if games.games() == 0 {
            return Ok(());
        }
        let points = games.wins as f64 + 0.5 * games.draws as f64;
        if pairs.pairs() > 0 && (2 * pairs.pairs() != games.games() || pairs.points() != points) {
            bail!("the pairs {:?} are not the games {games:?}", pairs.0);
        }
        self.push(x, games.score(), games, pairs)
    }

    /// Records an exact value at `x`.
    pub fn record_value(&mut self, x: &[f64], value: f64) -> Result<()> {
        self.push(x, value, Wld::default(), Pentanomial::default())
    }

    fn push(&mut self, x: &[f64], value: f64, games: Wld, pairs: Pentanomial) -> Result<()> {
        if x.len() != self.dims || x.iter().any(|v| !v.is_finite()) || !value.is_finite() {
            bail!(
                "a point of {} values (expected {}) or its value {value} is not usable",
                x.len(),
                self.dims
            );
        }
        let x = x.iter().map(|v| v.clamp(-1.0, 1.0)).collect();
        self.observations.push(Observation { x, value, games, pairs });
        self.model = None;
        Ok(())
    }

    /// The observations as the process takes them: points, values and noise variances (from
    /// the pairs where the games were played in pairs, from the games otherwise).
    fn data(&self) -> (Vec<Vec<f64>>, Vec<f64>, Vec<f64>) {
        let mut pooled = Wld::default();
        let mut pooled_pairs = Pentanomial::default();
        for o in &self.observations {
            pooled.wins += o.games.wins;
            pooled.draws += o.games.draws;
            pooled.losses += o.games.losses;
            pooled_pairs.merge(&o.pairs);
        }
        let total = pooled.games().max(1) as f64;
        let prior =
            [pooled.losses as f64, pooled.draws as f64, pooled.wins as f64].map(|c| PRIOR_GAMES * c / total);
        let noise = |o: &Observation| -> f64 {
            if self.exact || o.games.games() == 0 {
                return 0.0;
            }
            if o.pairs.pairs() > 0 {
                return pair_noise(&o.pairs, &pooled_pairs);
            }
            let n = o.games.games() as f64;
            let counts = [o.games.losses as f64, o.games.draws as f64, o.games.wins as f64];
            let m: Vec<f64> = counts.iter().zip(prior).map(|(c, a)| (c + a) / (n + PRIOR_GAMES)).collect();
            let mean = 0.5 * m[1] + m[2];
            let per_game = m[0] * mean * mean + m[1] * (0.5 - mean).powi(2) + m[2] * (1.0 - mean).powi(2);
            per_game / n
        };
        let x = self.observations.iter().map(|o| o.x.clone()).collect();
        let y = self.observations.iter().map(|o| o.value).collect();
        let noise = self.observations.iter().map(noise).collect();
        (x, y, noise)
    }

    /// The noise variance of a new point's value: the pooled per-pair variance over its pairs
    /// when the games come in pairs, else the pooled per-game variance over its games.
    fn new_point_noise(&self) -> f64 {
        if self.exact {
            return 0.0;
        }
        let mut pooled_pairs = Pentanomial::default();
        for o in &self.observations {
            pooled_pairs.merge(&o.pairs);
        }
        if pooled_pairs.pairs() > 0 {
            // A game source that plays pairs rounds a point's games up to pairs.
            let pairs = self.games_per_point().div_ceil(2).max(1);
            return pair_variance(&pooled_pairs.0.map(|c| c as f64)) / pairs as f64;
        }
        let games: Vec<&Wld> = self.observations.iter().map(|o| &o.games).collect();
        let n: u64 = games.iter().map(|g| g.games()).sum();
        if n == 0 {
            return 0.0;
        }
        let mean = games.iter().map(|g| g.wins as f64 + 0.5 * g.draws as f64).sum::<f64>() / n as f64;
        let sq = games
            .iter()
            .map(|g| {
                g.wins as f64 * (1.0 - mean).powi(2)
                    + g.draws as f64 * (0.5 - mean).powi(2)
                    + g.losses as f64 * mean * mean
            })
            .sum::<f64>();
        sq / n as f64 / self.games_per_point() as f64
    }

    /// Fits the hyperparameters when due and conditions the process on every observation.
    fn ensure_model(&mut self) -> Result<()> {
        let n = self.observations.len();
        if n == 0 {
            bail!("no points played yet: the model has nothing to fit");
        }
        if self.model.as_ref().is_some_and(|m| m.len() == n) {
            return Ok(());
        }
        let (x, y, noise) = self.data();
        if self.hyper.is_none() || n >= self.next_refit {
            let m = self.settings.fit_points.min(n);
            let pick: Vec<usize> = (0..m).map(|i| i * n / m).collect();
            let sub = |v: &[f64]| pick.iter().map(|&i| v[i]).collect::<Vec<f64>>();
            let xs: Vec<Vec<f64>> = pick.iter().map(|&i| x[i].clone()).collect();
            // Starts: the last fit, a neutral one, and one drawn from the run's seed and the
            // point count (so a resumed run draws the same).
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(
                whetstone::types::mix64(self.seed ^ (n as u64).wrapping_mul(whetstone::types::GOLDEN_GAMMA)),
            );
            let shape = gp::Shape {
                dims: self.dims,
                full: self.settings.metric.is_full(self.dims),
                warp: self.settings.warp_inputs,
            };
            let neutral = Hyper::neutral_shaped(shape);
            let mut starts: Vec<Hyper> =
                self.hyper.iter().filter(|h| h.shape() == neutral.shape()).cloned().collect();
            starts.push(neutral.clone());
            starts.push(Hyper {
                log_lengths: (0..self.dims).map(|_| rng.random_range(-2.5..0.5)).collect(),
                correlations: neutral.correlations.iter().map(|_| rng.random_range(-3.0..3.0)).collect(),
                log_warp: neutral.log_warp.iter().map(|_| rng.random_range(-0.5..0.5)).collect(),
                log_signal: rng.random_range(-2.0..1.0),
                log_noise: rng.random_range(-9.0..-3.0),
            });
            self.hyper = Some(gp::fit(&xs, &sub(&y), &sub(&noise), &starts, self.settings.fit_iterations)?);
            self.next_refit = n + ((n as f64 * self.settings.refit_rate).ceil() as usize).max(1);
        }
        let hyper = self.hyper.as_ref().expect("fitted above");
        self.model = Some(Gp::new(&x, &y, &noise, hyper)?);
        Ok(())
    }

    /// The observed point with the highest posterior mean (the incumbent).
    fn incumbent(gp: &Gp, observations: &[Observation]) -> Vec<f64> {
        let xs: Vec<Vec<f64>> = observations.iter().map(|o| o.x.clone()).collect();
        xs[argmax(&gp.means(&xs))].clone()
    }

    /// Random points over the box and around `centre` at several fractions of the kernel's
    /// length scales (along its principal directions when the metric is full).
    fn candidates(&self, gp: &Gp, centre: &[f64], count: usize, rng: &mut impl Rng) -> Vec<Vec<f64>> {
        let mut out: Vec<Vec<f64>> = (0..count / 2).map(|_| uniform_point(self.dims, rng)).collect();
        out.push(centre.to_vec());
        const SCALES: [f64; 4] = [0.02, 0.07, 0.2, 0.5];
        for k in 0..count.saturating_sub(out.len()) {
            let s = SCALES[k % SCALES.len()];
            let xi: Vec<f64> = (0..self.dims).map(|_| s * normal(rng)).collect();
            out.push(gp.shifted(centre, &xi));
        }
        out
    }

    /// The next points to play: the rest of the initial design first (at most `count`), then
    /// `count` points chosen by the acquisition function.
    pub fn suggest(&mut self, count: usize, rng: &mut impl Rng) -> Result<Vec<Vec<f64>>> {
        if !self.design.is_empty() {
            let take = count.min(self.design.len());
            return Ok(self.design.drain(..take).collect());
        }
        self.ensure_model()?;
        let noise = self.new_point_noise();
        let gp = self.model.as_ref().expect("built above");
        let centre = Self::incumbent(gp, &self.observations);
        let candidates = self.candidates(gp, &centre, self.settings.candidates, rng);
        let (mean, cov) = gp.joint(&candidates);
        let noise = noise + gp.extra_noise();
        let picks = acquisition::select(self.settings.acquisition, &mean, &cov, noise, count, rng)?;
        Ok(picks.into_iter().map(|i| candidates[i].clone()).collect())
    }

    /// The maximum of the posterior mean, its predicted value and the regions within one and two
    /// standard deviations of it.
    pub fn estimate(&mut self, rng: &mut impl Rng) -> Result<Estimate> {
        self.ensure_model()?;
        let gp = self.model.as_ref().expect("built above");
        let dims = self.dims;
        let centre = Self::incumbent(gp, &self.observations);
        let mut points = self.candidates(gp, &centre, (400 * dims).clamp(1000, 4000), rng);
        points.extend(self.observations.iter().map(|o| o.x.clone()));
        let means = gp.means(&points);
        let first = argmax(&means);
        let (mut x, mut best) = (points[first].clone(), means[first]);
        // Local random search with shrinking steps from the best candidate.
        for scale in [0.1, 0.03, 0.01, 0.003, 0.001] {
            for _ in 0..10 * dims.max(2) {
                let trial: Vec<f64> = x.iter().map(|v| (v + scale * normal(rng)).clamp(-1.0, 1.0)).collect();
                let v = gp.mean_at(&trial);
                if v > best {
                    (x, best) = (trial, v);
                }
            }
        }
        let (_, sd) = gp.predict(std::slice::from_ref(&x));
        let sd = sd[0];
        // Axis lines through the optimum, so each parameter's own range is found finely.
        for d in 0..dims {
            for k in 0..=100 {
                let mut p = x.clone();
                p[d] = -1.0 + 2.0 * k as f64 / 100.0;
                points.push(p);
            }
        }
        let means: Vec<f64> = gp.means(&points);
        let region = |z: f64| -> Vec<(f64, f64)> {
            let mut r: Vec<(f64, f64)> = x.iter().map(|v| (*v, *v)).collect();
            for (p, m) in points.iter().zip(&means) {
                if *m >= best - z * sd {
                    for (range, v) in r.iter_mut().zip(p) {
                        *range = (range.0.min(*v), range.1.max(*v));
                    }
                }
            }
            r
        };
        Ok(Estimate {
            within_1sd: region(1.0),
            within_2sd: region(2.0),
            x,
            value: best,
            sd,
            lengths: gp.hyper().lengths(),
        })
    }

    /// The posterior mean along parameter `dim` (a grid of `grid` points over `[-1, 1]`),
    /// averaged over `samples` random values of the other parameters (partial dependence), and
    /// along the line through `at` with its standard deviation: (grid, dependence, slice mean,
    /// slice sd).
    #[allow(clippy::type_complexity)]
    pub fn dependence_1d(
        &mut self,
        dim: usize,
        at: &[f64],
        grid: usize,
        samples: usize,
        rng: &mut impl Rng,
    ) -> Result<(Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>)> {
        self.ensure_model()?;
        let gp = self.model.as_ref().expect("built above");
        let xs: Vec<f64> = (0..grid).map(|k| -1.0 + 2.0 * k as f64 / (grid - 1).max(1) as f64).collect();
        let others: Vec<Vec<f64>> = (0..samples.max(1)).map(|_| uniform_point(self.dims, rng)).collect();
        let dependence = xs
            .iter()
            .map(|&v| {
                let pts: Vec<Vec<f64>> = others
                    .iter()
                    .map(|o| {
                        let mut p = o.clone();
                        p[dim] = v;
                        p
                    })
                    .collect();
                gp.means(&pts).iter().sum::<f64>() / pts.len() as f64
            })
            .collect();
        let line: Vec<Vec<f64>> = xs
            .iter()
            .map(|&v| {
                let mut p = at.to_vec();
                p[dim] = v;
                p
            })
            .collect();
        let (mean, sd) = gp.predict(&line);
        Ok((xs, dependence, mean, sd))
    }

    /// The partial dependence on parameters `i` and `j` over a `grid` × `grid` lattice (rows
    /// follow `j`, columns `i`), averaged over `samples` random values of the others.
    pub fn dependence_2d(
        &mut self,
        i: usize,
        j: usize,
        grid: usize,
        samples: usize,
        rng: &mut impl Rng,
    ) -> Result<Vec<Vec<f64>>> {
        self.ensure_model()?;
        let gp = self.model.as_ref().expect("built above");
        let axis = |k: usize| -1.0 + 2.0 * k as f64 / (grid - 1).max(1) as f64;
        let others: Vec<Vec<f64>> = (0..samples.max(1)).map(|_| uniform_point(self.dims, rng)).collect();
        Ok((0..grid)
            .map(|r| {
                (0..grid)
                    .map(|c| {
                        let pts: Vec<Vec<f64>> = others
                            .iter()
                            .map(|o| {
                                let mut p = o.clone();
                                p[i] = axis(c);
                                p[j] = axis(r);
                                p
                            })
                            .collect();
                        gp.means(&pts).iter().sum::<f64>() / pts.len() as f64
                    })
                    .collect()
            })
            .collect())
    }
}

/// The regret experiment's Bayesian optimiser: points in batches, each game's outcome drawn from
/// the problem, the estimate at the end.
impl Solver for BayesSettings {
    fn solve(&self, problem: &Problem, games: u64, seed: u64) -> Result<Vec<f64>> {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        let mut bayes = Bayes::new(problem.dims(), self.clone(), false, seed, None)?;
        let mut played = 0u64;
        while played < games {
            let per_point = bayes.games_per_point() as u64;
            let count = ((games - played).div_ceil(per_point) as usize).min(self.batch);
            let points = bayes.suggest(count, &mut rng)?;
            if points.is_empty() {
                bail!("the optimiser suggested no point");
            }
            for x in points {
                let n = per_point.min(games - played);
                let mut wld = Wld::default();
                for _ in 0..n {
                    wld.record(problem.play(&x, &mut rng));
                }
                bayes.record_games(&x, wld)?;
                played += n;
            }
        }
        let e = bayes.estimate(&mut rng)?;
        Ok(e.x)
    }
}

#[cfg(test)]
#[path = "bayes_tests.rs"]
mod tests;
