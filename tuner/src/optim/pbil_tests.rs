//! Tests of `optim/pbil.rs`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;

/// 150 generations of 32 individuals scored by their first value plus uniform noise 1,000
/// wide (ten times a range of 100), each generation handed to `learn`; the estimate after.
fn noisy_climb(
    space: &Space,
    settings: &PbilSettings,
    seed: u64,
    learn: impl Fn(&mut Pbil, &Array2<bool>, &[f64], &mut ChaCha8Rng),
) -> Vec<f64> {
    let mut pbil = Pbil::new(space, settings.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..150 {
        let population = pbil.sample_population(32, &mut rng);
        let scores: Vec<f64> = population
            .rows()
            .into_iter()
            .map(|b| pbil.decode(b)[0] + 1000.0 * (rng.random::<f64>() - 0.5))
            .collect();
        learn(&mut pbil, &population, &scores, &mut rng);
    }
    pbil.estimate()
}

#[test]
fn gray_codes_invert_and_every_integer_is_reachable() {
    for k in 0..1024 {
        assert_eq!(from_gray(to_gray(k)), k);
        assert_eq!((to_gray(k) ^ to_gray(k + 1)).count_ones(), 1);
    }
    for (min, max) in [(-300.0, 300.0), (1.0, 6.0), (0.0, 1.0), (5.0, 200.0)] {
        let code = Code::new(min, max, true, 0.0, None);
        for v in (min as i64)..=(max as i64) {
            assert_eq!(code.value(code.word(v as f64)), v as f64, "{min}..{max}: {v}");
        }
        assert_eq!(code.value(0), min);
        assert_eq!(code.value((1 << code.bits) - 1), max);
    }
}

#[test]
fn the_estimate_starts_at_the_start_and_learning_finds_a_maximum() {
    let space =
        Space::parse_openbench("a, int, 10, -50, 50, 1, 0.002\nb, int, -3, -50, 50, 1, 0.002", "s").unwrap();
    let mut pbil = Pbil::new(&space, PbilSettings::default());
    assert_eq!(pbil.estimate(), vec![10.0, -3.0]);
    let f = |x: &[f64]| -((x[0] - 23.0).powi(2) + (x[1] + 17.0).powi(2));
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let start_entropy = pbil.entropy();
    for _ in 0..300 {
        let population = pbil.sample_population(32, &mut rng);
        let scores: Vec<f64> = population.rows().into_iter().map(|b| f(&pbil.decode(b))).collect();
        let best = (0..32).max_by(|&i, &j| scores[i].total_cmp(&scores[j])).unwrap();
        let worst = (0..32).min_by(|&i, &j| scores[i].total_cmp(&scores[j])).unwrap();
        pbil.learn_from(&[population.row(best)], &[population.row(worst)], &mut rng);
    }
    let x = pbil.estimate();
    assert!((x[0] - 23.0).abs() <= 2.0 && (x[1] + 17.0).abs() <= 2.0, "{x:?}");
    assert!(pbil.entropy() < start_entropy, "{} !< {start_entropy}", pbil.entropy());
}

#[test]
fn learning_from_one_of_each_is_baluja_and_from_the_top_quarter_climbs_under_noise() {
    let space = Space::parse_openbench("a, int, -40, -50, 50, 1, 0.002", "s").unwrap();
    let settings = PbilSettings { window: None, mutation_probability: 0.0, ..PbilSettings::default() };
    let mut pbil = Pbil::new(&space, settings.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let population = pbil.sample_population(2, &mut rng);
    let (best, worst) = (population.row(0), population.row(1));
    let before = pbil.probabilities.clone();
    pbil.learn_from(&[best], &[worst], &mut rng);
    for (b, (&p0, &p1)) in before.iter().zip(&pbil.probabilities).enumerate() {
        let target = if best[b] { 1.0 } else { 0.0 };
        let mut p = p0 * 0.9 + target * 0.1;
        if best[b] != worst[b] {
            p = p * (1.0 - 0.075) + target * 0.075;
        }
        assert!((p - p1).abs() < 1e-12, "bit {b}: {p} vs {p1}");
    }
    // The score is the value plus noise of ten times the values' whole range: the mean bits
    // of the top quarter still climb from the start toward the maximum.
    let run = |seed: u64| {
        noisy_climb(&space, &settings, seed, |pbil, population, scores, rng| {
            let mut order: Vec<usize> = (0..32).collect();
            order.sort_by(|&i, &j| scores[j].total_cmp(&scores[i]));
            let best: Vec<_> = order[..8].iter().map(|&i| population.row(i)).collect();
            let worst: Vec<_> = order[24..].iter().map(|&i| population.row(i)).collect();
            pbil.learn_from(&best, &worst, rng);
        })[0]
    };
    let mean = (1..=8).map(run).sum::<f64>() / 8.0;
    assert!(mean > 0.0, "from -40 toward 50: {mean}");
}

#[test]
fn the_natural_update_of_a_duel_is_the_compact_ga_and_a_draw_teaches_nothing() {
    let space = Space::parse_openbench("a, int, -40, -50, 50, 1, 0.002", "s").unwrap();
    let settings = PbilSettings {
        window: None,
        mutation_probability: 0.0,
        learning_rate: 0.05,
        update: Update::Natural,
        ..PbilSettings::default()
    };
    let mut pbil = Pbil::new(&space, settings);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let population = pbil.sample_population(2, &mut rng);
    let before = pbil.probabilities.clone();
    pbil.learn_natural(&population, &[0.5, 0.5], &mut rng);
    assert_eq!(pbil.probabilities, before, "equal scores move nothing");
    // The first wins the duel: where the two differ, each bit steps toward the winner's by
    // the learning rate; where they agree, it stays (Harik, Lobo and Goldberg's rule).
    pbil.learn_natural(&population, &[0.75, 0.25], &mut rng);
    let (winner, loser) = (population.row(0), population.row(1));
    assert!(winner != loser, "the seed draws two different individuals");
    for b in 0..pbil.bit_count() {
        let expected = if winner[b] == loser[b] {
            before[b]
        } else if winner[b] {
            (before[b] + 0.05).min(0.98)
        } else {
            (before[b] - 0.05).max(0.02)
        };
        assert!(
            (pbil.probabilities[b] - expected).abs() < 1e-12,
            "bit {b}: {} vs {expected}",
            pbil.probabilities[b]
        );
    }
    assert_eq!("natural".parse::<Update>(), Ok(Update::Natural));
    assert!("elite".parse::<Update>().unwrap_err().contains("baluja or natural"));
}

#[test]
fn under_heavy_noise_the_natural_update_climbs_where_a_bit_that_does_not_matter_stays_put() {
    // Two values; only the first counts, buried in noise of ten times its range. Over eight
    // seeds the first climbs from -40 toward 50 and the second stays near its start.
    let space =
        Space::parse_openbench("a, int, -40, -50, 50, 1, 0.002\nb, int, 0, -50, 50, 1, 0.002", "s").unwrap();
    let settings = PbilSettings {
        window: None,
        mutation_probability: 0.0,
        learning_rate: 0.05,
        start_confidence: 0.7,
        update: Update::Natural,
        ..PbilSettings::default()
    };
    let run = |seed: u64| {
        noisy_climb(&space, &settings, seed, |pbil, population, scores, rng| {
            pbil.learn_natural(population, scores, rng)
        })
    };
    let ends: Vec<Vec<f64>> = (1..=8).map(run).collect();
    let mean = |i: usize| ends.iter().map(|x| x[i]).sum::<f64>() / 8.0;
    assert!(mean(0) > 30.0, "from -40 toward 50: {ends:?}");
    assert!(mean(1).abs() < 5.0, "the value that does not count wandered: {ends:?}");
}
