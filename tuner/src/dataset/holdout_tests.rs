//! Tests of `dataset/holdout.rs`.

use super::*;

#[test]
fn the_held_out_positions_are_fixed_per_index_and_seed() {
    // Pinned values: a change of the hash would change the validation set of every tuning run
    // (these are the positions the tuners held out before the rule moved here).
    let held = |seed, fraction| -> Vec<u64> {
        (0..100).filter(|&i| HoldOut { fraction, seed }.holds_out(i)).collect()
    };
    assert_eq!(held(1, 0.1), [10, 18, 21, 41, 48, 68, 82, 83]);
    assert_eq!(
        held(7, 0.25),
        [
            0, 3, 6, 11, 12, 14, 17, 26, 34, 39, 42, 47, 51, 52, 53, 56, 58, 59, 64, 66, 67, 68, 71, 79, 80,
            83, 88, 92
        ]
    );
    assert!((0..10_000u64).all(|i| {
        !HoldOut { fraction: 0.0, seed: 7 }.holds_out(i) && HoldOut { fraction: 1.0, seed: 7 }.holds_out(i)
    }));
}

/// The positions of a game played out move by move, every `step`th one kept.
fn game(moves: &[&str], step: usize) -> Vec<Position> {
    let mut pos = Position::startpos();
    let mut out = vec![pos.clone()];
    for (i, text) in moves.iter().enumerate() {
        pos.play_uci(text).unwrap();
        if (i + 1) % step == 0 {
            out.push(pos.clone());
        }
    }
    out
}

#[test]
fn consecutive_positions_of_one_game_are_one_game_and_the_next_game_starts_another() {
    let moves =
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6", "d2d4", "e5d4"];
    let mut counter = GameCounter::default();
    let first: Vec<u64> = game(&moves, 1).iter().map(|p| counter.next(GameMark::of(p, 1.0))).collect();
    assert!(first.iter().all(|&g| g == 0), "{first:?}");
    // The next game starts again from the start position: a pawn moved back, a piece regained.
    let second: Vec<u64> = game(&moves, 3).iter().map(|p| counter.next(GameMark::of(p, 1.0))).collect();
    assert!(second.iter().all(|&g| g == 1), "{second:?}");
    // Another result is another game, even for the same position; so is a new file.
    assert_eq!(counter.next(GameMark::of(game(&moves, 3).last().unwrap(), 0.5)), 2);
    counter.new_file();
    assert_eq!(counter.next(GameMark::of(game(&moves, 3).last().unwrap(), 0.5)), 3);
    // Castling regained, or a pawn further back: not the same game.
    let late = GameMark::of(game(&moves, 1).last().unwrap(), 1.0);
    let early = GameMark::of(&game(&moves, 1)[4], 1.0);
    assert!(late.may_follow(&early) && !early.may_follow(&late));
}

#[test]
fn the_share_held_out_follows_the_fraction() {
    for fraction in [0.05, 0.2, 0.5] {
        let rule = HoldOut { fraction, seed: 3 };
        let held = (0..100_000u64).filter(|&i| rule.holds_out(i)).count() as f64 / 100_000.0;
        assert!((held - fraction).abs() < 0.01, "{fraction}: {held}");
    }
}
