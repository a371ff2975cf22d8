//! `tune`: the Whetstone tuning workbench's command line. Everything it runs is the library
//! (`lib.rs`); this file parses the arguments and says the error.

use std::process::ExitCode;

use clap::Parser;
use whetstone_tuner::cmd::Cli;

fn main() -> ExitCode {
    match Cli::parse().command.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e:#}");
            ExitCode::FAILURE
        }
    }
}
