//! Tests of `play/games/book.rs`.

use super::*;
use crate::testutil::TempDir;

fn write(dir: &TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.path(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn epd_lines_with_and_without_counters_and_operations() {
    let dir = TempDir::new("book-epd");
    let path = write(
        &dir,
        "b.epd",
        "# a comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 c0 \"e4\";\n\
             rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
             rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - id \"x\";\n",
    );
    let book = load(&path, None).unwrap();
    assert_eq!(book.len(), 3);
    assert_eq!(book[0].fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(book[1].fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    assert!(book[2].fen.ends_with(" b KQkq - 0 1"), "{}", book[2].fen);
    assert!(book[0].source.ends_with("b.epd:3"), "{}", book[0].source);
}

#[test]
fn broken_entries_name_file_and_line() {
    let dir = TempDir::new("book-bad");
    let path =
        write(&dir, "bad.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen\n");
    let error = format!("{:#}", load(&path, None).unwrap_err());
    assert!(error.contains("bad.epd:2") && error.contains("not a fen"), "{error}");
    let mate = write(&dir, "mate.epd", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n");
    assert!(format!("{:#}", load(&mate, None).unwrap_err()).contains("no legal move"));
    let empty = write(&dir, "empty.epd", "# nothing\n");
    assert!(format!("{:#}", load(&empty, None).unwrap_err()).contains("no position"));
    let missing = dir.path("missing.epd");
    assert!(format!("{:#}", load(&missing, None).unwrap_err()).contains("missing.epd"));
    let pgn =
        write(&dir, "bad.pgn", "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 2. Qh5 Kf9 *\n");
    let error = format!("{:#}", load(&pgn, None).unwrap_err());
    assert!(error.contains("bad.pgn game 2"), "{error}");
}

#[test]
fn pgn_games_are_played_to_their_end_or_the_ply_limit() {
    let dir = TempDir::new("book-pgn");
    let path = write(
        &dir,
        "b.pgn",
        "[Event \"1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O 1/2-1/2\n\n\
             [Event \"2\"]\n[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. b8=Q+ Kd7 *\n",
    );
    let book = load(&path, None).unwrap();
    assert_eq!(book.len(), 2);
    assert_eq!(book[0].fen, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4");
    assert_eq!(book[1].fen, "1Q6/3k4/8/8/8/8/8/4K3 w - - 1 2");
    let short = load(&path, Some(2)).unwrap();
    assert_eq!(short[0].fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
}

#[test]
fn the_default_book_is_1000_distinct_playable_positions() {
    let book = default_book();
    assert_eq!(book.len(), 1000);
    let distinct: std::collections::HashSet<&str> = book.iter().map(|o| o.fen.as_str()).collect();
    assert_eq!(distinct.len(), 1000);
}

#[test]
fn schedules_wrap_and_random_ones_are_seeded_permutations() {
    assert_eq!(schedule(3, 7, BookOrder::Sequential, 0, 1), [1, 2, 0, 1, 2, 0, 1]);
    let a = schedule(10, 25, BookOrder::Random, 7, 0);
    assert_eq!(a, schedule(10, 25, BookOrder::Random, 7, 0));
    assert_ne!(a, schedule(10, 25, BookOrder::Random, 8, 0));
    for cycle in a.chunks(10).take(2) {
        let mut sorted = cycle.to_vec();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>(), "each cycle uses every opening once");
    }
    assert_eq!(schedule(10, 5, BookOrder::Random, 7, 3), a[3..8]);
}

/// The books of ../shared/data/books, when present (CI has them beside the repository).
#[test]
fn the_shared_books_load() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/books");
    if !dir.exists() {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    assert_eq!(load(&dir.join("noob_3moves.epd"), None).unwrap().len(), 150_932);
    let pgn = load(&dir.join("8moves_v3.pgn"), None).unwrap();
    assert_eq!(pgn.len(), 34_700);
    assert!(pgn.iter().all(|o| o.fen.contains(" w ")), "16 plies: White to move");
}
