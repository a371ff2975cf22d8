//! Independent oracle: the shakmaty crate. Over more than 100,000 positions reached by seeded
//! random play from every perft-suite position, our legal move sets, FEN output, check detection
//! and SAN equal shakmaty's; the incremental keys equal keys computed from scratch; the staged
//! generators partition the legal moves; and unmaking every move restores the start exactly.

mod common;

use std::collections::BTreeSet;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};
use whetstone::movegen::{gives_check, legal_moves, noisy_moves, quiet_checks, quiet_non_checks, MoveList};
use whetstone::types::MoveKind;
use whetstone::{Move, Position};

/// SplitMix64: a seeded, reproducible choice of moves.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Chess960 starting positions (X-FEN), a seeded sample of the 960.
const CHESS960_STARTS: [&str; 24] = [
    "nnbqrbkr/pppppppp/8/8/8/8/PPPPPPPP/NNBQRBKR w KQkq - 0 1",
    "bnnbrqkr/pppppppp/8/8/8/8/PPPPPPPP/BNNBRQKR w KQkq - 0 1",
    "nnrqbkrb/pppppppp/8/8/8/8/PPPPPPPP/NNRQBKRB w KQkq - 0 1",
    "nnbrkqrb/pppppppp/8/8/8/8/PPPPPPPP/NNBRKQRB w KQkq - 0 1",
    "nnrkbbqr/pppppppp/8/8/8/8/PPPPPPPP/NNRKBBQR w KQkq - 0 1",
    "nbnrbkrq/pppppppp/8/8/8/8/PPPPPPPP/NBNRBKRQ w KQkq - 0 1",
    "nbnrkrbq/pppppppp/8/8/8/8/PPPPPPPP/NBNRKRBQ w KQkq - 0 1",
    "bbqnrnkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRNKR w KQkq - 0 1",
    "nrnqbbkr/pppppppp/8/8/8/8/PPPPPPPP/NRNQBBKR w KQkq - 0 1",
    "nqrkbnrb/pppppppp/8/8/8/8/PPPPPPPP/NQRKBNRB w KQkq - 0 1",
    "nrbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBNR w KQkq - 0 1",
    "nrqkbrnb/pppppppp/8/8/8/8/PPPPPPPP/NRQKBRNB w KQkq - 0 1",
    "nrbkrbnq/pppppppp/8/8/8/8/PPPPPPPP/NRBKRBNQ w KQkq - 0 1",
    "rbbqnnkr/pppppppp/8/8/8/8/PPPPPPPP/RBBQNNKR w KQkq - 0 1",
    "rbnqnkbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQNKBR w KQkq - 0 1",
    "brnnqbkr/pppppppp/8/8/8/8/PPPPPPPP/BRNNQBKR w KQkq - 0 1",
    "rbnnqkbr/pppppppp/8/8/8/8/PPPPPPPP/RBNNQKBR w KQkq - 0 1",
    "rnbqknrb/pppppppp/8/8/8/8/PPPPPPPP/RNBQKNRB w KQkq - 0 1",
    "rbbnknqr/pppppppp/8/8/8/8/PPPPPPPP/RBBNKNQR w KQkq - 0 1",
    "rbbnknrq/pppppppp/8/8/8/8/PPPPPPPP/RBBNKNRQ w KQkq - 0 1",
    "rbbqnkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBQNKRN w KQkq - 0 1",
    "rnkrbbnq/pppppppp/8/8/8/8/PPPPPPPP/RNKRBBNQ w KQkq - 0 1",
    "rbknbrqn/pppppppp/8/8/8/8/PPPPPPPP/RBKNBRQN w KQkq - 0 1",
    "brkrnqnb/pppppppp/8/8/8/8/PPPPPPPP/BRKRNQNB w KQkq - 0 1",
];

fn shakmaty_position(fen: &str, mode: CastlingMode) -> Chess {
    // Some suite positions have checks shakmaty considers unreachable; they are still legal setups.
    Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(mode)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .unwrap()
}

fn our_move_set(pos: &Position) -> BTreeSet<String> {
    // In Chess960 mode castling prints as king-takes-rook, as shakmaty's Chess960 mode does.
    legal_moves(pos).iter().map(|&m| pos.move_to_uci(m)).collect()
}

fn their_move_set(pos: &Chess, mode: CastlingMode) -> BTreeSet<String> {
    pos.legal_moves().iter().map(|m| m.to_uci(mode).to_string()).collect()
}

/// The staged generators are disjoint and together give exactly the legal moves.
fn assert_stages_partition(pos: &Position) {
    let all = legal_moves(pos);
    let (mut noisy, mut checks, mut quiets) = (MoveList::new(), MoveList::new(), MoveList::new());
    noisy_moves(pos, &mut noisy);
    quiet_checks(pos, &mut checks);
    quiet_non_checks(pos, &mut quiets);
    let mut union: Vec<Move> = noisy.iter().chain(checks.iter()).chain(quiets.iter()).copied().collect();
    let mut expected: Vec<Move> = all.iter().copied().collect();
    union.sort_by_key(|m| m.raw());
    expected.sort_by_key(|m| m.raw());
    assert_eq!(union, expected, "stages do not partition the legal moves of {}", pos.to_fen());
    let is_capture = |m: &Move| match m.kind() {
        MoveKind::Castling => false, // encoded king-takes-own-rook
        MoveKind::EnPassant => true,
        _ => pos.piece_on(m.to()).is_some(),
    };
    for m in noisy.iter() {
        assert!(is_capture(m) || m.promotion_piece() == Some(whetstone::PieceType::Queen), "{m:?}");
    }
    for m in checks.iter().chain(quiets.iter()) {
        assert!(!is_capture(m), "{m:?} is a capture in a quiet stage");
    }
    assert!(checks.iter().all(|&m| gives_check(pos, m)));
}

#[test]
fn random_play_agrees_with_shakmaty() {
    let reached = random_walks(&common::suite_fens(), CastlingMode::Standard, 100_000, 20261122);
    assert!(reached >= 100_000);
}

#[test]
fn chess960_random_play_agrees_with_shakmaty() {
    let starts: Vec<String> = CHESS960_STARTS.iter().map(|s| s.to_string()).collect();
    let reached = random_walks(&starts, CastlingMode::Chess960, 20_000, 960);
    assert!(reached >= 20_000);
}

/// Plays seeded random games from `starts` (round robin) until `target` positions were
/// compared with shakmaty; returns how many were.
fn random_walks(starts: &[String], mode: CastlingMode, target: usize, seed: u64) -> usize {
    let chess960 = mode == CastlingMode::Chess960;
    let mut rng = Rng(seed);
    let mut positions = 0usize;
    let mut game = 0usize;
    while positions < target {
        let start = &starts[game % starts.len()];
        game += 1;
        let mut ours = Position::from_fen(start).unwrap();
        ours.set_chess960(chess960);
        let mut theirs = shakmaty_position(start, mode);
        let start_key = ours.key();
        let mut played = Vec::new();
        for ply in 0..200 {
            positions += 1;
            assert_eq!(
                our_move_set(&ours),
                their_move_set(&theirs, mode),
                "move sets differ in {}",
                ours.to_fen()
            );
            if !chess960 {
                let their_fen = Fen::from_position(&theirs, EnPassantMode::PseudoLegal).to_string();
                assert_eq!(ours.to_fen(), their_fen);
            }
            assert!(ours.is_consistent(), "{}: {}", ours.to_fen(), ours.integrity_report());
            assert_eq!(ours.in_check(), theirs.is_check());
            if positions % 8 == 0 {
                assert_stages_partition(&ours);
            }

            let mut moves: Vec<Move> = legal_moves(&ours).iter().copied().collect();
            if moves.is_empty() || ours.halfmove_clock() >= 100 {
                break;
            }
            moves.sort_by_key(|&m| ours.move_to_uci(m));
            // Checks and SAN of every move, on a sample of positions (they cost a clone each).
            if ply % 4 == 0 {
                for &m in &moves {
                    let uci = ours.move_to_uci(m);
                    let theirs_move =
                        uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&theirs).unwrap();
                    let mut after = theirs.clone();
                    after.play_unchecked(theirs_move);
                    assert_eq!(
                        gives_check(&ours, m),
                        after.is_check(),
                        "gives_check {uci} in {}",
                        ours.to_fen()
                    );
                    let san = SanPlus::from_move(theirs.clone(), theirs_move).to_string();
                    assert_eq!(ours.move_to_san(m), san, "SAN of {uci} in {}", ours.to_fen());
                }
            }
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            let uci = ours.move_to_uci(m);
            let theirs_move = uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&theirs).unwrap();
            ours.make_move(m);
            theirs.play_unchecked(theirs_move);
            played.push(m);
        }
        while let Some(m) = played.pop() {
            ours.unmake_move(m);
        }
        assert_eq!(ours.to_fen(), Position::from_fen(start).unwrap().to_fen());
        assert_eq!(ours.key(), start_key);
    }
    positions
}

#[test]
fn shallow_perft_agrees_with_shakmaty() {
    for fen in common::suite_fens() {
        let mut ours = Position::from_fen(&fen).unwrap();
        let theirs = shakmaty_position(&fen, CastlingMode::Standard);
        for depth in 1..=3 {
            assert_eq!(
                whetstone::movegen::perft::perft(&mut ours, depth),
                shakmaty::perft(&theirs, depth),
                "{fen} d{depth}"
            );
        }
    }
}

/// The staged generators partition the legal moves in every perft-suite position (and its
/// colour flip), and in every position one and two plies below them.
#[test]
fn staged_generators_partition_every_suite_position() {
    fn walk(pos: &mut Position, depth: u32, visited: &mut usize) {
        assert_stages_partition(pos);
        *visited += 1;
        if depth > 0 {
            for &m in legal_moves(pos).iter() {
                pos.make_move(m);
                walk(pos, depth - 1, visited);
                pos.unmake_move(m);
            }
        }
    }
    let mut visited = 0;
    for fen in common::suite_fens() {
        let mut pos = Position::from_fen(&fen).unwrap();
        walk(&mut pos, 2, &mut visited);
        walk(&mut pos.flipped(), 2, &mut visited);
    }
    assert!(visited > 50_000, "{visited}");
}
