//! The evaluation: one routine, generic over where the weights go.
//!
//! [`evaluate`] (the engine) and [`trace`] (the tuner) run the same code, [`evaluate_with`], with
//! different [`Accumulator`]s. A trace holds, per position, the sparse White-minus-Black
//! coefficient of every linear element, the king-safety features of each side (the inputs of the
//! non-linear curve), the game phase and any known-endgame verdict, so that
//! [`EvalTrace::evaluate`] rebuilds the engine's score exactly from any weights, without the board.
//!
//! Score = (mg * phase + eg * scale / 128 * (24 - phase)) / 24, from the side to move's view;
//! phase counts knights and bishops 1, rooks 2, queens 4 (24 at the start, capped there).

pub mod accumulate;
pub mod accumulator;
pub mod baked;
pub mod breakdown;
pub mod endgame;
pub mod layout;
pub mod masks;
pub mod pawn_cache;
pub mod score;
pub mod terms;
pub mod weights;

use crate::board::Position;
use crate::types::{Color, PieceType};

pub use accumulate::{Breakdown, Sum, Tracer};
pub use accumulator::{Accumulator, Group};
use endgame::Verdict;
pub use layout::{EvalLayout, EvalParamSet};
pub use pawn_cache::PawnCache;
pub use score::S;
pub use weights::Weights;

/// Full phase: the middle-game weight of the start position.
pub const MAX_PHASE: i32 = 24;

/// The game phase: 24 with all pieces on the board, 0 with pawns and kings only.
pub fn phase(pos: &Position) -> i32 {
    let count = |pt| pos.pieces_of_type(pt).count() as i32;
    let phase = count(PieceType::Knight)
        + count(PieceType::Bishop)
        + 2 * count(PieceType::Rook)
        + 4 * count(PieceType::Queen);
    phase.min(MAX_PHASE)
}

/// What the evaluation found besides the accumulated terms.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EvalContext {
    pub phase: i32,
    pub verdict: Option<Verdict>,
    pub side_to_move: Color,
}

/// Runs every term into `acc`; a known endgame with an exact score skips the terms.
pub fn evaluate_with<A: Accumulator>(pos: &Position, acc: &mut A) -> EvalContext {
    let context =
        EvalContext { phase: phase(pos), verdict: endgame::probe(pos), side_to_move: pos.side_to_move() };
    if let Some(Verdict::Exact(_)) = context.verdict {
        return context;
    }
    let mut info = terms::AttackInfo::new(pos);
    let passed = acc.pawn_structure(pos);
    for color in Color::ALL {
        terms::pieces::material_and_placement(pos, color, acc);
        terms::pieces::pieces(pos, color, &mut info, acc);
        acc.king_pawns(pos, color);
    }
    // The passed pawns' safe squares need both sides' attacks.
    for color in Color::ALL {
        terms::pawns::passed_pieces(pos, color, passed[color.index()], &info, acc);
    }
    for defender in Color::ALL {
        terms::king::king_danger(pos, defender, &info, acc);
    }
    // Groups whose weights are all zero are left out by the engine (`Accumulator::skips`).
    let closedness = (!acc.skips(Group::Closedness)).then(|| terms::closedness::closedness(pos));
    for color in Color::ALL {
        terms::threats::threats(pos, color, &info, acc);
        if !acc.skips(Group::Space) {
            terms::space::space(pos, color, &info, acc);
        }
        if let Some(level) = closedness {
            terms::closedness::closedness_pieces(pos, color, level, acc);
        }
    }
    acc.add(pos.side_to_move(), baked::idx::TEMPO, 1);
    terms::complexity::complexity(pos, acc);
    context
}

/// Interpolates and scales an accumulated score: centipawns from the side to move's view.
pub fn finish(score: S, context: &EvalContext) -> i32 {
    let white = match context.verdict {
        Some(Verdict::Exact(v)) => v,
        verdict => {
            let (white_scale, black_scale) = match verdict {
                Some(Verdict::Scale { white, black }) => (white as i32, black as i32),
                _ => (128, 128),
            };
            let scale = if score.eg() > 0 { white_scale } else { black_scale };
            let eg = score.eg() * scale / 128;
            (score.mg() * context.phase + eg * (MAX_PHASE - context.phase)) / MAX_PHASE
        }
    };
    white * context.side_to_move.sign()
}

/// The engine's evaluation, in centipawns from the side to move's view.
pub fn evaluate(pos: &Position, weights: &Weights) -> i32 {
    let mut sum = Sum::new(weights);
    let context = evaluate_with(pos, &mut sum);
    finish(sum.score, &context)
}

/// [`evaluate`], with the pawn-only terms read from and kept in `pawns` (which must only ever
/// see these weights). Equal to [`evaluate`] whatever the cache holds.
pub fn evaluate_cached(pos: &Position, weights: &Weights, pawns: &mut PawnCache) -> i32 {
    let mut sum = Sum::with_pawn_cache(weights, pawns);
    let context = evaluate_with(pos, &mut sum);
    finish(sum.score, &context)
}

/// The coefficient trace of one position: everything the tuner needs to rebuild its evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalTrace {
    /// (element, White-minus-Black count), sorted by element, zeros left out.
    pub linear: Vec<(u16, i16)>,
    /// King-safety features (element, count) per defending colour.
    pub king_features: [Vec<(u16, i16)>; 2],
    /// The end game's complexity counts (`terms::complexity`).
    pub complexity: [i16; terms::complexity::FEATURES],
    pub context: EvalContext,
}

/// Traces a position (the tracer has no pawn cache: every term is traced).
pub fn trace(pos: &Position) -> EvalTrace {
    trace_with(pos, &mut Tracer::new(baked::idx::COUNT))
}

/// [`trace`] reusing a tracer's buffers (for tracing many positions without clearing a dense
/// array each time).
pub fn trace_with(pos: &Position, tracer: &mut Tracer) -> EvalTrace {
    let context = trace_into(pos, tracer);
    EvalTrace {
        linear: tracer.linear.clone(),
        king_features: tracer.king_features.clone(),
        complexity: tracer.complexity,
        context,
    }
}

/// Traces a position into the tracer's `linear` and `king_features` lists (valid until the next
/// call): no allocation once the tracer's buffers have grown.
pub fn trace_into(pos: &Position, tracer: &mut Tracer) -> EvalContext {
    tracer.start();
    let context = evaluate_with(pos, tracer);
    tracer.finish();
    context
}

impl EvalTrace {
    /// The evaluation these coefficients give under `weights`: equal to [`evaluate`] on the
    /// traced position with the same weights.
    pub fn evaluate(&self, weights: &Weights) -> i32 {
        let mut score = S::ZERO;
        for &(i, c) in &self.linear {
            score += S(weights.mg[i as usize], weights.eg[i as usize]) * c as i32;
        }
        for defender in Color::ALL {
            let features = &self.king_features[defender.index()];
            if !features.is_empty() {
                let f: Vec<(usize, i32)> = features.iter().map(|&(i, n)| (i as usize, n as i32)).collect();
                let u = accumulate::king_units(weights, &f);
                score -= S(weights.curve_mg[u], weights.curve_eg[u]) * defender.sign();
            }
        }
        // All zero in a known end game with an exact score (its terms are not run): no change.
        let c = terms::complexity::value(weights, self.complexity.map(i32::from));
        score += S(0, terms::complexity::adjustment(score.eg(), c));
        finish(score, &self.context)
    }
}

#[cfg(test)]
pub(crate) mod tests;
