//! The end of a tuning run: what it found ([`Found`]), written where users and the engine build
//! read it. `result.json` (the values by name, games, what the tuner measured, the values left
//! frozen, whether anything changed), the tuned params as TOML and as the Rust module `tune
//! export` bakes in (`tuned.toml` + `eval_params.rs`, `search.toml` + `search_params.rs`), the
//! run's report, and for the black-box tuners OpenBench's SPSA lines. Every tuner, `tune texel`
//! included, ends in [`finish_run`]; `tune export` (in `cmd/`) then bakes a chosen file.

pub mod bake;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use whetstone::eval::EvalParamSet;
use whetstone::params::{CheckedSet, Layout, ParamSet};
use whetstone::search::SearchParamSet;

use crate::fitness::setup::{Setup, TuneSettings};
use crate::optim::space::Slot;
use crate::play::runs::settings::MatchSettings;
use crate::run::advice::{advice, engine_advice, Baking};
use crate::run::format_value;
use crate::run::provenance::{self, Provenance};
use crate::run::RunDir;
use crate::verify::{
    self, Contenders, EngineContenders, Pairing, Standing, Verdict, VerdictOutcome, VerifySettings,
};

/// The tuned values as `<stem>.toml` and the Rust module `rust_name` (the engine's baked module
/// for that set, as `tune export` writes it). Returns the TOML's path.
pub fn write_params<L: Layout>(
    run: &RunDir,
    tuned: &CheckedSet<L>,
    stem: &str,
    rust_name: &str,
    provenance: &Provenance,
) -> Result<PathBuf> {
    let toml_path = run.file(&format!("{stem}.toml"));
    run.write(&format!("{stem}.toml"), &provenance.append_to(&tuned.to_toml())?)?;
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
    /// How the values were made (tool, command, start, recipe), written into the tuned files.
    pub provenance: Provenance,
    /// A run over an engine binary's options (`--fitness engine` with a `--space`): the binary
    /// with the tuned values against itself with the starting ones, for the verification.
    pub engine: Option<EngineContenders>,
}

impl Found {
    /// A black-box run's result: `values` over the set-up's space.
    pub fn from_setup(
        setup: &Setup,
        values: &[f64],
        games: u64,
        measured: serde_json::Value,
        provenance: Provenance,
    ) -> Found {
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
        let options = |x: &[f64]| -> Vec<(String, String)> {
            setup.space.dims.iter().map(|d| d.name.clone()).zip(x.iter().map(|&v| format_value(v))).collect()
        };
        let engine = (!setup.from_params).then(|| setup.fitness.engine_under_test()).flatten().map(|spec| {
            EngineContenders {
                spec: spec.clone(),
                start: options(&setup.space.playable(&setup.space.starts())),
                tuned: options(&playable),
            }
        });
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
            provenance,
            engine,
        }
    }

    /// What a verification plays, when the run tuned our params files (None for a `--space` run).
    pub fn contenders(&self) -> Option<Contenders> {
        (self.eval.is_some() || self.search.is_some()).then(|| Contenders {
            start_eval: self.start_eval.clone(),
            start_search: self.start_search.clone(),
            eval: self.eval.clone(),
            search: self.search.clone(),
        })
    }

    /// Whether the tuned values differ from the start anywhere.
    pub fn changed(&self) -> bool {
        self.space_moved || self.contenders().is_some_and(|c| c.changed())
    }
}

/// The run folder's files that hold the start beside the result, so `tune verify` can play them
/// later whatever has become of the files the run started from.
pub const START_EVAL: &str = "start.toml";
pub const START_SEARCH: &str = "start-search.toml";

/// The end of every tuning run: `result.json` ({"values": {name: value}, "games": n, "frozen":
/// [...], "changed": bool, and what the tuner measured}), the tuned sets as TOML (with their
/// provenance) and as the engine's Rust modules, the start beside them, and the report. What to
/// do next is said after the verdict ([`conclude`]). Returns the files written.
pub fn finish_run(run: &RunDir, found: &Found) -> Result<Vec<&'static str>> {
    let named: serde_json::Map<String, serde_json::Value> =
        found.values.iter().map(|(name, v)| (name.clone(), serde_json::json!(v))).collect();
    let mut result = serde_json::json!({
        "values": named,
        "games": found.games,
        "frozen": found.frozen,
        "changed": found.changed(),
    });
    if let (Some(engine), Some(map)) = (&found.engine, result.as_object_mut()) {
        // So `tune verify` plays what the run's own verification played.
        map.insert("engine_pairing".into(), engine.to_json());
    }
    if let (Some(map), serde_json::Value::Object(more)) = (result.as_object_mut(), found.measured.clone()) {
        map.extend(more);
    }
    run.write_json("result.json", &result)?;
    let mut written = vec!["result.json"];
    if let Some(eval) = &found.eval {
        write_params(run, eval, "tuned", "eval_params.rs", &found.provenance)?;
        written.extend(["tuned.toml", "eval_params.rs"]);
    }
    if let Some(search) = &found.search {
        write_params(run, search, "search", "search_params.rs", &found.provenance)?;
        written.extend(["search.toml", "search_params.rs"]);
    }
    if found.eval.is_some() || found.search.is_some() {
        // Both starting sets, so `tune verify` plays what the run's own verification played.
        run.write(START_EVAL, &found.start_eval.to_toml())?;
        run.write(START_SEARCH, &found.start_search.to_toml())?;
        written.extend([START_EVAL, START_SEARCH]);
        let eval = found.eval.as_ref().unwrap_or(&found.start_eval);
        write_report(run, eval, Some(found.start_eval.set()));
    }
    Ok(written)
}

/// After [`finish_run`]: the verdict of the tuned values against the start (added to
/// result.json, run.json and the tuned files' provenance, the report redrawn to show it first,
/// printed last), with `bake` the build baked when it passed at a clock, and the advice that
/// follows the verdict. `resume` continues a killed verification.
pub fn conclude(
    run: &RunDir,
    found: &Found,
    verify: &VerifySettings,
    play: &MatchSettings,
    resume: bool,
) -> Result<Standing> {
    let standing = if !found.changed() {
        Standing::Unchanged
    } else if verify.first.is_none() {
        Standing::Unverified("--no-verify".into())
    } else if let Some(contenders) = found.contenders() {
        Standing::Verified(play_verification(run, &Pairing::Values(contenders), verify, play, resume)?)
    } else if let Some(engine) = &found.engine {
        Standing::Verified(play_verification(run, &Pairing::Engine(engine.clone()), verify, play, resume)?)
    } else {
        Standing::Unverified(
            "a --space run tunes another program's values, which this process cannot play: measure them \
             with tune match (--engine-option Name=Value for each tuned value against --opponent-option \
             Name=start)"
                .into(),
        )
    };
    conclude_unplayed(run, found, standing, verify.bake)
}

/// A run's end once its standing is known without (further) games: the verdict recorded, the
/// advice given, the report written. `conclude` ends here, and so does a run its own tuner
/// declines to play (`tune texel` when the held-out loss did not fall).
pub fn conclude_unplayed(run: &RunDir, found: &Found, standing: Standing, bake: bool) -> Result<Standing> {
    record(run, found.eval.is_some(), found.search.is_some(), &standing, bake)?;
    if found.eval.is_some() || found.search.is_some() {
        let eval = found.eval.as_ref().unwrap_or(&found.start_eval);
        write_report(run, eval, Some(found.start_eval.set()));
    }
    Ok(standing)
}

/// The verification's SPRTs into the run's `verify/` (and `verify-clock/` when a passed screen
/// is confirmed at a clock); the last one played is the verdict.
pub fn play_verification(
    run: &RunDir,
    pairing: &Pairing,
    verify: &VerifySettings,
    play: &MatchSettings,
    resume: bool,
) -> Result<Verdict> {
    let Some(first) = &verify.first else { anyhow::bail!("no verification asked for") };
    // Each SPRT its own flag: the match raises it when its SPRT decides.
    let sprt = |plan: &crate::verify::SprtPlan| {
        let folder = if plan.is_screen() { "verify" } else { "verify-clock" };
        verify::play::verify(&run.file(folder), pairing, plan, play, resume, &crate::run::interrupt_flag())
    };
    let verdict = sprt(first)?;
    match &verify.confirm {
        Some(clock) if verdict.outcome == VerdictOutcome::Passed && verdict.screen => {
            println!("{}", verdict.lines());
            run.add_result("screen", &serde_json::to_value(&verdict)?)?;
            eprintln!(
                "the screen passed; --bake needs a pass at a clock, so the SPRT at {} follows",
                clock.limit
            );
            sprt(clock)
        }
        _ => Ok(verdict),
    }
}

/// Writes how the run's result stands: `verdict` in result.json and run.json, the tuned files'
/// provenance, the build baked (`bake`) when it passed at a clock, and the verdict and advice
/// printed last.
pub fn record(run: &RunDir, eval: bool, search: bool, standing: &Standing, bake: bool) -> Result<()> {
    run.add_result("verdict", &standing.to_json())?;
    let (tuned, searched) = (run.file("tuned.toml"), run.file("search.toml"));
    for (tunes, path) in [(eval, &tuned), (search, &searched)] {
        if tunes {
            stamp_verdict(path, standing)?;
        }
    }
    let baked = bake && standing.bakeable();
    if baked {
        bake::bake(&bake::Bake {
            params: eval.then(|| tuned.clone()),
            search_params: search.then(|| searched.clone()),
            root: std::path::PathBuf::from("."),
            toml: run.file("baked-eval.toml"),
            search_toml: run.file("baked-search.toml"),
            no_build: false,
        })?;
    } else if bake {
        eprintln!("not baked: the result {}; the engine build is untouched", standing.describe());
    }
    if bake {
        run.add_result("baked", &baked.into())?;
    }
    match standing {
        Standing::Verified(verdict) => println!("{}", verdict.lines()),
        Standing::Unverified(_) => println!("verdict: UNVERIFIED"),
        Standing::NoHeldOutGain { start, end } => {
            println!("verdict: none: not played, the held-out loss did not fall ({start:.6} -> {end:.6})")
        }
        Standing::Unchanged => println!("verdict: none: the run moved no value"),
    }
    let baking =
        Baking { eval: eval.then_some(tuned.as_path()), search: search.then_some(searched.as_path()), baked };
    // A run that tuned none of our files tuned another program's values.
    let advice = if eval || search {
        advice(standing, run.path(), &baking)
    } else {
        engine_advice(standing, run.path())
    };
    // Kept beside the verdict: what the run advised is part of its record.
    run.add_result("advice", &advice.clone().into())?;
    println!("{advice}");
    Ok(())
}

/// Puts the verdict into a tuned file's provenance (a file without one gets a bare one).
fn stamp_verdict(path: &Path, standing: &Standing) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut provenance = Provenance::parse(&text)
        .with_context(|| format!("{}: its [provenance] table", path.display()))?
        .unwrap_or_default();
    provenance.set_verdict(&standing.to_json())?;
    crate::run::write_atomically(path, &provenance.append_to(&provenance::strip(&text))?)
}

/// With an exact loss, the result stands only where the held-out games agree: a result whose
/// validation loss is not below the start's is a fit to the training games, not a better
/// evaluation, so the run keeps the start and says so (a lower training loss alone made a
/// weaker engine: issue 57's -118 Elo).
fn held_out_check(setup: &Setup, values: &[f64]) -> Vec<f64> {
    let starts = setup.space.starts();
    let Some(exact) = setup.fitness.exact() else { return values.to_vec() };
    let (start, end) = (exact.valid_loss(&starts), exact.valid_loss(values));
    if !start.is_finite() || !end.is_finite() || end < start || values == starts.as_slice() {
        return values.to_vec();
    }
    eprintln!(
        "the result's validation loss on held-out games ({end:.6}) is not below the start's ({start:.6}): \
         it fits the training games, not the evaluation, so the run keeps the start"
    );
    starts
}

/// The end of a black-box run (`pbil`, `clop`, `spsa`, `bayes`): [`finish_run`], OpenBench's SPSA
/// lines of the result, the largest changes on the terminal, and the verdict.
pub fn finish_tuning(
    setup: &Setup,
    settings: &TuneSettings,
    verify: &VerifySettings,
    values: &[f64],
    games: u64,
    measured: serde_json::Value,
    provenance: Provenance,
) -> Result<()> {
    let values = &held_out_check(setup, values);
    let found = Found::from_setup(setup, values, games, measured, provenance);
    let mut written = finish_run(&setup.run, &found)?;
    let playable = setup.space.playable(values);
    setup.run.write("openbench.txt", &setup.space.to_openbench(&playable))?;
    written.push("openbench.txt");
    let largest = setup.space.largest_changes(&playable, 12);
    if !largest.is_empty() {
        println!("largest changes:\n{largest}");
    }
    println!("wrote {} in {}", written.join(", "), setup.run.path().display());
    conclude(&setup.run, &found, verify, &settings.play, settings.resume).map(drop)
}

#[cfg(test)]
mod tests;
