//! `tune`: the Whetstone tuning workbench.
//!
//! Modules follow the data flow: `dataset` (labelled positions) -> `model` (traces, objective)
//! -> `optim` (Adam, local search) -> `texel` (the run) -> `export`/`report`. The self-play
//! optimisers (PBIL, CLOP, SPSA) are planned; they say so and exit with status 2.

mod bench;
mod dataset;
mod export;
mod model;
mod optim;
mod report;
mod texel;

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
