//! Perft: counts the leaf nodes of the legal move tree, the standard test of move generation.
//! The last ply is bulk-counted (the generator adds popcounts instead of listing moves).

use std::time::{Duration, Instant};

use crate::board::Position;
use crate::types::Move;

use super::{count_legal_moves, legal_moves};

/// Leaf nodes of the legal move tree `depth` plies deep.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal_moves(pos),
        _ => {
            let moves = legal_moves(pos);
            let mut nodes = 0;
            for &m in moves.iter() {
                pos.make_move(m);
                nodes += perft(pos, depth - 1);
                pos.unmake_move(m);
            }
            nodes
        }
    }
}

/// The result of a divided perft: each root move's count, the total and the time taken.
pub struct Divide {
    pub per_move: Vec<(Move, u64)>,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Divide {
    /// Leaf nodes per second.
    pub fn nodes_per_second(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }

    /// The report Stockfish prints for `go perft`: `move: count` lines, a blank line, then
    /// `Nodes searched: N`, followed by the time and speed.
    pub fn report(&self, pos: &Position) -> String {
        let mut out = String::new();
        for &(m, n) in &self.per_move {
            out.push_str(&format!("{}: {n}\n", pos.move_to_uci(m)));
        }
        out.push_str(&format!("\nNodes searched: {}\n", self.nodes));
        out.push_str(&format!(
            "Time: {} ms, {:.1} M nodes/s\n",
            self.elapsed.as_millis(),
            self.nodes_per_second() as f64 / 1e6
        ));
        out
    }
}

/// Perft with the count of each root move listed separately ("divide").
pub fn perft_divide(pos: &mut Position, depth: u32) -> Divide {
    let start = Instant::now();
    let mut per_move = Vec::new();
    if depth > 0 {
        for &m in legal_moves(pos).iter() {
            pos.make_move(m);
            per_move.push((m, perft(pos, depth - 1)));
            pos.unmake_move(m);
        }
    }
    let nodes = if depth == 0 { 1 } else { per_move.iter().map(|&(_, n)| n).sum() };
    Divide { per_move, nodes, elapsed: start.elapsed() }
}
