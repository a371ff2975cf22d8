//! Tests of `cmd/pbil.rs`.

use super::*;
use crate::cmd::args::tuner_args;
use crate::testutil::TempDir;

fn args(out: &std::path::Path, extra: &[&str]) -> PbilArgs {
    let data = crate::testutil::small_dataset();
    let data = data.to_str().expect("a UTF-8 temporary path");
    tuner_args(out, &[&["--data", data], extra].concat())
}

#[test]
fn a_resumed_texel_run_equals_an_uninterrupted_one_and_lowers_the_loss() {
    let dir = TempDir::new("pbil");
    let only = ["--only", "material", "tempo", "--population", "8"];
    let straight = args(&dir.join("a"), &[&only[..], &["--generations", "6"]].concat());
    let setup = straight.common.setup("pbil", FitnessKind::Texel).unwrap();
    let a = optimise(&straight, &setup, 6).unwrap();
    let first = args(&dir.join("b"), &[&only[..], &["--generations", "3"]].concat());
    let setup_b = first.common.setup("pbil", FitnessKind::Texel).unwrap();
    optimise(&first, &setup_b, 3).unwrap();
    let resumed = args(&dir.join("b"), &[&only[..], &["--generations", "6", "--resume"]].concat());
    let b = optimise(&resumed, &setup_b, 6).unwrap();
    assert_eq!((&a.pbil, &a.best, a.generation), (&b.pbil, &b.best, b.generation));
    let losses = |s: &State| s.log.iter().map(|e| (e.best_loss, e.mean_loss, e.entropy)).collect::<Vec<_>>();
    assert_eq!(losses(&a), losses(&b));
    assert_eq!(a.log.len(), 6);
    let trajectory = |d: &str| std::fs::read_to_string(dir.join(d).join("trajectory.csv")).unwrap();
    assert_eq!(trajectory("a"), trajectory("b"));
    let exact = setup.fitness.exact().expect("the Texel loss");
    assert!(a.best.as_ref().unwrap().1 <= exact.loss(&setup.space.starts()));
    let csv = std::fs::read_to_string(dir.join("a/log.csv")).unwrap();
    assert!(csv.starts_with("generation,best_loss"), "{csv}");
    assert_eq!(std::fs::read_to_string(dir.join("a/trajectory.csv")).unwrap().lines().count(), 8);
}

#[test]
fn the_update_rule_and_its_rate_default_by_the_fitness_and_follow_the_options() {
    let out = std::path::Path::new("/nonexistent-pbil-out");
    let defaults = args(out, &[]);
    let texel = defaults.settings(false);
    assert_eq!((texel.update, texel.learning_rate, texel.recentre_at_edge), (Update::Baluja, 0.1, false));
    let games = defaults.settings(true);
    assert_eq!(
        (games.update, games.learning_rate, games.recentre_at_edge),
        (Update::Natural, NATURAL_LEARNING_RATE, true)
    );
    let chosen = args(out, &["--update", "baluja", "--learning-rate", "0.2"]).settings(true);
    assert_eq!((chosen.update, chosen.learning_rate), (Update::Baluja, 0.2));
    let natural = args(out, &["--update", "natural"]).settings(false);
    assert_eq!((natural.update, natural.learning_rate), (Update::Natural, NATURAL_LEARNING_RATE));
}
