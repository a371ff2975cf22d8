//! Tests of PGN conversion against the fixture `testdata/games.pgn` (three finished games: an Italian
//! game with checks, captures and a mate; a rook ending from a FEN header with a promotion; a Queen's
//! Gambit drawn by repetition; and one adjourned game, `*`).

use super::*;

const FIXTURE: &str = include_str!("../../testdata/games.pgn");

fn run(text: &str, options: PgnOptions) -> (PgnReport, Vec<(String, Outcome)>) {
    let mut kept = Vec::new();
    let report = extract(text.as_bytes(), &options, |fen, label| {
        kept.push((fen.to_string(), label.outcome));
        Ok(())
    })
    .unwrap();
    (report, kept)
}

/// The main-line SAN tokens of each game with its result marker, read from the text without a
/// chess library: headers, comments, variations and move numbers removed.
fn san_tokens(text: &str) -> Vec<(Vec<String>, String)> {
    let mut games = Vec::new();
    let mut tokens = Vec::new();
    let (mut depth, mut in_comment) = (0, false);
    for line in text.lines().filter(|l| !l.starts_with('[')) {
        let mut cleaned = String::new();
        for c in line.chars() {
            match c {
                '{' => in_comment = true,
                '}' => in_comment = false,
                '(' if !in_comment => depth += 1,
                ')' if !in_comment => depth -= 1,
                _ if !in_comment && depth == 0 => cleaned.push(c),
                _ => {}
            }
        }
        for token in cleaned.split_whitespace() {
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                games.push((std::mem::take(&mut tokens), token.to_string()));
                continue;
            }
            let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if !token.is_empty() {
                tokens.push(token.to_string());
            }
        }
    }
    games
}

/// Book, in-check and after-capture counts the SAN text implies: the position after ply k follows SAN k;
/// '+'/'#' means check, 'x'/'=' a capture or promotion.
fn text_counts(text: &str, skip: usize) -> (usize, [usize; 3]) {
    let mut positions = 0;
    let mut counts = [0; 3];
    for (sans, result) in san_tokens(text) {
        if result == "*" {
            continue;
        }
        positions += sans.len() + 1;
        for k in 0..=sans.len() {
            if k < skip {
                counts[0] += 1;
            } else if k > 0 && (sans[k - 1].ends_with('+') || sans[k - 1].ends_with('#')) {
                counts[1] += 1;
            } else if k > 0 && (sans[k - 1].contains('x') || sans[k - 1].contains('=')) {
                counts[2] += 1;
            }
        }
    }
    (positions, counts)
}

#[test]
fn the_fixture_reads_as_intended() {
    let games = san_tokens(FIXTURE);
    let lengths: Vec<(usize, &str)> = games.iter().map(|(s, r)| (s.len(), r.as_str())).collect();
    assert_eq!(lengths, [(63, "1-0"), (15, "1-0"), (42, "1/2-1/2"), (6, "*")]);
    // It exercises what the filters look at: checks, captures, a promotion with mate, a repetition.
    let all: Vec<&String> = games.iter().flat_map(|(s, _)| s).collect();
    assert!(all.iter().any(|s| s.contains('=')));
    assert!(all.iter().filter(|s| s.ends_with('#')).count() == 2);
}

#[test]
fn each_filter_drops_what_the_game_text_says() {
    for skip in [0, 4, 16, 40, 100] {
        let (report, kept) = run(FIXTURE, PgnOptions { skip_plies: skip, resolve: false });
        let (positions, [book, check, capture]) = text_counts(FIXTURE, skip);
        assert_eq!((report.games, report.unfinished, report.broken), (4, 1, 0), "skip {skip}");
        assert_eq!(report.positions, positions, "skip {skip}");
        assert_eq!(positions, 64 + 16 + 43);
        assert_eq!(report.dropped(Reason::Book), book, "skip {skip}");
        assert_eq!(report.dropped(Reason::InCheck), check, "skip {skip}");
        assert_eq!(report.dropped(Reason::AfterCapture), capture, "skip {skip}");
        assert_eq!(report.dropped(Reason::LeafInCheck), 0);
        assert_eq!(report.kept, kept.len());
        assert_eq!(report.kept + report.dropped.iter().sum::<usize>(), positions, "skip {skip}: {report}");
        assert_eq!(report.by_result.iter().sum::<usize>(), report.kept);
    }
    // Hand counts for the default book of 16 plies.
    let (report, _) = run(FIXTURE, PgnOptions::default());
    assert_eq!(report.dropped(Reason::Book), 16 + 16 + 16);
    // Game 1 after ply 16: 11.Qa4+ 26.Ne7+ 31.Qa8+ 32.Qxd8#; game 3: none.
    assert_eq!(report.dropped(Reason::InCheck), 4);
}

#[test]
fn kept_positions_are_quiet_unique_labelled_and_in_game_order() {
    let (report, kept) = run(FIXTURE, PgnOptions::default());
    assert!(report.dropped(Reason::NotQuiet) > 0, "{report}");
    let weights = Weights::default();
    let mut keys = std::collections::HashSet::new();
    for (fen, _) in &kept {
        let pos = Position::from_fen(fen).unwrap();
        assert!(!pos.in_check(), "{fen}");
        let (score, _) = Quiescence::default().search(&pos, &weights);
        assert_eq!(score, evaluate(&pos, &weights), "{fen}");
        assert!(keys.insert(pos.key()), "duplicate {fen}");
    }
    // Game 1 (1-0) comes first, then game 3 (draw); game 2 is all book.
    let outcomes: Vec<Outcome> = kept.iter().map(|&(_, o)| o).collect();
    let wins = outcomes.iter().take_while(|&&o| o == 1.0).count();
    assert!(wins > 0 && outcomes[wins..].iter().all(|&o| o == 0.5) && wins < outcomes.len(), "{outcomes:?}");
    assert_eq!(report.by_result, [0, outcomes.len() - wins, wins]);
}

#[test]
fn the_repetition_is_kept_once() {
    // Game 3 repeats the four positions after 17...Rad8 (plies 34-37): plies 38-42 are repeats.
    let games = read_games(FIXTURE);
    let weights = Weights::default();
    let fates = replay(&games[2], &PgnOptions::default(), &weights).unwrap();
    assert_eq!(fates.len(), 43);
    let key = |ply: usize| fates[ply].0.key;
    for ply in 38..=42 {
        assert_eq!(key(ply), key(ply - 4), "ply {ply}");
    }
    let repeated_candidates = (38..=42).filter(|&p| fates[p].1.is_none()).count();
    let first_candidates = (34..=37).filter(|&p| fates[p].1.is_none()).count();
    assert!(repeated_candidates > 0, "the repeated positions should be quiet: {:?}", &fates[34..]);
    let (report, _) = run(FIXTURE, PgnOptions::default());
    // Only game 3 repeats positions after the book (game 1 never does).
    assert_eq!(report.dropped(Reason::Duplicate), repeated_candidates);
    assert_eq!(first_candidates, 4 - (34..=37).filter(|&p| fates[p].1.is_some()).count());
}

fn read_games(text: &str) -> Vec<Game> {
    let mut reader = games_reader(text.as_bytes());
    let mut collector = Collector::default();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut collector).unwrap() {
        games.push(game);
    }
    games
}

#[test]
fn every_not_quiet_position_has_a_quiescence_score_other_than_its_evaluation() {
    let weights = Weights::default();
    let options = PgnOptions { skip_plies: 0, resolve: false };
    let mut not_quiet = 0;
    for game in read_games(FIXTURE).iter().filter(|g| g.result().is_some()) {
        for (candidate, reason) in replay(game, &options, &weights).unwrap() {
            if reason == Some(Reason::NotQuiet) {
                not_quiet += 1;
                let pos = Position::from_fen(&candidate.fen).unwrap();
                let (score, pv) = Quiescence::default().search(&pos, &weights);
                assert_ne!(score, evaluate(&pos, &weights), "{}", candidate.fen);
                assert!(!pv.is_empty());
            }
        }
    }
    let (report, _) = run(FIXTURE, options);
    assert_eq!(report.dropped(Reason::NotQuiet), not_quiet);
    assert!(not_quiet >= 3, "{report}");
}

#[test]
fn resolve_replaces_positions_by_their_quiescence_leaf() {
    let plain = run(FIXTURE, PgnOptions { skip_plies: 16, resolve: false });
    let (report, kept) = run(FIXTURE, PgnOptions { skip_plies: 16, resolve: true });
    assert_eq!(report.dropped(Reason::NotQuiet), 0);
    for reason in [Reason::Book, Reason::InCheck, Reason::AfterCapture] {
        assert_eq!(report.dropped(reason), plain.0.dropped(reason), "{reason:?}");
    }
    assert_eq!(report.kept + report.dropped.iter().sum::<usize>(), report.positions);
    // More positions survive than without resolving, and some of them are leaves no game reached.
    assert!(report.kept > plain.0.kept, "{report}\n{}", plain.0);
    let game_positions: std::collections::HashSet<String> = {
        let all = run(FIXTURE, PgnOptions { skip_plies: 0, resolve: false });
        let weights = Weights::default();
        let mut set: std::collections::HashSet<String> = all.1.into_iter().map(|(f, _)| f).collect();
        for game in read_games(FIXTURE) {
            for (c, _) in
                replay(&game, &PgnOptions { skip_plies: 0, resolve: false }, &weights).unwrap_or_default()
            {
                set.insert(c.fen);
            }
        }
        set
    };
    let resolved: Vec<&String> =
        kept.iter().map(|(f, _)| f).filter(|f| !game_positions.contains(*f)).collect();
    assert!(!resolved.is_empty());
    let weights = Weights::default();
    let mut keys = std::collections::HashSet::new();
    for (fen, _) in &kept {
        let pos = Position::from_fen(fen).unwrap();
        assert!(!pos.in_check(), "{fen}");
        assert!(keys.insert(pos.key()), "duplicate {fen}");
        // A leaf is its own leaf.
        assert_eq!(Quiescence::default().leaf(&pos, &weights).to_fen(), *fen);
    }
}

#[test]
fn unfinished_and_broken_games_are_skipped_and_named() {
    let text = r#"
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[White "Illegal"]
[Black "Move"]
[Result "0-1"]

1. e4 e5 2. Ke3 Kd6 0-1

[White "Bad"]
[Black "Fen"]
[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]
[Result "1/2-1/2"]

1. Kd2 1/2-1/2

[Variant "Atomic"]
[Result "1-0"]

1. e4 1-0

[Result "*"]

1. d4 *

[Result "1/2-1/2"]

1. Nf3 Nf6 2. Ng1 Ng8
"#;
    let (report, kept) = run(text, PgnOptions { skip_plies: 0, resolve: false });
    assert_eq!((report.games, report.unfinished, report.broken), (6, 1, 3), "{report}");
    assert_eq!(report.problems.len(), 3);
    assert!(
        report.problems[0].starts_with("game 2 (Illegal - Move): move 2. Ke3: illegal (in rnbqkbnr/"),
        "{report}"
    );
    assert!(report.problems[1].starts_with("game 3 (Bad - Fen): bad FEN header"), "{report}");
    assert!(report.problems[1].contains("kings"), "{report}");
    assert!(report.problems[2].starts_with("game 4: variant 'Atomic' is not supported"), "{report}");
    // Game 1 (8 positions) and game 6, whose result comes from its header (5 positions; its first and
    // last are the start position, kept already from game 1).
    assert_eq!(report.positions, 8 + 5);
    assert_eq!(report.dropped(Reason::Duplicate), 2);
    assert!(kept.iter().any(|(_, o)| *o == 0.5));
    assert!(kept.iter().all(|(fen, _)| !fen.starts_with("r1bqkb1r/pppp1Qpp")), "the mate is in check");
}

#[test]
fn broken_pgn_syntax_is_an_error_not_a_panic() {
    let result = extract(&b"1. e4 {never closed"[..], &PgnOptions::default(), |_, _| Ok(()));
    assert!(result.is_err());
}

#[test]
fn san_finds_castling_en_passant_promotions_and_disambiguated_moves() {
    let check = |fen: &str, san: &str, uci: &str| {
        let pos = Position::from_fen(fen).unwrap();
        let parsed = SanPlus::from_ascii(san.as_bytes()).unwrap();
        let m = find_move(&pos, &parsed.san).unwrap_or_else(|e| panic!("{san}: {e}"));
        assert_eq!(pos.move_to_uci(m), uci, "{san} in {fen}");
        // And back: the engine writes the same SAN.
        assert_eq!(pos.move_to_san(m), san, "{fen}");
    };
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    check(castle, "O-O", "e1g1");
    check(castle, "O-O-O", "e1c1");
    check("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O", "e8c8");
    check("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6", "e5d6");
    check("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "axb8=N", "a7b8n");
    check("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=Q", "a7a8q");
    check("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=Q+", "a7a8q");
    check("4k3/8/8/8/8/8/1N3N2/4K3 w - - 0 1", "Nbd3", "b2d3");
    check("4k3/8/8/8/1N6/8/1N6/4K3 w - - 0 1", "N2d3", "b2d3");
    check("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rad1", "a1d1");
    check("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rfd1", "f1d1");
    // Needless disambiguation and a missing capture mark are accepted.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    let m = find_move(&pos, &SanPlus::from_ascii(b"Rad1").unwrap().san).unwrap();
    assert_eq!(pos.move_to_uci(m), "a1d1");
    let pos = Position::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
    let m = find_move(&pos, &SanPlus::from_ascii(b"ed5").unwrap().san).unwrap();
    assert_eq!(pos.move_to_uci(m), "e4d5");

    let error = |fen: &str, san: &str| {
        let pos = Position::from_fen(fen).unwrap();
        find_move(&pos, &SanPlus::from_ascii(san.as_bytes()).unwrap().san).unwrap_err()
    };
    assert_eq!(error("4k3/8/8/8/8/8/1N3N2/4K3 w - - 0 1", "Nd3"), "ambiguous");
    assert_eq!(error(castle, "Ke3"), "illegal");
    assert_eq!(error("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8"), "illegal"); // a promotion must say to what
    assert_eq!(error("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O"), "illegal");
}

#[test]
fn chess960_games_castle_by_their_header() {
    // King f1 between rooks b1 and g1: O-O swaps king and rook.
    let fen = "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1";
    let text =
        format!("[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n[Result \"0-1\"]\n\n1. O-O O-O 2. g3 g6 0-1\n");
    let (report, _) = run(&text, PgnOptions { skip_plies: 0, resolve: false });
    assert_eq!((report.broken, report.positions), (0, 5), "{report}");
    let mut pos = Position::from_fen(fen).unwrap();
    pos.set_chess960(true);
    let m = find_move(&pos, &SanPlus::from_ascii(b"O-O").unwrap().san).unwrap();
    pos.make_move(m);
    assert!(pos.to_fen().starts_with("nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQRKN b"), "{}", pos.to_fen());
}

#[test]
fn move_comments_give_each_position_the_score_of_the_move_played_from_it_in_whites_view() {
    // Scores as cutechess and `tune match` write them: pawns from the mover's view, then the depth.
    // The position after 2...Nc6 (White to move) was searched at +0.31 by White; the one after
    // 3. Bb5 (Black to move) at -0.20 by Black, i.e. +0.20 for White.
    let text = r#"[Result "0-1"]

1. e4 {+0.40/12 0.1s} e5 {-0.35/12 0.1s} 2. Nf3 {book} Nc6 {-0.30/11 0.1s} 3. Bb5 {+0.31/13 0.1s}
a6 {-0.20/12 0.1s} 4. Ba4 {+M5/20 0.1s} Nf6 {1.05/9} 5. O-O {?/1 0.1s} {White resigns} 0-1
"#;
    let mut kept = Vec::new();
    extract(text.as_bytes(), &PgnOptions { skip_plies: 0, resolve: false }, |fen, label| {
        kept.push((fen.split(' ').take(2).collect::<Vec<_>>().join(" "), label.score));
        Ok(())
    })
    .unwrap();
    let score_of = |fen_start: &str| -> Option<i32> {
        kept.iter()
            .find(|(fen, _)| fen.starts_with(fen_start))
            .unwrap_or_else(|| panic!("{fen_start} kept"))
            .1
    };
    // Start position: 1. e4 was played at +0.40 by White.
    assert_eq!(score_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"), Some(40));
    // After 1. e4 (Black to move): 1...e5 at -0.35 for Black is +35 for White.
    assert_eq!(score_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"), Some(35));
    // 2. Nf3 came from the book: no score.
    assert_eq!(score_of("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"), None);
    // After 3. Bb5 (Black): -0.20 from Black's view.
    assert_eq!(score_of("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b"), Some(20));
    // 4. Ba4 was a mate score: none. 4...Nf6 at 1.05, unsigned, without a time.
    assert_eq!(score_of("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w"), None);
    assert_eq!(score_of("r1bqkbnr/1ppp1ppp/p1n5/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R b"), Some(-105));
    // `?` is no score, and the comment after it (the termination) does not stand in for one.
    assert_eq!(score_of("r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w"), None);
}

#[test]
fn score_comments_parse_as_engines_write_them_and_nothing_else_does() {
    for (comment, cp) in [
        ("+0.35/12 0.123s", 35),
        ("-1.50/7", -150),
        ("0.00/1 0s", 0),
        ("+12.345/30", 1235),
        ("+0.35/12, line=e4 e5", 35),
    ] {
        assert_eq!(parse_score_comment(comment), Some(cp), "{comment}");
    }
    for comment in
        ["book", "+M5/20 0.1s", "-M2/3", "?/1 0.1s", "0.35", "+0.35/x", "the knight returns", "", "unknown"]
    {
        assert_eq!(parse_score_comment(comment), None, "{comment}");
    }
}
