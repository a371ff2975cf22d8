//! The `whetstone` binary: a UCI engine by default, with command-line tools as subcommands.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use whetstone::board::START_FEN;
use whetstone::movegen::magic::SliderTables;
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
    /// Find the magic multipliers and build the slider tables, and report how long it takes.
    Magics,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Uci) {
        Command::Uci => {
            if let Err(e) = Uci::new().run() {
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
        Command::Magics => {
            let start = Instant::now();
            let (tables, stats) = SliderTables::build_with_stats();
            let elapsed = start.elapsed();
            println!(
                "built {} slider-table entries ({} KiB) in {:.2} ms; {} magic candidates tried",
                stats.table_entries,
                tables.attacks.len() * 8 / 1024,
                elapsed.as_secs_f64() * 1e3,
                stats.candidates_tried
            );
        }
    }
    ExitCode::SUCCESS
}
