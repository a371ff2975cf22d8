//! Tests of `genfens.rs`.

use super::*;

fn openings(args: &str) -> (bool, Vec<String>) {
    let words: Vec<&str> = args.split_whitespace().collect();
    let mut out = Vec::new();
    let ok = run(&words, &mut out);
    (ok, String::from_utf8(out).unwrap().lines().map(str::to_string).collect())
}

#[test]
fn openings_are_legal_seeded_and_not_lost() {
    let (ok, lines) = openings("20 seed 7 book None");
    assert!(ok);
    assert_eq!(lines.len(), 20);
    let mut qs = Quiescence::default();
    for line in &lines {
        let fen = line.strip_prefix("info string genfens ").unwrap();
        let pos = Position::from_fen(fen).unwrap();
        assert!(!legal_moves(&pos).is_empty());
        assert!(qs.search(&pos, &Weights::default()).0.abs() <= 200, "{fen}");
        assert!((8..=9).contains(&pos.plies_played().max(2 * (pos.fullmove_number() as usize - 1))), "{fen}");
    }
    assert_eq!(openings("20 seed 7 book None").1, lines, "the same seed, the same openings");
    assert_ne!(openings("20 seed 8 book None").1, lines);
    let (ok, more) = openings("5 seed 7 book none plies 2 spread 0 maxeval 50");
    assert!(ok && more.len() == 5);
}

#[test]
fn a_book_is_the_start_of_every_opening() {
    let dir = std::env::temp_dir().join(format!("whetstone-genfens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("b.epd");
    std::fs::write(&book, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - hmvc 2; fmvn 3;\n")
        .unwrap();
    let (ok, lines) = openings(&format!("3 seed 1 book {} plies 1 spread 0", book.display()));
    assert!(ok, "{lines:?}");
    for line in lines {
        assert!(line.contains(" b "), "one ply after a White-to-move book line: {line}");
    }
    std::fs::write(&book, "not a fen\n").unwrap();
    let (ok, lines) = openings(&format!("3 seed 1 book {}", book.display()));
    assert!(!ok && lines[0].contains("b.epd:1: not an EPD position"), "{lines:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_and_a_missing_book_are_info_string_errors() {
    for (args, words) in [
        ("", "N is missing"),
        ("x seed 1 book None", "N 'x' is not a number"),
        ("3 sed 1 book None", "expected 'seed'"),
        ("3 seed 1 bok None", "expected 'book'"),
        ("3 seed 1 book", "the book is missing"),
        ("3 seed 1 book None plies", "plies is missing"),
        ("3 seed 1 book None depth 3", "unknown argument 'depth'"),
        ("3 seed 1 book /no/such/book.epd", "cannot read the book /no/such/book.epd"),
    ] {
        let (ok, lines) = openings(args);
        assert!(!ok, "{args}");
        assert!(
            lines.len() == 1
                && lines[0].starts_with("info string genfens error: ")
                && lines[0].contains(words),
            "{args}: {lines:?}"
        );
    }
}
