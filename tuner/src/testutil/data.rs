//! Positions and datasets for tests: seeded random play, its traces split for a fit, and the first
//! positions of the bundled TCEC set as a small dataset file.

use std::path::PathBuf;

use whetstone::eval::trace;
use whetstone::movegen::legal_moves;
use whetstone::Position;

use crate::model::store::{Compact, TraceStore};
use crate::model::{split, Data};

/// A seeded xorshift generator: the same seed, the same numbers.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Positions from seeded random games (captures happen, so material varies).
pub fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    random_positions_of_length(count, seed, 10, 80)
}

/// The same, each game `min + (0..spread)` plies long: longer games reach end games.
pub fn random_positions_of_length(count: usize, seed: u64, min: u64, spread: u64) -> Vec<Position> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::startpos();
        for _ in 0..(min + rng.next() % spread) {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.as_slice()[(rng.next() % moves.len() as u64) as usize]);
        }
        out.push(Position::from_fen(&pos.to_fen()).unwrap());
    }
    out
}

/// The traces of 3,000 random positions with results in turn.
pub fn random_trace_store() -> TraceStore {
    let positions = random_positions(3000, 3);
    let compacts: Vec<Compact> =
        positions.iter().enumerate().map(|(i, p)| Compact::new(&trace(p), [0.0, 0.5, 1.0][i % 3])).collect();
    TraceStore::from_compacts(&compacts)
}

/// [`random_trace_store`] split for a fit, a fifth held out.
pub fn random_trace_data() -> Data {
    split(&random_trace_store(), 0.2, 1)
}

/// The first 4,000 positions of the bundled TCEC set, written once per test process to one file
/// in the temporary directory that every test process rewrites whole (to a file of its own, then
/// renamed over it), so no run leaves a file of its own behind.
pub fn small_dataset() -> PathBuf {
    static PATH: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let text = std::fs::read_to_string(super::repo_file("datasets/tcec-quiet-50k.epd")).unwrap();
        let lines: Vec<&str> = text.lines().take(4000).collect();
        let path = std::env::temp_dir().join("whetstone-small-dataset.epd");
        let part = std::env::temp_dir().join(format!("whetstone-small-dataset-{}.part", std::process::id()));
        std::fs::write(&part, lines.join("\n") + "\n").unwrap();
        std::fs::rename(&part, &path).unwrap();
        path
    })
    .clone()
}
