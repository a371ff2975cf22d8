//! `tune datagen`: labelled positions from self-play, resumable (the machinery is
//! `play/datagen.rs`).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use super::args::choices;
use super::args::play::{EngineArgs, PlayArgs};
use crate::play::games::runner::Contestant;
use crate::play::runs::datagen::{self, DatagenPlan, PositionFormat};
use crate::run::RunDir;

/// Generate labelled positions by self-play at a fixed node count.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
#[command(
    mut_arg("engine", |a| a.help(
        "The engine that plays both sides: a params file (in-process) or a UCI engine binary, \
         whose own `info score` labels the positions"
    )),
    mut_arg("engine_search", |a| a.help("Search constants for a params file --engine")),
)]
pub struct DatagenArgs {
    #[command(flatten)]
    #[serde(flatten)]
    pub engine: EngineArgs,
    /// Games to play (whole pairs).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Random plies played after the book opening, different for every pair (uniform over the
    /// legal moves, seeded by --seed and the pair's number).
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub random_plies: usize,
    /// Plies at the start of each game record not used for positions.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub skip_plies: usize,
    #[command(flatten)]
    pub play: PlayArgs,
    /// Run folder: games.pgn, the positions file (positions.epd, .txt or .vf by --format),
    /// progress.txt, summary.json.
    #[arg(long, default_value = "reports/datagen")]
    pub out: PathBuf,
    /// The positions file's format: epd (`ce` and `c9`), text (`fen | score | result`) or
    /// viriformat (game chains for NNUE trainers); every one carries the engine's scores.
    #[arg(long, value_parser = choices::position_format(), default_value_t = PositionFormat::Epd)]
    pub format: PositionFormat,
    /// Continue the run in --out where it stopped.
    #[arg(long)]
    pub resume: bool,
}

/// Nodes per move when no limit is given.
const DEFAULT_NODES: u64 = 5000;

pub fn run(args: &DatagenArgs) -> Result<()> {
    let started = Instant::now();
    if args.resume {
        datagen::check_resumable(&args.out)?;
    }
    let play = args.play.settings();
    let settings = play.game_settings_at(play.limit.resolve_or_nodes(DEFAULT_NODES)?);
    let engine = args.engine.contestant(&play)?;
    if let Contestant::External(spec) = &engine {
        // Every option named, checked against what the engine declares, before the run starts.
        check_binary(spec)?;
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let pairs = args.games.div_ceil(2) as usize;
    let (book, book_name) = play.openings()?;
    let openings = play.opening_schedule(book.len(), pairs)?.into_iter().map(|i| book[i].clone()).collect();
    println!(
        "datagen: {pairs} pairs, {}, {} threads, book {book_name}, {} random plies, seed {}",
        settings.limit, play.concurrency, args.random_plies, play.seed
    );
    let plan = DatagenPlan {
        engine,
        settings: settings.clone(),
        openings,
        random_plies: args.random_plies,
        skip_plies: args.skip_plies,
        seed: play.seed,
        concurrency: play.concurrency,
        quiet: play.quiet,
        event: "tune datagen".to_string(),
        format: args.format,
    };
    let run = RunDir::create(&args.out)?;
    run.write_meta("datagen", args, args.resume, None)?;
    let stop = crate::run::interrupt_flag();
    let outcome = datagen::generate(&plan, &args.out, args.resume, &stop)?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{} positions kept from {} plies in this run; {} in {} ({seconds:.1} s, {:.0} positions/s)",
        outcome.positions_this_run,
        outcome.plies_this_run,
        outcome.positions,
        args.out.join(args.format.file_name()).display(),
        outcome.positions_this_run as f64 / seconds.max(1e-9)
    );
    if outcome.failed_games_this_run > 0 {
        println!(
            "{} games lost by an engine failure (their positions dropped): see {}",
            outcome.failed_games_this_run,
            args.out.join(datagen::FAILURE_LOG).display()
        );
    }
    if outcome.interrupted {
        println!("interrupted: run again with --resume to play the remaining pairs");
    }
    let summary = serde_json::json!({
        "pairs_planned": pairs,
        "positions": outcome.positions,
        "positions_this_run": outcome.positions_this_run,
        "plies_this_run": outcome.plies_this_run,
        "failed_games_this_run": outcome.failed_games_this_run,
        "engine": args.engine.engine,
        "seconds_this_run": seconds,
        "limit": settings.limit.to_string(),
        "book": book_name,
        "random_plies": args.random_plies,
        "seed": play.seed,
    });
    run.write_json("summary.json", &summary)?;
    run.write_meta("datagen", args, args.resume, Some(summary))
}

/// Starts the binary once: a missing file, an engine that does not answer `uci`, or an option it
/// does not declare (the error lists the ones it does) stops the run before any game.
fn check_binary(spec: &crate::play::engines::engine_process::EngineSpec) -> Result<()> {
    let engine =
        crate::play::engines::uci_engine::UciEngine::start(spec, crate::fitness::engine::START_TIMEOUT)
            .with_context(|| {
                format!("--engine {}: starting it and setting its options", spec.command.display())
            })?;
    engine.quit(std::time::Duration::from_secs(1));
    Ok(())
}
