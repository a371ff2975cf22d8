//! The end of a tuning run: what it found ([`Found`]), written where users and the engine build
//! read it. `result.json` (the values by name, games, what the tuner measured, the values left
//! frozen, whether anything changed), the tuned params as TOML and as the Rust module `tune
//! export` bakes in (`tuned.toml` + `eval_params.rs`, `search.toml` + `search_params.rs`), the
//! run's report, and for the black-box tuners OpenBench's SPSA lines. Every tuner, `tune texel`
//! included, ends in [`finish_run`]; `tune export` (in `cmd/`) then bakes a chosen file.

pub mod bake;
pub mod verify;

use std::path::PathBuf;

use anyhow::Result;
use whetstone::eval::EvalParamSet;
use whetstone::params::{CheckedSet, Layout, ParamSet};
use whetstone::search::SearchParamSet;

use crate::fitness::setup::{Setup, TuneArgs};
use crate::optim::space::Slot;
use crate::play::args::PlayArgs;
use crate::run::RunDir;
use verify::{Verdict, VerifyArgs};

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

/// What a tuning run found, whichever tuner ran: the sets it started from, the tuned ones (None
/// for a set the run did not tune, or a space that is not the params files'), and what it measured.
pub struct Found {
    pub start_eval: EvalParamSet,
    pub start_search: SearchParamSet,
    pub eval: Option<EvalParamSet>,
    pub search: Option<SearchParamSet>,
    /// Every tuned value by its name, as the run left it.
    pub values: Vec<(String, f64)>,
    /// Selected values left as they were (seen in too few positions).
    pub frozen: Vec<String>,
    pub games: u64,
    /// What the tuner measured (losses, win rates, steps), added to result.json.
    pub measured: serde_json::Value,
    /// A `--space` run (values of no params set: a command's, an engine's options): whether any
    /// value, as played, left its start.
    pub space_moved: bool,
}

impl Found {
    /// A black-box run's result: `values` over the set-up's space.
    pub fn from_setup(setup: &Setup, values: &[f64], games: u64, measured: serde_json::Value) -> Found {
        let playable = setup.space.playable(values);
        let tunes = |eval: bool| {
            setup
                .space
                .dims
                .iter()
                .any(|d| matches!((d.slot, eval), (Slot::Eval(_), true) | (Slot::Search(_), false)))
        };
        let (mut eval, mut search) = (setup.eval.clone(), setup.search.clone());
        setup.space.apply(&playable, &mut eval, &mut search);
        let space_moved = !setup.from_params && playable != setup.space.playable(&setup.space.starts());
        Found {
            start_eval: setup.eval.clone(),
            start_search: setup.search.clone(),
            eval: (setup.from_params && tunes(true)).then_some(eval),
            search: (setup.from_params && tunes(false)).then_some(search),
            values: setup.space.dims.iter().map(|d| d.name.clone()).zip(playable).collect(),
            frozen: setup.frozen.clone(),
            games,
            measured,
            space_moved,
        }
    }

    /// Whether the tuned values differ from the start anywhere.
    pub fn changed(&self) -> bool {
        self.space_moved
            || self.eval.as_ref().is_some_and(|e| e.values() != self.start_eval.values())
            || self.search.as_ref().is_some_and(|s| s.values() != self.start_search.values())
    }
}

/// The end of every tuning run: `result.json` ({"values": {name: value}, "games": n, "frozen":
/// [...], "changed": bool, and what the tuner measured}), the tuned sets as TOML and as the
/// engine's Rust modules, the report, and what to do next. Returns the files written.
pub fn finish_run(run: &RunDir, found: &Found) -> Result<Vec<&'static str>> {
    let named: serde_json::Map<String, serde_json::Value> =
        found.values.iter().map(|(name, v)| (name.clone(), serde_json::json!(v))).collect();
    let mut result = serde_json::json!({
        "values": named,
        "games": found.games,
        "frozen": found.frozen,
        "changed": found.changed(),
    });
    if let (Some(map), serde_json::Value::Object(more)) = (result.as_object_mut(), found.measured.clone()) {
        map.extend(more);
    }
    run.write_json("result.json", &result)?;
    let mut written = vec!["result.json"];
    let mut next = Vec::new();
    if let Some(eval) = &found.eval {
        let toml = write_params(run, eval, "tuned", "eval_params.rs")?;
        written.extend(["tuned.toml", "eval_params.rs"]);
        next.push(format!(
            "bake the evaluation into the engine with: tune export --params {}",
            toml.display()
        ));
    }
    if let Some(search) = &found.search {
        let toml = write_params(run, search, "search", "search_params.rs")?;
        written.extend(["search.toml", "search_params.rs"]);
        next.push(format!(
            "bake the search constants into the engine with: tune export --search-params {}",
            toml.display()
        ));
    }
    if found.eval.is_some() || found.search.is_some() {
        let eval = found.eval.as_ref().unwrap_or(&found.start_eval);
        write_report(run, eval, Some(found.start_eval.set()));
        // A run that moved nothing says so instead of advising an export of the start.
        if found.changed() {
            next.iter().for_each(|line| eprintln!("{line}"));
        } else {
            eprintln!(
                "the run found nothing: every tuned value is where it started, so there is nothing to export"
            );
        }
    }
    Ok(written)
}

/// After [`finish_run`], with `--verify`: the verdict of the tuned values against the start
/// (added to result.json and run.json, the report redrawn to show it first, printed last), and
/// with `--bake` the build baked when the SPRT passed. `resume` continues a killed verification.
pub fn conclude(
    run: &RunDir,
    found: &Found,
    args: &VerifyArgs,
    play: &PlayArgs,
    resume: bool,
) -> Result<Option<Verdict>> {
    if !args.verify {
        return Ok(None);
    }
    if !found.changed() && (found.eval.is_some() || found.search.is_some()) {
        // Games of the start against itself would measure nothing.
        println!("verdict: none: the run moved no value, so there is nothing to verify (or bake)");
        return Ok(None);
    }
    let stop = crate::run::interrupt_flag();
    let verdict = verify::verify(run, found, args, play, resume, &stop)?;
    run.add_result("verdict", &serde_json::to_value(&verdict)?)?;
    if found.eval.is_some() || found.search.is_some() {
        let eval = found.eval.as_ref().unwrap_or(&found.start_eval);
        write_report(run, eval, Some(found.start_eval.set()));
    }
    if args.bake {
        let baked = verify::bake_if_passed(run, found, &verdict, std::path::Path::new("."))?;
        run.add_result("baked", &baked.into())?;
    }
    println!("{}", verdict.lines());
    Ok(Some(verdict))
}

/// The end of a black-box run (`pbil`, `clop`, `spsa`): [`finish_run`], OpenBench's SPSA lines
/// of the result, the largest changes on the terminal, and with `--verify` the verdict.
pub fn finish_tuning(
    setup: &Setup,
    args: &TuneArgs,
    verify: &VerifyArgs,
    values: &[f64],
    games: u64,
    measured: serde_json::Value,
) -> Result<()> {
    let found = Found::from_setup(setup, values, games, measured);
    let mut written = finish_run(&setup.run, &found)?;
    let playable = setup.space.playable(values);
    setup.run.write("openbench.txt", &setup.space.to_openbench(&playable))?;
    written.push("openbench.txt");
    let largest = setup.space.largest_changes(&playable, 12);
    if !largest.is_empty() {
        println!("largest changes:\n{largest}");
    }
    println!("wrote {} in {}", written.join(", "), setup.run.path().display());
    conclude(&setup.run, &found, verify, &args.play, args.resume).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_json_names_the_values_and_says_whether_anything_changed() {
        let dir = std::env::temp_dir().join(format!("whetstone-export-end-{}", std::process::id()));
        let run = RunDir::create(&dir).unwrap();
        let start = EvalParamSet::baked();
        let mut found = Found {
            start_eval: start.clone(),
            start_search: SearchParamSet::baked(),
            eval: Some(start.clone()),
            search: None,
            values: vec![("tempo_mg".into(), 12.0)],
            frozen: vec!["pst_pawn_a2_mg".into()],
            games: 0,
            measured: serde_json::json!({ "k": 1.5 }),
            space_moved: false,
        };
        assert!(!found.changed(), "the start itself changed nothing");
        let written = finish_run(&run, &found).unwrap();
        assert_eq!(written, ["result.json", "tuned.toml", "eval_params.rs"]);
        let result: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("result.json")).unwrap()).unwrap();
        assert_eq!(result["changed"], false);
        assert_eq!(result["values"]["tempo_mg"], 12.0);
        assert_eq!((result["k"].as_f64(), result["frozen"][0].as_str()), (Some(1.5), Some("pst_pawn_a2_mg")));
        let mut values = start.values();
        values[0] += 1;
        found.eval = Some(start.with_values(&values));
        assert!(found.changed());
        std::fs::remove_dir_all(&dir).ok();
    }
}
