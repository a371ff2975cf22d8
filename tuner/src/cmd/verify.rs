//! `tune verify RUN`: the verification of a finished tuning run, played now: a run started with
//! `--no-verify`, a screen to confirm at a clock (`--verify-tc 3+0.03`), or an undecided SPRT
//! given more games (`--verify-games`). The run's `start.toml` / `start-search.toml` play its
//! `tuned.toml` / `search.toml`; the verdict goes into its result.json, the tuned files'
//! provenance and its report, as at the end of the run itself. A run that tuned an engine
//! binary's options plays that binary with the tuned values against its starting ones.

use std::path::PathBuf;

use anyhow::{bail, Result};
use whetstone::eval::EvalParamSet;
use whetstone::search::SearchParamSet;

use super::args::play::PlayArgs;
use super::args::verify::VerifyGames;
use crate::export::{play_verification, record, START_EVAL, START_SEARCH};
use crate::run::RunDir;
use crate::verify::{Contenders, EngineContenders, Pairing, Standing, VerifySettings};

/// Options of `tune verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyRunArgs {
    /// The run folder of a tuning run (holding tuned.toml and start.toml, or search.toml and
    /// start-search.toml).
    pub run: PathBuf,
    #[command(flatten)]
    pub games: VerifyGames,
    /// Bake the result into the engine build when it passed an SPRT at a clock (after a passed
    /// screen, the SPRT at 3+0.03 is played first).
    #[arg(long)]
    pub bake: bool,
    /// Game options: book, adjudication, hash, --concurrency, --seed, --quiet.
    #[command(flatten)]
    pub play: PlayArgs,
}

pub fn run(args: &VerifyRunArgs) -> Result<()> {
    let first = args.games.first()?;
    let confirm = (args.bake && first.is_screen()).then(|| args.games.confirmation()).transpose()?;
    let settings = VerifySettings { first: Some(first), confirm, bake: args.bake };
    settings.check()?;
    if let Some(engine) = engine_pairing(&args.run)? {
        return run_engine(args, &settings, engine);
    }
    let contenders = contenders(&args.run)?;
    let run = RunDir::create(&args.run)?;
    let standing = if contenders.changed() {
        // An earlier verification with the same settings continues from its journal.
        Standing::Verified(play_verification(
            &run,
            &contenders.clone().into(),
            &settings,
            &args.play.settings(),
            true,
        )?)
    } else {
        Standing::Unchanged
    };
    record(&run, contenders.eval.is_some(), contenders.search.is_some(), &standing, args.bake)?;
    let eval = contenders.eval.as_ref().unwrap_or(&contenders.start_eval);
    crate::export::write_report(&run, eval, Some(contenders.start_eval.set()));
    Ok(())
}

/// A run that tuned an engine binary's options (`tune texel --engine`, `--fitness engine`): its
/// result.json keeps the binary, its fixed options and both sets of values.
fn engine_pairing(run: &std::path::Path) -> Result<Option<EngineContenders>> {
    let path = run.join("result.json");
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(None) };
    let result: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    result.get("engine_pairing").map(EngineContenders::from_json).transpose()
}

/// The binary with the tuned values against itself with the starting ones.
fn run_engine(args: &VerifyRunArgs, settings: &VerifySettings, engine: EngineContenders) -> Result<()> {
    if args.bake {
        bail!("--bake bakes Whetstone's own build; {} tuned another engine's options", args.run.display());
    }
    if !engine.spec.command.is_file() {
        bail!(
            "{}: the engine this run tuned, {}, is not on this machine",
            args.run.display(),
            engine.spec.command.display()
        );
    }
    let run = RunDir::create(&args.run)?;
    let standing = if engine.changed() {
        Standing::Verified(play_verification(
            &run,
            &Pairing::Engine(engine),
            settings,
            &args.play.settings(),
            true,
        )?)
    } else {
        Standing::Unchanged
    };
    record(&run, false, false, &standing, false)
}

/// The run's start and result, from its folder.
fn contenders(run: &std::path::Path) -> Result<Contenders> {
    let file = |name: &str| Some(run.join(name)).filter(|p| p.is_file());
    let (tuned, start) = (file("tuned.toml"), file(START_EVAL));
    let (searched, start_search) = (file("search.toml"), file(START_SEARCH));
    if tuned.is_none() && searched.is_none() {
        bail!(
            "{}: no tuned.toml or search.toml (not the run folder of a tuning run on our params files)",
            run.display()
        );
    }
    if start.is_none() || start_search.is_none() {
        bail!(
            "{}: no {START_EVAL} or {START_SEARCH} beside the tuned values (a run from before they were \
             kept): play them with tune match --engine <tuned file> --opponent <the file the run started from>",
            run.display()
        );
    }
    let load_eval = |p: &Option<PathBuf>| p.as_deref().map(EvalParamSet::load).transpose();
    let load_search = |p: &Option<PathBuf>| p.as_deref().map(SearchParamSet::load).transpose();
    Ok(Contenders {
        start_eval: load_eval(&start)?.expect("checked above"),
        start_search: load_search(&start_search)?.expect("checked above"),
        eval: load_eval(&tuned)?,
        search: load_search(&searched)?,
    })
}
