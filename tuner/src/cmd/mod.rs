//! The command line: one file per subcommand (its argument struct and its `run`), the options
//! several commands share (`args/`, each resolving to a plain settings type of the library), and
//! the table below that names them. Nothing else lives here, and nothing below imports it or sees
//! a clap type: a command only parses options and strings the library's layers together (`dataset/` → `model/` → `optim/`
//! fed by `fitness/`, games in `play/`, over `run/`, then `export` and `report/`).

pub mod args;
pub mod auto;
pub mod bayes;
pub mod bench;
pub mod clop;
pub mod datagen;
pub mod dataset;
pub mod export;
pub mod gauntlet;
pub mod r#match;
pub mod pbil;
pub mod report;
pub mod sprt;
pub mod spsa;
pub mod texel;
pub mod texel_engine;
pub mod verify;

#[cfg(test)]
mod tests;

use anyhow::Result;
use clap::Subcommand;

/// Whetstone's tuning workbench: fit the evaluation's flat parameter vector to game results
/// (Texel) or to self-play match results (PBIL, CLOP, SPSA), and export the result into the
/// engine build.
#[derive(clap::Parser)]
#[command(name = "tune", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Texel tuning: fit the evaluation to game results over labelled positions.
    Texel(texel::TexelArgs),
    /// Population-based incremental learning (Baluja 1994) over the Texel loss, self-play games
    /// or a command: `tune pbil --params params/eval.toml` is a complete short run.
    Pbil(pbil::PbilArgs),
    /// Confident local optimisation (Coulom 2011) of a few values over game outcomes; with
    /// --problem, the paper's test problems and their regret.
    Clop(clop::ClopArgs),
    /// Bayesian optimisation over a Gaussian process (as chess-tuning-tools) of a few values over
    /// game batches (or any fitness); with --problem, CLOP's test problems and their regret.
    Bayes(bayes::BayesArgs),
    /// Simultaneous perturbation stochastic approximation over game pairs, as fishtest and
    /// OpenBench run it; reads and writes OpenBench's SPSA lines.
    Spsa(spsa::SpsaArgs),
    /// The whole loop, unattended and resumable: datagen, Texel, SPSA of the search constants,
    /// each tuning stage kept only when its SPRT against the values before it passes, repeated
    /// while --hours lasts; --bake bakes what passed.
    Auto(auto::AutoArgs),
    /// Games between two engine configurations (params files in process, or UCI binaries):
    /// game pairs in parallel, fastchess's statistics, SPRT, PGN.
    Match(r#match::MatchArgs),
    /// Our engine against a list of engines (UCI or xboard binaries, or params files), with a
    /// table per opponent and a performance rating.
    ///
    /// The opponents file has one `[[engine]]` table per opponent: `name`, `command`, `protocol`
    /// (`"uci"`, the default, or `"xboard"`), `args`, `options`, `working_dir`, `rating`; or
    /// `params = FILE` for a configuration of our engine played in process. xboard engines play at
    /// --tc or --depth, not --nodes. See docs/games.md and params/gauntlet.toml.
    Gauntlet(gauntlet::GauntletArgs),
    /// Labelled positions from self-play, resumable: games.pgn and positions.epd for `tune texel`.
    Datagen(datagen::DatagenArgs),
    /// Labelled-position datasets: statistics, format conversion (and PGN games to positions), splits,
    /// search scores from any UCI engine.
    #[command(subcommand)]
    Dataset(dataset::DatasetCommand),
    /// A report of a params file (and of a tuning run with --log): an offline index.html with PNG
    /// heat maps of the piece-square tables, curves and the run's plots, and an Excel workbook
    /// (boards with colour scales, material-normalised and mirrored tables, Rust arrays).
    Report(report::ReportArgs),
    /// What an SPRT will cost before it is played: for each true Elo difference, the chance that
    /// it passes and the games it takes (Wald's approximations), at the spread of a match's pairs.
    Sprt(sprt::SprtArgs),
    /// Verify a finished tuning run now: its tuned values against its start as an SPRT (a run
    /// made with --no-verify, a screen confirmed at a clock with --verify-tc, an undecided SPRT
    /// given more games with --verify-games); the verdict goes into the run's result.json.
    Verify(verify::VerifyRunArgs),
    /// Write a params file into the engine build (src/eval/baked.rs, recorded in engine.toml) and
    /// as a normalised TOML.
    Export(export::ExportArgs),
    /// Tuner speed: load rate, bytes per position, epoch time and ns per coefficient.
    Bench(bench::BenchArgs),
}

impl Command {
    pub fn run(&self) -> Result<()> {
        match self {
            Command::Texel(args) => texel_engine::run_texel(args),
            Command::Pbil(args) => pbil::run(args),
            Command::Clop(args) => clop::run(args),
            Command::Bayes(args) => bayes::run(args),
            Command::Spsa(args) => spsa::run(args),
            Command::Auto(args) => auto::run(args),
            Command::Match(args) => r#match::run(args),
            Command::Gauntlet(args) => gauntlet::run(args),
            Command::Datagen(args) => datagen::run(args),
            Command::Dataset(command) => dataset::run(command),
            Command::Report(args) => report::run(args),
            Command::Sprt(args) => sprt::run(args),
            Command::Verify(args) => verify::run(args),
            Command::Export(args) => export::run(args),
            Command::Bench(args) => bench::run(args),
        }
    }
}
