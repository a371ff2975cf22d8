//! Tests of `fitness/setup.rs`.

use super::*;
use crate::testutil::{small_dataset, test_tune_settings, TempDir};

fn setup_error(kind: FitnessKind, change: impl FnOnce(&mut TuneSettings)) -> String {
    let dir = TempDir::new("bad-settings");
    let mut settings = test_tune_settings(&dir.path("run"));
    change(&mut settings);
    match settings.setup("test", kind) {
        Ok(_) => panic!("{settings:?} was accepted"),
        Err(e) => format!("{e:#}"),
    }
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn bad_selections_spaces_and_commands_are_clear_errors() {
    let e = setup_error(FitnessKind::Selfplay, |s| s.only = words(&["tempo", "pst.nope*"]));
    assert!(e.contains("--only `pst.nope*` matches no tunable term"), "{e}");
    let command = |s: &mut TuneSettings| {
        (s.fitness, s.command) = (Some(FitnessKind::Command), Some("true".into()));
    };
    let e = setup_error(FitnessKind::Selfplay, command);
    assert!(e.contains("needs --space"), "{e}");
    let dir = TempDir::new("space");
    let space = dir.path("space.txt");
    std::fs::write(&space, "a, int, 1, 0, 5, 1, 0.002\nb, int, 1, 0\n").unwrap();
    let e = setup_error(FitnessKind::Selfplay, |s| {
        command(s);
        s.space = Some(space.clone());
    });
    assert!(e.contains(":2:") && e.contains("expected 7"), "{e}");
    std::fs::write(&space, "a, int, 1, 0, 5, 1, 0.002\n").unwrap();
    let e = setup_error(FitnessKind::Selfplay, |s| {
        (s.fitness, s.space) = (Some(FitnessKind::Command), Some(space.clone()));
    });
    assert!(e.contains("needs --command"), "{e}");
    let e = setup_error(FitnessKind::Selfplay, |s| s.search_params = Some(space.clone()));
    assert!(e.contains(space.to_str().unwrap()), "{e}");
    let data = small_dataset();
    let e = setup_error(FitnessKind::Texel, |s| {
        s.only = words(&["nmp.base"]);
        s.fitness = Some(FitnessKind::Texel);
        s.recipe.data = vec![data];
    });
    assert!(e.contains("evaluation weights only"), "{e}");
}
