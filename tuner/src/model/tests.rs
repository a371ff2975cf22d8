//! Model tests on positions from seeded random play: the f64 evaluation agrees with the engine,
//! the analytic gradient equals finite differences, and tuning recovers known weights.

use whetstone::eval::EvalParamSet;
use whetstone::eval::{evaluate, trace, Weights};
use whetstone::{Color, Position};

use super::store::{Compact, TraceStore};
use super::{Layout, Model};
use crate::testutil::{random_positions, random_positions_of_length, Rng};

/// Game results (loss, draw, win) drawn at random.
fn random_results(count: usize, rng: &mut Rng) -> Vec<f32> {
    (0..count).map(|_| [0.0, 0.5, 1.0][(rng.next() % 3) as usize]).collect()
}

fn store_of(positions: &[Position], results: &[f32]) -> TraceStore {
    let compacts: Vec<Compact> =
        positions.iter().zip(results).map(|(p, &r)| Compact::new(&trace(p), r)).collect();
    TraceStore::from_compacts(&compacts)
}

/// Ethereal's complexity weights (pawns, both flanks, pawns only, offset): the baked ones may be
/// zero, which would leave the complexity's math untested.
const COMPLEXITY: [i32; 4] = [8, 82, 76, -157];

/// The baked values with [`COMPLEXITY`] in place.
fn baked_with_complexity() -> EvalParamSet {
    let mut params = EvalParamSet::baked();
    let mut values = params.values();
    for (k, slot) in Layout::new(params.set()).complexity.into_iter().enumerate() {
        values[slot] = COMPLEXITY[k];
    }
    params.set_values(&values);
    params
}

#[test]
fn model_evaluation_matches_the_engine_within_rounding() {
    let params = baked_with_complexity();
    let set = params.set().clone();
    let layout = Layout::new(&set);
    // Long games too: end games, where complexity matters most.
    let mut positions = random_positions(500, 7);
    positions.extend(random_positions_of_length(500, 8, 100, 300));
    let store = store_of(&positions, &vec![0.5; positions.len()]);
    let model = Model { layout: &layout, store: &store };
    let w: Vec<f64> = set.values().iter().map(|&v| v as f64).collect();
    let weights = Weights::from_params(&params);
    for (p, pos) in positions.iter().enumerate() {
        let engine = evaluate(pos, &weights) * if pos.side_to_move() == Color::White { 1 } else { -1 };
        let model = model.evaluate(p, &w);
        // The engine rounds the curve and divides in integers; the model does neither.
        assert!((engine as f64 - model).abs() <= 3.0, "{}: engine {engine}, model {model}", pos.to_fen());
    }
}

#[test]
fn analytic_gradient_equals_finite_differences() {
    let set = EvalParamSet::baked().into_set();
    let layout = Layout::new(&set);
    let positions = random_positions(300, 11);
    let mut rng = Rng(99);
    let results = random_results(positions.len(), &mut rng);
    let store = store_of(&positions, &results);
    let model = Model { layout: &layout, store: &store };
    // Random weights around the defaults, so no term sits at a convenient value.
    let bounds = set.value_bounds();
    let mut w: Vec<f64> = set
        .values()
        .iter()
        .zip(&bounds)
        .map(|(&v, &(lo, hi))| (v as f64 + (rng.unit() - 0.5) * 20.0).clamp(lo as f64, hi as f64))
        .collect();
    for (k, &slot) in layout.complexity.iter().enumerate() {
        w[slot] += COMPLEXITY[k] as f64;
    }
    let k = 1.1;
    let (_, grad) = model.loss_and_gradient(&w, k);
    let mut checked = 0;
    let mut worst: f64 = 0.0;
    for i in 0..layout.values {
        let h = 1e-3;
        let (mut up, mut down) = (w.clone(), w.clone());
        up[i] += h;
        down[i] -= h;
        let numeric = (model.loss(&up, k) - model.loss(&down, k)) / (2.0 * h);
        if numeric.abs() < 1e-12 && grad[i].abs() < 1e-12 {
            continue;
        }
        let rel = (numeric - grad[i]).abs() / numeric.abs().max(grad[i].abs()).max(1e-9);
        worst = worst.max(rel);
        assert!(
            rel < 1e-3 || (numeric - grad[i]).abs() < 1e-9,
            "slot {i} ({}): analytic {} numeric {numeric}",
            set.value_names()[i],
            grad[i]
        );
        checked += 1;
    }
    assert!(checked > 300, "only {checked} slots had gradient");
    // The curve's parameters and the complexity weights were among them.
    assert!(grad[layout.curve_power] != 0.0 && grad[layout.curve_scale.0] != 0.0);
    // (Pawns only, the third count, needs end games these short random games rarely reach.)
    assert!([0, 1, 3].iter().all(|&k| grad[layout.complexity[k]] != 0.0));
}

/// Tunes `selected` (perturbed by ±60) from labels given by `label(expected score)`.
fn recover(selected_glob: &str, soft: bool) -> (Vec<usize>, Vec<f64>, Vec<f64>, Vec<Position>) {
    recover_from(EvalParamSet::baked(), selected_glob, soft)
}

/// [`recover`] with `params` as the truth.
fn recover_from(
    params: EvalParamSet,
    selected_glob: &str,
    soft: bool,
) -> (Vec<usize>, Vec<f64>, Vec<f64>, Vec<Position>) {
    let set = params.into_set();
    let layout = Layout::new(&set);
    // Long random games, so that end games (and with them the end-game values) are represented.
    let positions = random_positions_of_length(40_000, 5, 20, 200);
    let truth: Vec<f64> = set.values().iter().map(|&v| v as f64).collect();
    // A flat sigmoid keeps random-play positions (often far from equal) informative.
    let k = 0.3;
    let probe = store_of(&positions, &vec![0.5; positions.len()]);
    let probe_model = Model { layout: &layout, store: &probe };
    let mut rng = Rng(1234);
    let results: Vec<f32> = (0..positions.len())
        .map(|p| {
            let expected = super::objective::sigmoid(k, probe_model.evaluate(p, &truth));
            if soft {
                expected as f32
            } else if rng.unit() < expected {
                1.0
            } else {
                0.0
            }
        })
        .collect();
    let store = store_of(&positions, &results);
    let model = Model { layout: &layout, store: &store };
    let selected = set.select(&[selected_glob]).unwrap();
    let mut w = truth.clone();
    for &i in &selected {
        w[i] += if i % 2 == 0 { 60.0 } else { -60.0 };
    }
    let mut adam = crate::optim::Adam::new(layout.values, 4.0);
    let bounds = set.value_bounds();
    for _ in 0..600 {
        let (_, grad) = model.loss_and_gradient(&w, k);
        adam.update(&mut w, &grad, &selected, &bounds);
    }
    (selected, w, truth, positions)
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn tuning_recovers_known_material_values_from_exact_labels() {
    // Labels are the expected scores under known weights (soft labels, no sampling noise):
    // the minimum is at the known weights, and Adam must find it from ±60 cp away.
    let (selected, w, truth, _) = recover("material", true);
    for &i in &selected {
        assert!((w[i] - truth[i]).abs() < 8.0, "slot {i}: tuned {:.1}, truth {}", w[i], truth[i]);
    }
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn tuning_recovers_known_complexity_weights_through_their_clamp() {
    // The complexity is not linear (it draws an end game to zero at most): its gradient must
    // still lead back to the known weights from ±60 away.
    let (selected, w, truth, _) = recover_from(baked_with_complexity(), "complexity.*", true);
    assert_eq!(selected.len(), 4);
    for &i in &selected {
        let tolerance = if truth[i].abs() < 20.0 { 2.0 } else { 10.0 };
        assert!((w[i] - truth[i]).abs() < tolerance, "slot {i}: tuned {:.1}, truth {}", w[i], truth[i]);
    }
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn tuning_recovers_the_evaluation_from_sampled_results() {
    // Results drawn as wins and losses from the sigmoid: single values are noisy (middle-game and
    // end-game values trade off), but the tuned evaluation must match the known one closely.
    let (_, w, truth, positions) = recover("material", false);
    let set = EvalParamSet::baked().into_set();
    let layout = Layout::new(&set);
    let store = store_of(&positions, &vec![0.5; positions.len()]);
    let model = Model { layout: &layout, store: &store };
    let (mut start_err, mut end_err) = (0.0, 0.0);
    let mut start = truth.clone();
    for &i in &set.select(&["material"]).unwrap() {
        start[i] += if i % 2 == 0 { 60.0 } else { -60.0 };
    }
    for p in 0..store.len() {
        let t = model.evaluate(p, &truth);
        start_err += (model.evaluate(p, &start) - t).abs();
        end_err += (model.evaluate(p, &w) - t).abs();
    }
    let (start_err, end_err) = (start_err / store.len() as f64, end_err / store.len() as f64);
    assert!(
        end_err < start_err / 2.0 && end_err < 25.0,
        "mean |eval error| {start_err:.1} -> {end_err:.1} cp"
    );
}

/// The evaluation written out plainly from an engine trace, in double precision: the
/// reference the optimised objective must equal.
fn reference_eval(t: &whetstone::eval::EvalTrace, layout: &Layout, w: &[f64]) -> f64 {
    use whetstone::eval::endgame::Verdict;
    use whetstone::eval::weights::MAX_KING_UNITS;
    if let Some(Verdict::Exact(v)) = t.context.verdict {
        return v as f64;
    }
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(e, c) in &t.linear {
        mg += c as f64 * w[layout.mg_slot[e as usize] as usize];
        eg += c as f64 * w[layout.eg_slot[e as usize] as usize];
    }
    for (side, features) in t.king_features.iter().enumerate() {
        let units: f64 =
            features.iter().map(|&(e, c)| c as f64 * w[layout.mg_slot[e as usize] as usize]).sum();
        let x = units.clamp(0.0, MAX_KING_UNITS as f64) / 100.0;
        let curve = x.powf(w[layout.curve_power] / 100.0);
        let sign = if side == 0 { -1.0 } else { 1.0 };
        mg += sign * w[layout.curve_scale.0] * curve;
        eg += sign * w[layout.curve_scale.1] * curve;
    }
    let c: f64 = t.complexity.iter().zip(layout.complexity).map(|(&n, slot)| n as f64 * w[slot]).sum();
    let sign = crate::model::vmath::sign(eg);
    eg += sign * c.max(-eg.abs());
    let scale = match t.context.verdict {
        Some(Verdict::Scale { white, black }) => (if eg > 0.0 { white } else { black }) as f64 / 128.0,
        _ => 1.0,
    };
    let phase = t.context.phase as f64;
    (mg * phase + eg * scale * (24.0 - phase)) / 24.0
}

#[test]
fn loss_equals_a_plain_double_precision_reference() {
    let set = EvalParamSet::baked().into_set();
    let layout = Layout::new(&set);
    // Long games too, so that known end games and scaled ones are among the positions.
    let mut positions = random_positions(1500, 21);
    positions.extend(random_positions_of_length(1500, 22, 100, 300));
    let mut rng = Rng(5);
    let results = random_results(positions.len(), &mut rng);
    let store = store_of(&positions, &results);
    let exact = store.exact.iter().filter(|&&e| e != i32::MIN).count();
    let scaled = store.scale.iter().filter(|s| **s != [128, 128]).count();
    assert!(exact > 0 && scaled > 0, "{exact} exact and {scaled} scaled positions");
    let model = Model { layout: &layout, store: &store };
    let bounds = set.value_bounds();
    for round in 0..3 {
        // Fractional weights, and a curve power other than 2 in later rounds.
        let mut w: Vec<f64> = set
            .values()
            .iter()
            .zip(&bounds)
            .map(|(&v, &(lo, hi))| (v as f64 + (rng.unit() - 0.5) * 30.0).clamp(lo as f64, hi as f64))
            .collect();
        w[layout.curve_power] = [200.0, 173.25, 251.5][round];
        // Complexity that often draws the end game to zero, then rarely, then not at all.
        for (k, &slot) in layout.complexity.iter().enumerate() {
            w[slot] = [COMPLEXITY[k] as f64 * 3.0, COMPLEXITY[k] as f64, 0.0][round];
        }
        let k = 1.3;
        let reference: f64 = positions
            .iter()
            .zip(&results)
            .map(|(pos, &r)| {
                let e = reference_eval(&trace(pos), &layout, &w);
                let d = r as f64 - 1.0 / (1.0 + 10f64.powf(-k * e / 400.0));
                d * d
            })
            .sum::<f64>()
            / positions.len() as f64;
        let fast = model.loss(&w, k);
        assert!(
            (fast - reference).abs() <= 1e-12 * reference,
            "round {round}: objective {fast:.17} vs reference {reference:.17}"
        );
        let (with_gradient, _) = model.loss_and_gradient(&w, k);
        assert!((with_gradient - reference).abs() <= 1e-12 * reference);
    }
}

#[test]
fn coverage_counts_phase_weighted_positions_per_value() {
    let set = EvalParamSet::baked().into_set();
    let layout = Layout::new(&set);
    let positions = random_positions(400, 31);
    let store = store_of(&positions, &vec![0.5; positions.len()]);
    let cover = Model { layout: &layout, store: &store }.coverage();
    let names = set.value_names();
    let slot = |name: &str| names.iter().position(|n| n == name).unwrap_or_else(|| panic!("{name}"));
    // Pawns never stand on the first rank.
    assert_eq!(cover[slot("pst_pawn_a1_mg")], 0.0);
    assert_eq!(cover[slot("pst_pawn_h1_eg")], 0.0);
    // Every position has pawns (in the first 90 plies of random play): the pawn's mg and eg
    // coverage add up to the positions where White and Black pawn counts differ, at most all.
    let pawn = cover[slot("material_pawn_mg")] + cover[slot("material_pawn_eg")];
    assert!(pawn > 0.0 && pawn <= positions.len() as f64 + 1e-9, "{pawn}");
    // Early random play is middle game: mg coverage dominates.
    assert!(cover[slot("material_pawn_mg")] > cover[slot("material_pawn_eg")]);
    assert!(cover.iter().all(|&c| c >= 0.0 && c <= positions.len() as f64 + 1e-9));
    // The complexity's offset counts in every position (not an exactly known end game), by its
    // end-game share only.
    let eg_share: f64 = (0..store.len())
        .filter(|&p| store.exact[p] == i32::MIN)
        .map(|p| (24 - store.phase[p]) as f64 / 24.0)
        .sum();
    assert!(eg_share > 0.0);
    assert!(
        (cover[layout.complexity[3]] - eg_share).abs() < 1e-9,
        "{} vs {eg_share}",
        cover[layout.complexity[3]]
    );
}

#[test]
fn every_kernel_gives_the_same_loss_and_gradient_to_the_last_bit() {
    use super::Kernel;
    let set = EvalParamSet::baked().into_set();
    let layout = Layout::new(&set);
    // Enough positions for several chunks, long games for king danger and odd entry counts.
    let positions = random_positions_of_length(9000, 5, 20, 80);
    let mut rng = Rng(3);
    let results = random_results(positions.len(), &mut rng);
    let store = store_of(&positions, &results);
    let model = Model { layout: &layout, store: &store };
    let w: Vec<f64> = set.values().iter().map(|&v| v as f64 + rng.unit() - 0.5).collect();
    let (loss, grad) = model.loss_and_gradient_on(Kernel::Portable, &w, 0.9);
    assert!(loss > 0.0 && grad.iter().any(|&g| g != 0.0));
    // On a CPU without these instructions this compares the portable kernel with itself, which
    // still checks that the dispatch falls back instead of failing.
    for kernel in [Kernel::Avx2] {
        let (fast_loss, fast_grad) = model.loss_and_gradient_on(kernel, &w, 0.9);
        assert_eq!(loss.to_bits(), fast_loss.to_bits(), "{kernel:?}");
        for (i, (a, b)) in grad.iter().zip(&fast_grad).enumerate() {
            assert_eq!(
                a.to_bits(),
                b.to_bits(),
                "{kernel:?}, slot {i} ({}): {a} vs {b}",
                set.value_names()[i]
            );
        }
    }
}

#[test]
fn scaling_the_centipawn_values_scales_the_evaluation() {
    let set = EvalParamSet::baked().into_set();
    let layout = Layout::new(&set);
    let positions = random_positions_of_length(2000, 17, 20, 80);
    let store = store_of(&positions, &vec![0.5; positions.len()]);
    let model = Model { layout: &layout, store: &store };
    let w: Vec<f64> = set.values().iter().map(|&v| v as f64).collect();
    let centipawns = layout.centipawn_slots();
    // The attack-unit weights and the curve's exponent are not centipawns.
    let king_safety = set.select(&["king_safety.*"]).unwrap();
    assert_eq!(centipawns.iter().filter(|&&c| !c).count(), king_safety.len() - 2);
    let mut stronger_curve = w.clone();
    stronger_curve[layout.curve_scale.0] *= 2.0;
    let scaled: Vec<f64> = w.iter().zip(&centipawns).map(|(&v, &c)| if c { v * 1.25 } else { v }).collect();
    let mut danger = 0;
    for p in 0..positions.len() {
        if store.exact[p] != i32::MIN {
            continue;
        }
        let (before, after) = (model.evaluate(p, &w), model.evaluate(p, &scaled));
        assert!(
            (after - 1.25 * before).abs() < 1e-9 * before.abs().max(1.0),
            "position {p}: {before} -> {after}"
        );
        danger += usize::from(model.evaluate(p, &stronger_curve) != before);
    }
    assert!(danger > 100, "only {danger} positions had king danger");
}

#[test]
fn mini_batch_gradients_add_up_to_the_full_batch() {
    use super::Kernel;
    let set = EvalParamSet::baked().into_set();
    let layout = Layout::new(&set);
    let positions = random_positions_of_length(6000, 23, 20, 80);
    let mut rng = Rng(8);
    let results = random_results(positions.len(), &mut rng);
    let store = store_of(&positions, &results);
    let model = Model { layout: &layout, store: &store };
    let w: Vec<f64> = set.values().iter().map(|&v| v as f64).collect();
    let (loss, grad) = model.loss_and_gradient(&w, 1.0);
    let (a, b) = (0..2500, 2500..6000);
    let (loss_a, grad_a) = model.loss_and_gradient_over(Kernel::detect(), a, &w, 1.0);
    let (loss_b, grad_b) = model.loss_and_gradient_over(Kernel::detect(), b, &w, 1.0);
    assert_ne!(loss_a, loss_b);
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1e-12);
    assert!(close(loss, (2500.0 * loss_a + 3500.0 * loss_b) / 6000.0));
    for i in 0..grad.len() {
        assert!(close(grad[i], (2500.0 * grad_a[i] + 3500.0 * grad_b[i]) / 6000.0), "slot {i}");
    }
    // A shuffled store is the same positions in another order: the same loss.
    let shuffled = store.shuffled(5);
    assert_ne!(shuffled.result, store.result);
    let reordered = Model { layout: &layout, store: &shuffled };
    assert!(close(loss, reordered.loss(&w, 1.0)));
}

#[test]
fn the_score_scale_is_fitted_on_the_scores_against_the_results() {
    // Results drawn from σ(K · score) at a known K: the fit finds that K (the sampling noise
    // of 4,000 results allows a few percent), whatever the evaluation says.
    let mut rng = Rng(7);
    let positions = random_positions(4000, 11);
    let scores: Vec<f64> = (0..positions.len()).map(|_| (rng.unit() - 0.5) * 1200.0).collect();
    let k_true = 0.6;
    let scale = k_true * std::f64::consts::LN_10 / 400.0;
    let results: Vec<f32> = scores
        .iter()
        .map(|&s| if rng.unit() < 1.0 / (1.0 + (-scale * s).exp()) { 1.0 } else { 0.0 })
        .collect();
    let mut store = store_of(&positions, &results);
    assert_eq!(store.fit_score_k(), None, "no scores, no fit");
    store.score = scores.iter().map(|&s| s.round() as i16).collect();
    let k = store.fit_score_k().expect("scored positions");
    assert!((k - k_true).abs() < 0.06, "fitted {k}, drawn at {k_true}");
    // Scores in another engine's units (here twice ours) fit at half the K.
    store.score = scores.iter().map(|&s| (2.0 * s).round() as i16).collect();
    let half = store.fit_score_k().expect("scored positions");
    assert!((half - k / 2.0).abs() < 0.01, "{half} against {k} / 2");
}
