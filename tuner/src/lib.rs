//! The Whetstone tuning workbench as a library: what `tune` does, callable from Rust.
//!
//! Another engine's Rust code (or a script in Rust) can load labelled positions (`dataset`),
//! trace and fit an evaluation (`model`, `optim`), play matches between engines (`play`), verify a
//! result by games (`verify`) and write reports (`report`) without a command line: each layer
//! takes plain settings, and `cmd` builds them from `tune`'s arguments.
//!
//! Commands sit on top (`cmd/`, one file per subcommand) and the library below never calls up
//! into them. The library follows the data flow: `dataset` (labelled positions) -> `model`
//! (traces, loss) -> `optim` (Adam, local search, PBIL, CLOP, SPSA over a tuning space) fed by
//! `fitness` (Texel loss, self-play games, a command), all over the one run layer `run` (folder,
//! run.json, logs, checkpoints, Ctrl-C, progress), then `export` (a run's results), `verify` (the
//! SPRT that judges a result) and `report`. Games (the match runner, engines, statistics) live in
//! `play`; `probe` reads another engine's evaluation through its binary.
//! The binary (`main.rs`) only parses the command line and runs `cmd::Command`.

pub mod cmd;
pub mod dataset;
pub mod export;
pub mod fitness;
pub mod model;
pub mod optim;
pub mod play;
pub mod probe;
pub mod report;
pub mod run;
pub mod verify;

#[cfg(test)]
pub(crate) mod testutil;
