//! Helpers shared by the integration tests: reading the perft suites.

#![allow(dead_code)]

/// One suite line: a FEN and its published (depth, nodes) counts.
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// Parses `<fen> ;D1 20 ;D2 400 ...` lines.
pub fn read_suite(name: &str) -> Vec<PerftCase> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut f = p.split_whitespace();
                    let depth = f.next().unwrap().trim_start_matches('D').parse().unwrap();
                    let nodes = f.next().unwrap().parse().unwrap();
                    (depth, nodes)
                })
                .collect();
            PerftCase { fen, counts }
        })
        .collect()
}

/// Every FEN of both perft suites.
pub fn suite_fens() -> Vec<String> {
    read_suite("seed_perft.epd").into_iter().chain(read_suite("perftsuite.epd")).map(|c| c.fen).collect()
}
