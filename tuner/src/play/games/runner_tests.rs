//! Tests of `play/games/runner.rs`.

use std::path::Path;

use super::*;
use crate::play::games::game::Adjudication;
use crate::play::limit::MoveLimit;

fn contestants() -> Vec<Contestant> {
    let handset = Path::new(env!("CARGO_MANIFEST_DIR")).join("../params/handset.toml");
    let mut a = EngineSetup::built_in("baked");
    let mut b = EngineSetup::from_files(&handset, None).unwrap();
    a.hash_mb = 1;
    b.hash_mb = 1;
    vec![Contestant::InProcess(a), Contestant::InProcess(b)]
}

fn jobs() -> Vec<PairJob> {
    [
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2",
    ]
    .iter()
    .enumerate()
    .map(|(i, fen)| PairJob {
        start_fen: fen.to_string(),
        second_start: None,
        opening: format!("test:{i}"),
        first: 0,
        second: 1,
    })
    .collect()
}

fn settings() -> GameSettings {
    GameSettings {
        limit: MoveLimit::Nodes(400),
        adjudication: Adjudication {
            resign: Some(crate::play::games::game::ResignRule { moves: 3, score: 600, two_sided: true }),
            ..Adjudication::none()
        },
        time_margin: Duration::ZERO,
        hang_timeout: Duration::from_secs(10),
    }
}

/// Every pair's moves, by pair index.
fn play_all(concurrency: usize) -> Vec<(usize, Vec<Vec<whetstone::Move>>)> {
    let mut results = Vec::new();
    let stop = AtomicBool::new(false);
    run(&contestants(), &jobs(), &settings(), concurrency, &stop, |pair| {
        let moves = pair.games.iter().map(|g| g.moves.iter().map(|m| m.mv).collect()).collect();
        results.push((pair.index, moves));
        Ok(Flow::Continue)
    })
    .unwrap();
    results.sort_by_key(|(index, _)| *index);
    results
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn the_game_set_does_not_depend_on_the_thread_count() {
    let one = play_all(1);
    assert_eq!(one.len(), 4);
    assert_eq!(one, play_all(2));
}

#[test]
fn colours_alternate_within_a_pair_and_stop_ends_the_run() {
    let stop = AtomicBool::new(false);
    let mut pairs = 0;
    run(&contestants(), &jobs(), &settings(), 1, &stop, |pair| {
        assert_eq!((pair.games[0].white.as_str(), pair.games[0].black.as_str()), ("baked", "handset"));
        assert_eq!((pair.games[1].white.as_str(), pair.games[1].black.as_str()), ("handset", "baked"));
        assert_eq!(pair.games[0].start_fen, pair.games[1].start_fen);
        pairs += 1;
        Ok(Flow::Stop)
    })
    .unwrap();
    assert_eq!(pairs, 1, "the run stops after the first pair");
}
