//! The `eval` command's table: every term's White and Black middle-game and end-game scores,
//! the phase and scaling, and `Final evaluation: <cp> cp (white side)` as the last line.

use std::fmt::Write;

use crate::board::Position;
use crate::params::ParamSet;
use crate::types::Color;

use super::endgame::Verdict;
use super::{evaluate, evaluate_with, finish, Breakdown, Weights, MAX_PHASE, S};

/// The per-term report for a position under `weights` (whose layout is `params`').
pub fn report(pos: &Position, params: &ParamSet, weights: &Weights) -> String {
    let mut term_of = Vec::with_capacity(params.element_count());
    for (t, term) in params.terms.iter().enumerate() {
        term_of.extend(std::iter::repeat_n(t, term.len()));
    }
    let mut b = Breakdown {
        weights,
        term_of,
        per_term: vec![[S::ZERO; 2]; params.terms.len()],
        king_safety: [S::ZERO; 2],
        complexity: S::ZERO,
    };
    let context = evaluate_with(pos, &mut b);
    let mut out = String::new();
    writeln!(out, "{:<28} | {:>13} | {:>13} | {:>13}", "Term", "White", "Black", "Total").unwrap();
    writeln!(out, "{:<28} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}", "", "MG", "EG", "MG", "EG", "MG", "EG")
        .unwrap();
    writeln!(out, "{}", "-".repeat(76)).unwrap();
    let mut total = S::ZERO;
    let mut row = |name: &str, [w, b]: [S; 2]| {
        if w == S::ZERO && b == S::ZERO {
            return;
        }
        let t = w - b;
        total += t;
        writeln!(out, "{name:<28} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}", w.0, w.1, b.0, b.1, t.0, t.1)
            .unwrap();
    };
    for (term, &scores) in params.terms.iter().zip(&b.per_term) {
        row(&term.name, scores);
    }
    row("king_safety (curve)", b.king_safety);
    // Side-neutral, White's view: shown in White's column.
    row("complexity (end game)", [b.complexity, S::ZERO]);
    let out_total = total;
    writeln!(out, "{}", "-".repeat(76)).unwrap();
    writeln!(out, "{:<28} | {:>13} | {:>13} | {:>6} {:>6}", "Sum", "", "", out_total.0, out_total.1).unwrap();
    writeln!(out, "Phase: {} / {MAX_PHASE} (middle-game weight)", context.phase).unwrap();
    match context.verdict {
        Some(Verdict::Exact(v)) => writeln!(out, "Known endgame: exact score {v} (white side)").unwrap(),
        Some(Verdict::Scale { white, black }) => writeln!(
            out,
            "Known endgame scaling: end game x {white}/128 if White is better, x {black}/128 if Black is"
        )
        .unwrap(),
        None => {}
    }
    let stm = finish(out_total, &context);
    debug_assert_eq!(stm, evaluate(pos, weights));
    let white = stm * pos.side_to_move().sign();
    writeln!(out, "Side to move: {}", if pos.side_to_move() == Color::White { "White" } else { "Black" })
        .unwrap();
    write!(out, "Final evaluation: {white} cp (white side)").unwrap();
    out
}
