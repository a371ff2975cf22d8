//! Tests of `cmd/spsa.rs`.

use super::*;
use crate::cmd::args::tuner_args;
use crate::testutil::TempDir;

fn args(out: &std::path::Path, extra: &[&str]) -> SpsaArgs {
    tuner_args(out, extra)
}

/// An SPSA of the material values over the Texel loss of the small dataset: fast and exact.
fn texel_material(data: &std::path::Path) -> [&str; 8] {
    ["--fitness", "texel", "--data", data.to_str().unwrap(), "--only", "material", "--min-coverage", "0"]
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn selfplay_spsa_resumes_exactly_and_openbench_lines_round_trip() {
    let dir = TempDir::new("spsa");
    let common = ["--only", "tempo", "bishop_pair", "--nodes", "200", "--hash", "1", "--batch", "2"];
    let a = args(&dir.join("a"), &common);
    let setup = a.common.setup("spsa", FitnessKind::Selfplay).unwrap();
    let straight = optimise(&a, &setup, 4, None).unwrap();
    assert_eq!(straight.games.played(), 8);
    assert_eq!(straight.spsa.iteration, 4);
    let b = args(&dir.join("b"), &common);
    let setup_b = b.common.setup("spsa", FitnessKind::Selfplay).unwrap();
    let half = optimise(&b, &setup_b, 4, Some(2)).unwrap();
    assert_eq!(half.spsa.iteration, 2);
    let resumed =
        optimise(&args(&dir.join("b"), &[&common[..], &["--resume"]].concat()), &setup_b, 4, None).unwrap();
    assert_eq!((&straight.spsa, &straight.games), (&resumed.spsa, &resumed.games));
    let trajectory = |d: &str| std::fs::read_to_string(dir.join(d).join("trajectory.csv")).unwrap();
    assert_eq!(trajectory("a"), trajectory("b"));
    // Export the space with theta, import it into the params. Not verified: the default
    // verification plays up to 1,000 games at 5,000 nodes (minutes; an_openbench_digest_imports_
    // into_search_toml_and_verifies covers an import's verification).
    let lines = setup.space.to_openbench(straight.spsa.values());
    std::fs::write(dir.join("ob.txt"), &lines).unwrap();
    let import_args =
        args(&dir.join("c"), &["--import-openbench", dir.join("ob.txt").to_str().unwrap(), "--no-verify"]);
    run(&import_args).unwrap();
    let tuned = EvalParamSet::load(&dir.join("c/tuned.toml")).unwrap();
    let names = tuned.value_names();
    let tempo = names.iter().position(|n| n == "tempo_mg").unwrap();
    let dim = setup.space.names().iter().position(|n| n == "tempo_mg").unwrap();
    assert_eq!(tuned.values()[tempo] as f64, setup.space.playable(straight.spsa.values())[dim]);
}

/// The fake engine's chance of playing well peaks at Knob = 30 (tuner/testdata/knob_engine.py).
#[test]
fn spsa_over_a_uci_engine_moves_its_option_toward_the_peak_and_resumes_exactly() {
    use crate::testutil::{knight_book, knob_engine};
    let dir = TempDir::new("spsa-engine");
    let engine = knob_engine(&dir, "play");
    let space = dir.path("space.txt");
    std::fs::write(&space, "Knob, int, -60, -100, 100, 10, 0.1\n").unwrap();
    let (engine, space, book) = (engine.display().to_string(), space.display(), knight_book());
    let (space, book) = (space.to_string(), book.display().to_string());
    let common = [
        "--fitness",
        "engine",
        "--engine",
        &engine,
        "--space",
        &space,
        "--book",
        &book,
        "--nodes",
        "10",
        "--concurrency",
        "2",
        "--batch",
        "4",
        "--iterations",
        "200",
    ];
    let straight_dir = dir.path("a");
    run(&args(&straight_dir, &[&common[..], &["--verify-games", "40"]].concat())).unwrap();
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(straight_dir.join("result.json")).unwrap()).unwrap();
    // The result is verified by the binary's own games: the tuned Knob against the start.
    let verdict = &result["verdict"];
    assert!(["passed", "failed", "undecided"].contains(&verdict["outcome"].as_str().unwrap()), "{result}");
    assert!(verdict["games"].as_u64().unwrap() >= 2, "{result}");
    assert_eq!(result["engine_pairing"]["start"][0], serde_json::json!(["Knob", "-60"]), "{result}");
    // The games pushed the knob: its drift is far outside the random walk of its steps.
    assert!(result["evidence"]["Knob"].as_f64().unwrap() > 2.0, "{result}");
    // And again later, by tune verify, from result.json alone.
    let again: crate::cmd::verify::VerifyRunArgs = crate::cmd::args::parse_args(&[
        straight_dir.display().to_string(),
        "--verify-games".into(),
        "60".into(),
        "--book".into(),
        book.clone(),
        "--concurrency".into(),
        "2".into(),
        "--quiet".into(),
    ])
    .unwrap();
    crate::cmd::verify::run(&again).unwrap();
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(straight_dir.join("result.json")).unwrap()).unwrap();
    assert!(result["verdict"]["games"].as_u64().unwrap() >= verdict["games"].as_u64().unwrap(), "{result}");
    let knob = result["values"]["Knob"].as_f64().unwrap();
    assert!(knob > -20.0, "from -60 toward 30: {result}");
    assert_eq!(result["games"], 400);
    assert_eq!(result["failures"]["candidate"]["crashes"], 0);
    let openbench = std::fs::read_to_string(straight_dir.join("openbench.txt")).unwrap();
    assert_eq!(openbench, format!("Knob, int, {knob}, -100, 100, 10, 0.1\n"));
    assert!(std::fs::read_to_string(straight_dir.join("log.csv")).unwrap().contains("candidate_failures"));
    // Killed half-way and resumed: the same run.
    let b = args(&dir.path("b"), &common);
    let setup = b.common.setup("spsa", FitnessKind::Selfplay).unwrap();
    optimise(&b, &setup, 200, Some(100)).unwrap();
    drop(setup);
    let resumed_args = args(&dir.path("b"), &[&common[..], &["--resume"]].concat());
    let setup = resumed_args.common.setup("spsa", FitnessKind::Selfplay).unwrap();
    let resumed = optimise(&resumed_args, &setup, 200, None).unwrap();
    let straight: State = RunDir::create(&straight_dir).unwrap().load_checkpoint().unwrap();
    assert_eq!((&straight.spsa, &straight.games), (&resumed.spsa, &resumed.games));
    // Resuming with another space is refused before any game.
    std::fs::write(dir.path("space.txt"), "Knob, int, -50, -100, 100, 10, 0.1\n").unwrap();
    let e = format!("{:#}", resumed_args.common.setup("spsa", FitnessKind::Selfplay).err().unwrap());
    assert!(e.contains("--space: was"), "{e}");
}

#[test]
fn an_openbench_digest_imports_into_search_toml_and_verifies() {
    let dir = TempDir::new("spsa-ob");
    let digest = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/openbench-digest.csv");
    let verify = ["--verify", "--verify-nodes", "300", "--verify-games", "4", "--hash", "1"];
    run(&args(&dir, &[&["--import-openbench", digest][..], &verify].concat())).unwrap();
    let search = SearchParamSet::load(&dir.join("search.toml")).unwrap();
    let at = |name: &str| search.values()[search.value_names().iter().position(|n| n == name).unwrap()];
    assert_eq!((at("rfp_margin"), at("lmr_divisor")), (74, 215));
    // Only search constants were named, so no tuned.toml; the verdict closes result.json.
    assert!(!dir.join("tuned.toml").exists());
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("result.json")).unwrap()).unwrap();
    assert_eq!(result["values"]["rfp_margin"], 74.0);
    assert_eq!(result["verdict"]["games"], 4);
}

#[test]
fn texel_spsa_lowers_the_loss() {
    let dir = TempDir::new("spsa-texel");
    let data = crate::testutil::small_dataset();
    let a = args(&dir, &texel_material(&data));
    let setup = a.common.setup("spsa", FitnessKind::Selfplay).unwrap();
    let state = optimise(&a, &setup, 200, None).unwrap();
    let t = setup.fitness.exact().expect("the Texel loss");
    assert!(t.loss(state.spsa.values()) < t.loss(&setup.space.starts()));
}

/// --pairs-per P (OpenBench's Pairs-Per): an iteration plays P pairs with one perturbation and
/// applies their summed result once.
#[test]
fn pairs_per_iteration_share_a_perturbation_and_sum_into_one_update() {
    let dir = TempDir::new("spsa-pairs-per");
    let data = crate::testutil::small_dataset();
    let common = texel_material(&data);
    let theta = |name: &str, extra: &[&str]| {
        let a = args(&dir.join(name), &[&common[..], extra].concat());
        let setup = a.common.setup("spsa", FitnessKind::Selfplay).unwrap();
        let state = optimise(&a, &setup, 1, None).unwrap();
        assert_eq!((state.spsa.iteration, state.pairs_per), (1, a.pairs_per));
        let start = setup.space.starts();
        state.spsa.values().iter().zip(start).map(|(v, s)| v - s).collect::<Vec<f64>>()
    };
    let one = theta("one", &[]);
    let four = theta("four", &["--pairs-per", "4"]);
    assert!(one.iter().any(|d| *d != 0.0), "the first iteration moves theta: {one:?}");
    for (a, b) in one.iter().zip(&four) {
        assert!((b - 4.0 * a).abs() < 1e-9, "four pairs' results in one update: {one:?} {four:?}");
    }
    let refused = args(&dir.join("zero"), &[&common[..], &["--pairs-per", "0"]].concat());
    assert!(format!("{:#}", run(&refused).unwrap_err()).contains("--pairs-per"));
}

/// --min-evidence Z keeps only the values whose drift is at least Z walks; a run from before the
/// walk was kept gets it back from its trajectory.csv when resumed, so its evidence can be read.
#[test]
fn min_evidence_keeps_the_pushed_values_and_an_old_run_rebuilds_its_walk() {
    let dir = TempDir::new("spsa-evidence");
    let data = crate::testutil::small_dataset();
    let common = [&texel_material(&data)[..], &["--iterations", "60", "--no-verify"]].concat();
    let result = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name).join("result.json")).unwrap()).unwrap()
    };
    run(&args(&dir.join("all"), &common)).unwrap();
    let all = result("all");
    let z = all["evidence"].as_object().unwrap().clone();
    assert!(!z.is_empty(), "{all}");
    // Nothing has a thousand walks of evidence: every value goes back to its start.
    run(&args(&dir.join("none"), &[&common[..], &["--min-evidence", "1000"]].concat())).unwrap();
    let none = result("none");
    assert_eq!(none["kept"], serde_json::json!([]), "{none}");
    assert_eq!((&all["changed"], &none["changed"]), (&serde_json::json!(true), &serde_json::json!(false)));
    // An old run: its checkpoint without the walk. Resumed with --min-evidence 0, it rebuilds the
    // walk from the trajectory and keeps every value that moved.
    let old = dir.join("all/checkpoint.json");
    let mut checkpoint: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&old).unwrap()).unwrap();
    checkpoint["spsa"].as_object_mut().unwrap().remove("walk");
    std::fs::write(&old, checkpoint.to_string()).unwrap();
    run(&args(&dir.join("all"), &[&common[..], &["--resume", "--min-evidence", "0"]].concat())).unwrap();
    let again = result("all");
    for (name, z_kept) in &z {
        let rebuilt = again["evidence"][name].as_f64().unwrap();
        assert_eq!(rebuilt.signum(), z_kept.as_f64().unwrap().signum(), "{name}: {again}");
    }
    assert_eq!(again["values"], all["values"], "{again}");
    // A negative threshold is refused before any work.
    let refused = args(&dir.join("bad"), &[&common[..], &["--min-evidence=-1"]].concat());
    assert!(format!("{:#}", run(&refused).unwrap_err()).contains("--min-evidence"));
}
