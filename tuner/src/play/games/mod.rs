//! The match machinery: one game, its PGN, openings, game pairs over worker threads, statistics,
//! a run's tally, games file, journal and identity.

pub mod book;
pub mod game;
pub mod identity;
pub mod journal;
pub mod output;
pub mod pgn_out;
pub mod pool;
pub mod runner;
pub mod sprt_outlook;
pub mod stats;
pub mod tally;
