//! Tests of `uci/book.rs`.

use super::*;

/// Key values published with the Polyglot book format specification.
#[test]
fn polyglot_keys_match_the_specification() {
    let key = |fen: &str| polyglot_key(&Position::from_fen(fen).unwrap()).unwrap();
    assert_eq!(key(crate::board::START_FEN), 0x463b_9618_1691_fc9c);
    assert_eq!(key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"), 0x823c_9b50_fd11_4196);
    assert_eq!(key("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"), 0x0756_b944_61c5_0fb0);
    assert_eq!(key("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"), 0x22a4_8b5a_8e47_ff78);
}

#[test]
fn reads_a_book_and_picks_the_heaviest_move() {
    let start = Position::startpos();
    let key = polyglot_key(&start).unwrap();
    let encode = |from: &str, to: &str| -> u16 {
        let (f, t): (Square, Square) = (from.parse().unwrap(), to.parse().unwrap());
        (f.index() as u16) << 6 | t.index() as u16
    };
    let mut bytes = Vec::new();
    for (k, m, w) in [
        (key - 1, encode("a2", "a3"), 9),
        (key, encode("d2", "d4"), 5),
        (key, encode("e2", "e4"), 7),
        (key + 1, 0, 1),
    ] {
        bytes.extend_from_slice(&u64::to_be_bytes(k));
        bytes.extend_from_slice(&u16::to_be_bytes(m));
        bytes.extend_from_slice(&u16::to_be_bytes(w));
        bytes.extend_from_slice(&[0; 4]);
    }
    let path = std::env::temp_dir().join(format!("whetstone-book-{}.bin", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let moves = book_moves(path.to_str().unwrap(), &start);
    let best = probe(path.to_str().unwrap(), &start).map(|m| start.move_to_uci(m));
    std::fs::remove_file(&path).ok();
    assert_eq!(moves.len(), 2);
    assert_eq!(best.as_deref(), Some("e2e4"));
    assert_eq!(probe("/nonexistent.bin", &start), None);
}
