//! Population-based incremental learning (Baluja 1994; Baluja and Caruana 1995): each value is a
//! Gray-coded bit string within its bounds; a probability per bit; every generation a population
//! is sampled from the probabilities and scored, and the probabilities move toward the best
//! individual (and away from the worst where the two differ), then mutate a little.
//!
//! Gray code: neighbouring values differ in one bit, so a single bit flip can be a small step.
//! Learning defaults follow Baluja and Caruana (1995): learning rate 0.1, negative learning rate
//! 0.075, mutation probability 0.02, mutation shift 0.05.
//!
//! Two departures from textbook PBIL, both measured (docs/tuning.md): a chess evaluation is tuned from
//! a working one, so the probabilities start leaning toward the starting values
//! (`start_confidence` 0.8; 0.5 is the textbook uniform start); and with a thousand values,
//! bits over each value's whole range make every individual a wild jump, so by default each
//! integer codes only a window of 33 values around its start (`window` 16), and the window
//! moves to a value's estimate once that value's bits have decided. Over the whole range
//! (`window` None) the loss of 1,060 evaluation values only rose.
//!
//! A second update rule, for noisy fitnesses (`Update::Natural`): every individual's score moves
//! every bit, by the covariance of score and bit over the generation. This is the natural gradient
//! of the expected fitness for independent bits (Ollivier, Arnold, Auger and Hansen 2017,
//! "Information-geometric optimization", which shows PBIL and the compact GA of Harik, Lobo and
//! Goldberg 1999 as its special cases): in expectation it climbs, and a bit that does not matter
//! gets no push at all, where moving toward the best few lets such a bit drift to a side by luck.

use ndarray::{Array1, Array2, ArrayView1, Zip};
use rand::Rng;
use rand_distr::{Bernoulli, Distribution};
use serde::{Deserialize, Serialize};

use super::space::Space;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PbilSettings {
    pub population: usize,
    pub learning_rate: f64,
    pub negative_learning_rate: f64,
    pub mutation_probability: f64,
    pub mutation_shift: f64,
    /// Initial probability of each bit of the starting value (0.5: uniform over the bounds).
    pub start_confidence: f64,
    /// Integers: code only the 2·window+1 values around the start, and move that window to a
    /// value's estimate once its bits have decided. None: the whole range (textbook PBIL).
    pub window: Option<u32>,
    /// Also move a window when the estimate reaches its outer quarter (for noisy fitnesses).
    #[serde(default)]
    pub recentre_at_edge: bool,
    /// How a generation's scores move the probabilities.
    #[serde(default)]
    pub update: Update,
}

/// The natural update's default learning rate: in the recovery benchmark (games, 32 individuals,
/// two games each) 0.05 had moved three of eight values after 3,500 games; 0.15 won back 86% of
/// the loss in 10,000 (docs/tuning.md).
pub const NATURAL_LEARNING_RATE: f64 = 0.15;

/// The update rule of a generation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Update {
    /// Toward the best individual (or the mean of an elite) and away from the worst: Baluja's
    /// rule, with `learning_rate` and `negative_learning_rate`.
    #[default]
    Baluja,
    /// Each bit by the covariance of its value and the score over the whole generation, scaled
    /// so that a generation whose better half all share a bit the worse half lacks moves it by
    /// `learning_rate` (the natural gradient; for games).
    Natural,
}

impl Default for PbilSettings {
    fn default() -> PbilSettings {
        PbilSettings {
            population: 32,
            learning_rate: 0.1,
            negative_learning_rate: 0.075,
            mutation_probability: 0.02,
            mutation_shift: 0.05,
            start_confidence: 0.8,
            window: Some(16),
            recentre_at_edge: false,
            update: Update::Baluja,
        }
    }
}

impl std::str::FromStr for Update {
    type Err = String;

    fn from_str(name: &str) -> Result<Update, String> {
        match name {
            "baluja" => Ok(Update::Baluja),
            "natural" => Ok(Update::Natural),
            _ => Err(format!("no update rule {name:?}: baluja or natural")),
        }
    }
}

/// How each value maps to bits: `bits` Gray-coded bits spread evenly over `levels` values from
/// `low` (integers), or over the bounds in 4,096 steps (reals); results clamped to the bounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Code {
    bits: u32,
    low: f64,
    levels: u64,
    min: f64,
    max: f64,
    integer: bool,
}

impl Code {
    /// An integer's whole range, or with `window` the 2·window+1 values around `centre`.
    fn new(min: f64, max: f64, integer: bool, centre: f64, window: Option<u32>) -> Code {
        let (low, levels) = match (integer, window) {
            (true, Some(w)) => (centre - w as f64, 2 * w as u64 + 1),
            (true, None) => (min, (max - min).round() as u64 + 1),
            (false, _) => (min, 1 << 12),
        };
        let bits = 64 - (levels.max(2) - 1).leading_zeros();
        Code { bits, low, levels, min, max, integer }
    }

    /// The value of code word `k` (0..2^bits).
    fn value(&self, k: u64) -> f64 {
        let words = 1u64 << self.bits;
        let v = if self.integer {
            self.low + (k * self.levels / words) as f64
        } else {
            self.low + k as f64 * (self.max - self.min) / (words - 1) as f64
        };
        v.clamp(self.min, self.max)
    }

    /// The code word of `v` (the first word whose value is v, for integers).
    fn word(&self, v: f64) -> u64 {
        let words = 1u64 << self.bits;
        if self.integer {
            let offset = (v - self.low).round().clamp(0.0, (self.levels - 1) as f64) as u64;
            (offset * words).div_ceil(self.levels)
        } else {
            ((v.clamp(self.min, self.max) - self.min) / (self.max - self.min) * (words - 1) as f64).round()
                as u64
        }
    }
}

fn to_gray(k: u64) -> u64 {
    k ^ (k >> 1)
}

fn from_gray(mut g: u64) -> u64 {
    let mut k = g;
    while g > 1 {
        g >>= 1;
        k ^= g;
    }
    k
}

/// The whole state: saved in checkpoints, so a resumed run continues exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pbil {
    pub settings: PbilSettings,
    codes: Vec<Code>,
    /// Probability of a one, per bit, value after value (most significant bit first).
    pub probabilities: Array1<f64>,
}

/// A bit drawn as 1 with probability `p`: one 64-bit draw, so a seeded stream gives the same
/// bits as comparing a uniform draw with `p`.
fn bit(p: f64, rng: &mut impl Rng) -> bool {
    Bernoulli::new(p.clamp(0.0, 1.0)).expect("a clamped probability").sample(rng)
}

impl Pbil {
    pub fn new(space: &Space, settings: PbilSettings) -> Pbil {
        let codes: Vec<Code> =
            space.dims.iter().map(|d| Code::new(d.min, d.max, d.integer, d.start, settings.window)).collect();
        let bits: usize = codes.iter().map(|c| c.bits as usize).sum();
        let mut pbil = Pbil { settings, codes, probabilities: Array1::from_elem(bits, 0.5) };
        for (i, d) in space.dims.iter().enumerate() {
            pbil.lean_toward(i, d.start);
        }
        pbil
    }

    /// The first bit of value `i`.
    fn first_bit(&self, i: usize) -> usize {
        self.codes[..i].iter().map(|c| c.bits as usize).sum()
    }

    /// Sets value `i`'s bit probabilities to lean toward `v` by the start confidence.
    fn lean_toward(&mut self, i: usize, v: f64) {
        let c = self.settings.start_confidence.clamp(0.0, 1.0);
        let (code, at) = (&self.codes[i], self.first_bit(i));
        let gray = to_gray(code.word(v));
        for (n, b) in (0..code.bits).rev().enumerate() {
            self.probabilities[at + n] = if gray >> b & 1 == 1 { c } else { 1.0 - c };
        }
    }

    /// Windowed values whose bits have all decided (each probability within `margin` of 0 or 1),
    /// or with `recentre_at_edge` whose estimate has reached the outer quarter of the window, move
    /// their window to centre on their estimate and lean toward it again. Returns how many moved.
    /// The second rule is for noisy fitnesses (games): there a bit that hardly matters stays
    /// undecided for ever, and a value pressing against its window's edge would never be let out.
    /// With the Texel loss it cost the main job most of its gain (+17 ± 19 Elo against +95 ± 24),
    /// so it is off there.
    pub fn recentre(&mut self, margin: f64) -> usize {
        let Some(window) = self.settings.window else { return 0 };
        let estimate = self.estimate();
        let mut moved = 0;
        for (i, &value) in estimate.iter().enumerate() {
            let (code, at) = (&self.codes[i], self.first_bit(i));
            if !code.integer {
                continue;
            }
            let bits = self.probabilities.slice(ndarray::s![at..at + code.bits as usize]);
            let decided = bits.iter().all(|&p| p < margin || p > 1.0 - margin);
            let centre = code.low + window as f64;
            let at_edge = self.settings.recentre_at_edge && (value - centre).abs() >= 0.75 * window as f64;
            if (decided || at_edge) && value != centre {
                self.codes[i].low = value - window as f64;
                self.lean_toward(i, value);
                moved += 1;
            }
        }
        moved
    }

    pub fn bit_count(&self) -> usize {
        self.probabilities.len()
    }

    /// A population: one row of bits per individual, drawn from the probabilities (individual
    /// after individual, bit after bit, so a seed always draws the same population).
    pub fn sample_population(&self, individuals: usize, rng: &mut impl Rng) -> Array2<bool> {
        Array2::from_shape_fn((individuals, self.bit_count()), |(_, b)| bit(self.probabilities[b], rng))
    }

    /// The values an individual's bits stand for.
    pub fn decode(&self, bits: ArrayView1<bool>) -> Vec<f64> {
        let mut at = 0;
        self.codes
            .iter()
            .map(|code| {
                let word = bits.slice(ndarray::s![at..at + code.bits as usize]);
                let gray = word.iter().fold(0u64, |w, &b| (w << 1) | b as u64);
                at += code.bits as usize;
                code.value(from_gray(gray))
            })
            .collect()
    }

    /// The most likely individual: each bit as its probability leans. This is the run's estimate.
    pub fn estimate(&self) -> Vec<f64> {
        self.decode(self.probabilities.mapv(|p| p >= 0.5).view())
    }

    /// The update from several of the best and worst individuals: toward the mean bits of
    /// `best`, and further toward them by how much the best and worst disagree, then mutates.
    /// With one of each it is Baluja's update (toward the best; the negative step where the two
    /// differ). With games for a fitness, one best of a generation is mostly the luckiest; the
    /// mean of the top few keeps what they share, so the ranking as a whole drives the update.
    pub fn learn_from(&mut self, best: &[ArrayView1<bool>], worst: &[ArrayView1<bool>], rng: &mut impl Rng) {
        let mean = |rows: &[ArrayView1<bool>]| {
            let mut m = Array1::<f64>::zeros(self.probabilities.len());
            for row in rows {
                Zip::from(&mut m).and(row).for_each(|m, &b| *m += b as u8 as f64);
            }
            m / rows.len().max(1) as f64
        };
        let (top, bottom) = (mean(best), mean(worst));
        let s = &self.settings;
        Zip::from(&mut self.probabilities).and(&top).and(&bottom).for_each(|p, &t, &w| {
            *p = *p * (1.0 - s.learning_rate) + t * s.learning_rate;
            let step = s.negative_learning_rate * (t - w).abs();
            *p = *p * (1.0 - step) + t * step;
        });
        self.mutate(rng);
    }

    /// The natural-gradient update from a whole generation: `population` (one row of bits per
    /// individual) and its `scores` (higher is better). Each probability moves by
    /// `learning_rate · Σ (score - mean)(bit - p) / Σ (score - mean)⁺`: all of the step when the
    /// individuals above the mean all have the bit and those below all lack it, none when the
    /// scores are all equal (a drawn duel teaches nothing, as in the compact GA), and about none
    /// for a bit unrelated to the score. Probabilities stay within [0.02, 0.98], so no bit is
    /// ever certain (a certain bit could not come back), then mutate.
    pub fn learn_natural(&mut self, population: &Array2<bool>, scores: &[f64], rng: &mut impl Rng) {
        let mean = scores.iter().sum::<f64>() / scores.len().max(1) as f64;
        let above: f64 = scores.iter().map(|&s| (s - mean).max(0.0)).sum();
        if above > 0.0 {
            let rate = self.settings.learning_rate;
            for (b, p) in self.probabilities.iter_mut().enumerate() {
                let covariance: f64 = population
                    .column(b)
                    .iter()
                    .zip(scores)
                    .map(|(&bit, &s)| (s - mean) * (bit as u8 as f64 - *p))
                    .sum();
                *p = (*p + rate * covariance / above).clamp(0.02, 0.98);
            }
        }
        self.mutate(rng);
    }

    /// Baluja's mutation: each probability, with `mutation_probability`, shifts by
    /// `mutation_shift` toward 0 or 1 at random.
    fn mutate(&mut self, rng: &mut impl Rng) {
        let s = &self.settings;
        for p in &mut self.probabilities {
            if bit(s.mutation_probability, rng) {
                let target = if rng.random::<bool>() { 1.0 } else { 0.0 };
                *p = *p * (1.0 - s.mutation_shift) + target * s.mutation_shift;
            }
        }
    }

    /// Mean binary entropy per bit (1 = uniform, 0 = decided).
    pub fn entropy(&self) -> f64 {
        let h = |p: f64| {
            if p <= 0.0 || p >= 1.0 {
                0.0
            } else {
                -(p * p.log2() + (1.0 - p) * (1.0 - p).log2())
            }
        };
        self.probabilities.iter().map(|&p| h(p)).sum::<f64>() / self.probabilities.len().max(1) as f64
    }
}

#[cfg(test)]
#[path = "pbil_tests.rs"]
mod tests;
