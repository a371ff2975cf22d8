//! The evaluation: one routine, generic over where the weights go.

pub mod endgame;
