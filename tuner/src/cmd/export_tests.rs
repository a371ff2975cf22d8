//! Tests of `cmd/export.rs`.

use super::*;
use crate::run::verdict::example;
use crate::testutil::{scratch_root, TempDir};
use crate::verify::VerdictOutcome;

fn export(root: &Path, params: &Path, force: bool) -> Result<()> {
    run(&ExportArgs {
        params: Some(params.to_path_buf()),
        search_params: None,
        root: root.to_path_buf(),
        toml: root.join("reports/export/eval.toml"),
        search_toml: root.join("reports/export/search.toml"),
        no_build: false,
        force,
    })
}

/// A run folder with a tuned.toml (tempo moved) whose result stands as `standing` (None: no
/// result.json).
fn run_folder(dir: &Path, standing: Option<Standing>, in_provenance: bool) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let set = whetstone::eval::EvalParamSet::baked();
    let mut values = set.values();
    values[set.select(&["tempo"]).unwrap()[0]] += 3;
    let mut provenance = Provenance { tool: "pbil".into(), ..Provenance::default() };
    if let (Some(standing), true) = (&standing, in_provenance) {
        provenance.set_verdict(&standing.to_json()).unwrap();
    }
    let tuned = dir.join("tuned.toml");
    std::fs::write(&tuned, provenance.append_to(&set.with_values(&values).to_toml()).unwrap()).unwrap();
    if let (Some(standing), false) = (standing, in_provenance) {
        std::fs::write(
            dir.join("result.json"),
            serde_json::json!({ "verdict": standing.to_json() }).to_string(),
        )
        .unwrap();
    }
    tuned
}

#[test]
fn export_refuses_what_did_not_pass_at_a_clock_naming_it_and_bakes_it_with_force() {
    let dir = TempDir::new("export-refuse");
    let root = scratch_root(dir.dir());
    let cases = [
        (Some(Standing::Verified(example(VerdictOutcome::Failed, false))), "failed its verification"),
        (Some(Standing::Verified(example(VerdictOutcome::Undecided, false))), "is undecided"),
        (Some(Standing::Verified(example(VerdictOutcome::Passed, true))), "passed only a screen"),
        (Some(Standing::Unverified("--no-verify".into())), "is unverified (--no-verify)"),
        (None, "is unverified (no verdict in its [provenance] and no result.json beside it)"),
    ];
    for (i, (standing, said)) in cases.into_iter().enumerate() {
        let tuned = run_folder(&root.join(format!("run{i}")), standing, i % 2 == 0);
        let e = export(&root, &tuned, false).unwrap_err().to_string();
        assert!(e.starts_with("refused:") && e.contains(said) && e.contains("--force"), "{e}");
        assert!(!root.join("src/eval/baked.rs").exists(), "a refused file bakes nothing");
    }
    let failed = run_folder(
        &root.join("forced"),
        Some(Standing::Verified(example(VerdictOutcome::Failed, false))),
        false,
    );
    export(&root, &failed, true).unwrap();
    assert!(root.join("src/eval/baked.rs").exists(), "--force bakes it");
    let passed = run_folder(
        &root.join("passed"),
        Some(Standing::Verified(example(VerdictOutcome::Passed, false))),
        true,
    );
    export(&root, &passed, false).unwrap();
    let engine_toml = std::fs::read_to_string(root.join("engine.toml")).unwrap();
    assert!(engine_toml.contains("passed/tuned.toml"), "{engine_toml}");
    // The file the build bakes now is re-exported whatever its record says.
    export(&root, &root.join("passed/tuned.toml"), false).unwrap();
}
