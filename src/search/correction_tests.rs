use super::*;

const BOTH: CorrectionWeights = CorrectionWeights { pawn: 100, non_pawn: 50, minor: 0, continuation: 0 };
const NONE: LastMoves = [NO_PIECE_TO; 2];

#[test]
fn repeated_errors_pull_the_correction_towards_them_and_no_further() {
    let pos = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K2R w K - 0 1").unwrap();
    let mut c = Correction::default();
    assert_eq!(c.value(&pos, NONE, BOTH), 0);
    for _ in 0..200 {
        let error = 40 - c.value(&pos, NONE, BOTH);
        c.update(&pos, NONE, BOTH, 10, error);
    }
    let v = c.value(&pos, NONE, BOTH);
    assert!((38..=40).contains(&v), "converged to {v}, not the 40 cp the searches kept finding");
    // Turned off, the tables are not read.
    assert_eq!(c.value(&pos, NONE, CorrectionWeights::default()), 0);
}

#[test]
fn corrections_belong_to_the_side_to_move_and_the_structure() {
    let white = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K2R w K - 0 1").unwrap();
    let black = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K2R b K - 0 1").unwrap();
    let other = Position::from_fen("2k5/p7/8/8/8/8/PP6/3QK3 w - - 0 1").unwrap();
    let mut c = Correction::default();
    for _ in 0..50 {
        c.update(&white, NONE, BOTH, 12, 100);
    }
    assert!(c.value(&white, NONE, BOTH) > 50);
    assert_eq!(c.value(&black, NONE, BOTH), 0);
    assert_eq!(c.value(&other, NONE, BOTH), 0);
    // The limit holds however often a result repeats.
    assert!(c.value(&white, NONE, BOTH) <= 2 * LIMIT_CP);
}

#[test]
fn the_minor_piece_table_follows_the_knights_and_bishops_not_the_pawns() {
    let minors_only = CorrectionWeights { minor: 100, ..CorrectionWeights::default() };
    let pos = Position::from_fen("4k1n1/pp6/8/8/8/8/PP3B2/4K3 w - - 0 1").unwrap();
    // The same minor pieces with other pawns and kings elsewhere.
    let same_minors = Position::from_fen("6n1/1p2k3/8/8/8/2P5/5B2/3K4 w - - 0 1").unwrap();
    let other_minors = Position::from_fen("4k1n1/pp6/8/8/8/8/PP2B3/4K3 w - - 0 1").unwrap();
    let mut c = Correction::default();
    for _ in 0..50 {
        c.update(&pos, NONE, minors_only, 12, 100);
    }
    assert!(c.value(&pos, NONE, minors_only) > 50);
    assert_eq!(c.value(&same_minors, NONE, minors_only), c.value(&pos, NONE, minors_only));
    assert_eq!(c.value(&other_minors, NONE, minors_only), 0);
    let all = CorrectionWeights { minor: 0, ..BOTH };
    assert_eq!(c.value(&same_minors, NONE, all), 0, "tables turned off learn nothing");
}

#[test]
fn the_continuation_table_follows_the_two_moves_that_led_here_and_needs_both() {
    let moves_only = CorrectionWeights { continuation: 100, ..CorrectionWeights::default() };
    let pos = Position::startpos();
    let last: LastMoves = [7 * 64 + 21, 4 * 64 + 28];
    let mut c = Correction::default();
    for _ in 0..50 {
        c.update(&pos, last, moves_only, 12, -100);
    }
    assert!(c.value(&pos, last, moves_only) < -50);
    let elsewhere = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    assert_eq!(c.value(&elsewhere, last, moves_only), c.value(&pos, last, moves_only));
    assert_eq!(c.value(&pos, [last[1], last[0]], moves_only), 0, "the order of the moves counts");
    // After a null move (or at the root) there is no pair to look up, and nothing learnt.
    assert_eq!(c.value(&pos, [NO_PIECE_TO, last[1]], moves_only), 0);
    c.update(&pos, [last[0], NO_PIECE_TO], moves_only, 12, 100);
    assert_eq!(c.value(&pos, [last[0], NO_PIECE_TO], moves_only), 0);
}
