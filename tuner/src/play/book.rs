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
mod tests {
    use super::*;
    use crate::dataset::testutil::TempDir;

    fn write(dir: &TempDir, name: &str, text: &str) -> std::path::PathBuf {
        let path = dir.path(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn epd_lines_with_and_without_counters_and_operations() {
        let dir = TempDir::new("book-epd");
        let path = write(
            &dir,
            "b.epd",
            "# a comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 c0 \"e4\";\n\
             rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
             rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - id \"x\";\n",
        );
        let book = load(&path, None).unwrap();
        assert_eq!(book.len(), 3);
        assert_eq!(book[0].fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(book[1].fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert!(book[2].fen.ends_with(" b KQkq - 0 1"), "{}", book[2].fen);
        assert!(book[0].source.ends_with("b.epd:3"), "{}", book[0].source);
    }

    #[test]
    fn broken_entries_name_file_and_line() {
        let dir = TempDir::new("book-bad");
        let path =
            write(&dir, "bad.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen\n");
        let error = format!("{:#}", load(&path, None).unwrap_err());
        assert!(error.contains("bad.epd:2") && error.contains("not a fen"), "{error}");
        let mate = write(&dir, "mate.epd", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n");
        assert!(format!("{:#}", load(&mate, None).unwrap_err()).contains("no legal move"));
        let empty = write(&dir, "empty.epd", "# nothing\n");
        assert!(format!("{:#}", load(&empty, None).unwrap_err()).contains("no position"));
        let missing = dir.path("missing.epd");
        assert!(format!("{:#}", load(&missing, None).unwrap_err()).contains("missing.epd"));
        let pgn = write(
            &dir,
            "bad.pgn",
            "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 2. Qh5 Kf9 *\n",
        );
        let error = format!("{:#}", load(&pgn, None).unwrap_err());
        assert!(error.contains("bad.pgn game 2"), "{error}");
    }

    #[test]
    fn pgn_games_are_played_to_their_end_or_the_ply_limit() {
        let dir = TempDir::new("book-pgn");
        let path = write(
            &dir,
            "b.pgn",
            "[Event \"1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O 1/2-1/2\n\n\
             [Event \"2\"]\n[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. b8=Q+ Kd7 *\n",
        );
        let book = load(&path, None).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book[0].fen, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4");
        assert_eq!(book[1].fen, "1Q6/3k4/8/8/8/8/8/4K3 w - - 1 2");
        let short = load(&path, Some(2)).unwrap();
        assert_eq!(short[0].fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    }

    #[test]
    fn the_default_book_is_1000_distinct_playable_positions() {
        let book = default_book();
        assert_eq!(book.len(), 1000);
        let distinct: std::collections::HashSet<&str> = book.iter().map(|o| o.fen.as_str()).collect();
        assert_eq!(distinct.len(), 1000);
    }

    #[test]
    fn schedules_wrap_and_random_ones_are_seeded_permutations() {
        assert_eq!(schedule(3, 7, BookOrder::Sequential, 0, 1), [1, 2, 0, 1, 2, 0, 1]);
        let a = schedule(10, 25, BookOrder::Random, 7, 0);
        assert_eq!(a, schedule(10, 25, BookOrder::Random, 7, 0));
        assert_ne!(a, schedule(10, 25, BookOrder::Random, 8, 0));
        for cycle in a.chunks(10).take(2) {
            let mut sorted = cycle.to_vec();
            sorted.sort();
            assert_eq!(sorted, (0..10).collect::<Vec<_>>(), "each cycle uses every opening once");
        }
        assert_eq!(schedule(10, 5, BookOrder::Random, 7, 3), a[3..8]);
    }

    /// The books of ../shared/data/books, when present (CI has them beside the repository).
    #[test]
    fn the_shared_books_load() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/books");
        if !dir.exists() {
            eprintln!("skipped: {} is absent", dir.display());
            return;
        }
        assert_eq!(load(&dir.join("noob_3moves.epd"), None).unwrap().len(), 150_932);
        let pgn = load(&dir.join("8moves_v3.pgn"), None).unwrap();
        assert_eq!(pgn.len(), 34_700);
        assert!(pgn.iter().all(|o| o.fen.contains(" w ")), "16 plies: White to move");
    }
}
