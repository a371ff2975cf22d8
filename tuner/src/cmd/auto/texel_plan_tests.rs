use std::path::Path;

use super::*;
use crate::cmd::args::parse_args;
use crate::cmd::auto::record::StageRecord;
use crate::testutil::{small_dataset, TempDir};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn args(params: &Path, texel_args: Option<&str>) -> AutoArgs {
    let mut words: Vec<String> =
        ["--hours", "1", "--params", params.to_str().unwrap()].iter().map(|s| s.to_string()).collect();
    if let Some(text) = texel_args {
        words.extend(["--texel-args".to_string(), text.to_string()]);
    }
    parse_args(&words).unwrap()
}

/// Today's baked values with `knight.outpost` declared anew (every value zero) and, when given,
/// a recorded recipe that names `data`.
fn start(dir: &TempDir, recipe_data: Option<&[&Path]>, tool: &str) -> PathBuf {
    let text = std::fs::read_to_string(repo("params/eval.toml")).unwrap();
    let mut set = ParamSet::from_toml_str(&crate::run::provenance::strip(&text), "eval.toml").unwrap();
    let outpost = set.terms.iter_mut().find(|t| t.name == "knight.outpost").unwrap();
    outpost.mg.fill(0);
    outpost.eg.fill(0);
    let mut text = set.to_toml();
    if let Some(data) = recipe_data {
        let data: Vec<String> = data.iter().map(|p| format!("{:?}", p.display().to_string())).collect();
        text += &format!(
            "\n[provenance]\ntool = \"{tool}\"\ncommand = \"tune {tool}\"\ndate = \"2026-11-29T00:00:00Z\"\n\n\
             [provenance.recipe]\ndata = [{}]\nscore_weight = 0.5\nscore_k = \"fit\"\nl2 = 0.0003\nsmooth = 0.0002\n\
             mirror = 0.0001\nprior_terms = [\"pst.*\", \"king.shield\"]\nmin_coverage = 500.0\n",
            data.join(", ")
        );
    }
    let path = dir.join("start.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn new_terms_are_the_tunable_terms_at_zero_but_their_fixed_elements() {
    let dir = TempDir::new("plan-new-terms");
    let set = ParamSet::load(&start(&dir, None, "texel")).unwrap();
    let new = new_terms(&set);
    assert!(new.contains(&"knight.outpost".to_string()), "{new:?}");
    assert!(!new.contains(&"material".to_string()) && !new.contains(&"pst.pawn".to_string()), "{new:?}");
    // A term whose only nonzero elements are fixed is new too; one nonzero tunable value is not.
    let mut set = set;
    let pawn = set.terms.iter_mut().find(|t| t.name == "pst.pawn").unwrap();
    for i in 0..pawn.len() {
        if !pawn.fixed.contains(&i) {
            (pawn.mg[i], pawn.eg[i]) = (0, 0);
        }
    }
    assert!(new_terms(&set).contains(&"pst.pawn".to_string()));
    set.terms.iter_mut().find(|t| t.name == "pst.pawn").unwrap().eg[20] = 1;
    assert!(!new_terms(&set).contains(&"pst.pawn".to_string()));
}

#[test]
fn a_tuned_start_continues_its_recipe_and_tunes_its_new_terms_first() {
    let dir = TempDir::new("plan-recipe");
    let found = small_dataset();
    let params = start(&dir, Some(&[&found]), "texel");
    let state = State::start(&params, &params, &[Stage::Texel]);

    let plan = TexelPlan::of(&args(&params, Some("--l2 0.01 --min-coverage 0")), &state).unwrap();
    assert_eq!(plan.data, std::slice::from_ref(&found));
    assert!(plan.missing.is_empty());
    // The recorded objective, but for what the user gave (--l2, --min-coverage).
    let words = plan.words.join(" ");
    assert_eq!(
        words,
        "--score-weight 0.5 --score-k fit --smooth 0.0002 --mirror 0.0001 --prior-terms pst.* king.shield"
    );
    assert!(
        plan.only.contains(&"knight.outpost".to_string()) && !plan.only.contains(&"material".to_string())
    );
    let line = plan.describe().unwrap();
    assert!(line.contains("new terms only: ") && line.contains("knight.outpost"), "{line}");
    // The stage's start is a copy without provenance: the recorded hold-out comes from the file
    // the recipe does, unless the user names another.
    assert_eq!(plan.hold_out_from, Some(params.clone()));
    let own = TexelPlan::of(&args(&params, Some("--hold-out-from x.toml")), &state).unwrap();
    assert_eq!(own.hold_out_from, None);

    // A recorded file missing on this machine: no recorded objective without its data (the rest
    // of the data could not take it), said in the log.
    let lost_dir = TempDir::new("plan-lost");
    let missing = lost_dir.join("lost.epd");
    let lost = start(&lost_dir, Some(&[&found, &missing]), "texel");
    let plan = TexelPlan::of(&args(&lost, None), &State::start(&lost, &lost, &[Stage::Texel])).unwrap();
    assert_eq!((plan.data.len(), plan.missing.clone(), plan.words.len()), (0, vec![missing], 0));
    assert_eq!(plan.hold_out_from, None);
    assert!(plan.describe().unwrap().contains("lost.epd"));

    // Without the user's options the recorded pull and coverage come too; another tool's pull
    // does not (it suits that tool's optimiser).
    let plan = TexelPlan::of(&args(&params, None), &state).unwrap();
    assert!(
        plan.words.join(" ").contains("--l2 0.0003") && plan.words.join(" ").contains("--min-coverage 500")
    );
    let pbil_dir = TempDir::new("plan-pbil");
    let pbil = start(&pbil_dir, Some(&[&found]), "pbil");
    let plan = TexelPlan::of(&args(&pbil, None), &State::start(&pbil, &pbil, &[Stage::Texel])).unwrap();
    assert!(!plan.words.contains(&"--l2".to_string()), "{:?}", plan.words);

    // After a first Texel stage every value is tuned; the user's --only wins from the start.
    let mut later = state.clone();
    later.stages.push(StageRecord::texel_example("failed", 1.0));
    assert!(TexelPlan::of(&args(&params, None), &later).unwrap().only.is_empty());
    assert!(TexelPlan::of(&args(&params, Some("--only 'pst.*'")), &state).unwrap().only.is_empty());
    // Data the run already reads is not named twice.
    let given = AutoArgs { data: vec![found.clone()], ..args(&params, None) };
    assert!(TexelPlan::of(&given, &state).unwrap().data.is_empty());
}

#[test]
fn a_start_without_provenance_gets_the_defaults_and_every_value() {
    let dir = TempDir::new("plan-none");
    let params = start(&dir, None, "texel");
    let plan = TexelPlan::of(&args(&params, None), &State::start(&params, &params, &[Stage::Texel])).unwrap();
    assert_eq!(plan, TexelPlan::default());
    assert_eq!(plan.describe(), None);
}

/// The stage's command line carries the plan: it parses as `tune texel` parses it.
#[test]
fn the_texel_stage_command_carries_the_plan() {
    let dir = TempDir::new("plan-words");
    let found = small_dataset();
    let params = start(&dir, Some(&[&found]), "texel");
    let args = AutoArgs { data: vec![], ..args(&params, Some("--min-coverage 0")) };
    let state = State::start(&params, &params, &[Stage::Texel]);
    let search = whetstone::search::SearchParamSet::baked();
    let words =
        super::super::stages::stage_words(&args, &state, Stage::Texel, &dir.join("t"), &search, false)
            .unwrap();
    let line = words.join(" ");
    assert!(line.contains(&found.display().to_string()) && line.contains("--score-weight 0.5"), "{line}");
    assert!(line.contains("--only ") && line.contains("knight.outpost"), "{line}");
    assert!(line.contains(&format!("--hold-out-from {}", params.display())), "{line}");
    super::super::stages::parse_stage(Stage::Texel, &words).unwrap();
}
