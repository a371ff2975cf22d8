//! Tests of `cmd/texel.rs`.

use std::path::Path;

use super::*;
use crate::testutil::{random_trace_data, TempDir};

/// No pull, no prior, every value tuned; `score_weight` of the targets from search scores.
fn plain(score_weight: f64) -> FitRecipe {
    FitRecipe { score_weight, min_coverage: 0.0, ..FitRecipe::defaults(0.0) }
}

fn args(out: &Path, epochs: usize, resume: bool) -> TexelArgs {
    TexelArgs {
        verify: crate::cmd::args::clap_defaults(),
        params: PathBuf::from("params/eval.toml"),
        search_params: None,
        recipe: RecipeArgs::default(),
        valid: vec![],
        valid_fraction: 0.2,
        only: vec![],
        optimizer: Optimizer::Adam,
        epochs,
        batch_size: 0,
        learning_rate: 1.0,
        keep_scale: true,
        concurrency: None,
        out: out.to_path_buf(),
        checkpoint_every: 2,
        resume,
        strict: false,
        seed: 1,
        quiet: true,
        verify_flat: false,
        external: crate::cmd::args::clap_defaults(),
    }
}

#[test]
fn coverage_csv_lists_values_rarest_first_with_how_each_is_tuned() {
    let dir = TempDir::new("coverage");
    let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
    let coverage = [1500.0, 40.04, 2.0, 700.0];
    write_coverage(&dir, &names, &coverage, (&[0], &[3, 1], &[2])).unwrap();
    let csv = std::fs::read_to_string(dir.join("coverage.csv")).unwrap();
    assert_eq!(
        csv.lines().collect::<Vec<_>>(),
        ["name,positions,tuned", "c,2.0,frozen", "b,40.0,prior", "d,700.0,prior", "a,1500.0,evidence"]
    );
}

#[test]
fn resumed_run_equals_uninterrupted_run_and_lowers_the_loss() {
    let d = random_trace_data();
    let set = EvalParamSet::baked().into_set();
    let selected = set.select(&[]).unwrap();
    let dir = TempDir::new("texel");
    let (a, b) = (dir.join("straight"), dir.join("resumed"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let straight = optimise(&args(&a, 6, false), &plain(0.0), &set, &d, &selected).unwrap();
    optimise(&args(&b, 3, false), &plain(0.0), &set, &d, &selected).unwrap();
    let resumed = optimise(&args(&b, 6, true), &plain(0.0), &set, &d, &selected).unwrap();
    assert_eq!(straight.weights, resumed.weights);
    assert_eq!(straight.log.len(), 7);
    let losses: Vec<f64> = straight.log.iter().map(|e| e.train_loss).collect();
    assert!(losses[6] < losses[0], "{losses:?}");
    let csv = std::fs::read_to_string(a.join("log.csv")).unwrap();
    assert_eq!(csv.lines().count(), 8);
}

#[test]
fn mini_batch_run_resumes_exactly_and_lowers_the_loss() {
    let mut d = random_trace_data();
    d.train = d.train.shuffled(1);
    let set = EvalParamSet::baked().into_set();
    let selected = set.select(&[]).unwrap();
    let dir = TempDir::new("texel-batch");
    let (a, b) = (dir.join("straight"), dir.join("resumed"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let with_batches =
        |out: &Path, epochs, resume| TexelArgs { batch_size: 500, ..args(out, epochs, resume) };
    let straight = optimise(&with_batches(&a, 4, false), &plain(0.0), &set, &d, &selected).unwrap();
    optimise(&with_batches(&b, 2, false), &plain(0.0), &set, &d, &selected).unwrap();
    let resumed = optimise(&with_batches(&b, 4, true), &plain(0.0), &set, &d, &selected).unwrap();
    assert_eq!(straight.weights, resumed.weights);
    let checkpoint: Checkpoint =
        serde_json::from_str(&std::fs::read_to_string(a.join("checkpoint.json")).unwrap()).unwrap();
    // One Adam step per batch of 500 training positions, four epochs.
    assert_eq!(checkpoint.adam.step, 4 * d.train.len().div_ceil(500) as u64);
    assert!(checkpoint.adam.step >= 16);
    std::fs::create_dir_all(dir.join("full")).unwrap();
    let full_batch = optimise(&args(&dir.join("full"), 4, false), &plain(0.0), &set, &d, &selected).unwrap();
    let train = Model { layout: &Layout::new(&set), store: &d.train };
    let loss = |w: &[f64]| train.loss(w, straight.k);
    // Twenty small steps get further than four full ones at the same learning rate.
    assert!(loss(&straight.weights) < loss(&full_batch.weights));
    assert!(loss(&full_batch.weights) < straight.log[0].train_loss);
}

#[test]
fn score_weight_trains_on_the_search_scores_and_needs_some() {
    let mut d = random_trace_data();
    let set = EvalParamSet::baked().into_set();
    let selected = set.select(&[]).unwrap();
    let dir = TempDir::new("texel-scores");
    let error =
        optimise(&args(&dir, 0, false), &plain(0.5), &set, &d, &selected).err().expect("no scores: an error");
    assert!(error.to_string().contains("no training position has a search score"), "{error}");
    // Scores that are the starting evaluation itself: trained on them alone, the starting
    // values fit perfectly (only the targets' rounding is left), unlike the results.
    let start: Vec<f64> = set.values().iter().map(|&v| v as f64).collect();
    let layout = Layout::new(&set);
    let evals: Vec<i16> = (0..d.train.len())
        .map(|p| Model { layout: &layout, store: &d.train }.evaluate(p, &start).round() as i16)
        .collect();
    d.train.score = evals;
    let on_scores = optimise(&args(&dir, 0, false), &plain(1.0), &set, &d, &selected).unwrap();
    let on_results = optimise(&args(&dir, 0, false), &plain(0.0), &set, &d, &selected).unwrap();
    assert!(on_scores.log[0].train_loss < 1e-4, "{}", on_scores.log[0].train_loss);
    assert!(on_results.log[0].train_loss > 0.05, "{}", on_results.log[0].train_loss);
    // K is fitted on the results either way, and validation stays against them.
    assert_eq!(on_scores.k, on_results.k);
    assert_eq!(on_scores.log[0].valid_loss, on_results.log[0].valid_loss);
}

/// A run whose held-out loss did not fall is not played, unless `--verify-flat`; one that asked
/// for no verification, moved nothing or had no held-out positions is left to `conclude`.
#[test]
fn a_run_that_did_not_lower_the_held_out_loss_is_not_played() {
    let dir = TempDir::new("texel-gate");
    let plain = args(&dir.join("run"), 1, false);
    let verify = plain.verify.settings().unwrap();
    let gate = held_out_gate;
    for end in [0.2, 0.2001] {
        assert_eq!(
            gate(&plain, &verify, true, Some((0.2, end))),
            Some(Standing::NoHeldOutGain { start: 0.2, end })
        );
    }
    assert_eq!(gate(&plain, &verify, true, Some((0.2, 0.1999))), None);
    assert_eq!(gate(&plain, &verify, false, Some((0.2, 0.3))), None);
    assert_eq!(gate(&plain, &verify, true, None), None);
    assert_eq!(gate(&plain, &verify, true, Some((0.2, f64::NAN))), None);
    let flat = TexelArgs { verify_flat: true, ..args(&dir.join("run"), 1, false) };
    assert_eq!(gate(&flat, &verify, true, Some((0.2, 0.3))), None);
    let none = VerifySettings { first: None, ..verify.clone() };
    assert_eq!(gate(&plain, &none, true, Some((0.2, 0.3))), None);
}
