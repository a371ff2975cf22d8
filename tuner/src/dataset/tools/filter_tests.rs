//! Tests of `dataset/tools/filter.rs`.

use super::*;

#[test]
fn each_rule_drops_what_it_names() {
    let label = |score| Label { outcome: 0.5, score };
    let check = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 30").unwrap();
    let quiet = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 30").unwrap();
    let hanging = Position::from_fen("q3k3/8/8/8/8/8/8/R3K3 w - - 0 30").unwrap();
    let mut f = Filter::new(FilterRules {
        no_check: true,
        only_quiet: true,
        max_score: Some(500),
        scored: true,
        ..FilterRules::default()
    });
    assert!(!f.keep(&check, label(Some(0))));
    assert!(f.keep(&quiet, label(Some(100))));
    assert!(!f.keep(&quiet, label(Some(-600))));
    assert!(!f.keep(&quiet, label(None)));
    assert!(!f.keep(&hanging, label(Some(0))));
    assert_eq!(f.dropped, [1, 1, 1, 1, 0, 0, 0]);
    let mut f = Filter::new(FilterRules {
        min_pieces: Some(4),
        max_ply: Some(58),
        min_phase: Some(1),
        ..FilterRules::default()
    });
    assert!(!f.keep(&Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap(), label(None)));
    assert!(!f.keep(&Position::from_fen("4k3/8/8/8/8/8/P7/4K3 w - - 0 1").unwrap(), label(None)));
    assert!(!f.keep(&Position::from_fen("4k3/p7/8/8/8/8/P7/R3K3 b - - 0 30").unwrap(), label(None)));
    assert!(f.keep(&Position::from_fen("4k3/p7/8/8/8/8/P7/R3K3 w - - 0 30").unwrap(), label(None)));
    assert_eq!(ply(&Position::from_fen("4k3/p7/8/8/8/8/P7/R3K3 b - - 0 30").unwrap()), 59);
    assert_eq!(f.dropped, [0, 0, 0, 0, 1, 1, 1]);
}
