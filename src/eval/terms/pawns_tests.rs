//! Tests of `eval/terms/pawns.rs`.

use crate::eval::baked::idx;
use crate::eval::tests::coefficient;

#[test]
fn phalanx_and_defended_pawns_are_connected_by_rank() {
    // d4-e4 side by side (rank index 3), c3 defends d4 (c3 itself is neither).
    let fen = "4k3/8/8/8/3PP3/2P5/8/4K3 w - - 0 1";
    assert_eq!(coefficient(fen, idx::PAWNS_CONNECTED + 3), 2);
    assert_eq!(coefficient(fen, idx::PAWNS_CONNECTED + 2), 0);
    // Colours swapped: Black's count, negative.
    let swapped = "4k3/8/2p5/3pp3/8/8/8/4K3 b - - 0 1";
    assert_eq!(coefficient(swapped, idx::PAWNS_CONNECTED + 3), -2);
    let apart = "4k3/8/8/8/2P1P3/8/8/1N2K3 w - - 0 1";
    assert_eq!(coefficient(apart, idx::PAWNS_CONNECTED + 3), 0);
}

#[test]
fn a_passed_pawn_has_a_safe_stop_square_only_when_nothing_guards_it() {
    // The e5 pawn's stop square e6: free; then guarded by a rook on a6; then occupied.
    let free = "6nk/8/8/4P3/8/8/8/KN6 w - - 0 1";
    assert_eq!(coefficient(free, idx::PASSED_SAFE_STOP + 4), 1);
    let guarded = "6nk/8/r7/4P3/8/8/8/KN6 w - - 0 1";
    assert_eq!(coefficient(guarded, idx::PASSED_SAFE_STOP + 4), 0);
    let blocked = "6nk/8/4n3/4P3/8/8/8/KN6 w - - 0 1";
    assert_eq!(coefficient(blocked, idx::PASSED_SAFE_STOP + 4), 0);
}

#[test]
fn a_pawn_on_the_seventh_is_always_passed_so_never_a_candidate() {
    // Why `passed.candidate` declares index 6 fixed: no enemy pawn can stand ahead of it,
    // even with enemy pawns on the sixth beside it. A pawn on the sixth with a sentry is one.
    let seventh = "7k/3P4/2p1p3/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(seventh, idx::PASSED_RANK + 6), 1);
    assert_eq!(coefficient(seventh, idx::PASSED_CANDIDATE + 6), 0);
    let sixth = "4k3/2p5/3P4/4P3/8/8/8/4K3 w - - 0 1";
    assert_eq!(coefficient(sixth, idx::PASSED_CANDIDATE + 5), 1);
}
