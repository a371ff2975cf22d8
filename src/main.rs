//! The `whetstone` binary: a UCI engine by default, with command-line tools as subcommands.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

mod genfens;
use whetstone::attacks::magic::SliderTables;
use whetstone::board::START_FEN;
use whetstone::eval::EvalParamSet;
use whetstone::eval::Weights;
use whetstone::movegen::perft::perft_divide;
use whetstone::uci::Uci;
use whetstone::Position;

/// Whetstone: a UCI chess engine whose evaluation is a flat, tunable parameter vector.
///
/// Without a subcommand the engine speaks UCI on standard input and output, as GUIs expect.
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI on standard input/output (the default).
    Uci,
    /// Count the leaf nodes of the legal move tree (divided by root move), like `go perft`.
    Perft {
        /// Plies to search.
        depth: u32,
        /// Position as FEN (the rest of the line; quotes optional). Defaults to the start position.
        fen: Vec<String>,
    },
    /// Search a fixed set of positions to a fixed depth; the last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Search depth.
        #[arg(default_value_t = whetstone::bench::BENCH_DEPTH)]
        depth: i32,
    },
    /// Print the evaluation of a position, term by term (like Stockfish's `eval`).
    Eval {
        /// Position as FEN (the rest of the line). Defaults to the start position.
        fen: Vec<String>,
        /// Evaluate with this params file instead of the built-in parameters.
        #[arg(long)]
        params: Option<std::path::PathBuf>,
    },
    /// Openings for OpenBench's datagen workloads: `genfens N seed S book <None|path> [plies N]
    /// [spread N] [maxeval CP]`, printed as `info string genfens <FEN>` lines (OpenBench runs
    /// `./engine "genfens ..." "quit"`, which works too).
    Genfens {
        /// N seed S book <None|path> [plies N] [spread N] [maxeval CP]
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        words: Vec<String>,
    },
    /// Search the magic multipliers from scratch and report how long that and the start-up
    /// table fill (with the committed magics) take.
    Magics {
        /// Print the found magics as the Rust module `src/movegen/magic_numbers.rs` instead.
        #[arg(long)]
        rust: bool,
    },
}

fn main() -> ExitCode {
    // OpenBench's datagen client passes the whole command as one argument, then "quit":
    // `./engine "genfens N seed S book None" "quit"`.
    let args: Vec<String> = std::env::args().collect();
    if let Some(first) = args.get(1).filter(|a| a.starts_with("genfens ")) {
        let words: Vec<&str> = first.split_whitespace().skip(1).collect();
        return genfens_status(&words);
    }
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Uci) {
        Command::Uci => {
            if let Err(e) = Uci::run_stdio() {
                eprintln!("whetstone: {e}");
                return ExitCode::FAILURE;
            }
        }
        Command::Perft { depth, fen } => {
            let fen = if fen.is_empty() { START_FEN.to_string() } else { fen.join(" ") };
            let mut pos = match Position::from_fen(&fen) {
                Ok(pos) => pos,
                Err(e) => {
                    eprintln!("whetstone: invalid FEN '{fen}': {e}");
                    return ExitCode::FAILURE;
                }
            };
            let divide = perft_divide(&mut pos, depth);
            print!("{}", divide.report(&pos));
        }
        Command::Bench { depth } => {
            if let Err(e) = whetstone::bench::run_bench(depth, &mut std::io::stdout()) {
                eprintln!("whetstone: {e}");
                return ExitCode::FAILURE;
            }
        }
        Command::Eval { fen, params } => {
            let fen = if fen.is_empty() { START_FEN.to_string() } else { fen.join(" ") };
            let result = (|| -> anyhow::Result<String> {
                let pos =
                    Position::from_fen(&fen).map_err(|e| anyhow::anyhow!("invalid FEN '{fen}': {e}"))?;
                let set = match params {
                    Some(path) => EvalParamSet::load(&path)?,
                    None => EvalParamSet::baked(),
                };
                let weights = Weights::from_params(&set);
                Ok(whetstone::eval::breakdown::report(&pos, &set, &weights))
            })();
            match result {
                Ok(report) => println!("{report}"),
                Err(e) => {
                    eprintln!("whetstone: {e:#}");
                    return ExitCode::FAILURE;
                }
            }
        }
        Command::Genfens { words } => {
            let words: Vec<&str> =
                words.iter().flat_map(|w| w.split_whitespace()).filter(|w| *w != "quit").collect();
            return genfens_status(&words);
        }
        Command::Magics { rust } => {
            let start = Instant::now();
            let (tables, stats) = SliderTables::search();
            let search_time = start.elapsed();
            if rust {
                print!("{}", tables.to_rust_module());
                return ExitCode::SUCCESS;
            }
            let start = Instant::now();
            let (_, fill_stats) =
                SliderTables::build_from(Some((&tables.rook_magics(), &tables.bishop_magics())));
            let fill_time = start.elapsed();
            println!(
                "magic search: {} candidates tried, {:.1} ms; start-up fill with known magics: {} tried, {:.2} ms; {} entries ({} KiB)",
                stats.candidates_tried,
                search_time.as_secs_f64() * 1e3,
                fill_stats.candidates_tried,
                fill_time.as_secs_f64() * 1e3,
                stats.table_entries,
                tables.attacks.len() * 8 / 1024,
            );
        }
    }
    ExitCode::SUCCESS
}

/// Runs genfens on stdout; failure is a non-zero exit status (the error is an `info string`).
fn genfens_status(words: &[&str]) -> ExitCode {
    if genfens::run(words, &mut std::io::stdout().lock()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
