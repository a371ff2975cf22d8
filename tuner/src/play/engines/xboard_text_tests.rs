//! Tests of `play/engines/xboard_text.rs`.

use super::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

#[test]
fn lines_are_classified() {
    assert_eq!(classify("move e2e4"), EngineLine::Move("e2e4"));
    assert_eq!(classify("  move   Nf3 "), EngineLine::Move("Nf3"));
    assert_eq!(classify("pong 12"), EngineLine::Pong(12));
    assert_eq!(classify("resign"), EngineLine::Resign);
    assert_eq!(classify("1-0 {White mates}"), EngineLine::Claim("1-0"));
    assert_eq!(classify("1/2-1/2 {Draw by repetition}"), EngineLine::Claim("1/2-1/2"));
    assert_eq!(classify("Illegal move: e2e5"), EngineLine::Refused("e2e5"));
    assert_eq!(classify("Illegal move (no piece there): e3e4"), EngineLine::Refused("e3e4"));
    assert_eq!(classify("Error (unknown command): result"), EngineLine::Error("result"));
    assert_eq!(
        classify("  6     -4     1    13003  Nb1-c3  e5xf4"),
        EngineLine::Thinking(Thinking { depth: 6, score: -4, time_cs: 1, nodes: 13003 })
    );
    assert_eq!(
        classify("12. 100003 250 9000000 Qh5 Nf6 Qxf7#"),
        EngineLine::Thinking(Thinking { depth: 12, score: 100_003, time_cs: 250, nodes: 9_000_000 })
    );
    for other in ["tellics say hi", "# debug", "", "1 2 3", "Illegality", "move", "pong x", "1/2 0 0 0"] {
        assert_eq!(classify(other), EngineLine::Other, "{other}");
    }
}

#[test]
fn features_split_into_pairs_with_quotes_removed() {
    let EngineLine::Feature(pairs) = classify(
        r#"feature myname="Phalanx XXV" setboard=1 option="Randomizer (0-50) -slider 0 0 50" done=1"#,
    ) else {
        panic!("a feature line")
    };
    assert_eq!(
        pairs,
        [
            ("myname", "Phalanx XXV"),
            ("setboard", "1"),
            ("option", "Randomizer (0-50) -slider 0 0 50"),
            ("done", "1")
        ]
    );
    assert_eq!(parse_features("a=1  junk b=\"x=y\" c="), [("a", "1"), ("b", "x=y"), ("c", "")]);
    assert_eq!(parse_features("x=\"unterminated"), [("x", "unterminated")]);
    assert!(parse_features("no pairs here").is_empty());
}

#[test]
fn mate_scores_follow_the_protocol() {
    assert_eq!(score(35), Score::Cp(35));
    assert_eq!(score(-7990), Score::Cp(-7990));
    assert_eq!(score(100_005), Score::Mate(5));
    assert_eq!(score(-100_003), Score::Mate(-3));
}

#[test]
fn options_are_declared_and_checked() {
    let declared: Vec<DeclaredOption> = [
        "Resign -check 0",
        "Resign Threshold -spin 800 200 1200",
        "Randomizer (0-50) -slider 0 0 50",
        "Makruk rules -combo makruk /// *Cambodian /// Ai-wok",
        "Ini File -file /usr/share/games/fairymax/fmax.ini",
        "Dummy String Example -string happy birthday!",
        "Clear Hash -button",
    ]
    .iter()
    .filter_map(|text| parse_option(text))
    .collect();
    assert_eq!(declared.len(), 7);
    assert_eq!(declared[2].name, "Randomizer (0-50)");
    assert_eq!(parse_option("No type here"), None);
    let set = |name: &str, value: &str| option_command(&declared, name, value);
    assert_eq!(set("resign", "true"), Ok("option Resign=1\n".to_string()));
    assert_eq!(set("Resign", "0"), Ok("option Resign=0\n".to_string()));
    assert_eq!(set("resign threshold", " 900"), Ok("option Resign Threshold=900\n".to_string()));
    assert_eq!(set("Randomizer (0-50)", "10"), Ok("option Randomizer (0-50)=10\n".to_string()));
    assert_eq!(set("makruk rules", "cambodian"), Ok("option Makruk rules=Cambodian\n".to_string()));
    assert_eq!(set("Ini File", "/tmp/a b.ini"), Ok("option Ini File=/tmp/a b.ini\n".to_string()));
    assert_eq!(set("clear hash", ""), Ok("option Clear Hash\n".to_string()));
    for (name, value, needle) in [
        ("Hash", "16", "'Hash' is not declared"),
        ("Resign Threshold", "100", "outside 200..=1200"),
        ("Resign Threshold", "big", "not an integer"),
        ("Resign", "yes", "not true or false"),
        ("Makruk rules", "chess", "not one of: makruk, Cambodian, Ai-wok"),
    ] {
        match set(name, value) {
            Err(message) => assert!(message.contains(needle), "{message}"),
            Ok(line) => panic!("{name}={value} accepted: {line}"),
        }
    }
}

#[test]
fn level_writes_minutes_seconds_and_increment() {
    assert_eq!(level_command(None, 5_000, 50), "level 0 0:05 0.05\n");
    assert_eq!(level_command(None, 120_000, 0), "level 0 2 0\n");
    assert_eq!(level_command(Some(40), 90_000, 2_000), "level 40 1:30 2\n");
    assert_eq!(level_command(None, 300, 5), "level 0 0:01 0.005\n");
    assert_eq!(level_command(None, 0, 100), "level 0 0 0.1\n");
}

#[test]
fn edit_sets_up_pieces_and_black_to_move() {
    let text = edit_commands(&pos("4k3/8/8/8/8/8/4P3/4K2R b K - 0 1"));
    assert_eq!(text, "a2a3\nedit\n#\nKe1\nRh1\nPe2\nc\nKe8\n.\n");
    assert!(!edit_commands(&Position::startpos()).starts_with("a2a3"));
}

#[test]
fn edit_cannot_say_everything_about_castling_and_en_passant() {
    assert_eq!(edit_castling_problem(&Position::startpos()), None);
    assert_eq!(edit_castling_problem(&pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")), None);
    // The king went away and back: rights lost, pieces at home.
    let lost = edit_castling_problem(&pos("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1"));
    assert!(lost.as_deref().is_some_and(|why| why.contains("White may not castle king side")), "{lost:?}");
    assert_eq!(edit_castling_problem(&pos("4k3/8/8/8/8/8/8/4K1R1 w - - 0 1")), None);
    assert!(has_en_passant(&pos("rnbqkbnr/pp1ppppp/8/1Pp5/3P4/8/P1P1PPPP/RNBQKBNR w KQkq c6 0 4")));
    assert!(!has_en_passant(&pos("rnbqkbnr/pp1ppppp/8/2p5/3P4/8/P1P1PPPP/RNBQKBNR w KQkq c6 0 4")));
}

#[test]
fn engine_moves_in_coordinates_or_san() {
    let start = Position::startpos();
    let uci = |p: &Position, text: &str| parse_engine_move(p, text).map(|m| p.move_to_uci(m));
    assert_eq!(uci(&start, "e2e4"), Ok("e2e4".to_string()));
    assert_eq!(uci(&start, "Nf3"), Ok("g1f3".to_string()));
    assert_eq!(uci(&start, "e4"), Ok("e2e4".to_string()));
    let castle = pos("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for text in ["O-O", "0-0", "o-o", "e1g1", "e1h1", "O-O+"] {
        assert_eq!(uci(&castle, text), Ok("e1g1".to_string()), "{text}");
    }
    assert_eq!(uci(&castle, "0-0-0"), Ok("e1c1".to_string()));
    assert_eq!(uci(&castle, "b7a8Q"), Ok("b7a8q".to_string()));
    assert_eq!(uci(&castle, "bxa8=N+"), Ok("b7a8n".to_string()));
    let illegal = parse_engine_move(&start, "e2e5").unwrap_err();
    assert!(illegal.contains("e2e5"), "{illegal}");
    let san_illegal = parse_engine_move(&start, "Nf6").unwrap_err();
    assert!(san_illegal.contains("'Nf6' is illegal"), "{san_illegal}");
    let junk = parse_engine_move(&start, "zz99").unwrap_err();
    assert!(junk.contains("neither a coordinate move"), "{junk}");
}
