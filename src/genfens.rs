//! `genfens`: openings for OpenBench's datagen workloads.
//!
//! OpenBench's client runs `./engine "genfens N seed S book <None|path> <extra>" "quit"` and takes
//! every stdout line `info string genfens <FEN>` as an opening for the games it then plays with
//! fastchess. Each opening is a book position (a line drawn from the EPD book) or the start
//! position, followed by random legal plies, kept only when the side to move has a legal move
//! and the quiescence score (our evaluation) is within `maxeval` either way, so no opening is
//! already lost. The same arguments and seed give the same openings on every machine.
//!
//! `<extra>`, all optional, in any order: `plies <N>` random plies after the start (default 8
//! from the start position, 4 from a book line), `spread <N>` up to N more plies at random
//! (default 1), `maxeval <cp>` (default 200). A bad argument, a missing or empty book, or
//! openings that cannot be found are reported as `info string genfens error: ...` with a non-zero
//! exit status.

use std::fmt;

use whetstone::eval::Weights;
use whetstone::movegen::legal_moves;
use whetstone::search::Quiescence;
use whetstone::types::SplitMix64;
use whetstone::Position;

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub count: usize,
    pub seed: u64,
    pub book: Option<String>,
    pub plies: Option<usize>,
    pub spread: usize,
    pub max_eval: i32,
}

#[derive(Debug, PartialEq, Eq)]
pub struct GenfensError(pub String);

impl fmt::Display for GenfensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn error<T>(message: impl Into<String>) -> Result<T, GenfensError> {
    Err(GenfensError(message.into()))
}

const USAGE: &str = "usage: genfens <N> seed <S> book <None|path> [plies <N>] [spread <N>] [maxeval <cp>]";

/// Parses `genfens N seed S book <None|path> [extra...]` (the words after `genfens`).
pub fn parse(words: &[&str]) -> Result<Request, GenfensError> {
    let number = |what: &str, word: Option<&&str>| -> Result<u64, GenfensError> {
        match word {
            Some(w) => {
                w.parse::<u64>().map_err(|_| GenfensError(format!("{what} '{w}' is not a number; {USAGE}")))
            }
            None => error(format!("{what} is missing; {USAGE}")),
        }
    };
    let count = number("N", words.first())? as usize;
    if words.get(1) != Some(&"seed") {
        return error(format!("expected 'seed' after N; {USAGE}"));
    }
    let seed = number("the seed", words.get(2))?;
    if words.get(3) != Some(&"book") {
        return error(format!("expected 'book' after the seed; {USAGE}"));
    }
    let book = match words.get(4) {
        None => return error(format!("the book is missing (None for none); {USAGE}")),
        Some(b) if b.eq_ignore_ascii_case("none") => None,
        Some(b) => Some(b.to_string()),
    };
    let mut request = Request { count, seed, book, plies: None, spread: 1, max_eval: 200 };
    let mut rest = words[5..].iter();
    while let Some(&key) = rest.next() {
        let value = number(key, rest.next())?;
        match key {
            "plies" => request.plies = Some(value as usize),
            "spread" => request.spread = value as usize,
            "maxeval" => request.max_eval = value.min(30_000) as i32,
            _ => return error(format!("unknown argument '{key}'; {USAGE}")),
        }
    }
    Ok(request)
}

/// The book's positions: one per line, the FEN's four fields (move counters or EPD operations
/// may follow); blank and `#` lines skipped.
pub fn read_book(path: &str) -> Result<Vec<String>, GenfensError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| GenfensError(format!("cannot read the book {path}: {e}")))?;
    let mut fens = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fen = line.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
        if let Err(e) = Position::from_fen(&fen) {
            return error(format!("{path}:{}: not an EPD position ({e})", n + 1));
        }
        fens.push(fen);
    }
    if fens.is_empty() {
        return error(format!("the book {path} holds no positions"));
    }
    Ok(fens)
}

/// Attempts per opening before giving up (each a new book line and new random plies).
const ATTEMPTS: usize = 1000;

/// The openings `request` asks for, from `book` (empty: the start position).
pub fn generate(request: &Request, book: &[String]) -> Result<Vec<String>, GenfensError> {
    let mut rng = SplitMix64(request.seed ^ 0x6765_6e66_656e_7321);
    let weights = Weights::default();
    let mut qs = Quiescence::default();
    let base = request.plies.unwrap_or(if book.is_empty() { 8 } else { 4 });
    let mut out = Vec::with_capacity(request.count);
    for _ in 0..request.count {
        let mut found = None;
        for _ in 0..ATTEMPTS {
            let mut pos = match book {
                [] => Position::startpos(),
                _ => Position::from_fen(&book[(rng.next_u64() % book.len() as u64) as usize])
                    .expect("checked when read"),
            };
            let plies = base + (rng.next_u64() % (request.spread as u64 + 1)) as usize;
            let mut ok = true;
            for _ in 0..plies {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    ok = false;
                    break;
                }
                pos.make_move(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
            }
            if !ok || legal_moves(&pos).is_empty() {
                continue;
            }
            // A fresh copy: the quiescence search must not see the random line's repetitions.
            let fen = pos.to_fen();
            let fresh = Position::from_fen(&fen).expect("a position's own FEN reads back");
            let (score, _) = qs.search(&fresh, &weights);
            if score.abs() <= request.max_eval {
                found = Some(fen);
                break;
            }
        }
        match found {
            Some(fen) => out.push(fen),
            None => {
                return error(format!(
                    "no opening within {} cp found in {ATTEMPTS} attempts (raise maxeval or lower plies)",
                    request.max_eval
                ))
            }
        }
    }
    Ok(out)
}

/// Runs OpenBench's command (`words` after `genfens`), printing the openings or the error as
/// `info string` lines; the exit status is non-zero on an error.
pub fn run(words: &[&str], out: &mut impl std::io::Write) -> bool {
    let result = parse(words).and_then(|request| {
        let book = match &request.book {
            Some(path) => read_book(path)?,
            None => Vec::new(),
        };
        generate(&request, &book)
    });
    match result {
        Ok(fens) => {
            for fen in fens {
                if writeln!(out, "info string genfens {fen}").is_err() {
                    return false;
                }
            }
            true
        }
        Err(e) => {
            let _ = writeln!(out, "info string genfens error: {e}");
            false
        }
    }
}

#[cfg(test)]
#[path = "genfens_tests.rs"]
mod tests;
