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
mod tests {
    use super::*;
    use crate::search::{TimeManager, TimePlan};
    use Color::{Black, White};

    fn parse(line: &str, side: Color) -> (Limits, Vec<String>) {
        parse_go(&line.split_whitespace().collect::<Vec<_>>(), side)
    }

    #[test]
    fn parses_clock_and_limits() {
        let (l, notes) = parse("wtime 1000 btime -5 winc 10 binc 10 movestogo 7", White);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(l.time, [Some(1000), Some(0)]);
        assert_eq!((l.inc, l.movestogo), ([10, 10], Some(7)));
        assert_eq!(parse("depth 5", White).0.depth, Some(5));
        assert!(parse("infinite", White).0.infinite);
        assert!(parse("ponder movetime 100", White).0.ponder);
    }

    #[test]
    fn malformed_parts_are_reported_once_and_skipped() {
        let (l, notes) = parse("depth x movetime 50", White);
        assert_eq!(notes, ["'go depth x': not a number (ignored)"]);
        assert_eq!((l.depth, l.movetime), (None, Some(50)));
        let (l, notes) = parse("sideways depth 3", White);
        assert_eq!(notes, ["unknown 'go' parameter 'sideways' (ignored)"]);
        assert_eq!(l.depth, Some(3));
        // A value slot holding the next parameter's word: the value is missing, the word is kept.
        let (l, notes) = parse("depth movetime 50", White);
        assert_eq!(notes, ["'go depth' needs a value (ignored)"]);
        assert_eq!(l.movetime, Some(50));
        let (l, notes) = parse("searchmoves e2e4 d2d4 depth 3", White);
        assert_eq!(notes, ["'go searchmoves e2e4 d2d4' is not supported (ignored: all moves are searched)"]);
        assert_eq!(l.depth, Some(3));
    }

    #[test]
    fn numbers_out_of_range_are_clamped_with_one_note() {
        let (l, notes) = parse("depth 99999999999999999999", White);
        assert_eq!(notes, ["'go depth 99999999999999999999': above 127, using 127"]);
        assert_eq!(l.depth, Some(127));
        let (l, notes) = parse("movetime -5", White);
        assert_eq!(notes, ["'go movetime -5': below 1, using 1"]);
        assert_eq!(l.movetime, Some(1));
        let (l, notes) = parse("depth -3", White);
        assert_eq!(notes, ["'go depth -3': below 1, using 1"]);
        assert_eq!(l.depth, Some(1));
        let (l, notes) = parse("nodes 0", White);
        assert_eq!(notes, ["'go nodes 0': below 1, using 1"]);
        assert_eq!(l.nodes, Some(1));
        let (l, notes) = parse("nodes 99999999999999999999", White);
        assert_eq!(
            notes,
            [format!("'go nodes 99999999999999999999': above {}, using {}", i64::MAX, i64::MAX)]
        );
        assert_eq!(l.nodes, Some(i64::MAX as u64));
        let past_i128 = "9".repeat(50);
        let (l, notes) = parse(&format!("depth -{past_i128}"), White);
        assert_eq!(notes, [format!("'go depth -{past_i128}': below 1, using 1")]);
        assert_eq!(l.depth, Some(1));
        let (l, notes) = parse("wtime 99999999999999999999 btime -99999999999999999999", White);
        assert_eq!(
            notes,
            [format!("'go wtime 99999999999999999999': above {MAX_MILLIS}, using {MAX_MILLIS}")]
        );
        assert_eq!(l.time, [Some(MAX_MILLIS as u64), Some(0)]);
        assert_eq!(parse("mate 0", White).0.mate, Some(1));
        assert_eq!(parse("movestogo 0", White).0.movestogo, Some(1));
    }

    #[test]
    fn a_line_without_a_usable_limit_falls_back_to_a_fixed_time() {
        let fallback =
            format!("no usable search limit for White (to move): searching {FALLBACK_MOVETIME_MS} ms");
        for line in ["btime 1000", "winc 100 binc 100", "movestogo 40", "sideways", "searchmoves e2e4"] {
            let (l, notes) = parse(line, White);
            assert_eq!(l.movetime, Some(FALLBACK_MOVETIME_MS), "{line}");
            assert_eq!(notes.last(), Some(&fallback), "{line}");
        }
        let (l, notes) = parse("wtime x btime 1000", White);
        assert_eq!(notes, ["'go wtime x': not a number (ignored)".to_string(), fallback.clone()]);
        assert_eq!((l.time, l.movetime), ([None, Some(1000)], Some(FALLBACK_MOVETIME_MS)));
        let (_, notes) = parse("nodes abc", White);
        assert_eq!(notes, ["'go nodes abc': not a number (ignored)".to_string(), fallback.clone()]);
        let (_, notes) = parse("ponder btime 1000", White);
        assert_eq!(notes, [fallback]);
        // The side to move's clock is a limit; the other side's is not.
        let (l, notes) = parse("btime 1000", Black);
        assert!(notes.is_empty() && l.movetime.is_none());
        // Asked to search without end, or given no words at all: no fallback.
        for line in ["", "ponder", "infinite", "infinite depth x"] {
            let (l, notes) = parse(line, White);
            assert_eq!(l.movetime, None, "{line}");
            assert!(notes.len() <= 1, "{line}: {notes:?}");
        }
    }

    /// The extreme values the parser lets through keep the time arithmetic from overflowing.
    #[test]
    fn extreme_limits_do_not_overflow_the_time_manager() {
        let huge = "99999999999999999999";
        for line in [
            format!("wtime {huge} btime {huge} winc {huge} binc {huge} movestogo {huge}"),
            format!("wtime {huge} winc {huge} movestogo 1"),
            format!("movetime {huge}"),
        ] {
            let (limits, _) = parse(&line, White);
            let tm = TimeManager::new(&limits, White, 5000, TimePlan::default());
            assert!(tm.may_start_iteration(1000) && !tm.hard_exceeded(), "{line}");
        }
    }
}
