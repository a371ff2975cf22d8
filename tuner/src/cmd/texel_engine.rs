//! `tune texel --engine BINARY`: Texel through another engine's own binary
//! (docs/external-engines.md), its weights being its UCI spin options.
//!
//! 1. Check the binary and expand `--probe`'s globs over the spin options it declares.
//! 2. Probe (rounds of probe, fit and move while options curve) or trace (one pass, then
//!    `tune texel`'s fit) the data's positions, journalled in the run folder as they come, so
//!    `--resume` continues a killed run.
//! 3. Write the values as the engine's own options (options.txt, openbench.txt, options.json),
//!    the rounds or the fit's log, a summary and result.json.
//! 4. Verify: the binary with the tuned values against itself with the starting ones, an SPRT
//!    over UCI through the match runner; the verdict and what to do next, as every tuner ends.

use std::path::Path;

use anyhow::{bail, Context, Result};
use globset::GlobBuilder;

use super::args::engine_eval::EngineEval;
use super::args::play::PlayArgs;
use super::texel::{TexelArgs, DEFAULT_L2};
use crate::export::play_verification;
use crate::play::engines::engine_process::EngineSpec;
use crate::play::engines::uci_engine::UciEngine;
use crate::play::engines::uci_option::OptionKind;
use crate::probe::fit::FitSettings;
use crate::probe::run::{rounds, trace_dataset, write_option_values};
use crate::probe::space::Column;
use crate::probe::trace_fit::fit_traced;
use crate::run::RunDir;
use crate::verify::{EngineContenders, Pairing, Standing};

/// What the fit found, whichever way the evaluation was read.
struct Outcome {
    columns: Vec<Column>,
    start: Vec<(String, i32)>,
    values: Vec<(String, i32)>,
    /// What the fit measured, for result.json.
    measured: serde_json::Value,
    summary: String,
}

/// `tune texel`: Whetstone's evaluation in process (`texel.rs`), or with `--engine` another
/// engine's through its binary (this file).
pub fn run_texel(args: &TexelArgs) -> Result<()> {
    match &args.external.engine {
        Some(binary) => run(args, binary),
        None => super::texel::run(args),
    }
}

pub fn run(args: &TexelArgs, binary: &Path) -> Result<()> {
    let verify = args.verify.settings()?;
    if verify.bake {
        bail!(
            "--bake bakes Whetstone's own build; another engine's values come back as its options \
             (options.txt, openbench.txt, options.json in the run folder)"
        );
    }
    refuse_in_process_options(args)?;
    let data = &args.recipe.data;
    if data.is_empty() {
        bail!("--engine needs --data: the labelled positions to fit the engine's evaluation to (any format tune texel reads)");
    }
    crate::dataset::reading::check_files("--data", data)?;
    let workers =
        args.concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let (spec, eval) = args.external.settings(binary, workers)?;
    let run = RunDir::create(&args.out)?;
    if !args.resume {
        clear_journals(run.path())?;
    }
    run.write_meta("texel", args, args.resume, None)?;
    let fit = FitSettings {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        l2: args.recipe.l2.unwrap_or(DEFAULT_L2),
        min_coverage: args.recipe.min_coverage.map_or(FitSettings::default().min_coverage, |c| c as usize),
        score_weight: args.recipe.score_weight.unwrap_or(0.0),
        valid_fraction: args.valid_fraction,
        seed: args.seed,
    };
    let progress = !args.quiet;
    let outcome = match eval {
        EngineEval::Probe(mut settings) => {
            settings.options = probed_options(&spec, &args.external.probe)?;
            eprintln!(
                "probing {} options of {} over {} on {} engine processes",
                settings.options.len(),
                spec.command.display(),
                names(data),
                settings.workers.workers
            );
            probe_outcome(data, &settings, &fit, args.external.rounds, &run, progress)?
        }
        EngineEval::Trace(settings) => {
            eprintln!(
                "tracing {} over {} ({} engine processes)",
                spec.command.display(),
                names(data),
                workers
            );
            let traced = trace_dataset(data, &settings, run.path(), progress)?;
            write_left_out(&run, &traced.left_out)?;
            let fitted = fit_traced(&traced, &fit)?;
            let columns: Vec<Column> =
                traced.columns.iter().filter(|c| c.option.is_some()).cloned().collect();
            let (first, last) = (fitted.log[0], *fitted.log.last().expect("epoch 0"));
            let mut summary = format!(
                "trace of {} positions ({} left out), {} weights held by options, K = {:.4}\n\
                 train loss {:.6} -> {:.6}, validation loss {:.6} -> {:.6} over {} epochs\n",
                traced.fens.len(),
                traced.left_out.len(),
                columns.len(),
                fitted.k,
                first.0,
                last.0,
                first.1,
                last.1,
                fitted.log.len() - 1
            );
            if !fitted.frozen.is_empty() {
                summary.push_str(&format!(
                    "left at their start (seen in fewer than {} positions): {}\n",
                    fit.min_coverage,
                    fitted.frozen.join(", ")
                ));
            }
            for note in &traced.notes {
                summary.push_str(&format!("note: {note}\n"));
            }
            let log: Vec<serde_json::Value> = fitted
                .log
                .iter()
                .enumerate()
                .map(|(epoch, (train, valid))| serde_json::json!({"epoch": epoch, "train_loss": train, "valid_loss": valid}))
                .collect();
            run.write_json("log.json", &log)?;
            let measured = serde_json::json!({
                "mode": "trace",
                "k": fitted.k,
                "positions": traced.fens.len(),
                "left_out": traced.left_out.len(),
                "start_train_loss": first.0,
                "train_loss": last.0,
                "start_valid_loss": Some(first.1).filter(|v| v.is_finite()),
                "valid_loss": Some(last.1).filter(|v| v.is_finite()),
                // What the held-out gate compares with the start: the fit's own loss (the
                // options written are these values rounded).
                "written_valid_loss": Some(last.1).filter(|v| v.is_finite()),
                "frozen": fitted.frozen,
            });
            Outcome { columns, start: fitted.start, values: fitted.values, measured, summary }
        }
    };
    finish(args, &run, spec, outcome, &verify)
}

/// The options of `tune texel` that only Whetstone's in-process fit has, refused by name.
fn refuse_in_process_options(args: &TexelArgs) -> Result<()> {
    let refused = [
        (!args.valid.is_empty(), "--valid"),
        (!args.only.is_empty(), "--only (name the options with --probe)"),
        (args.batch_size > 0, "--batch-size"),
        (args.search_params.is_some(), "--search-params"),
        (args.recipe.smooth.is_some() || args.recipe.mirror.is_some(), "--smooth and --mirror"),
        (args.recipe.positions.is_some(), "--positions"),
    ];
    for (given, flag) in refused {
        if given {
            bail!("{flag} applies to Whetstone's own evaluation, not to an --engine's");
        }
    }
    Ok(())
}

/// Removes the probe and trace journals of an earlier run in `dir`: without `--resume` a run
/// starts afresh.
fn clear_journals(dir: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("round-") && path.is_dir() {
            std::fs::remove_dir_all(&path).with_context(|| format!("removing {}", path.display()))?;
        } else if name == crate::probe::trace_run::TRACE_JOURNAL {
            std::fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
        }
    }
    Ok(())
}

fn names(paths: &[std::path::PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// `--probe`'s names, each glob (`Pawn*`) expanded over the spin options the engine declares;
/// a plain name is kept as given (the probe checks it and names the engine's options if it is
/// not one).
fn probed_options(spec: &EngineSpec, patterns: &[String]) -> Result<Vec<String>> {
    let engine = UciEngine::start(spec, crate::fitness::engine::START_TIMEOUT).map_err(|e| {
        anyhow::anyhow!("--engine {}: starting it and setting its options: {e}", spec.command.display())
    })?;
    let spins: Vec<String> = engine
        .declared_options()
        .iter()
        .filter(|o| o.kind == OptionKind::Spin)
        .map(|o| o.name.clone())
        .collect();
    engine.quit(std::time::Duration::from_secs(1));
    let mut out: Vec<String> = Vec::new();
    for pattern in patterns {
        if !pattern.contains(['*', '?', '[']) {
            if !out.iter().any(|o| o.eq_ignore_ascii_case(pattern)) {
                out.push(pattern.clone());
            }
            continue;
        }
        let glob = GlobBuilder::new(pattern)
            .case_insensitive(true)
            .build()
            .with_context(|| format!("--probe {pattern}"))?
            .compile_matcher();
        let matched: Vec<&String> = spins.iter().filter(|name| glob.is_match(name.as_str())).collect();
        if matched.is_empty() {
            bail!(
                "--probe {pattern}: no spin option of the engine matches (its spin options: {})",
                spins.join(", ")
            );
        }
        for name in matched {
            if !out.iter().any(|o| o.eq_ignore_ascii_case(name)) {
                out.push(name.clone());
            }
        }
    }
    Ok(out)
}

/// Rounds of probe, fit and move, summarised.
fn probe_outcome(
    data: &[std::path::PathBuf],
    settings: &crate::probe::settings::ProbeSettings,
    fit: &FitSettings,
    max_rounds: usize,
    run: &RunDir,
    progress: bool,
) -> Result<Outcome> {
    let r = rounds(data, settings, fit, max_rounds, run.path(), progress)?;
    run.write_json("rounds.json", &r.rounds)?;
    write_left_out(run, &r.left_out)?;
    let mut summary = String::new();
    if let Some(first) = r.rounds.first() {
        summary.push_str("option                          effect\n");
        for f in &first.findings {
            let effect = match f.linearity {
                crate::probe::space::Linearity::Linear => "linear".to_string(),
                crate::probe::space::Linearity::NonLinear => {
                    format!(
                        "not linear ({} of {} positions curve): re-probed between rounds",
                        f.curved, f.affected
                    )
                }
                crate::probe::space::Linearity::NoEffect => "changed no evaluation: left out".to_string(),
            };
            summary.push_str(&format!("{:<31} {effect}\n", f.option));
        }
    }
    for (i, round) in r.rounds.iter().enumerate() {
        summary.push_str(&format!(
            "round {i}: K = {:.4}, validation loss {:.6} -> {:.6}{}\n",
            round.k,
            round.start_valid_loss,
            round.valid_loss,
            if round.nonlinear.is_empty() {
                String::new()
            } else {
                format!(", not linear: {}", round.nonlinear.join(", "))
            }
        ));
    }
    for note in &r.notes {
        summary.push_str(&format!("note: {note}\n"));
    }
    let (first, last) = (r.rounds.first(), r.rounds.last());
    let measured = serde_json::json!({
        "mode": "probe",
        "rounds": r.rounds.len(),
        "k": last.map(|l| l.k),
        "start_valid_loss": first.map(|f| f.start_valid_loss),
        "valid_loss": last.map(|l| l.valid_loss),
        // The loss of the values written, which after an early stop are a probe point's.
        "written_valid_loss": Some(r.values_valid_loss).filter(|v| v.is_finite()),
        "nonlinear": first.map(|f| f.nonlinear.clone()),
        "left_out": r.left_out.len(),
    });
    Ok(Outcome { columns: r.columns, start: r.start, values: r.values, measured, summary })
}

/// Every position the engine failed on (round 0's when probing), one FEN a line: the notes
/// name only the first few.
fn write_left_out(run: &RunDir, left_out: &[String]) -> Result<()> {
    if left_out.is_empty() {
        return Ok(());
    }
    let lines: String = left_out.iter().map(|fen| format!("{fen}\n")).collect();
    run.write(crate::probe::LEFT_OUT_FILE, &lines)
}

/// The values written as the engine's options, result.json, and the verdict.
fn finish(
    args: &TexelArgs,
    run: &RunDir,
    spec: EngineSpec,
    outcome: Outcome,
    verify: &crate::verify::VerifySettings,
) -> Result<()> {
    let written = write_option_values(run.path(), &outcome.columns, &outcome.start, &outcome.values)?;
    let moved: Vec<String> = outcome
        .values
        .iter()
        .filter_map(|(name, v)| {
            let before = outcome.start.iter().find(|(n, _)| n == name).map(|(_, b)| *b)?;
            (before != *v).then(|| format!("{name} {before} -> {v}"))
        })
        .collect();
    let mut summary = outcome.summary.clone();
    summary.push_str(&format!("{} of {} options moved", moved.len(), outcome.values.len()));
    if !moved.is_empty() {
        summary.push_str(&format!(": {}", moved.join(", ")));
    }
    summary.push('\n');
    run.write("summary.txt", &summary)?;
    print!("{summary}");
    let named = |values: &[(String, i32)]| -> serde_json::Map<String, serde_json::Value> {
        values.iter().map(|(n, v)| (n.clone(), serde_json::json!(v))).collect()
    };
    let as_options = |values: &[(String, i32)]| -> Vec<(String, String)> {
        values.iter().map(|(n, v)| (n.clone(), v.to_string())).collect()
    };
    let pairing =
        EngineContenders { spec, start: as_options(&outcome.start), tuned: as_options(&outcome.values) };
    let mut result = serde_json::json!({
        "engine": pairing.spec.command,
        "values": named(&outcome.values),
        "start": named(&outcome.start),
        "changed": !moved.is_empty(),
        "engine_pairing": pairing.to_json(),
    });
    if let (Some(map), serde_json::Value::Object(more)) = (result.as_object_mut(), outcome.measured.clone()) {
        map.extend(more);
    }
    run.write_json("result.json", &result)?;
    run.write_meta("texel", args, args.resume, Some(result))?;
    println!("wrote {}, summary.txt, result.json, run.json in {}", written.join(", "), run.path().display());
    let standing = if moved.is_empty() {
        Standing::Unchanged
    } else if verify.first.is_none() {
        Standing::Unverified("--no-verify".into())
    } else if let Some(flat) = super::texel::held_out_gate(
        args,
        verify,
        !super::texel::under_way(args, run),
        outcome.measured["start_valid_loss"].as_f64().zip(outcome.measured["written_valid_loss"].as_f64()),
    ) {
        flat
    } else {
        let mut play = PlayArgs::defaults();
        (play.concurrency, play.seed, play.quiet) = (args.concurrency, args.seed, args.quiet);
        Standing::Verified(play_verification(
            run,
            &Pairing::Engine(pairing),
            verify,
            &play.settings(),
            args.resume,
        )?)
    };
    crate::export::record(run, false, false, &standing, false)?;
    Ok(())
}

#[cfg(test)]
#[path = "texel_engine_tests.rs"]
mod tests;
