//! `tune auto` end to end at toy sizes (one thread, few hundred nodes, a few games per stage).

use std::path::Path;

use super::record::read_json;
use super::*;
use crate::testutil::{scratch_root, small_dataset, TempDir};

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path).display().to_string()
}

/// A fresh run folder's path, not made yet: the run makes it (and bad input must not).
fn temp(name: &str) -> TempDir {
    TempDir::reserve(&format!("auto-{name}"))
}

/// Toy sizes: every stage takes a second or two. An option in `extra` replaces its default here.
fn auto_args(out: &Path, extra: &[&str]) -> AutoArgs {
    let (out, params) = (out.display().to_string(), repo("params/eval.toml"));
    let defaults = [
        ("--hours", "1"),
        ("--out", &out),
        ("--concurrency", "1"),
        ("--datagen-games", "8"),
        ("--datagen-nodes", "500"),
        ("--texel-epochs", "6"),
        ("--tune-games", "8"),
        ("--tune-nodes", "500"),
        ("--verify-nodes", "500"),
        ("--verify-games", "16"),
        ("--params", &params),
        ("--texel-args", "--min-coverage 0 --checkpoint-every 1"),
    ];
    let mut words = vec!["--quiet".to_string()];
    for (option, value) in defaults {
        if !extra.contains(&option) {
            words.extend([option.to_string(), value.to_string()]);
        }
    }
    words.extend(extra.iter().map(|s| s.to_string()));
    parse_args(&words).unwrap()
}

fn result(out: &Path) -> serde_json::Value {
    read_json(&out.join("result.json")).unwrap()
}

/// What a stage measured, without where and how long it ran.
fn measured(stage: &serde_json::Value) -> serde_json::Value {
    let mut stage = stage.clone();
    for key in ["dir", "command", "seconds"] {
        stage.as_object_mut().unwrap().remove(key);
    }
    stage
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn two_cycles_run_every_stage_verify_each_tuning_stage_and_report_them() {
    let out = temp("cycles");
    run(&auto_args(&out, &["--cycles", "2"])).unwrap();
    let result = result(&out);
    let stages = result["stages"].as_array().unwrap();
    let names: Vec<&str> = stages.iter().map(|s| s["stage"].as_str().unwrap()).collect();
    assert_eq!(names, ["datagen", "texel", "spsa", "datagen", "texel", "spsa"]);
    for stage in stages {
        if stage["stage"] == "datagen" {
            assert!(stage["positions"].as_u64().unwrap() > 50, "{stage}");
            assert_eq!(stage["games"], 8);
        } else {
            let verdict = stage["verdict"].as_str().unwrap();
            // A Texel stage whose held-out loss did not fall plays no verification.
            let unplayed = ["unchanged", "no_held_out_gain"].contains(&verdict);
            assert!(unplayed || ["passed", "failed", "undecided"].contains(&verdict), "{stage}");
            // The stage's own run folder holds its verdict (and its games count in the stage's).
            let own = read_json(&PathBuf::from(stage["dir"].as_str().unwrap()).join("result.json")).unwrap();
            if verdict != "unchanged" {
                assert_eq!(own["verdict"]["outcome"], verdict);
            }
            if !unplayed {
                assert!(stage["games"].as_u64().unwrap() >= own["verdict"]["games"].as_u64().unwrap());
            }
            assert_eq!(stage["kept"], verdict == "passed");
        }
    }
    // The second Texel stage reads the positions of both datagen stages.
    let texel_2 = stages[4]["command"].as_str().unwrap();
    assert!(
        texel_2.contains("cycle-1/datagen/positions.epd")
            && texel_2.contains("cycle-2/datagen/positions.epd")
    );
    assert!(texel_2.contains("--seed 2") && texel_2.contains("--verify-nodes 500"), "{texel_2}");
    assert!(result["ended"].as_str().unwrap().contains("--cycles"));
    let log = std::fs::read_to_string(out.join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 7, "a header and a row per stage:\n{log}");
    assert!(log.lines().next().unwrap().contains("cumulative_elo"));
    for file in ["tuned.toml", "search.toml", "auto.json", "run.json", "report/index.html"] {
        assert!(out.join(file).is_file(), "{file}");
    }
    let html = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    assert!(html.contains("stages of tune auto"), "the report lists the stages");
}

/// A run killed inside a stage (here: the Texel stage after 3 of its 6 epochs, checkpointed,
/// before its verification) and resumed ends as the uninterrupted run ends.
#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn a_run_resumed_mid_stage_ends_as_the_uninterrupted_one() {
    let (a, b) = (temp("straight"), temp("resumed"));
    let extra = ["--stages", "datagen,texel", "--cycles", "1"];
    run(&auto_args(&a, &extra)).unwrap();

    let args = auto_args(&b, &extra);
    run_sitting(&args, Some(1)).unwrap();
    let mut state = load_state(&RunDir::create(&b).unwrap()).unwrap();
    assert_eq!((state.stages.len(), state.next, state.started), (1, 1, false));
    // The Texel stage as the loop starts it, killed after its third epoch: its checkpoint, and
    // no verdict yet.
    let dir = b.join("cycle-1").join("texel");
    let search = SearchParamSet::load(&state.search).unwrap();
    let mut words = stage_words(&args, &state, Stage::Texel, &dir, &search, false).unwrap();
    let epochs = words.iter().position(|w| w == "--epochs").unwrap();
    words[epochs + 1] = "3".into();
    run_stage(Stage::Texel, &words).unwrap();
    for file in ["verify", "result.json", "tuned.toml"] {
        let path = dir.join(file);
        if path.is_dir() {
            std::fs::remove_dir_all(path).unwrap();
        } else {
            std::fs::remove_file(path).unwrap();
        }
    }
    state.started = true;
    save(&RunDir::create(&b).unwrap(), &state).unwrap();

    let resumed = AutoArgs { resume: true, ..args };
    let other_plan = AutoArgs { stages: vec![Stage::Datagen, Stage::Texel, Stage::Spsa], ..resumed.clone() };
    let refused = format!("{:#}", run(&other_plan).expect_err("a resume with other stages is refused"));
    assert!(refused.contains("stages are datagen,texel;"), "{refused}");
    run(&resumed).unwrap();
    let (straight, resumed) = (result(&a), result(&b));
    let stages =
        |r: &serde_json::Value| r["stages"].as_array().unwrap().iter().map(measured).collect::<Vec<_>>();
    assert_eq!(stages(&straight), stages(&resumed));
    assert!(resumed["stages"][1]["command"].as_str().unwrap().contains("--resume"));
    let checkpoint = read_json(&dir.join("checkpoint.json")).unwrap();
    assert_eq!(checkpoint["epoch"], 6, "the resumed stage ran its remaining epochs");
    // The same values (the provenance names each run's own folder and time).
    let tuned = |root: &Path| {
        crate::run::provenance::strip(
            &std::fs::read_to_string(root.join("cycle-1/texel/tuned.toml")).unwrap(),
        )
    };
    assert_eq!(tuned(&a), tuned(&b));
}

/// From a crippled start (every material value 1) the Texel stage wins material back: it passes,
/// the next cycle starts from its values, and --bake bakes the run's values; a run where nothing
/// passes leaves the build alone.
#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn a_passed_stage_is_kept_and_baked_and_a_run_with_none_bakes_nothing() {
    let out = temp("bake");
    let root = scratch_root(&out);
    std::fs::create_dir_all(root.join("reports")).unwrap();
    std::fs::write(root.join("reports/tests.md"), "| # | change |\n| --- | --- |\n| 1 | by hand |\n")
        .unwrap();
    let data = small_dataset().display().to_string();
    let baked = EvalParamSet::baked();
    let mut values = baked.values();
    for slot in baked.select(&["material"]).unwrap() {
        values[slot] = 1;
    }
    let crippled = out.join("crippled.toml");
    std::fs::write(&crippled, baked.with_values(&values).to_toml()).unwrap();
    let (crippled, root_arg) = (crippled.display().to_string(), root.display().to_string());
    let args = auto_args(
        &out.join("run"),
        &[
            "--params",
            &crippled,
            "--stages",
            "texel",
            "--data",
            &data,
            "--cycles",
            "2",
            "--texel-epochs",
            "30",
            "--texel-args",
            "--min-coverage 0 --learning-rate 20 --only material",
            "--verify-games",
            "100",
            "--verify-bounds",
            "0",
            "50",
            "--confirm-tc",
            "0.5+0.005",
            "--bake",
            "--root",
            &root_arg,
        ],
    );
    run(&args).unwrap();
    let result = result(&out.join("run"));
    let first = &result["stages"][0];
    assert_eq!((first["verdict"].as_str(), first["kept"].as_bool()), (Some("passed"), Some(true)), "{first}");
    assert!(first["elo"].as_f64().unwrap() > 0.0 && first["cumulative_elo"] == first["elo"]);
    let second = &result["stages"][1]["command"];
    assert!(
        second.as_str().unwrap().contains("cycle-1/texel/tuned.toml"),
        "cycle 2 starts from the kept values"
    );
    // The stages passed screens at fixed nodes; the final values passed at a clock before baking.
    assert_eq!(result["clock_verdict"]["outcome"], "passed", "{result}");
    assert_eq!(result["clock_verdict"]["screen"], false);
    assert_eq!(result["baked"], true);
    // The run folder lies outside the repository: its values go into the file engine.toml names.
    let run_values = EvalParamSet::load(&out.join("run").join("tuned.toml")).unwrap().values();
    assert_eq!(EvalParamSet::load(&root.join("params/eval.toml")).unwrap().values(), run_values);
    assert!(std::fs::read_to_string(root.join("engine.toml"))
        .unwrap()
        .contains("params = \"params/eval.toml\""));
    // The loop's SPRTs are tests like hand-made ones: rows of the run's table and of the repository's.
    let table = std::fs::read_to_string(root.join("reports/tests.md")).unwrap();
    let first_row = table.lines().find(|l| l.starts_with("| 2 | ")).expect("the first stage is row 2");
    assert!(first_row.contains("cycle-1/texel") && first_row.contains("passed: kept by the loop"), "{table}");
    let clock_row = table.lines().last().unwrap();
    assert!(clock_row.contains("verify-clock") && clock_row.ends_with("| passed: baked |"), "{table}");
    assert!(std::fs::read_to_string(out.join("run").join("tests.md")).unwrap().contains("cycle-1/texel"));

    // Nothing to tune (no value matches what the start can move) passes nothing: nothing baked.
    let untouched = scratch_root(&out.join("untouched"));
    let root_arg = untouched.display().to_string();
    let none = auto_args(
        &out.join("none"),
        &[
            "--stages",
            "texel",
            "--data",
            &data,
            "--cycles",
            "1",
            "--texel-epochs",
            "1",
            "--texel-args",
            "--min-coverage 0 --learning-rate 0.000001",
            "--bake",
            "--root",
            &root_arg,
        ],
    );
    run(&none).unwrap();
    assert_eq!(result_of_stage(&out.join("none"), 0)["kept"], false);
    assert!(!untouched.join("src/eval/baked.rs").exists(), "no passed stage, nothing baked");
}

/// An executable UCI engine that scores positions by a known rule (`tuner/testdata/fake_scorer.py`).
fn scorer_engine(dir: &TempDir) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.path("fake-scorer");
    let script = crate::testutil::testdata("fake_scorer.py");
    std::fs::write(&path, format!("#!/bin/sh\nexec python3 '{}' \"$@\"\n", script.display())).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A rescore stage scores the datagen stage's positions with the teacher engine, and the Texel
/// stage after it reads the scored copy instead of the datagen stage's own.
#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn a_rescore_stage_hands_the_teachers_scores_to_the_texel_stage() {
    let out = temp("rescore");
    let engines = TempDir::new("auto-rescore-engine");
    let scorer = scorer_engine(&engines);
    let extra = ["--stages", "datagen,rescore,texel", "--cycles", "1", "--rescore-depth", "3"];
    let args = auto_args(&out, &[&extra[..], &["--rescore-engine", scorer.to_str().unwrap()]].concat());
    run(&args).unwrap();
    let result = result(&out);
    let stages = result["stages"].as_array().unwrap();
    let names: Vec<&str> = stages.iter().map(|s| s["stage"].as_str().unwrap()).collect();
    assert_eq!(names, ["datagen", "rescore", "texel"]);
    let (datagen, rescore) = (&stages[0], &stages[1]);
    assert_eq!(rescore["positions"], datagen["positions"], "every position is written back: {rescore}");
    assert_eq!(rescore["verdict"], serde_json::Value::Null);
    let command = rescore["command"].as_str().unwrap();
    assert!(command.starts_with("tune dataset rescore ") && command.contains("--depth 3"), "{command}");
    // The scored copy holds the fake engine's scores (mates aside) beside each game's result.
    let scored = std::fs::read_to_string(out.join("cycle-1/rescore/positions.epd")).unwrap();
    assert!(scored.lines().any(|l| l.contains(" ce ")), "{scored}");
    assert!(scored.lines().all(|l| l.contains(" c9 ")));
    let texel = stages[2]["command"].as_str().unwrap();
    assert!(
        texel.contains("cycle-1/rescore/positions.epd") && !texel.contains("cycle-1/datagen/positions.epd"),
        "{texel}"
    );
}

fn result_of_stage(out: &Path, i: usize) -> serde_json::Value {
    result(out)["stages"][i].clone()
}

fn error(extra: &[&str]) -> String {
    let out = temp("bad");
    let message = format!("{:#}", run(&auto_args(&out, extra)).expect_err("bad input is refused"));
    assert!(!out.exists(), "nothing is written before the checks pass: {message}");
    message
}

#[test]
fn bad_input_is_refused_before_any_work_with_what_is_wrong() {
    let unknown =
        parse_args::<AutoArgs>(&["--hours".into(), "1".into(), "--stages".into(), "datagen,texle".into()]);
    let unknown = format!("{:#}", unknown.expect_err("an unknown stage is refused"));
    assert!(unknown.contains("texle") && unknown.contains("possible values"), "{unknown}");
    let tiny = error(&["--hours", "0.0001", "--datagen-games", "100000"]);
    assert!(tiny.contains("cannot fit one stage") && tiny.contains("datagen"), "{tiny}");
    let pbil = error(&["--stages", "datagen,pbil"]);
    assert!(pbil.contains("--pbil-only"), "{pbil}");
    let texel_first = error(&["--stages", "texel,datagen"]);
    assert!(texel_first.contains("needs positions"), "{texel_first}");
    let stage_option = error(&["--texel-args", "--no-such-option 3"]);
    assert!(
        stage_option.contains("texel stage") && stage_option.contains("--no-such-option"),
        "{stage_option}"
    );
    let no_teacher = error(&["--stages", "datagen,rescore,texel"]);
    assert!(no_teacher.contains("--rescore-engine"), "{no_teacher}");
    let engines = TempDir::new("auto-scorer");
    let scorer = scorer_engine(&engines);
    let scorer = scorer.to_str().unwrap();
    let rescore_first = error(&["--stages", "rescore,datagen,texel", "--rescore-engine", scorer]);
    assert!(rescore_first.contains("datagen stage before it"), "{rescore_first}");
    let no_binary = error(&["--stages", "datagen,rescore,texel", "--rescore-engine", "/no/such/engine"]);
    assert!(no_binary.contains("/no/such/engine") && no_binary.contains("no such file"), "{no_binary}");
    let unused = error(&["--rescore-engine", scorer]);
    assert!(unused.contains("add rescore"), "{unused}");
    let no_run = error(&["--resume"]);
    assert!(no_run.contains("no auto.json"), "{no_run}");
    // A params file that does not match the build names what is wrong.
    let dir = TempDir::new("auto-params");
    let broken = dir.join("broken.toml");
    let text = std::fs::read_to_string(repo("params/eval.toml")).unwrap();
    std::fs::write(&broken, text.replacen("name = \"tempo\"", "name = \"tempo_renamed\"", 1)).unwrap();
    let mismatch = error(&["--params", broken.to_str().unwrap()]);
    assert!(mismatch.contains("tempo"), "{mismatch}");
}

/// `--tune-tc` plays the SPSA stage at a clock, tuning the time constants too, and its command
/// line parses as `tune spsa` parses it; without it the stage plays at fixed nodes without them.
#[test]
fn a_clock_spsa_stage_plays_at_the_clock_and_tunes_the_time_constants() {
    let dir = temp("tune-tc");
    let search = whetstone::search::SearchParamSet::baked();
    let words = |extra: &[&str]| {
        let args = auto_args(&dir, extra);
        let state = State::start(&args.params, Path::new("search.toml"), &args.stages);
        let words = stage_words(&args, &state, Stage::Spsa, &dir.path("spsa"), &search, false).unwrap();
        parse_stage(Stage::Spsa, &words).unwrap();
        words.join(" ")
    };
    let clock = words(&["--tune-tc", "2+0.02"]);
    assert!(clock.contains("--tc 2+0.02") && !clock.contains("--nodes"), "{clock}");
    assert!(clock.contains("time.moves_left"), "{clock}");
    let nodes = words(&[]);
    assert!(nodes.contains("--nodes 500") && !nodes.contains("--tc "), "{nodes}");
    assert!(!nodes.contains("time."), "{nodes}");
}

/// By default the SPSA stage leaves the features switched off (0 at a minimum of 0) and the on/off
/// switches alone: with the shipped constants, a clock stage tunes 31 (test 67's 24, the history
/// constants the search branch added and the three features row 85 switched on), and a feature that
/// is on is tuned like any value.
#[test]
fn the_spsa_stage_leaves_switched_off_features_alone() {
    let dir = temp("spsa-only");
    let search = whetstone::search::SearchParamSet::baked();
    let chosen = |search: &whetstone::search::SearchParamSet| {
        spsa_only(&auto_args(&dir, &["--tune-tc", "2+0.02"]), search)
    };
    let names = chosen(&search);
    assert!(!names.contains(&"razor.margin".to_string()), "{names:?}");
    assert!(names.contains(&"lmr.divisor".to_string()) && names.contains(&"time.moves_left".to_string()));
    let left_alone =
        |t: &&whetstone::params::Term| (t.min == 0 && t.max == 1) || t.mg.iter().all(|&v| v == 0);
    let skipped = search.terms.iter().filter(left_alone).count();
    assert_eq!(names.len(), search.terms.len() - skipped);
    assert_eq!(names.len(), 31, "{names:?}");
    assert!(!names.contains(&"time.inc_bonus".to_string()), "an offset at its neutral 0 is left alone");
    // A feature switched on is tuned like any other constant; a switch, on or off, never is.
    let mut values = search.values();
    values[whetstone::search::baked::idx::RAZOR_MARGIN] = 300;
    values[whetstone::search::baked::idx::NMP_TT_GUARD] = 1;
    let switched_on = chosen(&search.with_values(&values));
    assert!(switched_on.contains(&"razor.margin".to_string()), "{switched_on:?}");
    assert!(!switched_on.contains(&"nmp.tt_guard".to_string()), "{switched_on:?}");
}

/// A tuning stage that last played no verification (its held-out loss did not fall, or it moved
/// nothing) is expected to take at least its estimate next time, when it may play one; a played
/// stage's own time stands.
#[test]
fn a_stage_that_played_no_verification_is_expected_to_take_at_least_its_estimate() {
    let dir = temp("auto-expected");
    let args = auto_args(&dir, &["--verify-tc", "3+0.03"]);
    let mut state = record::State::start(&args.params, &args.params, &args.stages);
    let texel = args.stages.iter().position(|&s| s == Stage::Texel).unwrap();
    let estimate = stages::estimate_seconds(&args, &state, Stage::Texel);
    assert!(estimate > 60.0, "a clock verification is minutes at least: {estimate}");
    for (verdict, expected) in [("no_held_out_gain", estimate), ("unchanged", estimate), ("failed", 5.0)] {
        state.stages = vec![record::StageRecord::texel_example(verdict, 5.0)];
        assert_eq!(stages::expected_seconds(&args, &state, texel), expected, "{verdict}");
    }
}
