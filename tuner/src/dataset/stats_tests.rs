//! Tests of `dataset/stats.rs`.

use super::*;
use crate::testutil::TempDir;

#[test]
fn phases_fall_into_five_buckets() {
    let buckets: Vec<usize> = (0..=24).map(phase_bucket).collect();
    let expected: Vec<usize> = (0..=24).map(|p| p / 5).collect();
    assert_eq!(buckets, expected);
    assert_eq!(phase_bucket(30), 4);
    assert_eq!((0..5).map(bucket_label).collect::<Vec<_>>(), ["0-4", "5-9", "10-14", "15-19", "20-24"]);
}

#[test]
fn counts_by_result_phase_side_and_duplicates() {
    let dir = TempDir::new("stats");
    let path = dir.path("d.epd");
    let text = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1-0\";", // phase 24
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [0.5]",   // the same position
        "4k3/8/8/8/8/8/4P3/4K3 b - - | 0-1",                                // phase 0
        "4k3/8/8/8/8/8/4P3/4KR2 w - -,1/2-1/2",                             // phase 2
        "r3k3/8/8/8/8/8/8/R3K3 w - - c9 \"2-0\";",                          // broken
    ]
    .join("\n");
    std::fs::write(&path, text).unwrap();
    let s = stats(&path, &LoadOptions::default()).unwrap();
    assert_eq!((s.summary.loaded, s.summary.skipped, s.summary.lines), (4, 1, 5));
    assert_eq!(s.summary.by_result, [1, 2, 1]);
    assert_eq!(s.by_phase, [[1, 1, 0], [0; 3], [0; 3], [0; 3], [0, 1, 1]]);
    assert_eq!((s.duplicates, s.white_to_move), (1, 3));
    let shown = s.to_string();
    for words in
        ["4 positions from 5 lines", "1-0 ", "25.0%", "20-24", "duplicate positions", ":5: bad result"]
    {
        assert!(shown.contains(words), "{words:?} not in\n{shown}");
    }
}
