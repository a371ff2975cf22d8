//! Opening books, as fastchess reads them: EPD (one position per line) or PGN (each game's main
//! line), taken in file order or in a seeded random order, each opening played by a game pair.

use std::ops::ControlFlow;
use std::path::Path;

use anyhow::{bail, Context, Result};
use pgn_reader::{RawTag, SanPlus, Skip, Visitor};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use whetstone::movegen::legal_moves;
use whetstone::Position;

use crate::dataset::pgn::{find_move, games_reader};

/// One opening: the position a game pair starts from (after the book line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Full FEN with move counters.
    pub fen: String,
    /// Where it came from (`book.epd:17`, `book.pgn game 3`), for error messages and the PGN.
    pub source: String,
}

/// The order a book's openings are played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BookOrder {
    Sequential,
    Random,
}

impl BookOrder {
    pub const ALL: [BookOrder; 2] = [BookOrder::Sequential, BookOrder::Random];

    /// The order's name, as the command line and run.json write it.
    pub fn name(self) -> &'static str {
        match self {
            BookOrder::Sequential => "sequential",
            BookOrder::Random => "random",
        }
    }
}

impl std::fmt::Display for BookOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BookOrder {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<BookOrder, String> {
        BookOrder::ALL
            .into_iter()
            .find(|o| o.name() == text)
            .ok_or_else(|| format!("`{text}` is no book order (sequential or random)"))
    }
}

/// The default book compiled into `tune`: 1,000 positions of Stockfish's noob_3moves book.
const DEFAULT_BOOK: &str = include_str!("default_book.epd");

/// Reads a book by its extension: `.pgn` (every game's main line from its start position or
/// `FEN` tag, at most `plies` plies of each) or anything else as EPD (four FEN fields, optional
/// move counters, then EPD operations, which are ignored; blank and `#` lines skipped). A broken
/// entry is an error naming the file and line or game; positions with no legal move are refused.
pub fn load(path: &Path, plies: Option<usize>) -> Result<Vec<Opening>> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read opening book {name}"))?;
    let openings = if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")) {
        read_pgn(&text, &name, plies)?
    } else {
        read_epd(&text, &name)?
    };
    if openings.is_empty() {
        bail!("opening book {name} holds no position");
    }
    Ok(openings)
}

/// The built-in book.
pub fn default_book() -> Vec<Opening> {
    read_epd(DEFAULT_BOOK, "default_book.epd").expect("the built-in book is checked by a test")
}

fn read_epd(text: &str, name: &str) -> Result<Vec<Opening>> {
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let source = format!("{name}:{}", n + 1);
        let fen = epd_fen(line);
        let pos = Position::from_fen(&fen).map_err(|e| anyhow::anyhow!("{source}: bad FEN '{fen}': {e}"))?;
        openings.push(playable(pos, source)?);
    }
    Ok(openings)
}

/// The FEN part of an EPD line: four fields, plus the move counters when the next two are numbers.
fn epd_fen(line: &str) -> String {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let counters = fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    let take = if counters { 6 } else { 4 };
    let mut fen = fields.iter().take(take).copied().collect::<Vec<_>>().join(" ");
    if !counters {
        fen.push_str(" 0 1");
    }
    fen
}

/// An opening from a position, refused when the game would already be over.
fn playable(pos: Position, source: String) -> Result<Opening> {
    if legal_moves(&pos).is_empty() {
        bail!("{source}: the position has no legal move (mate or stalemate)");
    }
    Ok(Opening { fen: pos.to_fen(), source })
}

/// A PGN game's start position and main-line moves.
#[derive(Default)]
struct BookGame {
    fen: Option<String>,
    sans: Vec<SanPlus>,
}

#[derive(Default)]
struct Collector {
    game: BookGame,
}

impl Visitor for Collector {
    // The game is built in `self.game`; tags and movetext carry nothing of their own.
    type Tags = ();
    type Movetext = ();
    type Output = BookGame;

    fn begin_tags(&mut self) -> ControlFlow<BookGame> {
        self.game = BookGame::default();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<BookGame> {
        if name.eq_ignore_ascii_case(b"FEN") {
            self.game.fen = Some(value.decode_utf8_lossy().into_owned());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<BookGame> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _movetext: &mut (), san_plus: SanPlus) -> ControlFlow<BookGame> {
        self.game.sans.push(san_plus);
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut ()) -> ControlFlow<BookGame, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, _movetext: ()) -> BookGame {
        std::mem::take(&mut self.game)
    }
}

fn read_pgn(text: &str, name: &str, plies: Option<usize>) -> Result<Vec<Opening>> {
    let mut reader = games_reader(text.as_bytes());
    let mut collector = Collector::default();
    let mut openings = Vec::new();
    let mut number = 0;
    while let Some(game) = reader.read_game(&mut collector).with_context(|| format!("reading {name}"))? {
        number += 1;
        let source = format!("{name} game {number}");
        let mut pos = match &game.fen {
            Some(fen) => {
                Position::from_fen(fen).map_err(|e| anyhow::anyhow!("{source}: bad FEN tag '{fen}': {e}"))?
            }
            None => Position::startpos(),
        };
        for san in game.sans.iter().take(plies.unwrap_or(usize::MAX)) {
            let m = find_move(&pos, &san.san).map_err(|e| anyhow::anyhow!("{source}: move {san}: {e}"))?;
            pos.make_move(m);
        }
        openings.push(playable(pos, source)?);
    }
    Ok(openings)
}

/// The opening of each of `pairs` game pairs, as indices into a book of `book_len` openings,
/// starting at `start`: in file order (wrapping around), or in a seeded random order (a
/// permutation of the whole book, drawn anew at each wrap, so no opening repeats before all
/// were used). The same arguments give the same list on every machine.
pub fn schedule(book_len: usize, pairs: usize, order: BookOrder, seed: u64, start: usize) -> Vec<usize> {
    if book_len == 0 {
        return Vec::new();
    }
    match order {
        BookOrder::Sequential => (0..pairs).map(|i| (start + i) % book_len).collect(),
        BookOrder::Random => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut out = Vec::with_capacity(pairs);
            let mut cycle: Vec<usize> = (0..book_len).collect();
            while out.len() < pairs + start {
                cycle.shuffle(&mut rng);
                out.extend_from_slice(&cycle);
            }
            out.drain(..start);
            out.truncate(pairs);
            out
        }
    }
}

#[cfg(test)]
#[path = "book_tests.rs"]
mod tests;
