//! Games played by the workbench itself: matches between configurations of our engine (in this
//! process) or engine binaries (UCI or xboard), with fastchess's statistics and SPRT; gauntlets
//! against real engines; self-play data generation. The commands (`cmd/match.rs`, `cmd/gauntlet.rs`,
//! `cmd/datagen.rs`) only read options and call these.
//!
//! Layout, from one move up to a run (each folder imports only the ones above it in this list):
//! - `limit.rs` (nodes, depth or clock per move) and `outcome.rs` (how a game ended): the words
//!   every layer shares;
//! - `engines/`: what plays a move — the player the game loop asks (`player.rs`), our engine as a
//!   library (`inprocess.rs`), an engine binary's process (`engine_process.rs`), a UCI binary
//!   (`uci_engine.rs` driver, `external.rs` player, `uci_option.rs` its options), an xboard
//!   binary (`xboard_text.rs`, `xboard_engine.rs`, `xboard.rs`);
//! - `games/`: the match machinery — one game with its rules, clocks and adjudication
//!   (`game.rs`) and its PGN (`pgn_out.rs`), openings (`book.rs`), game pairs over worker threads
//!   (`runner.rs`), statistics (`stats.rs`: Elo, LOS, pentanomial, SPRT), a run's results
//!   (`tally.rs`), its games file (`output.rs`), the record of finished pairs (`journal.rs`) and
//!   the options a resumed run must share (`identity.rs`);
//! - `runs/`: what a command runs — how a run plays (`settings.rs`: limit, openings,
//!   adjudication, threads, the engines it names), a resumable match (`match_run.rs`), self-play
//!   positions (`datagen.rs`), a gauntlet's opponents (`opponents.rs`), an engine's scores for a
//!   dataset (`rescore.rs`).

pub mod engines;
pub mod games;
pub mod limit;
pub mod outcome;
pub mod runs;
