//! `tune auto --engine BINARY`: the loop on another UCI engine (docs/external-engines.md). Its
//! stages are the commands an author would type for that engine: `tune datagen --engine` (the
//! engine's own games and scores), `tune texel --engine` (its evaluation options, by `--probe` or
//! `--trace`) and `tune spsa --fitness engine` (its search options, `--space`). The values the
//! loop carries are the engine's options (`State::options`): a passed stage's tuned values
//! (its result.json's `engine_pairing`) go on, set with `--engine-option` in the next stages (an
//! SPSA stage starts from them as its space's defaults).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Serialize;

use super::record::State;
use super::{AutoArgs, Stage};

/// The engine the loop runs on, and what its stages tune.
#[derive(clap::Args, Debug, Clone, Serialize)]
#[command(next_help_heading = "Another engine (--engine; docs/external-engines.md)")]
pub struct AutoEngineArgs {
    /// Run the loop on a UCI engine binary instead of Whetstone's params: datagen with the
    /// engine's own games and scores, Texel of its evaluation options through its binary
    /// (--probe or --trace), SPSA of its search options (--space). The values are carried and
    /// written as its options (options.txt in the run folder).
    #[arg(long = "engine", value_name = "BINARY")]
    pub engine: Option<PathBuf>,
    /// A UCI option the engine always runs with, `Name=Value` (repeatable).
    #[arg(long = "engine-option", value_name = "NAME=VALUE", requires = "engine")]
    pub engine_option: Vec<String>,
    /// The Texel stage: the evaluation's spin options to probe (names or globs).
    #[arg(long, num_args = 1.., value_name = "OPTION", requires = "engine")]
    pub probe: Vec<String>,
    /// The Texel stage: every weight through the engine's `trace` command instead of probing.
    #[arg(long, conflicts_with = "probe", requires = "engine")]
    pub trace: bool,
    /// The SPSA stage: the engine's search options, as OpenBench SPSA input lines (`name, int,
    /// default, min, max, c_end, r_end`).
    #[arg(long, value_name = "FILE", requires = "engine")]
    pub space: Option<PathBuf>,
}

/// Checks of an engine run that need no work.
pub(super) fn check(args: &AutoArgs, engine: &Path) -> Result<()> {
    if !engine.is_file() {
        bail!("--engine {}: no such engine binary", engine.display());
    }
    if args.bake {
        bail!(
            "--bake bakes Whetstone's own build; an --engine run writes the engine's options (options.txt)"
        );
    }
    let e = &args.external;
    if let Some(bad) =
        e.engine_option.iter().find(|o| o.split_once('=').is_none_or(|(n, _)| n.trim().is_empty()))
    {
        bail!("--engine-option `{bad}`: expected Name=Value (e.g. Hash=16)");
    }
    for &stage in &args.stages {
        match stage {
            Stage::Texel if e.probe.is_empty() && !e.trace => {
                bail!("the texel stage of an --engine run needs --probe OPTION... or --trace")
            }
            Stage::Spsa if e.space.is_none() => {
                bail!("the spsa stage of an --engine run needs --space FILE: the engine's search options")
            }
            Stage::Pbil => {
                bail!("the pbil stage tunes Whetstone's params; an --engine run has datagen, rescore, texel and spsa")
            }
            _ => {}
        }
    }
    if let Some(space) = &e.space {
        crate::dataset::reading::check_files("--space", std::slice::from_ref(space))?;
    }
    Ok(())
}

/// The engine's options for a stage: the fixed ones (`--engine-option`), then the loop's
/// current values (which win), less `leave_out` (the SPSA stage's own options).
fn option_words(args: &AutoArgs, state: &State, leave_out: &[String]) -> Vec<String> {
    let mut options: Vec<(String, String)> = args
        .external
        .engine_option
        .iter()
        .filter_map(|o| o.split_once('=').map(|(n, v)| (n.trim().to_string(), v.trim().to_string())))
        .collect();
    for (name, value) in &state.options {
        options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        options.push((name.clone(), value.clone()));
    }
    options
        .into_iter()
        .filter(|(n, _)| !leave_out.iter().any(|l| l.eq_ignore_ascii_case(n)))
        .flat_map(|(n, v)| ["--engine-option".to_string(), format!("{n}={v}")])
        .collect()
}

/// The SPSA stage's space: `--space`'s lines with the loop's current values as defaults.
pub(super) fn space_file(dir: &Path) -> PathBuf {
    dir.with_file_name("spsa-space.txt")
}

/// Writes the SPSA stage's space (`space_file`) and returns the names of its options.
pub(super) fn write_space(args: &AutoArgs, state: &State, dir: &Path) -> Result<Vec<String>> {
    let Some(source) = &args.external.space else { return Ok(Vec::new()) };
    let text =
        std::fs::read_to_string(source).with_context(|| format!("reading --space {}", source.display()))?;
    let mut names = Vec::new();
    let mut out = String::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() < 5 || line.trim_start().starts_with('#') {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        names.push(fields[0].to_string());
        let current = state.options.iter().find(|(n, _)| n.eq_ignore_ascii_case(fields[0]));
        let mut fields: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
        if let Some((_, value)) = current {
            fields[2] = value.clone();
        }
        out.push_str(&fields.join(", "));
        out.push('\n');
    }
    let path = space_file(dir);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::write(&path, out).with_context(|| format!("writing {}", path.display()))?;
    Ok(names)
}

/// A stage's own options in an engine run (the shared ones, `--out`, `--seed` and so on, come
/// from `stages::stage_words`).
pub(super) fn stage_words(
    args: &AutoArgs,
    state: &State,
    stage: Stage,
    dir: &Path,
    engine: &Path,
) -> Result<Vec<String>> {
    let path = |p: &Path| p.display().to_string();
    let mut words = vec!["--engine".to_string(), path(engine)];
    match stage {
        Stage::Datagen => {
            words.extend(option_words(args, state, &[]));
            words.extend([
                "--games".into(),
                args.datagen_games.to_string(),
                "--nodes".into(),
                args.datagen_nodes.to_string(),
            ]);
        }
        Stage::Texel => {
            words.extend(option_words(args, state, &[]));
            if args.external.trace {
                words.push("--trace".into());
            } else {
                words.push("--probe".into());
                words.extend(args.external.probe.iter().cloned());
            }
            words.push("--data".into());
            words.extend(state.positions.iter().chain(&args.data).map(|p| path(p)));
            words.extend(["--epochs".into(), args.texel_epochs.to_string()]);
            words.extend(args.verify.words());
        }
        Stage::Spsa => {
            let names = space_names(args)?;
            // The engine's options are the space; our params file only fills the set-up.
            words.splice(
                0..0,
                ["--fitness".to_string(), "engine".into(), "--params".into(), path(&state.eval)],
            );
            words.extend(option_words(args, state, &names));
            words.extend(["--space".into(), path(&space_file(dir))]);
            words.extend(args.tuning_words());
        }
        Stage::Pbil => {
            bail!("the pbil stage tunes Whetstone's params; an --engine run has datagen, texel and spsa")
        }
        // Positions are scored the same whichever engine played them (`stages::rescore_words`).
        Stage::Rescore => {}
    }
    Ok(words)
}

/// The names of `--space`'s options.
fn space_names(args: &AutoArgs) -> Result<Vec<String>> {
    let Some(source) = &args.external.space else { return Ok(Vec::new()) };
    let text =
        std::fs::read_to_string(source).with_context(|| format!("reading --space {}", source.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| l.split(',').map(str::trim).collect::<Vec<_>>())
        .filter(|f| f.len() >= 5)
        .map(|f| f[0].to_string())
        .collect())
}

/// The loop's final values as the engine takes them: `options.txt` (setoption lines) in the run
/// folder; nothing when no stage was kept.
pub(super) fn write_options(run: &crate::run::RunDir, state: &State) -> Result<()> {
    let lines: String =
        state.options.iter().map(|(n, v)| format!("setoption name {n} value {v}\n")).collect();
    run.write("options.txt", &lines)
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
