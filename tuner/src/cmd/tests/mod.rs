//! Tests of the commands as a user runs them: the game commands (match, gauntlet, datagen) and
//! the closing advice of every tuner.

mod advice;
mod play;
