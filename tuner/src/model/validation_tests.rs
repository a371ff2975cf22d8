//! Tests of `model/validation.rs`.

use super::*;
use crate::model::split;
use crate::run::provenance::Recipe;
use crate::testutil::random_trace_store;

fn texel_start(command: &str, data: &[&str]) -> Provenance {
    Provenance {
        tool: "texel".into(),
        command: command.into(),
        recipe: Some(Recipe { data: data.iter().map(|d| d.to_string()).collect(), ..Recipe::default() }),
        ..Provenance::default()
    }
}

#[test]
fn files_written_before_the_hold_out_was_recorded_have_it_read_from_their_command() {
    let held = |command: &str| recorded_hold_out(&texel_start(command, &["a.epd", "b.epd"]));
    assert_eq!(
        held("tune texel --data a.epd b.epd --seed 73 --out x"),
        [HeldOut { files: 2, seed: 73, fraction: 0.1 }]
    );
    assert_eq!(held("tune texel --valid-fraction=0.2"), [HeldOut { files: 2, seed: 1, fraction: 0.2 }]);
    // Validated on other files: every game of the data was fitted on.
    assert_eq!(held("tune texel --valid v.epd --seed 5"), [HeldOut { files: 2, seed: 5, fraction: 0.0 }]);
    assert!(held("tune texel --seed many").is_empty());
    // Another tuner's command says nothing of a split.
    let pbil = Provenance { tool: "pbil".into(), ..texel_start("tune pbil --seed 3", &["a.epd"]) };
    assert!(recorded_hold_out(&pbil).is_empty());
    // A recorded hold-out wins, when it covers the data.
    let mut recorded = texel_start("tune texel --seed 3", &["a.epd", "b.epd"]);
    let segments =
        vec![HeldOut { files: 1, seed: 9, fraction: 0.1 }, HeldOut { files: 1, seed: 3, fraction: 0.1 }];
    recorded.recipe.as_mut().unwrap().held_out = segments.clone();
    assert_eq!(recorded_hold_out(&recorded), segments);
    recorded.recipe.as_mut().unwrap().held_out.pop();
    assert!(recorded_hold_out(&recorded).is_empty());
}

#[test]
fn the_start_s_data_is_loaded_first_in_its_recorded_order() {
    let start = texel_start("tune texel --seed 73", &["old1.epd", "old2.epd"]);
    let mut data: Vec<PathBuf> = ["new.epd", "old2.epd", "extra.epd", "old1.epd"].map(PathBuf::from).to_vec();
    assert_eq!(start_first(Some(&start), &mut data), [HeldOut { files: 2, seed: 73, fraction: 0.1 }]);
    assert_eq!(data, ["old1.epd", "old2.epd", "new.epd", "extra.epd"].map(PathBuf::from));
    // Without all of the start's data, its hold-out cannot be kept: the data stays as given.
    let mut partial: Vec<PathBuf> = ["new.epd", "old2.epd"].map(PathBuf::from).to_vec();
    assert!(start_first(Some(&start), &mut partial).is_empty());
    assert_eq!(partial, ["new.epd", "old2.epd"].map(PathBuf::from));
    assert!(start_first(None, &mut partial).is_empty());
}

#[test]
fn a_continuing_fit_validates_on_the_games_its_start_held_out() {
    // Two files: the start's (games 0..1000), fitted with seed 73, then the run's new games.
    let store = random_trace_store();
    let ends = [1000, 3000];
    let start_rule = [HeldOut { files: 1, seed: 73, fraction: 0.1 }];
    let plan = SplitPlan::new(&start_rule, 2, 75, 0.1);
    assert_eq!(plan.segments, [start_rule[0], HeldOut { files: 1, seed: 75, fraction: 0.1 }]);
    let data = plan.split(&store, &ends);
    assert_eq!(data.train.len() + data.valid.len(), store.len());
    // The start's file: exactly the start's own validation games are held out.
    let start_only = store.subset(0..1000);
    let start_valid = split(&start_only, 0.1, 73).valid;
    let valid_of_start: Vec<u32> = data.valid.game.iter().copied().filter(|&g| g < 1000).collect();
    assert_eq!(valid_of_start, start_valid.game);
    // The new file: the run's rule.
    let rule = HoldOut { fraction: 0.1, seed: 75 };
    let valid_new: Vec<u32> = data.valid.game.iter().copied().filter(|&g| g >= 1000).collect();
    assert_eq!(valid_new, (1000..3000).filter(|&g| rule.holds_out(g as u64)).collect::<Vec<u32>>());
    // One rule over every file is the plain split, and the record merges equal neighbours.
    let plain = SplitPlan::new(&[], 2, 5, 0.2);
    assert_eq!(plain.segments, [HeldOut { files: 2, seed: 5, fraction: 0.2 }]);
    assert_eq!(plain.split(&store, &ends).valid, split(&store, 0.2, 5).valid);
    assert_eq!(
        SplitPlan::new(&[HeldOut { files: 1, seed: 5, fraction: 0.2 }], 2, 5, 0.2).segments,
        plain.segments
    );
    assert!(plain.describe(Path::new("p.toml")).is_none());
    assert!(plan.describe(Path::new("p.toml")).is_some());
}
