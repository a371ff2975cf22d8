//! `tune`: the Whetstone tuning workbench.
//!
//! Modules follow the data flow: `dataset` (labelled positions) -> `model` (traces, objective)
//! -> `optim` (Adam, local search, PBIL, CLOP, SPSA over a tuning space) fed by `fitness` (Texel
//! loss, self-play games, a command) -> the runs (`texel`, `blackbox/`) over the shared plumbing
//! in `run` (folder, logs, checkpoints) -> `export`/`report`. Games (matches, gauntlets,
//! self-play data, the self-play fitness) live in `play`.

mod bench;
mod blackbox;
mod dataset;
mod export;
mod fitness;
mod model;
mod optim;
mod play;
#[cfg(test)]
mod readme_check;
mod report;
mod run;
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
    /// Games between two engine configurations (params files in process, or UCI binaries):
    /// game pairs in parallel, fastchess's statistics, SPRT, PGN.
    Match(play::match_cmd::MatchArgs),
    /// Our engine against a list of engines (UCI binaries or params files), with a table per
    /// opponent and a performance rating.
    Gauntlet(play::gauntlet::GauntletArgs),
    /// Labelled positions from self-play, resumable: games.pgn and positions.epd for `tune texel`.
    Datagen(play::datagen::DatagenArgs),
    /// A report of a params file (and of a tuning run with --log): an offline index.html with PNG
    /// heat maps of the piece-square tables, curves and the run's plots, and an Excel workbook
    /// (boards with colour scales, material-normalised and mirrored tables, Rust arrays).
    Report(report::ReportArgs),
    /// Population-based incremental learning (Baluja 1994) over the Texel loss, self-play games
    /// or a command: `tune pbil --params params/eval.toml` is a complete short run.
    Pbil(blackbox::pbil::PbilArgs),
    /// Confident local optimisation (Coulom 2011) of a few values over game outcomes; with
    /// --problem, the paper's test problems and their regret.
    Clop(blackbox::clop::ClopArgs),
    /// Simultaneous perturbation stochastic approximation over game pairs, as fishtest and
    /// OpenBench run it; reads and writes OpenBench's SPSA lines.
    Spsa(blackbox::spsa::SpsaArgs),
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
        Command::Pbil(args) => blackbox::pbil::run(args),
        Command::Spsa(args) => blackbox::spsa::run(args),
        Command::Clop(args) => blackbox::clop::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e:#}");
            ExitCode::FAILURE
        }
    }
}
