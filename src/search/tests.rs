use std::sync::atomic::AtomicBool;

use super::*;

/// Searches `fen` to a fixed depth with one thread; returns the result and the reports.
fn search_fen(fen: &str, limits: Limits) -> (SearchResult, Vec<Report>) {
    search_with(fen, limits, &SearchParams::default())
}

/// [`search_fen`] with other search constants.
fn search_with(fen: &str, limits: Limits, params: &SearchParams) -> (SearchResult, Vec<Report>) {
    let pos = Position::from_fen(fen).unwrap();
    let tt = TranspositionTable::new(8);
    let (stop, pondering) = (AtomicBool::new(false), AtomicBool::new(false));
    let shared = Shared { tt: &tt, stop: &stop, pondering: &pondering, nodes: AtomicU64::new(0) };
    let weights = Weights::default();
    let mut histories = vec![History::default()];
    let mut reports = Vec::new();
    let result =
        run(&pos, &weights, params, &shared, &mut histories, &limits, 0, 1, &mut |r| reports.push(r.clone()));
    (result, reports)
}

fn best(fen: &str, depth: i32) -> (String, i32) {
    let (r, _) = search_fen(fen, Limits::depth(depth));
    (Position::from_fen(fen).unwrap().move_to_uci(r.best_move), r.score)
}

#[test]
fn finds_mates_in_one_two_and_three() {
    // Back-rank mate in one.
    assert_eq!(best("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 4), ("a1a8".to_string(), MATE - 1));
    // Mate in two (Stockfish agrees): 1. Nf6+ gxf6 2. Bxf7#.
    assert_eq!(
        best("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 6),
        ("d5f6".to_string(), MATE - 3)
    );
    // Mate in three (Stockfish agrees): 1. Ra6 and the rook swings to the h-file.
    let (m, score) = best("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 8);
    assert_eq!((m.as_str(), score), ("f6a6", MATE - 5));
}

#[test]
fn mated_and_stalemated_sides_score_correctly() {
    // Stalemate: Black has no legal move; the search returns no move and a draw score.
    let (r, _) = search_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Limits::depth(3));
    assert_eq!((r.best_move, r.score), (Move::NULL, 0));
    // With K+Q v K next to stalemate the engine mates instead (Qc8#).
    assert_eq!(best("7k/8/6K1/5Q2/8/8/8/8 w - - 0 1", 4), ("f5c8".to_string(), MATE - 1));
}

#[test]
fn wins_material_in_simple_tactics() {
    // A knight fork of king and queen.
    let (m, score) = best("2q1k3/8/8/1N6/8/8/8/R3K3 w - - 0 1", 6);
    assert_eq!(m, "b5d6");
    assert!(score > 300, "{score}");
    // A queen left en prise is taken.
    assert_eq!(best("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 4).0, "d2d5");
}

/// The search features that ship switched off (a constant of 0) are live when switched on: each
/// changes the tree of a middlegame search (one of two), and the tactics above are still found.
#[test]
fn features_that_ship_off_change_the_search_and_keep_the_tactics() {
    use crate::search::SearchParamSet;
    // Two middlegames: a feature that acts only now and then (an aspiration window failing high)
    // need not act in one tree, and which tree it acts in moves with the baked values.
    let middlegames = [
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ];
    let nodes = |params: &SearchParams| -> Vec<u64> {
        middlegames.iter().map(|fen| search_with(fen, Limits::depth(10), params).0.nodes).collect()
    };
    let shipped = nodes(&SearchParams::default());
    for (at, value) in [
        (idx::IIR_MIN_DEPTH, 4),
        (idx::RAZOR_MARGIN, 300),
        (idx::SINGULAR_DOUBLE_MARGIN, 20),
        (idx::ASPIRATION_FAIL_HIGH_REDUCE, 1),
        (idx::NMP_TT_GUARD, 1),
        (idx::TT_EVAL_FROM_SCORE, 1),
        (idx::HISTORY_PRUNE_MARGIN, 100),
        (idx::LMR_TT_PV, 1),
        (idx::LMR_DEEPER_MARGIN, 40),
        (idx::LMR_SHALLOWER_MARGIN, 10),
        (idx::PRUNE_REDUCED_DEPTH, 1),
        (idx::SEE_CAPTURE_QUADRATIC, 13),
        (idx::QSEARCH_SEE_MARGIN, 80),
        (idx::EXTENSION_HISTORY, 4000),
        (idx::HISTORY_CONT_PRUNE, 1),
        (idx::EXTENSION_IN_CHECK, 1),
    ] {
        assert_eq!(SearchParams::default()[at], 0, "constant {at} ships off");
        let mut values = SearchParamSet::baked().values();
        values[at] = value;
        let params = SearchParams::from_set(&SearchParamSet::baked().with_values(&values));
        assert_ne!(nodes(&params), shipped, "constant {at} = {value} changes nothing");
        let fork_fen = "2q1k3/8/8/1N6/8/8/8/R3K3 w - - 0 1";
        let fork = search_with(fork_fen, Limits::depth(6), &params).0;
        assert_eq!(
            Position::from_fen(fork_fen).unwrap().move_to_uci(fork.best_move),
            "b5d6",
            "constant {at}"
        );
        let mate = search_with("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Limits::depth(4), &params).0;
        assert_eq!(mate.score, MATE - 1, "constant {at}");
    }
}

/// Search features that ship on, and the history clamp (which acts only once the history is
/// deep, so it is checked with a small divisor): each value changes the tree and still finds the
/// fork. ProbCut (`probcut.margin` = 100), Ethereal's SEE shape for quiets (`see.quiet_linear` = 58),
/// futility's history-gated tier (`futility.history_gate` = 12,000) and quiescence's checks
/// (`qsearch.checks` = 1) switch off at 0, and the histories age again with `history.no_ageing` = 0
/// (row 85 of reports/tests.md shipped the first three and the last); the history bonus
/// is also tried in Ethereal's shape (32·d², at most 12,800).
#[test]
fn features_that_ship_on_change_the_search_and_keep_the_tactics() {
    use crate::search::SearchParamSet;
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8";
    let nodes = |params: &SearchParams| search_with(fen, Limits::depth(10), params).0.nodes;
    let with = |changes: &[(usize, i32)]| {
        let mut values = SearchParamSet::baked().values();
        for &(at, value) in changes {
            values[at] = value;
        }
        SearchParams::from_set(&SearchParamSet::baked().with_values(&values))
    };
    assert_eq!(SearchParams::default()[idx::PROBCUT_MARGIN], 100);
    assert_eq!(SearchParams::default()[idx::SEE_QUIET_LINEAR], 58);
    assert_eq!(SearchParams::default()[idx::FUTILITY_HISTORY_GATE], 12000);
    assert_eq!(SearchParams::default()[idx::HISTORY_NO_AGEING], 1);
    assert_eq!(SearchParams::default()[idx::QSEARCH_CHECKS], 1);
    assert_eq!(SearchParams::default()[idx::LMR_HISTORY_CLAMP], 0);
    let small_divisor = [(idx::LMR_HISTORY_DIVISOR, 1000)];
    for (base, changed) in [
        (with(&[]), with(&[(idx::PROBCUT_MARGIN, 0)])),
        (with(&[]), with(&[(idx::SEE_QUIET_LINEAR, 0)])),
        (with(&[]), with(&[(idx::FUTILITY_HISTORY_GATE, 0)])),
        (with(&[]), with(&[(idx::QSEARCH_CHECKS, 0)])),
        (with(&[]), with(&small_divisor)),
        (
            with(&[]),
            with(&[
                (idx::HISTORY_BONUS_QUADRATIC, 32),
                (idx::HISTORY_BONUS_LINEAR, 0),
                (idx::HISTORY_BONUS_MAX, 12_800),
            ]),
        ),
        (with(&small_divisor), with(&[small_divisor[0], (idx::LMR_HISTORY_CLAMP, 1)])),
    ] {
        assert_ne!(nodes(&changed), nodes(&base));
        let fork_fen = "2q1k3/8/8/1N6/8/8/8/R3K3 w - - 0 1";
        let fork = search_with(fork_fen, Limits::depth(6), &changed).0;
        assert_eq!(Position::from_fen(fork_fen).unwrap().move_to_uci(fork.best_move), "b5d6");
    }
}

#[test]
fn reports_are_consistent() {
    let (r, reports) = search_fen(crate::board::START_FEN, Limits::depth(6));
    assert_eq!(reports.len(), 6);
    assert_eq!(reports.last().unwrap().pv.first(), Some(&r.best_move));
    assert!(reports.windows(2).all(|w| w[0].depth < w[1].depth));
    assert!(r.nodes > 100);
}

#[test]
fn same_search_gives_same_result() {
    let a =
        search_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", Limits::depth(7)).0;
    let b =
        search_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", Limits::depth(7)).0;
    assert_eq!(a, b);
}

#[test]
fn repetitions_count_twice_in_the_tree_or_thrice_in_the_game() {
    let tt = TranspositionTable::new(1);
    let (stop, pondering) = (AtomicBool::new(false), AtomicBool::new(false));
    let shared = Shared { tt: &tt, stop: &stop, pondering: &pondering, nodes: AtomicU64::new(0) };
    let (weights, params) = (Weights::default(), SearchParams::default());
    let mut history = History::default();
    let mut pos = Position::startpos();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        pos.play_uci(m).unwrap();
    }
    let timer = TimeManager::new(&Limits::default(), pos.side_to_move(), 0, TimePlan::default());
    let s =
        Searcher::new(pos.clone(), &weights, &params, &shared, &mut history, Limits::default(), timer, true);
    // Once before the root: not yet a draw at the root, but a draw if it happened inside the tree.
    assert!(!s.is_draw(0));
    assert!(s.is_draw(4));
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        pos.play_uci(m).unwrap();
    }
    let mut history = History::default();
    let timer = TimeManager::new(&Limits::default(), pos.side_to_move(), 0, TimePlan::default());
    let s = Searcher::new(pos, &weights, &params, &shared, &mut history, Limits::default(), timer, true);
    assert!(s.is_draw(0), "the third occurrence is a draw");
}

#[test]
fn draws_in_the_tree_score_plus_or_minus_draw_jitter() {
    use crate::search::SearchParamSet;
    let tt = TranspositionTable::new(1);
    let (stop, pondering) = (AtomicBool::new(false), AtomicBool::new(false));
    let shared = Shared { tt: &tt, stop: &stop, pondering: &pondering, nodes: AtomicU64::new(0) };
    let weights = Weights::default();
    let mut values = SearchParamSet::baked().values();
    assert_eq!(values[idx::DRAW_JITTER], 0, "draw.jitter ships off");
    let pos = Position::startpos();
    for (jitter, expected) in [(0, [0, 0, 0]), (5, [-5, 5, -5])] {
        values[idx::DRAW_JITTER] = jitter;
        let params = SearchParams::from_set(&SearchParamSet::baked().with_values(&values));
        let mut history = History::default();
        let timer = TimeManager::new(&Limits::default(), pos.side_to_move(), 0, TimePlan::default());
        let mut s = Searcher::new(
            pos.clone(),
            &weights,
            &params,
            &shared,
            &mut history,
            Limits::default(),
            timer,
            true,
        );
        let mut scores = [0; 3];
        for (score, nodes) in scores.iter_mut().zip([0, 2, 5]) {
            s.nodes = nodes;
            *score = s.draw_score();
        }
        assert_eq!(scores, expected, "draw.jitter = {jitter}");
    }
}

#[test]
fn fifty_move_rule_is_a_draw() {
    // Fifty-move rule: a position with halfmove 99 where any move reaches 100.
    let (_, score) = best("8/8/8/8/8/k7/8/K6R w - - 99 120", 4);
    assert_eq!(score, 0);
}

#[test]
fn node_limit_is_respected() {
    let (r, _) = search_fen(crate::board::START_FEN, Limits { nodes: Some(20_000), ..Limits::default() });
    assert!(r.nodes < 40_000, "{}", r.nodes);
    assert!(!r.best_move.is_null());
}

#[test]
fn quiescence_resolves_captures() {
    let weights = Weights::default();
    let mut q = Quiescence::default();
    // White can win a queen for a pawn... only if it is not defended: it is hanging here.
    let pos = Position::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").unwrap();
    let (score, pv) = q.search(&pos, &weights);
    assert_eq!(pv.first().map(|&m| pos.move_to_uci(m)), Some("e4d5".to_string()));
    assert!(score > crate::eval::evaluate(&pos, &weights) + 500);
    let leaf = q.leaf(&pos, &weights);
    assert_eq!(leaf.to_fen(), "4k3/8/8/3P4/8/8/8/4K3 b - - 0 1");
    // A quiet position is its own leaf.
    let quiet = Position::startpos();
    assert_eq!(q.search(&quiet, &weights).0, crate::eval::evaluate(&quiet, &weights));
}

#[test]
fn a_tiny_node_limit_still_finishes_the_first_iteration() {
    // Black to move in a tactical middle game where depth 1 alone needs over 1,000 nodes of
    // quiescence: the answer must come from a finished iteration, not the first legal move.
    let fen = "rnbqk2r/p3bppp/2pp4/1p1np1N1/3PP2P/1QP3P1/PP3P2/RNB1KB1R b KQkq - 0 8";
    let (result, reports) = search_fen(fen, Limits { nodes: Some(1), ..Limits::default() });
    assert!(result.depth >= 1, "{result:?}");
    assert!(!reports.is_empty());
    assert_eq!(Some(result.best_move), reports.last().and_then(|r| r.pv.first().copied()));
}

#[test]
fn threads_vote_for_the_move_played() {
    let pos = Position::startpos();
    let mv = |uci: &str| pos.parse_uci_move(uci).unwrap();
    let result = |m: &str, score: i32, depth: i32| SearchResult {
        best_move: mv(m),
        ponder_move: Move::NULL,
        score,
        depth,
        nodes: 1,
    };
    let main = result("e2e4", 30, 10);
    // Alone, or outvoted by nobody: the main thread's move.
    assert_eq!(vote(&main, &[]), main);
    assert_eq!(vote(&main, &[result("d2d4", 25, 10)]), main);
    // A helper that went deeper and scores better overrules it.
    let deeper = result("d2d4", 60, 14);
    assert_eq!(vote(&main, std::slice::from_ref(&deeper)), deeper);
    // Two threads agreeing outweigh one deeper helper with a slightly better score.
    let agree = result("e2e4", 30, 10);
    assert_eq!(vote(&main, &[agree, result("d2d4", 35, 11)]).best_move, mv("e2e4"));
    // A helper that completed no iteration has no vote.
    assert_eq!(vote(&main, &[result("d2d4", 500, 0)]), main);
    // A proven mate wins outright.
    let mate = result("g1f3", MATE - 5, 6);
    assert_eq!(vote(&main, std::slice::from_ref(&mate)), mate);
}
