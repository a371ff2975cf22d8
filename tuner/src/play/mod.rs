//! Games played by the workbench itself: matches between configurations of our engine (in this
//! process) or engine binaries (UCI or xboard), with fastchess's statistics and SPRT; gauntlets
//! against real engines; self-play data generation. The commands (`cmd/match.rs`, `cmd/gauntlet.rs`,
//! `cmd/datagen.rs`) only read options and call these.
//!
//! Layout, from one move up to a run:
//! - `limit.rs` (nodes, depth or clock per move), `player.rs` (what the game loop asks of a player),
//!   `inprocess.rs` (our engine as a library), `engine_process.rs` (an engine binary's process),
//!   `uci_engine.rs` + `external.rs` (a UCI binary), `uci_option.rs` (its declared options and the
//!   `setoption` lines checked against them), `xboard_text.rs` + `xboard_engine.rs` + `xboard.rs`
//!   (an xboard binary);
//! - `game.rs` (one game: rules, clocks, adjudication, the record), `outcome.rs` (how it ended), `pgn_out.rs` (the record as PGN);
//! - `book.rs` (openings), `runner.rs` (game pairs over worker threads), `stats.rs` (Elo, LOS,
//!   pentanomial, SPRT), `tally.rs` (a run's results), `output.rs` (a run's games.pgn);
//! - runs: `match_run.rs` (a resumable match, over `journal.rs`, its record of finished pairs, and
//!   `identity.rs`, the options a resumed run must share), `datagen.rs` (resumable self-play
//!   positions), `opponents.rs` (a gauntlet's opponents file and table), `rescore.rs` (an
//!   engine's search scores for a dataset's positions, resumable);
//! - how a run plays its games (limit, openings, adjudication, threads) and the engines it names,
//!   in `settings.rs`.

pub mod book;
pub mod datagen;
pub mod engine_process;
pub mod external;
pub mod game;
pub mod identity;
pub mod inprocess;
pub mod journal;
pub mod limit;
pub mod match_run;
pub mod opponents;
pub mod outcome;
pub mod output;
pub mod pgn_out;
pub mod player;
pub mod rescore;
pub mod runner;
pub mod settings;
pub mod stats;
pub mod tally;
pub mod uci_engine;
pub mod uci_option;
pub mod xboard;
pub mod xboard_engine;
pub mod xboard_text;
