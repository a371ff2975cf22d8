//! `tune`: the Whetstone tuning workbench.
//!
//! `export` works today. The other subcommands are the planned interface; each lands with its own
//! issue (datasets and the Texel tuner, then self-play and the black-box optimisers). Until then
//! they say so and exit with status 2.

mod export;

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
    /// Write a params file into the engine build (src/eval/baked.rs, recorded in engine.toml) and
    /// as a normalised TOML.
    Export(export::ExportArgs),
    /// Texel tuning over labelled positions (planned).
    Texel,
    /// Population-based incremental learning over self-play matches (planned).
    Pbil,
    /// Confident local optimisation over self-play matches (planned).
    Clop,
    /// Simultaneous perturbation stochastic approximation over self-play matches (planned).
    Spsa,
    /// Dataset statistics, conversion and splitting (planned).
    Dataset,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Export(args) => match export::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tune export: {e:#}");
                ExitCode::FAILURE
            }
        },
        planned => {
            eprintln!("tune {planned:?}: not implemented yet; it lands with its own issue (see the README).");
            ExitCode::from(2)
        }
    }
}
