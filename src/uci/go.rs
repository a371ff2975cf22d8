//! Parsing `go` arguments into search limits.
//!
//! Every `go` must end in a `bestmove`, and unless `infinite` or `ponder` was asked it must end by
//! itself: a GUI that sent a broken line waits for an answer, not for its own `stop`. So a
//! malformed part never fails the line. Each is reported in exactly one note (printed as one
//! `info string`) and then skipped (a missing or non-numeric value, an unknown word) or clamped
//! into range (a negative, zero or overflowing number). A line left with no limit the side to
//! move can use (`go btime 1000` with White to move, `go nodes abc`) searches for
//! [`FALLBACK_MOVETIME_MS`] and says so.
//!
//! A bare `go` (no words, or only `ponder`) is the exception: by convention (Stockfish's) it has
//! no limit and searches until `stop` or the maximum depth. GUIs never send it; a person typing it
//! at a terminal means "analyse".

use std::num::IntErrorKind;

use crate::search::history::MAX_PLY;
use crate::search::Limits;
use crate::types::Color;

/// How long a `go` searches when none of its limits can be used for the side to move. Modest on
/// purpose: the line may have been a clock the parser could not read, and a second is short
/// enough for most time controls yet long enough for a sensible move.
pub const FALLBACK_MOVETIME_MS: u64 = 1000;

/// The largest time (clock, increment, move time) taken as given, in ms: about 31 years, so any
/// real clock fits, while the time arithmetic (budgets times stretch factors) cannot overflow.
pub const MAX_MILLIS: i64 = 1_000_000_000_000;

/// The words that start a `go` parameter. A value slot holding one of these was left empty by
/// the GUI: the word is parsed as the next parameter rather than swallowed as the value.
const KEYWORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// The limits of a `go` line (the words after `go`) for `side` to move, and the notes to report
/// about it, one per malformed part plus one if the fallback limit was used.
pub fn parse_go(args: &[&str], side: Color) -> (Limits, Vec<String>) {
    let mut limits = Limits::default();
    let mut notes = Vec::new();
    let mut i = 0;
    while i < args.len() {
        notes.extend(parse_one(args, &mut i, &mut limits));
        i += 1;
    }
    let bare = args.iter().all(|&w| w == "ponder");
    if !bare && !limits.infinite && !has_limit(&limits, side) {
        limits.movetime = Some(FALLBACK_MOVETIME_MS);
        notes.push(format!(
            "no usable search limit for {side:?} (to move): searching {FALLBACK_MOVETIME_MS} ms"
        ));
    }
    (limits, notes)
}

/// Whether the search stops by itself with `side` to move (a clock for the other side only
/// does not count). `go mate N` counts, as in Stockfish: it is an explicit request.
fn has_limit(limits: &Limits, side: Color) -> bool {
    limits.depth.is_some() || limits.nodes.is_some() || limits.mate.is_some() || limits.is_timed(side)
}

/// Parses the parameter at `args[*i]` (and its value, moving `*i` past it) into `limits`; returns
/// the note to report if something was wrong with it.
fn parse_one(args: &[&str], i: &mut usize, limits: &mut Limits) -> Option<String> {
    let word = args[*i];
    let mut note = None;
    let mut read = |min: i64, max: i64, quiet_below: bool| {
        let (value, problem) = number(args, i, (min, max), quiet_below);
        note = problem;
        value
    };
    // Some GUIs send negative clock times when flagging: zero, and not worth a note (unlike a
    // negative move time or depth, which no GUI means).
    let mut clock = || read(0, MAX_MILLIS, true).map(|v| v as u64);
    match word {
        "wtime" => limits.time[0] = clock().or(limits.time[0]),
        "btime" => limits.time[1] = clock().or(limits.time[1]),
        "winc" => limits.inc[0] = clock().unwrap_or(limits.inc[0]),
        "binc" => limits.inc[1] = clock().unwrap_or(limits.inc[1]),
        "movestogo" => limits.movestogo = read(1, 10_000, false).map(|v| v as u32).or(limits.movestogo),
        "depth" => limits.depth = read(1, MAX_PLY as i64 - 1, false).map(|v| v as i32).or(limits.depth),
        "nodes" => limits.nodes = read(1, i64::MAX, false).map(|v| v as u64).or(limits.nodes),
        "movetime" => limits.movetime = read(1, MAX_MILLIS, false).map(|v| v as u64).or(limits.movetime),
        "mate" => limits.mate = read(1, 63, false).map(|v| v as i32).or(limits.mate),
        "infinite" => limits.infinite = true,
        "ponder" => limits.ponder = true,
        "searchmoves" => {
            // Its moves are consumed too, so they make one note rather than one each.
            let start = *i;
            while value(args, i).is_some() {}
            return Some(format!(
                "'go {}' is not supported (ignored: all moves are searched)",
                args[start..=*i].join(" ")
            ));
        }
        other => return Some(format!("unknown 'go' parameter '{other}' (ignored)")),
    }
    note
}

/// The value of the parameter at `args[*i]`, consumed (`*i` moves on to it) unless it is missing
/// or is itself a parameter word.
fn value<'a>(args: &[&'a str], i: &mut usize) -> Option<&'a str> {
    let text = args.get(*i + 1).filter(|w| !KEYWORDS.contains(w))?;
    *i += 1;
    Some(text)
}

/// Reads the integer value of the parameter at `args[*i]`, clamped into [min, max]. Returns the
/// value to use (none if it was missing or not a number) and the note to report: a number out of
/// range, overflowing ones included, is used clamped (below `min` without a note if
/// `quiet_below`); anything else is ignored.
fn number(
    args: &[&str],
    i: &mut usize,
    (min, max): (i64, i64),
    quiet_below: bool,
) -> (Option<i64>, Option<String>) {
    let key = args[*i];
    let Some(text) = value(args, i) else {
        return (None, Some(format!("'go {key}' needs a value (ignored)")));
    };
    // Parsed wider than any range, and saturated past that, so a number too big for its type is
    // clamped like any other out of range, not refused as "not a number".
    let parsed = match text.parse::<i128>() {
        Ok(v) => v,
        Err(e) if *e.kind() == IntErrorKind::PosOverflow => i128::MAX,
        Err(e) if *e.kind() == IntErrorKind::NegOverflow => i128::MIN,
        Err(_) => return (None, Some(format!("'go {key} {text}': not a number (ignored)"))),
    };
    let v = parsed.clamp(min.into(), max.into()) as i64;
    let note = if parsed < min.into() && !quiet_below {
        Some(format!("'go {key} {text}': below {min}, using {v}"))
    } else if parsed > max.into() {
        Some(format!("'go {key} {text}': above {max}, using {v}"))
    } else {
        None
    };
    (Some(v), note)
}

#[cfg(test)]
#[path = "go_tests.rs"]
mod tests;
