//! `tune`: the Whetstone tuning workbench.
//!
//! The subcommands below are the planned interface; each lands with its own issue (the
//! evaluation's parameter vector first, then datasets and the Texel tuner, then self-play and the
//! black-box optimisers). Until then they explain what they will do and exit with status 2.

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
    /// Write a params file as TOML and as the Rust constants module the engine compiles (planned).
    Export,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    eprintln!(
        "tune {:?}: not implemented yet; the engine's parameter vector (params/eval.toml) lands first. \
         See the README's roadmap.",
        cli.command
    );
    ExitCode::from(2)
}
