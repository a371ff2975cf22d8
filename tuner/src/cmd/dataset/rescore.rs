//! `tune dataset rescore`: its options (an argument group of their own, so `tune auto`'s rescore
//! stage parses and runs the same command line a user types) and the run.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use crate::dataset::split::same_file;
use crate::play::limit::MoveBudget;
use crate::play::runs::rescore::{rescore, RescoreOptions, SEARCHES_PER_PROCESS};
use crate::play::runs::settings::uci_engine_spec;

/// Options of `tune dataset rescore`.
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct RescoreArgs {
    /// The dataset to score, in any accepted line format.
    pub input: PathBuf,
    /// Output EPD file (continued if it holds the start of an earlier run of the same input).
    pub output: PathBuf,
    /// The UCI engine binary that searches.
    #[arg(long)]
    pub engine: PathBuf,
    /// UCI options for --engine, `Name=Value` (repeatable; as fastchess's `option.`).
    #[arg(long, value_name = "NAME=VALUE")]
    pub engine_option: Vec<String>,
    /// Search depth per position.
    #[arg(long, value_name = "N", conflicts_with = "nodes", required_unless_present = "nodes")]
    pub depth: Option<u32>,
    /// Nodes per position.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Hash size in MB for each engine process.
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: usize,
    /// Engine processes searching at once [default: the number of cores].
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Seconds one search may take before it is stopped (the position then keeps no score).
    #[arg(long, value_name = "S", default_value_t = 60)]
    pub timeout: u64,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Scores the input into the output (making the output's folder), printing what it did.
pub fn run(args: &RescoreArgs) -> Result<()> {
    let (input, output) = (&args.input, &args.output);
    if same_file(input, output) {
        bail!("the output {} is the input; write to another file", output.display());
    }
    let limit = match (args.depth, args.nodes) {
        (Some(d), _) => MoveBudget::Depth(d),
        (None, Some(n)) => MoveBudget::Nodes(n),
        (None, None) => bail!("give --depth or --nodes"),
    };
    let options = RescoreOptions {
        spec: uci_engine_spec(&args.engine, Some(args.hash), &args.engine_option)?,
        limit,
        workers: args
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        timeout: std::time::Duration::from_secs(args.timeout.max(1)),
        progress: !args.quiet,
        restart_after: SEARCHES_PER_PROCESS,
    };
    if let Some(folder) = output.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).with_context(|| format!("cannot make {}", folder.display()))?;
    }
    let report = rescore(input, output, &options, &crate::run::interrupt_flag())?;
    println!("{}: {}", input.display(), report.input);
    println!(
        "{}: {} positions from an earlier run, {} scored now, {} mate scores and {} failed searches without a score",
        output.display(),
        report.resumed,
        report.scored,
        report.mates,
        report.failed
    );
    if report.interrupted {
        println!("interrupted: run the same command again to continue");
    }
    Ok(())
}
