//! What the commands run with games: a match, datagen, a gauntlet's opponents, rescoring, and the
//! settings they share.

pub mod datagen;
pub mod match_run;
pub mod opponents;
pub mod rescore;
pub mod settings;
