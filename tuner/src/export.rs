//! The end of a tuning run: what it found, written where users and the engine build read it.
//! `result.json` (the values by name, games, what the tuner measured, the values left frozen),
//! OpenBench's SPSA lines, the tuned params as TOML and as the Rust module `tune export` bakes in
//! (`tuned.toml` + `eval_params.rs`, `search.toml` + `search_params.rs`), and the run's report.
//! Every tuner ends here; `tune export` (in `cmd/`) then bakes a chosen file into the build.

use std::path::PathBuf;

use anyhow::Result;
use whetstone::params::{CheckedSet, Layout, ParamSet};

use crate::fitness::setup::Setup;
use crate::optim::space::Slot;
use crate::run::RunDir;

/// The tuned values as `<stem>.toml` and the Rust module `rust_name` (the engine's baked module
/// for that set, as `tune export` writes it). Returns the TOML's path.
pub fn write_params<L: Layout>(
    run: &RunDir,
    tuned: &CheckedSet<L>,
    stem: &str,
    rust_name: &str,
) -> Result<PathBuf> {
    let toml_path = run.file(&format!("{stem}.toml"));
    run.write(&format!("{stem}.toml"), &tuned.to_toml())?;
    run.write(rust_name, &tuned.to_rust_module(&toml_path.display().to_string())?)?;
    Ok(toml_path)
}

/// The report of the run (workbook, images, index.html) in `report/`; a report that cannot be
/// drawn (no fonts, say) is a warning, never the loss of a finished run.
pub fn write_report(run: &RunDir, params: &ParamSet, baseline: Option<&ParamSet>) {
    let out = run.file("report");
    match crate::report::write_report(params, baseline, Some(run.path()), &out) {
        Ok(index) => eprintln!("report: {}", index.display()),
        Err(e) => eprintln!("report not written: {e:#}"),
    }
}

/// The end of a black-box run (`pbil`, `clop`, `spsa`): `result.json` ({"values": {name: value},
/// "games": n, "frozen": [...], ...}), the OpenBench lines, the tuned params as TOML and Rust
/// modules, the report, and the largest changes on the terminal.
pub fn finish_tuning(setup: &Setup, values: &[f64], games: u64, extra: serde_json::Value) -> Result<()> {
    let playable = setup.space.playable(values);
    let mut named = serde_json::Map::new();
    for (d, v) in setup.space.dims.iter().zip(&playable) {
        named.insert(d.name.clone(), serde_json::json!(v));
    }
    let mut result = serde_json::json!({ "values": named, "games": games, "frozen": setup.frozen });
    if let (Some(map), serde_json::Value::Object(more)) = (result.as_object_mut(), extra) {
        map.extend(more);
    }
    setup.run.write_json("result.json", &result)?;
    setup.run.write("openbench.txt", &setup.space.to_openbench(&playable))?;
    let mut written = vec!["result.json", "openbench.txt"];
    if setup.from_params {
        let tunes = |eval: bool| {
            setup
                .space
                .dims
                .iter()
                .any(|d| matches!((d.slot, eval), (Slot::Eval(_), true) | (Slot::Search(_), false)))
        };
        let (mut eval, mut search) = (setup.eval.clone(), setup.search.clone());
        setup.space.apply(&playable, &mut eval, &mut search);
        if tunes(true) {
            let toml = write_params(&setup.run, &eval, "tuned", "eval_params.rs")?;
            written.extend(["tuned.toml", "eval_params.rs"]);
            eprintln!("bake the evaluation into the engine with: tune export --params {}", toml.display());
        }
        if tunes(false) {
            let toml = write_params(&setup.run, &search, "search", "search_params.rs")?;
            written.extend(["search.toml", "search_params.rs"]);
            eprintln!(
                "bake the search constants into the engine with: tune export --search-params {}",
                toml.display()
            );
        }
        write_report(&setup.run, &eval, Some(setup.eval.set()));
    }
    let largest = setup.space.largest_changes(&playable, 12);
    if !largest.is_empty() {
        println!("largest changes:\n{largest}");
    }
    println!("wrote {} in {}", written.join(", "), setup.run.path().display());
    Ok(())
}
