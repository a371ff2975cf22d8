//! Tests of `model/recipe.rs`.

use super::*;
use crate::testutil::TempDir;

fn params_with(dir: &TempDir, recipe: Option<Recipe>) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../params/eval.toml");
    let terms = crate::run::provenance::strip(&std::fs::read_to_string(repo).unwrap());
    let provenance = Provenance { tool: "texel".into(), recipe, ..Provenance::default() };
    let path = dir.path("start.toml");
    std::fs::write(&path, provenance.append_to(&terms).unwrap()).unwrap();
    path
}

fn recorded(data: &Path) -> Recipe {
    Recipe {
        data: vec![data.display().to_string()],
        regenerate: Some("tune datagen --out x".into()),
        score_weight: 0.5,
        score_k: "fit".into(),
        l2: 0.0003,
        smooth: 0.0003,
        mirror: 0.0003,
        prior_terms: vec!["pst.*".into()],
        min_coverage: 1000.0,
        held_out: Vec::new(),
    }
}

#[test]
fn a_run_without_data_continues_on_the_recorded_recipe_and_choices_win() {
    let dir = TempDir::new("recipe");
    let data = dir.path("own.epd");
    std::fs::write(&data, "x\n").unwrap();
    let params = params_with(&dir, Some(recorded(&data)));
    let recipe = FitRecipe::resolve(&params, &RecipeChoice::default(), 0.001, "texel").unwrap();
    // Another tuner keeps its own pull.
    let pbil = FitRecipe::resolve(&params, &RecipeChoice::default(), 0.001, "pbil").unwrap();
    assert_eq!((pbil.score_weight, pbil.l2), (0.5, 0.001));
    assert_eq!(
        (recipe.data, recipe.score_weight, recipe.score_k, recipe.l2),
        (vec![data.clone()], 0.5, ScoreK::Fit, 0.0003)
    );
    assert_eq!(recipe.prior_terms, ["pst.*"]);
    let chosen = RecipeChoice { l2: Some(0.01), score_weight: Some(0.0), ..RecipeChoice::default() };
    let recipe = FitRecipe::resolve(&params, &chosen, 0.001, "texel").unwrap();
    assert_eq!((recipe.l2, recipe.score_weight, recipe.smooth), (0.01, 0.0, 0.0003));
    // Data given: the defaults, not the recorded recipe.
    let given = RecipeChoice { data: vec![PathBuf::from("mine.epd")], ..RecipeChoice::default() };
    let recipe = FitRecipe::resolve(&params, &given, 0.001, "texel").unwrap();
    assert_eq!((recipe.score_weight, recipe.l2, recipe.source.as_str()), (0.0, 0.001, "--data"));
    // No recipe recorded: the defaults.
    let bare =
        FitRecipe::resolve(&params_with(&dir, None), &RecipeChoice::default(), 0.003, "texel").unwrap();
    assert_eq!(bare, FitRecipe::defaults(0.003));
}

#[test]
fn missing_recorded_data_says_how_to_make_it_and_falls_back_only_when_told() {
    let dir = TempDir::new("recipe-missing");
    let params = params_with(&dir, Some(recorded(&dir.path("gone.epd.gz"))));
    let e = FitRecipe::resolve(&params, &RecipeChoice::default(), 0.001, "texel").unwrap_err().to_string();
    assert!(e.contains("gone.epd.gz") && e.contains("not on this machine"), "{e}");
    assert!(e.contains("tune datagen --out x") && e.contains("--data-fallback"), "{e}");
    let fall_back = RecipeChoice { fall_back: true, ..RecipeChoice::default() };
    let recipe = FitRecipe::resolve(&params, &fall_back, 0.001, "texel").unwrap();
    assert_eq!(recipe.data, [PathBuf::from(DEFAULT_DATA)]);
    assert_eq!(recipe.score_weight, 0.0);
}

#[test]
fn given_data_that_holds_the_start_s_data_begins_with_it_and_keeps_its_hold_out() {
    let dir = TempDir::new("recipe-held-out");
    let data = dir.path("own.epd");
    std::fs::write(&data, "x\n").unwrap();
    // Written before the hold-out was recorded: `tune texel`'s default seed and share.
    let params = params_with(&dir, Some(recorded(&data)));
    let given =
        RecipeChoice { data: vec![PathBuf::from("new.epd"), data.clone()], ..RecipeChoice::default() };
    let recipe = FitRecipe::resolve(&params, &given, 0.001, "texel").unwrap();
    assert_eq!(recipe.data, [data.clone(), PathBuf::from("new.epd")]);
    assert_eq!(recipe.held_out, [HeldOut { files: 1, seed: 1, fraction: 0.1 }]);
    assert_eq!(recipe.record().held_out, recipe.held_out);
    // Data without the start's: nothing of the start's to keep.
    let other = RecipeChoice { data: vec![PathBuf::from("new.epd")], ..RecipeChoice::default() };
    assert!(FitRecipe::resolve(&params, &other, 0.001, "texel").unwrap().held_out.is_empty());
}

#[test]
fn the_hold_out_can_come_from_another_file_s_provenance() {
    let dir = TempDir::new("recipe-hold-out-from");
    let data = dir.path("own.epd");
    std::fs::write(&data, "x\n").unwrap();
    let recorded_file = params_with(&dir, Some(recorded(&data)));
    // The start is a copy of the values without the provenance (as the loop's stages get it).
    let copy = dir.path("copy.toml");
    let terms = crate::run::provenance::strip(&std::fs::read_to_string(&recorded_file).unwrap());
    std::fs::write(&copy, terms).unwrap();
    let given = RecipeChoice {
        data: vec![PathBuf::from("new.epd"), data.clone()],
        hold_out_from: Some(recorded_file.clone()),
        ..RecipeChoice::default()
    };
    let recipe = FitRecipe::resolve(&copy, &given, 0.001, "texel").unwrap();
    assert_eq!(recipe.data, [data.clone(), PathBuf::from("new.epd")]);
    assert_eq!(recipe.held_out, [HeldOut { files: 1, seed: 1, fraction: 0.1 }]);
    // Without it, the copy has nothing to keep.
    let plain = RecipeChoice { hold_out_from: None, ..given.clone() };
    assert!(FitRecipe::resolve(&copy, &plain, 0.001, "texel").unwrap().held_out.is_empty());
    // A file that records no provenance is refused by name.
    let bad = RecipeChoice { hold_out_from: Some(copy.clone()), ..given };
    let e = FitRecipe::resolve(&copy, &bad, 0.001, "texel").unwrap_err().to_string();
    assert!(e.contains("--hold-out-from") && e.contains(&copy.display().to_string()), "{e}");
}
