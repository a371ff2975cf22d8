//! `tune`: the Whetstone tuning workbench.
//!
//! Modules follow the data flow: `dataset` (labelled positions) -> `model` (traces, objective)
//! -> `optim` (Adam, local search) -> `texel` (the run) -> `export`/`report`; games (matches,
//! gauntlets, self-play data) live in `play`. The black-box optimisers (PBIL, CLOP, SPSA) are
//! planned; they say so and exit with status 2.

mod bench;
mod dataset;
mod export;
mod model;
mod optim;
mod play;
mod report;
mod texel;
mod workbook;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Whetstone's tuning workbench: fit the evaluation's flat parameter vector to game results
/// (Texel) or to self-play match results (PBIL, CLOP, SPSA), and export the result into the
/// engine build.
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Texel tuning: fit the evaluation to game results over labelled positions.
    Texel(texel::TexelArgs),
    /// Labelled-position datasets: statistics, format conversion (and PGN games to positions), splits.
    #[command(subcommand)]
    Dataset(dataset::DatasetCommand),
    /// Write a params file into the engine build (src/eval/baked.rs, recorded in engine.toml) and
    /// as a normalised TOML.
    Export(export::ExportArgs),
    /// Tuner speed: load rate, bytes per position, epoch time and ns per coefficient.
    Bench(bench::BenchArgs),
    /// Games between two engine configurations (params files in process, or UCI binaries):
    /// game pairs in parallel, fastchess's statistics, SPRT, PGN.
    Match(play::match_cmd::MatchArgs),
    /// Our engine against a list of engines (UCI binaries or params files), with a table per
    /// opponent and a performance rating.
    Gauntlet(play::gauntlet::GauntletArgs),
    /// Labelled positions from self-play, resumable: games.pgn and positions.epd for `tune texel`.
    Datagen(play::datagen::DatagenArgs),
    /// The parameters as an Excel workbook: piece-square tables as coloured boards (raw, with the
    /// material moved in, mirrored, as Rust arrays), differences to a baseline, the other terms
    /// and the king-safety curve with charts.
    Report(report::ReportArgs),
    /// Population-based incremental learning over self-play matches (planned).
    Pbil,
    /// Confident local optimisation over self-play matches (planned).
    Clop,
    /// Simultaneous perturbation stochastic approximation over self-play matches (planned).
    Spsa,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Texel(args) => texel::run(args),
        Command::Dataset(command) => dataset::run(command),
        Command::Export(args) => export::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Match(args) => play::match_cmd::run(args),
        Command::Gauntlet(args) => play::gauntlet::run(args),
        Command::Datagen(args) => play::datagen::run(args),
        Command::Report(args) => report::run(args),
        planned => {
            eprintln!("tune {planned:?}: not implemented yet; it lands with its own issue (see the README).");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e:#}");
            ExitCode::FAILURE
        }
    }
}
