//! `bench`: a fixed set of positions searched to a fixed depth with one thread and a fresh
//! 16 MB table. The node count is a signature of the search (it changes only when search
//! behaviour changes); the last line is `<nodes> nodes <nps> nps`, the format OpenBench reads.

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

use crate::board::Position;
use crate::eval::Weights;
use crate::search::history::History;
use crate::search::tt::TranspositionTable;
use crate::search::{run, Limits, SearchParams, Shared};

pub const BENCH_DEPTH: i32 = 11;

/// Opening, middle-game and end-game positions, including the perft classics.
pub const BENCH_FENS: [&str; 16] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/8 b - - 0 1",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "8/8/8/5k2/8/3K4/4P3/8 w - - 0 1",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "8/3k4/3p4/p2P1p2/P2P1P2/8/8/3K4 w - - 0 1",
];

/// Runs the bench; returns (nodes, nodes per second) and writes a line per position to `out`.
pub fn run_bench(depth: i32, out: &mut dyn std::io::Write) -> std::io::Result<(u64, u64)> {
    run_bench_with(&Weights::default(), &SearchParams::default(), depth, out)
}

/// The bench of other values than the build's: the signature a build baked with them would
/// print (the tuner writes it beside a verified result, as a hand-made change's test lists it).
pub fn run_bench_with(
    weights: &Weights,
    params: &SearchParams,
    depth: i32,
    out: &mut dyn std::io::Write,
) -> std::io::Result<(u64, u64)> {
    let mut total = 0;
    let start = Instant::now();
    for (i, fen) in BENCH_FENS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench FENs are valid");
        let tt = TranspositionTable::new(16);
        let (stop, pondering) = (AtomicBool::new(false), AtomicBool::new(false));
        let shared = Shared { tt: &tt, stop: &stop, pondering: &pondering, nodes: AtomicU64::new(0) };
        let mut histories = vec![History::default()];
        let result =
            run(&pos, weights, params, &shared, &mut histories, &Limits::depth(depth), 0, 1, &mut |_| {});
        total += result.nodes;
        writeln!(
            out,
            "position {:2}/{}: {:>9} nodes  bestmove {:<6} score {}",
            i + 1,
            BENCH_FENS.len(),
            result.nodes,
            pos.move_to_uci(result.best_move),
            result.score
        )?;
    }
    let nps = (total as f64 / start.elapsed().as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "{total} nodes {nps} nps")?;
    Ok((total, nps))
}
