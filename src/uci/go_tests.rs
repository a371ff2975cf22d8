//! Tests of `uci/go.rs`.

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
    assert_eq!(notes, [format!("'go nodes 99999999999999999999': above {}, using {}", i64::MAX, i64::MAX)]);
    assert_eq!(l.nodes, Some(i64::MAX as u64));
    let past_i128 = "9".repeat(50);
    let (l, notes) = parse(&format!("depth -{past_i128}"), White);
    assert_eq!(notes, [format!("'go depth -{past_i128}': below 1, using 1")]);
    assert_eq!(l.depth, Some(1));
    let (l, notes) = parse("wtime 99999999999999999999 btime -99999999999999999999", White);
    assert_eq!(notes, [format!("'go wtime 99999999999999999999': above {MAX_MILLIS}, using {MAX_MILLIS}")]);
    assert_eq!(l.time, [Some(MAX_MILLIS as u64), Some(0)]);
    assert_eq!(parse("mate 0", White).0.mate, Some(1));
    assert_eq!(parse("movestogo 0", White).0.movestogo, Some(1));
}

#[test]
fn a_line_without_a_usable_limit_falls_back_to_a_fixed_time() {
    let fallback = format!("no usable search limit for White (to move): searching {FALLBACK_MOVETIME_MS} ms");
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
