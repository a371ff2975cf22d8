//! The `tune dataset ...` subcommands.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::dataset::formats::{format_line, Format};
use crate::dataset::pgn::{extract, PgnOptions, PgnReport};
use crate::dataset::split::{same_file, split, SplitReport};
use crate::dataset::stats::stats;
use crate::dataset::{load_labelled, LoadOptions, LoadSummary};
use crate::play::args::uci_engine_spec;
use crate::play::rescore::{rescore, RescoreOptions, SEARCHES_PER_PROCESS};
use crate::play::uci_engine::GoLimit;

/// Dataset statistics, conversion, splitting and scoring by an engine.
///
/// A dataset is a text file of labelled positions, one per line, in any of these formats (detected per
/// line): EPD `<FEN> c9 "1-0";`, Ethereal `<FEN> [1.0]` (or `[1-0]`), `<FEN> | 1-0` and CSV `<FEN>,1-0`.
/// Results are from White's point of view: 1-0 / 1/2-1/2 / 0-1 or 1 / 0.5 / 0. Blank lines and `#`
/// comments are ignored; broken lines are reported as file:line and skipped.
#[derive(clap::Subcommand, Debug, Clone, PartialEq)]
pub enum DatasetCommand {
    /// Count positions by result and by game phase, and list broken lines.
    ///
    /// Phase is the engine's (knights and bishops 1, rooks 2, queens 4; 24 = all pieces), in five
    /// buckets. Duplicates are positions with the same Zobrist key as an earlier line.
    Stats {
        /// Dataset files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Stop at the first broken line instead of skipping it.
        #[arg(long)]
        strict: bool,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Convert between line formats, or turn PGN games into labelled positions.
    ///
    /// A `.pgn` input is replayed game by game: every position after the first --skip-plies plies is
    /// labelled with the game's result, except positions where the side to move is in check, positions
    /// right after a capture or promotion, positions that are not quiet (quiescence score differs from
    /// the static evaluation; with --resolve they are replaced by their quiescence leaf instead) and
    /// duplicates. Games without a result (`*`) are skipped. What was dropped and why is printed.
    Convert {
        /// Input: a dataset in any accepted line format, or PGN games (by the extension .pgn).
        input: PathBuf,
        /// Output file (overwritten).
        output: PathBuf,
        /// Output line format.
        #[arg(long, value_enum, default_value_t = Format::Epd)]
        format: Format,
        /// PGN only: plies at the start of each game that are not used (the opening book) [default: 16].
        #[arg(long, value_name = "N")]
        skip_plies: Option<usize>,
        /// PGN only: replace each position by its quiescence leaf (Texel's method) instead of dropping
        /// positions that are not quiet.
        #[arg(long)]
        resolve: bool,
        /// Stop at the first broken line instead of skipping it (dataset input).
        #[arg(long)]
        strict: bool,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Split a dataset into training and validation files, deterministically.
    ///
    /// The file's positions are numbered in line order, and a position goes to the validation file
    /// when a hash of its number and the seed falls below the fraction: the rule by which `tune
    /// texel` (without --valid) and the Texel fitness hold positions out, so the validation file
    /// holds what they would hold out of the same file with the same seed and fraction. Lines are
    /// copied unchanged; a `fen,result` header goes to both files, lines without a position to the
    /// training file.
    Split {
        /// The dataset to split.
        input: PathBuf,
        /// Where the training lines go.
        #[arg(long)]
        train: PathBuf,
        /// Where the validation lines go.
        #[arg(long)]
        valid: PathBuf,
        /// Expected share of positions in the validation file.
        #[arg(long, default_value_t = 0.1)]
        valid_fraction: f64,
        /// Seed of the hash (another seed, another split).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Score every position with a UCI engine's search, for `tune texel --score-weight`.
    ///
    /// Each position is searched to --depth or --nodes by the engine (our own binary at a deeper
    /// search than the games that made the positions, or any other UCI engine) and written to the
    /// output as EPD with the score as `ce` (centipawns, side to move's view) beside its result; a
    /// mate score or a failed search leaves the position without a score. The output keeps the
    /// input's order; run the same command again after a kill or Ctrl-C and it continues after the
    /// last position written.
    Rescore {
        /// The dataset to score, in any accepted line format.
        input: PathBuf,
        /// Output EPD file (continued if it holds the start of an earlier run of the same input).
        output: PathBuf,
        /// The UCI engine binary that searches.
        #[arg(long)]
        engine: PathBuf,
        /// UCI options for --engine, `Name=Value` (repeatable; as fastchess's `option.`).
        #[arg(long, value_name = "NAME=VALUE")]
        engine_option: Vec<String>,
        /// Search depth per position.
        #[arg(long, value_name = "N", conflicts_with = "nodes", required_unless_present = "nodes")]
        depth: Option<u32>,
        /// Nodes per position.
        #[arg(long, value_name = "N")]
        nodes: Option<u64>,
        /// Hash size in MB for each engine process.
        #[arg(long, value_name = "MB", default_value_t = 16)]
        hash: usize,
        /// Engine processes searching at once [default: the number of cores].
        #[arg(long, value_name = "N")]
        concurrency: Option<usize>,
        /// Seconds one search may take before it is stopped (the position then keeps no score).
        #[arg(long, value_name = "S", default_value_t = 60)]
        timeout: u64,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
    },
}

/// Runs a `tune dataset` subcommand, printing its report on stdout.
pub fn run(command: &DatasetCommand) -> Result<()> {
    match command {
        DatasetCommand::Stats { files, strict, quiet } => {
            let options = LoadOptions { strict: *strict, progress: !quiet };
            for (i, file) in files.iter().enumerate() {
                if i > 0 {
                    println!();
                }
                println!("{}", stats(file, &options)?);
            }
        }
        DatasetCommand::Convert { input, output, format, skip_plies, resolve, strict, quiet } => {
            let options = LoadOptions { strict: *strict, progress: !quiet };
            match convert(input, output, *format, *skip_plies, *resolve, &options)? {
                Converted::Lines(summary) => println!("{}: {summary}", input.display()),
                Converted::Games(report) => println!("{}: {report}", input.display()),
            }
            println!("wrote {}", output.display());
        }
        DatasetCommand::Split { input, train, valid, valid_fraction, seed } => {
            let SplitReport { lines, train: t, valid: v, other, header } =
                split(input, train, valid, *valid_fraction, *seed)?;
            let other =
                if other > 0 { format!(", {other} without a position (to training)") } else { String::new() };
            println!(
                "{}: {lines} lines{}{other} -> {} ({t} positions, {:.1}%), {} ({v} positions, {:.1}%)",
                input.display(),
                if header { " (the CSV header copied to both)" } else { "" },
                train.display(),
                100.0 * t as f64 / (t + v).max(1) as f64,
                valid.display(),
                100.0 * v as f64 / (t + v).max(1) as f64,
            );
        }
        DatasetCommand::Rescore {
            input,
            output,
            engine,
            engine_option,
            depth,
            nodes,
            hash,
            concurrency,
            timeout,
            quiet,
        } => {
            if same_file(input, output) {
                bail!("the output {} is the input; write to another file", output.display());
            }
            let limit = match (depth, nodes) {
                (Some(d), _) => GoLimit::Depth(*d),
                (None, Some(n)) => GoLimit::Nodes(*n),
                (None, None) => bail!("give --depth or --nodes"),
            };
            let options = RescoreOptions {
                spec: uci_engine_spec(engine, Some(*hash), engine_option)?,
                limit,
                workers: concurrency
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                timeout: std::time::Duration::from_secs((*timeout).max(1)),
                progress: !quiet,
                restart_after: SEARCHES_PER_PROCESS,
            };
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
        }
    }
    Ok(())
}

/// What a conversion read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Converted {
    Lines(LoadSummary),
    Games(PgnReport),
}

fn is_pgn(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

/// Converts `input` (a dataset, or PGN by its extension) to `output` in `format`.
pub fn convert(
    input: &Path,
    output: &Path,
    format: Format,
    skip_plies: Option<usize>,
    resolve: bool,
    options: &LoadOptions,
) -> Result<Converted> {
    if same_file(input, output) {
        bail!("the output {} is the input; write to another file", output.display());
    }
    if is_pgn(input) {
        let pgn = PgnOptions { skip_plies: skip_plies.unwrap_or(PgnOptions::default().skip_plies), resolve };
        return convert_pgn(input, output, format, &pgn, options.progress).map(Converted::Games);
    }
    if skip_plies.is_some() || resolve {
        bail!("--skip-plies and --resolve apply to PGN input only ({} is not a .pgn file)", input.display());
    }
    let (lines, summary) = load_labelled(input, options, |pos, label| format_line(pos, label, format))?;
    write_lines(output, format, lines.iter().map(String::as_str))?;
    Ok(Converted::Lines(summary))
}

fn create(output: &Path, format: Format) -> Result<BufWriter<File>> {
    let file = File::create(output).with_context(|| format!("cannot create {}", output.display()))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    if let Some(header) = format.header() {
        writeln!(out, "{header}")?;
    }
    Ok(out)
}

fn write_lines<'a>(output: &Path, format: Format, lines: impl Iterator<Item = &'a str>) -> Result<()> {
    let mut out = create(output, format)?;
    for line in lines {
        writeln!(out, "{line}").with_context(|| format!("writing {}", output.display()))?;
    }
    out.flush().with_context(|| format!("writing {}", output.display()))
}

/// Reading through this advances a progress bar by the bytes read.
fn convert_pgn(
    input: &Path,
    output: &Path,
    format: Format,
    pgn: &PgnOptions,
    progress: bool,
) -> Result<PgnReport> {
    let name = input.display().to_string();
    let (mut file, bar) = crate::dataset::load::open_text(input, progress)?;
    let mut head = Vec::with_capacity(64 << 10);
    (&mut file).take(64 << 10).read_to_end(&mut head).with_context(|| format!("reading {name}"))?;
    crate::dataset::load::check_text(&head, &name)?;
    let reader = std::io::Cursor::new(head).chain(file);
    let mut out = create(output, format)?;
    let report = extract(reader, pgn, |fen, label| {
        let pos =
            whetstone::Position::from_fen(fen).map_err(|e| anyhow::anyhow!("kept position {fen}: {e}"))?;
        writeln!(out, "{}", format_line(&pos, label, format))
            .with_context(|| format!("writing {}", output.display()))
    })
    .with_context(|| format!("reading {name}"))?;
    bar.finish_and_clear();
    out.flush().with_context(|| format!("writing {}", output.display()))?;
    if report.kept == 0 {
        eprintln!("warning: {name}: no position was kept");
    }
    Ok(report)
}

#[cfg(test)]
#[path = "dataset_tests.rs"]
mod tests;
