//! The `trace` command: the evaluation of the current position as its terms' coefficients, in
//! the text protocol of `docs/trace-protocol.md` (version [`VERSION`]), so that a tuner outside
//! this process (`tune`, or any other) fits our weights from one command per position instead of
//! a pass per weight.
//!
//! `trace weights` declares, once, every element of the evaluation: its name (`pst.knight[28]`,
//! `tempo`), whether it has a middle-game and an end-game weight or one weight for both, the UCI
//! option holding each (`-` where the build declares none: a fixed element, an untunable term,
//! or a build without the `uci-tunables` feature) and its current value; and the two non-linear
//! forms the evaluation uses (the king-danger curve and the end game's complexity). `trace`
//! answers the current position with exactly what `eval::trace_into` records, so a tuner that
//! rebuilds the evaluation from these lines gets our evaluation to the centipawn.

use std::fmt::Write;

use crate::board::Position;
use crate::eval::baked::idx;
use crate::eval::endgame::Verdict;
use crate::eval::weights::MAX_KING_UNITS;
use crate::eval::{evaluate, trace_into, EvalParamSet, Tracer, Weights, MAX_PHASE};
use crate::types::Color;

/// The protocol version these answers follow (docs/trace-protocol.md).
pub const VERSION: u32 = 1;

/// Element names and a reusable tracer: built once per engine, as a dataset of a million
/// positions asks for a trace a million times.
pub struct TraceCommand {
    /// Every element's protocol name, in element order.
    names: Vec<String>,
    tracer: Tracer,
}

impl TraceCommand {
    pub fn new(params: &EvalParamSet) -> TraceCommand {
        let mut names = Vec::with_capacity(params.element_count());
        for term in &params.terms {
            for i in 0..term.len() {
                names.push(element_name(&term.name, term.len(), i));
            }
        }
        TraceCommand { names, tracer: Tracer::new(idx::COUNT) }
    }

    /// The answer to `trace weights`: one `weight` line per element (its options as declared
    /// when `options_declared`, else `-`), the curve and complexity forms, the end marker.
    pub fn weights(&self, params: &EvalParamSet, options_declared: bool) -> String {
        let tunable: Vec<bool> = {
            let mut slots = vec![false; params.value_count()];
            for slot in params.select(&[]).unwrap_or_default() {
                slots[slot] = options_declared;
            }
            slots
        };
        let names = params.value_names();
        let option = |slot: usize| if tunable[slot] { names[slot].as_str() } else { "-" };
        let mut out = format!("trace weights {VERSION}\n");
        let (mut element, mut slot) = (0, 0);
        for term in &params.terms {
            for i in 0..term.len() {
                let name = &self.names[element];
                if term.phased {
                    let (mg, eg) = (option(slot), option(slot + 1));
                    writeln!(out, "weight {name} phased {mg} {} {eg} {}", term.mg[i], term.eg[i]).unwrap();
                    slot += 2;
                } else {
                    writeln!(out, "weight {name} single {} {}", option(slot), term.mg[i]).unwrap();
                    slot += 1;
                }
                element += 1;
            }
        }
        let (scale, power) =
            (&self.names[idx::KING_SAFETY_CURVE_SCALE], &self.names[idx::KING_SAFETY_CURVE_POWER]);
        writeln!(out, "curve {scale} {power} {MAX_KING_UNITS}").unwrap();
        let complexity: Vec<&str> = (0..crate::eval::terms::complexity::FEATURES)
            .map(|k| self.names[idx::COMPLEXITY_PAWNS + k].as_str())
            .collect();
        writeln!(out, "complexity {}", complexity.join(" ")).unwrap();
        out.push_str("trace end");
        out
    }

    /// The answer to `trace` for `pos`, with `eval` under `weights` (White's view).
    pub fn position(&mut self, pos: &Position, weights: &Weights) -> String {
        let context = trace_into(pos, &mut self.tracer);
        let mut out = format!("trace begin {VERSION}\nphase {} {MAX_PHASE}\n", context.phase);
        match context.verdict {
            Some(Verdict::Exact(v)) => writeln!(out, "exact {v}").unwrap(),
            Some(Verdict::Scale { white, black }) => writeln!(out, "scale {white} {black}").unwrap(),
            None => {}
        }
        for &(element, count) in &self.tracer.linear {
            writeln!(out, "c {} {count}", self.names[element as usize]).unwrap();
        }
        for defender in Color::ALL {
            let side = if defender == Color::White { "white" } else { "black" };
            for &(element, count) in &self.tracer.king_features[defender.index()] {
                writeln!(out, "king {side} {} {count}", self.names[element as usize]).unwrap();
            }
        }
        for (k, &count) in self.tracer.complexity.iter().enumerate() {
            if count != 0 {
                writeln!(out, "complexity {} {count}", self.names[idx::COMPLEXITY_PAWNS + k]).unwrap();
            }
        }
        let white = evaluate(pos, weights) * pos.side_to_move().sign();
        write!(out, "eval {white}\ntrace end").unwrap();
        out
    }
}

/// `term[i]`, or the term's name alone when it has one element.
fn element_name(term: &str, len: usize, i: usize) -> String {
    if len == 1 {
        term.to_string()
    } else {
        format!("{term}[{i}]")
    }
}

#[cfg(test)]
#[path = "trace_tests.rs"]
mod tests;
