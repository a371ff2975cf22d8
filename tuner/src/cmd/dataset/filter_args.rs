//! The options of `tune dataset filter`: the rules a position must pass.

use crate::dataset::tools::filter::FilterRules;

/// The rules; a position is kept when it passes every one given.
#[derive(clap::Args, Clone, Debug, Default, PartialEq)]
pub struct FilterArgs {
    /// Drop positions whose side to move is in check.
    #[arg(long)]
    pub no_check: bool,
    /// Drop positions that are not quiet (quiescence score differs from the static evaluation,
    /// our engine's weights), as `tune dataset convert` does for PGN games.
    #[arg(long)]
    pub only_quiet: bool,
    /// Drop positions whose search score is larger than this either way (centipawns).
    #[arg(long, value_name = "CP")]
    pub max_score: Option<i32>,
    /// Drop positions without a search score.
    #[arg(long)]
    pub scored: bool,
    /// Keep phases from this (0 = pawns and kings .. 24 = every piece; knights and bishops 1,
    /// rooks 2, queens 4).
    #[arg(long, value_name = "N")]
    pub min_phase: Option<i32>,
    /// Keep phases up to this.
    #[arg(long, value_name = "N")]
    pub max_phase: Option<i32>,
    /// Keep positions with at least this many pieces, kings and pawns included.
    #[arg(long, value_name = "N")]
    pub min_pieces: Option<u32>,
    /// Keep positions with at most this many pieces.
    #[arg(long, value_name = "N")]
    pub max_pieces: Option<u32>,
    /// Keep positions from this ply of the game (from the FEN's move number and side to move;
    /// 0 = White's first move).
    #[arg(long, value_name = "N")]
    pub min_ply: Option<u32>,
    /// Keep positions up to this ply.
    #[arg(long, value_name = "N")]
    pub max_ply: Option<u32>,
}

impl FilterArgs {
    pub fn rules(&self) -> FilterRules {
        FilterRules {
            no_check: self.no_check,
            only_quiet: self.only_quiet,
            max_score: self.max_score,
            scored: self.scored,
            min_phase: self.min_phase,
            max_phase: self.max_phase,
            min_pieces: self.min_pieces,
            max_pieces: self.max_pieces,
            min_ply: self.min_ply,
            max_ply: self.max_ply,
        }
    }
}
