//! The `tune dataset ...` subcommands: the enum clap parses and `run`; converting is in
//! `convert.rs`, the streamed tools in `tools.rs`.

mod convert;
mod filter_args;
pub mod rescore;
mod tools;

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::cmd::args::choices;
use crate::dataset::files::FileFormat;
use crate::dataset::pgn::PgnOptions;
use crate::dataset::stats::stats;
use crate::dataset::stream::ReadOptions;
use crate::dataset::tools::DEFAULT_MEMORY_MB;
use crate::dataset::LoadOptions;

pub use convert::convert;
use filter_args::FilterArgs;
pub use rescore::RescoreArgs;

/// How an input is read (every dataset command that reads a file).
#[derive(clap::Args, Debug, Clone, PartialEq, Default)]
pub struct ReadArgs {
    /// The input's format, when its extension does not say it (checked against the content).
    #[arg(long, value_parser = choices::file_format(), value_name = "FORMAT")]
    pub from: Option<FileFormat>,
    /// Binary records, games and archive members that do not read are skipped (counted, the
    /// first listed) instead of stopping at the first.
    #[arg(long)]
    pub skip_broken: bool,
    /// Text input: stop at the first broken line instead of skipping it.
    #[arg(long)]
    pub strict: bool,
    /// PGN and archive input: plies at the start of each game that are not used (the opening
    /// book) [default: 16].
    #[arg(long, value_name = "N")]
    pub skip_plies: Option<usize>,
    /// PGN and archive input: replace each position by its quiescence leaf (Texel's method)
    /// instead of dropping positions that are not quiet.
    #[arg(long)]
    pub resolve: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

impl ReadArgs {
    /// The reading options for `input` (broken text lines are skipped unless --strict, broken
    /// binary records only with --skip-broken).
    pub fn options(&self, input: &std::path::Path) -> Result<(FileFormat, ReadOptions)> {
        let format = crate::dataset::files::input_format(input, self.from)?;
        let games = matches!(format, FileFormat::Pgn | FileFormat::Archive);
        if !games && (self.skip_plies.is_some() || self.resolve) {
            bail!(
                "--skip-plies and --resolve apply to PGN and archive input only ({} is {format})",
                input.display()
            );
        }
        let skip_broken = if format.is_text() { !self.strict } else { self.skip_broken };
        let pgn = PgnOptions {
            skip_plies: self.skip_plies.unwrap_or(PgnOptions::default().skip_plies),
            resolve: self.resolve,
        };
        Ok((format, ReadOptions { from: Some(format), skip_broken, progress: !self.quiet, pgn }))
    }
}

/// How an output is written.
#[derive(clap::Args, Debug, Clone, PartialEq, Default)]
pub struct WriteArgs {
    /// The output's format, when its extension does not say it: epd, ethereal, csv, text
    /// (`fen | score | result`), viriformat, bulletformat.
    #[arg(long, alias = "format", value_parser = choices::file_format(), value_name = "FORMAT")]
    pub to: Option<FileFormat>,
    /// Overwrite an output file that exists.
    #[arg(long)]
    pub force: bool,
}

/// Dataset statistics, conversion, the streamed tools, splitting and scoring by an engine.
///
/// A dataset is a file of labelled positions in any of these formats (docs/datasets.md): text
/// lines (EPD `<FEN> c9 "1-0";`, Ethereal `<FEN> [1.0]`, `<FEN> | 1-0`, bullet's `<FEN> | <score>
/// | <result>`, CSV `<FEN>,1-0`; detected per line), viriformat, bulletformat, Stockfish binpack
/// (read), PGN games and OpenBench archives (read). The format comes from --from/--to or the
/// extension and is checked against the content. Results are from White's point of view. No
/// output file is overwritten without --force.
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
        /// Stop at the first broken line or record instead of skipping it.
        #[arg(long)]
        strict: bool,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Convert between formats, or turn PGN games or an OpenBench archive into labelled positions.
    ///
    /// Streamed: a file larger than memory converts. A `.pgn` (plain, .gz, .bz2) or OpenBench
    /// `.pgn.tar` input is replayed game by game: every position after the first --skip-plies
    /// plies is labelled with the game's result and the score of its move's comment, except
    /// positions where the side to move is in check, positions right after a capture or
    /// promotion, positions that are not quiet (quiescence score differs from the static
    /// evaluation; with --resolve they are replaced by their quiescence leaf instead) and
    /// duplicates. Games without a result (`*`) are skipped. What was dropped and why is printed.
    #[command(alias = "import")]
    Convert {
        /// Input file, in any format.
        input: PathBuf,
        /// Output file, in a writable format (by --to or its extension).
        output: PathBuf,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        write: WriteArgs,
    },
    /// Keep the positions that pass every rule given (streamed, file order kept).
    Filter {
        input: PathBuf,
        output: PathBuf,
        #[command(flatten)]
        rules: FilterArgs,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        write: WriteArgs,
    },
    /// Keep the first of each position (same Zobrist key), in file order, in bounded memory.
    Dedupe {
        input: PathBuf,
        output: PathBuf,
        /// Memory the buckets may use (MiB); more positions spill to more temporary files.
        #[arg(long, value_name = "MB", default_value_t = DEFAULT_MEMORY_MB)]
        memory: usize,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        write: WriteArgs,
    },
    /// Shuffle the positions, seeded, in bounded memory (an external bucket shuffle).
    Shuffle {
        input: PathBuf,
        output: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Memory a bucket may use (MiB); more positions spill to more temporary files.
        #[arg(long, value_name = "MB", default_value_t = DEFAULT_MEMORY_MB)]
        memory: usize,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        write: WriteArgs,
    },
    /// A seeded sample of the positions, in file order: --fraction of them or exactly --count.
    Sample {
        input: PathBuf,
        output: PathBuf,
        #[arg(long, conflicts_with = "count", required_unless_present = "count")]
        fraction: Option<f64>,
        #[arg(long)]
        count: Option<u64>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        write: WriteArgs,
    },
    /// Concatenate files of any formats into one output, in the order given.
    Merge {
        /// Input files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Output file.
        #[arg(long, short)]
        output: PathBuf,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        write: WriteArgs,
    },
    /// Split a dataset into training and validation files, deterministically.
    ///
    /// The file's positions are numbered in load order, and a position goes to the validation
    /// file when a hash of its number and the seed falls below the fraction: the rule by which
    /// `tune texel` (without --valid) and the Texel fitness hold positions out, so the validation
    /// file holds what they would hold out of the same file with the same seed and fraction. A
    /// text input's lines are copied unchanged (a `fen,result` header to both files, lines
    /// without a position to the training file); other formats are written in the outputs'
    /// formats (by --to or their extensions).
    Split {
        /// The dataset to split.
        input: PathBuf,
        /// Where the training positions go.
        #[arg(long)]
        train: PathBuf,
        /// Where the validation positions go.
        #[arg(long)]
        valid: PathBuf,
        /// Expected share of positions in the validation file.
        #[arg(long, default_value_t = 0.1)]
        valid_fraction: f64,
        /// Seed of the hash (another seed, another split).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        write: WriteArgs,
    },
    /// Score every position with a UCI engine's search, for `tune texel --score-weight`.
    ///
    /// Each position is searched to --depth or --nodes by the engine (our own binary at a deeper
    /// search than the games that made the positions, or any other UCI engine) and written to the
    /// output as EPD with the score as `ce` (centipawns, side to move's view) beside its result; a
    /// mate score or a failed search leaves the position without a score. The output keeps the
    /// input's order; run the same command again after a kill or Ctrl-C and it continues after the
    /// last position written.
    Rescore(RescoreArgs),
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
        DatasetCommand::Convert { input, output, read, write } => {
            let report = convert(input, output, read, write)?;
            println!("{}: {}", input.display(), report.read);
            println!("{}: {}", output.display(), report.written);
        }
        DatasetCommand::Filter { input, output, rules, read, write } => {
            tools::filter(input, output, &rules.rules(), read, write)?
        }
        DatasetCommand::Dedupe { input, output, memory, read, write } => {
            tools::dedupe(input, output, *memory, read, write)?
        }
        DatasetCommand::Shuffle { input, output, seed, memory, read, write } => {
            tools::shuffle(input, output, *seed, *memory, read, write)?
        }
        DatasetCommand::Sample { input, output, fraction, count, seed, read, write } => {
            tools::sample(input, output, *fraction, *count, *seed, read, write)?
        }
        DatasetCommand::Merge { inputs, output, read, write } => tools::merge(inputs, output, read, write)?,
        DatasetCommand::Split { input, train, valid, valid_fraction, seed, read, write } => {
            tools::split(input, train, valid, *valid_fraction, *seed, read, write)?
        }
        DatasetCommand::Rescore(args) => rescore::run(args)?,
    }
    Ok(())
}

#[cfg(test)]
mod tests;
