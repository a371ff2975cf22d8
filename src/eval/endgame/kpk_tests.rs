//! Tests of `eval/endgame/kpk.rs`.

use super::super::test_support::{exact, fen};
use super::super::{probe, Verdict};
use super::*;
use crate::movegen::legal_moves;
use crate::types::Color::{Black, White};

#[test]
fn index_round_trips() {
    for i in 0..SIZE {
        assert_eq!(Setup::from_index(i).index(), i);
    }
}

#[test]
fn number_of_won_positions() {
    let won: u32 = bitbase().iter().map(|w| w.count_ones()).sum();
    assert_eq!(won as usize, WON_POSITIONS);
    // Only legal positions are marked won.
    for i in 0..SIZE {
        let s = Setup::from_index(i);
        assert!(s.is_legal() || !is_win(&s), "{s:?}");
    }
}

/// What a move leads to, in the test's own graph over every file.
#[derive(Copy, Clone)]
enum Successor {
    Win,
    Draw,
    Node(usize),
}

/// The test's index over all 48 pawn squares: side to move, kings, pawn (White strong).
fn all_files_index(pos: &Position) -> usize {
    let pawn = pos.pieces(White, PieceType::Pawn).lsb().index() - 8;
    ((pawn * 64 + pos.king_square(White).index()) * 64 + pos.king_square(Black).index()) * 2
        + usize::from(pos.side_to_move() == White)
}

/// After a White move that left KPK: a promotion to a queen or rook wins unless Black, to move, can
/// take the new piece or is stalemated (decided by the real move generator); anything else (the
/// pawn taken, an under-promotion) is a draw.
fn conversion(after: &Position) -> Successor {
    let heavy = after.count(White, PieceType::Queen) + after.count(White, PieceType::Rook);
    if heavy == 0 {
        return Successor::Draw;
    }
    let replies = legal_moves(after);
    let stalemate = replies.is_empty() && !after.in_check();
    let takes = replies.iter().any(|m| after.piece_on(m.to()).is_some());
    if stalemate || takes {
        Successor::Draw
    } else {
        Successor::Win
    }
}

/// Every legal KPK position (White strong, every file, both sides to move) with the real legal moves'
/// successors, and whether the bitbase calls it won. None where the FEN does not parse.
struct Node {
    white_to_move: bool,
    won: bool,
    successors: Vec<Successor>,
}

fn build_graph() -> Vec<Option<Node>> {
    let mut nodes: Vec<Option<Node>> = (0..2 * 64 * 64 * 48).map(|_| None).collect();
    for pawn in (8..56).map(|i| Square::new(i as u8)) {
        for wk in Square::all() {
            for bk in Square::all() {
                if wk == bk || wk == pawn || bk == pawn {
                    continue;
                }
                for side in Color::ALL {
                    let Ok(mut p) = Position::from_fen(&fen(&[('K', wk), ('k', bk), ('P', pawn)], side))
                    else {
                        continue;
                    };
                    let score = match probe(&p) {
                        Some(Verdict::Exact(score)) if score == 0 || score > KNOWN_WIN => score,
                        other => panic!("{}: {other:?}", p.to_fen()),
                    };
                    let mut successors = Vec::new();
                    for &m in legal_moves(&p).iter() {
                        p.make_move(m);
                        let still_kpk = p.count(White, PieceType::Pawn) == 1;
                        successors.push(if still_kpk {
                            Successor::Node(all_files_index(&p))
                        } else {
                            conversion(&p)
                        });
                        p.unmake_move(m);
                    }
                    let node = Node { white_to_move: side == White, won: score > 0, successors };
                    nodes[all_files_index(&p)] = Some(node);
                }
            }
        }
    }
    nodes
}

/// A readable name for a node index of [`all_files_index`], for failure messages.
fn describe(i: usize) -> String {
    let square = |n: usize| Square::new(n as u8);
    let (pawn, wk, bk) = (square(i / (2 * 64 * 64) + 8), square(i / 128 % 64), square(i / 2 % 64));
    let side = if i % 2 == 1 { White } else { Black };
    fen(&[('K', wk), ('k', bk), ('P', pawn)], side)
}

/// Whether a successor is won, given the current labelling of the nodes.
fn successor_won(s: Successor, won: &[bool]) -> bool {
    match s {
        Successor::Win => true,
        Successor::Draw => false,
        Successor::Node(i) => won[i],
    }
}

/// The Bellman equation of a game with no mate: the side with the pawn wins iff one move wins; the
/// lone king loses iff it has a move and every move loses.
fn bellman(node: &Node, won: &[bool]) -> bool {
    if node.white_to_move {
        node.successors.iter().any(|&s| successor_won(s, won))
    } else {
        !node.successors.is_empty() && node.successors.iter().all(|&s| successor_won(s, won))
    }
}

/// The bitbase against the engine's legal move generator, over every file: (1) each position's value
/// satisfies the Bellman equation with its real successors, and (2) the set of wins is the least fixed
/// point of that equation, computed here from scratch on the real move graph, so no drawn cycle is
/// mislabelled as won.
#[test]
fn bitbase_matches_real_move_generator() {
    let nodes = build_graph();
    let present = nodes.iter().filter(|n| n.is_some()).count();
    let won: Vec<bool> = nodes.iter().map(|n| n.as_ref().is_some_and(|n| n.won)).collect();
    for (i, node) in nodes.iter().enumerate() {
        if let Some(node) = node {
            for &s in &node.successors {
                if let Successor::Node(j) = s {
                    assert!(nodes[j].is_some(), "{} after a move of {}", describe(j), describe(i));
                }
            }
            assert_eq!(bellman(node, &won), node.won, "Bellman equation fails at {}", describe(i));
        }
    }
    let mut least = vec![false; nodes.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (i, node) in nodes.iter().enumerate() {
            if let Some(node) = node {
                if !least[i] && bellman(node, &least) {
                    least[i] = true;
                    changed = true;
                }
            }
        }
    }
    if let Some(i) = (0..nodes.len()).find(|&i| least[i] != won[i]) {
        panic!("not the least fixed point: {} (bitbase says won: {})", describe(i), won[i]);
    }
    // Mirroring the files doubles the a-d count exactly.
    assert_eq!(won.iter().filter(|&&w| w).count(), 2 * WON_POSITIONS);
    // 2 x 48 x 64 x 64 placements minus overlaps, adjacent kings and Black in check with White to move.
    assert!(present > 300_000, "{present} legal positions");
}

#[test]
fn textbook_positions() {
    let draw = |f: &str| assert_eq!(exact(f), 0, "{f}");
    let win = |f: &str| assert!(exact(f) > KNOWN_WIN, "{f}");
    // The defending king in front of the pawn with the opposition.
    draw("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1");
    // Pawn on the 7th, kings e6 and e8: Black to move is stalemated; White to move wins with Kf6 Kd7,
    // Kf7.
    draw("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1");
    win("4k3/4P3/4K3/8/8/8/8/8 w - - 0 1");
    // Kd6 and e6 against Ke8: White to move wins with e7; Black to move takes the opposition with Kd8
    // (e7+ Ke8, and Ke6 is stalemate).
    win("4k3/8/3KP3/8/8/8/8/8 w - - 0 1");
    draw("4k3/8/3KP3/8/8/8/8/8 b - - 0 1");
    // Rook pawn with the defending king in the promotion corner.
    draw("k7/8/1K6/P7/8/8/8/8 w - - 0 1");
    draw("k7/8/1K6/P7/8/8/8/8 b - - 0 1");
    draw("7k/8/8/7P/8/8/8/K7 w - - 0 1");
    // The strong king on the sixth rank in front of a non-rook pawn wins whoever moves.
    win("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
    win("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1");
    // Pawn on the 7th, its king guarding the promotion square, the other king far away.
    win("8/3KP3/8/8/8/8/8/k7 w - - 0 1");
    win("8/3KP3/8/8/8/8/8/k7 b - - 0 1");
    // The rule of the square: after a5 the lone king is outside the pawn's square ...
    win("8/8/8/8/P4k2/8/8/7K w - - 0 1");
    // ... but with the move it steps into it and catches the pawn.
    draw("8/8/8/8/P4k2/8/8/7K b - - 0 1");
    // The same with Black strong, and with the pawn on the other wing: mirrored scores.
    assert_eq!(exact("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1"), -exact("4k3/4p3/4K3/8/8/8/8/8 b - - 0 1"));
    let white = exact("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
    assert_eq!(-white, exact("8/8/8/8/3p4/3k4/8/3K4 b - - 0 1"));
}

#[test]
fn advanced_pawns_score_higher() {
    let rank6 = exact("8/8/2KP4/8/8/8/8/k7 w - - 0 1");
    let rank3 = exact("8/8/8/8/8/2KP4/8/k7 w - - 0 1");
    assert!(rank6 > rank3 && rank3 > KNOWN_WIN, "{rank6} {rank3}");
    // Below a won KRK.
    assert!(rank6 < exact("k7/8/2K5/8/8/8/8/7R w - - 0 1"));
}

/// Run with `cargo test --release --lib kpk_generation_time -- --ignored --nocapture`.
#[test]
#[ignore]
fn kpk_generation_time() {
    let start = std::time::Instant::now();
    let bits = generate();
    let elapsed = start.elapsed();
    let won: u32 = bits.iter().map(|w| w.count_ones()).sum();
    println!("KPK bitbase: {won} won positions, generated in {elapsed:?}");
}
