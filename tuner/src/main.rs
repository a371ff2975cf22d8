//! `tune`: the Whetstone tuning workbench.
//!
//! Commands sit on top (`cmd/`, one file per subcommand) and the library below never calls up
//! into them. The library follows the data flow: `dataset` (labelled positions) -> `model`
//! (traces, loss) -> `optim` (Adam, local search, PBIL, CLOP, SPSA over a tuning space) fed by
//! `fitness` (Texel loss, self-play games, a command), all over the one run layer `run` (folder,
//! run.json, logs, checkpoints, Ctrl-C, progress), then `export` (a run's results) and `report`.
//! Games (the match runner, engines, statistics) live in `play`.

mod cmd;
mod dataset;
mod export;
mod fitness;
mod model;
#[cfg(test)]
mod openbench_check;
mod optim;
mod play;
mod probe;
#[cfg(test)]
mod readme_check;
mod report;
mod run;
mod verify;

use std::process::ExitCode;

use clap::Parser;

/// Whetstone's tuning workbench: fit the evaluation's flat parameter vector to game results
/// (Texel) or to self-play match results (PBIL, CLOP, SPSA), and export the result into the
/// engine build.
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: cmd::Command,
}

fn main() -> ExitCode {
    match Cli::parse().command.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e:#}");
            ExitCode::FAILURE
        }
    }
}
