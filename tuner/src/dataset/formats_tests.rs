//! Tests of `dataset/formats.rs`.

use super::*;

const FEN4: &str = "r2qkbnr/p4ppp/bp2p3/2ppP3/1n1P4/5N2/PPP1NPPP/R1BQKB1R w KQkq -";
const FEN6: &str = "r2qkbnr/p4ppp/bp2p3/2ppP3/1n1P4/5N2/PPP1NPPP/R1BQKB1R w KQkq - 3 9";

fn parsed(line: &str) -> (String, Outcome) {
    let (pos, outcome) = parse_line(line).unwrap_or_else(|e| panic!("{line}: {e}")).expect("a position");
    (pos.to_fen(), outcome)
}

#[test]
fn every_line_format_parses_to_the_right_position_and_result() {
    let with_counters = FEN6.to_string();
    let default_counters = format!("{FEN4} 0 1");
    let cases: Vec<(String, &str, Outcome)> = vec![
        (format!("{FEN4} c9 \"1/2-1/2\";"), &default_counters, 0.5),
        (format!("{FEN4} c9 \"1-0\";"), &default_counters, 1.0),
        (format!("{FEN4} c9 \"0-1\";"), &default_counters, 0.0),
        (format!("{FEN4} bm Nc3; id \"x\"; c9 \"0-1\";"), &default_counters, 0.0),
        (format!("{FEN4} c9 \"1-0\""), &default_counters, 1.0),
        (format!("{FEN6} c9 \"1-0\";"), &with_counters, 1.0),
        (format!("{FEN6} [1.0]"), &with_counters, 1.0),
        (format!("{FEN6} [0.5]"), &with_counters, 0.5),
        (format!("{FEN4} [0.0]"), &default_counters, 0.0),
        (format!("{FEN6} [1-0]"), &with_counters, 1.0),
        (format!("{FEN6} [1/2-1/2]"), &with_counters, 0.5),
        (format!("{FEN4} [0-1]"), &default_counters, 0.0),
        (format!("{FEN6} [0.5] -37"), &with_counters, 0.5),
        (format!("{FEN6} | 1-0"), &with_counters, 1.0),
        (format!("{FEN4} | 0.5"), &default_counters, 0.5),
        (format!("{FEN6} | 0"), &with_counters, 0.0),
        (format!("{FEN6} | 1/2-1/2"), &with_counters, 0.5),
        (format!("{FEN6} | -35 | 1.0"), &with_counters, 1.0),
        (format!("{FEN4} | 0 | 0.5"), &default_counters, 0.5),
        (format!("{FEN6},1-0"), &with_counters, 1.0),
        (format!("{FEN4},0.5"), &default_counters, 0.5),
        (format!("{FEN6},0"), &with_counters, 0.0),
        (format!("{FEN6},\"0-1\""), &with_counters, 0.0),
        (format!("  {FEN6} [1.0]  \r"), &with_counters, 1.0),
    ];
    for (line, fen, outcome) in cases {
        assert_eq!(parsed(&line), (fen.to_string(), outcome), "{line}");
    }
}

#[test]
fn the_documented_zurichess_line_parses() {
    let (fen, outcome) =
        parsed(r#"r2qkbnr/p4ppp/bp2p3/2ppP3/1n1P4/5N2/PPP1NPPP/R1BQKB1R w KQkq - c9 "1/2-1/2";"#);
    assert_eq!(fen, "r2qkbnr/p4ppp/bp2p3/2ppP3/1n1P4/5N2/PPP1NPPP/R1BQKB1R w KQkq - 0 1");
    assert_eq!(outcome, 0.5);
}

#[test]
fn blank_comment_and_header_lines_are_not_positions() {
    for line in ["", "   ", "# a comment", "  # indented comment", "fen,result", "FEN,Result"] {
        assert!(matches!(parse_line(line), Ok(None)), "{line:?}");
    }
}

fn error(line: &str) -> String {
    match parse_line(line) {
        Err(e) => e,
        Ok(r) => panic!("{line}: accepted as {:?}", r.map(|(p, o)| (p.to_fen(), o))),
    }
}

#[test]
fn bad_lines_say_what_is_wrong() {
    let cases = [
        // (line, words the message must contain)
        (format!("{FEN4} c9 \"2-0\";"), vec!["bad result '2-0'"]),
        (format!("{FEN4} [0.7]"), vec!["bad result '0.7'"]),
        (format!("{FEN4} [nan]"), vec!["bad result 'nan'"]),
        (format!("{FEN4} [-1]"), vec!["bad result '-1'"]),
        (format!("{FEN4} []"), vec!["bad result ''"]),
        (format!("{FEN4} [1.0"), vec!["unbalanced brackets"]),
        (format!("{FEN4} [1.0] draw"), vec!["unexpected text 'draw'"]),
        (format!("{FEN4} | 1-0 | 0"), vec!["bad score '1-0'"]),
        (format!("{FEN4} | 3 | 1.0 | 0"), vec!["more than two '|'"]),
        (format!("{FEN4} | 40000 | 1.0"), vec!["bad score '40000'"]),
        (format!("{FEN4},1-0,x"), vec!["CSV fields"]),
        (format!("{FEN4} bm Nc3;"), vec!["no c9 result opcode"]),
        (FEN6.to_string(), vec!["no game result"]),
        (FEN4.to_string(), vec!["no game result"]),
        ("rnbqkbnr/pppppppp w KQkq - [1.0]".to_string(), vec!["bad FEN", "8 separated by '/'"]),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - [1.0]".to_string(),
            vec!["bad piece letter 'X'"],
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - c9 \"1-0\";".to_string(),
            vec!["side to move 'x'"],
        ),
        ("8/8/8/8/8/8/8/K7 w - - | 1-0".to_string(), vec!["Black has 0 kings"]),
        (" [1.0]".to_string(), vec!["missing FEN"]),
        ("hello world".to_string(), vec!["bad FEN", "fields"]),
        ("\u{0}\u{1}garbage".to_string(), vec!["bad FEN"]),
    ];
    for (line, words) in cases {
        let message = error(&line);
        for word in words {
            assert!(message.contains(word), "{line:?}: message {message:?} lacks {word:?}");
        }
    }
}

#[test]
fn an_epd_search_score_is_the_side_to_moves_and_reads_back_as_whites() {
    let black_to_move = "r2qkbnr/p4ppp/bp2p3/2ppP3/1n1P4/5N2/PPP1NPPP/R1BQKB1R b KQkq -";
    for (fen, ce, white_view) in [(FEN4, 35, 35), (black_to_move, 35, -35), (black_to_move, -120, 120)] {
        let (pos, label) = parse_labelled_line(&format!("{fen} ce {ce}; c9 \"1-0\";")).unwrap().unwrap();
        assert_eq!(label, Label { outcome: 1.0, score: Some(white_view) }, "{fen} ce {ce}");
        // Written back as it was read, the opcode before the result.
        assert_eq!(format_line(&pos, label, Format::Epd), format!("{fen} ce {ce}; c9 \"1-0\";"));
        // Formats without a place for it drop it.
        assert_eq!(
            parse_labelled_line(&format_line(&pos, label, Format::Ethereal)).unwrap().unwrap().1.score,
            None
        );
    }
    // After the result, among other opcodes, or absent.
    let (_, label) = parse_labelled_line(&format!("{FEN4} c9 \"0-1\"; id \"x\"; ce -7;")).unwrap().unwrap();
    assert_eq!(label, Label { outcome: 0.0, score: Some(-7) });
    let (_, label) = parse_labelled_line(&format!("{FEN4} c9 \"0-1\";")).unwrap().unwrap();
    assert_eq!(label.score, None);
}

#[test]
fn the_text_formats_score_is_whites_and_reads_back() {
    let black_to_move = "r2qkbnr/p4ppp/bp2p3/2ppP3/1n1P4/5N2/PPP1NPPP/R1BQKB1R b KQkq - 3 9";
    for (fen, score) in [(FEN6, 35), (black_to_move, 35), (black_to_move, -120)] {
        let line = format!("{fen} | {score} | 0.5");
        let (pos, label) = parse_labelled_line(&line).unwrap().unwrap();
        assert_eq!(label, Label { outcome: 0.5, score: Some(score) }, "{line}");
        assert_eq!(format_line(&pos, label, Format::Text), line);
    }
    let pos = Position::from_fen(FEN6).unwrap();
    assert_eq!(
        format_line(&pos, Label { outcome: 1.0, score: None }, Format::Text),
        format!("{FEN6} | 0 | 1.0")
    );
}

#[test]
fn a_bad_epd_search_score_is_named() {
    for ce in ["x", "1.5", "", "40000", "+M3"] {
        let message = error(&format!("{FEN4} ce {ce}; c9 \"1-0\";"));
        assert!(message.contains(&format!("bad ce '{ce}'")), "{ce}: {message}");
    }
}

#[test]
fn results_parse_in_every_spelling_and_nothing_else() {
    for (text, v) in [("1-0", 1.0), ("0-1", 0.0), ("1/2-1/2", 0.5), ("1", 1.0), ("1.0", 1.0), ("1.00", 1.0)] {
        assert_eq!(parse_result(text), Ok(v), "{text}");
    }
    for (text, v) in [("0.5", 0.5), (".5", 0.5), ("0", 0.0), ("0.0", 0.0), ("½-½", 0.5)] {
        assert_eq!(parse_result(text), Ok(v), "{text}");
    }
    for text in ["", "*", "1-1", "0.25", "2", "-0", "+1", "1e0", "inf", "1/2", "0.5.0"] {
        assert!(parse_result(text).is_err(), "{text}");
    }
}

#[test]
fn written_lines_parse_back_to_the_same_position_and_result() {
    let pos = Position::from_fen(FEN6).unwrap();
    for format in [Format::Epd, Format::Ethereal, Format::Csv, Format::Text] {
        for outcome in [0.0, 0.5, 1.0] {
            let line = format_line(&pos, Label { outcome, score: None }, format);
            let (back, o) = parse_line(&line).unwrap().unwrap();
            assert_eq!(o, outcome, "{line}");
            let expected = if format == Format::Epd { format!("{FEN4} 0 1") } else { FEN6.to_string() };
            assert_eq!(back.to_fen(), expected, "{line}");
        }
    }
    let result = |outcome| Label { outcome, score: None };
    assert_eq!(format_line(&pos, result(0.5), Format::Epd), format!("{FEN4} c9 \"1/2-1/2\";"));
    assert_eq!(format_line(&pos, result(1.0), Format::Ethereal), format!("{FEN6} [1.0]"));
    assert_eq!(format_line(&pos, result(0.0), Format::Csv), format!("{FEN6},0.0"));
}
