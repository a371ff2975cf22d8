//! PGN games to labelled positions (`tune dataset convert games.pgn out.epd`).
//!
//! Every position of a finished game (the start position and the position after each move of the main
//! line) is a candidate, labelled with the game's result. Dropped, in this order:
//!
//! 1. `book`: the first `skip_plies` plies of the game record (default 16: the opening book);
//! 2. `in check`: the side to move is in check;
//! 3. `after capture`: the move that led here was a capture (en passant included) or a promotion;
//! 4. `not quiet`: the quiescence score differs from the static evaluation (engine weights); with
//!    `resolve` the position is instead replaced by its quiescence leaf (Texel's method), and the
//!    leaf is dropped only when it is in check (`leaf in check`, e.g. a mate);
//! 5. `duplicate`: a position already kept (same Zobrist key), from any game.
//!
//! Each kept position carries the search score of the move played from it when the game's move
//! comment gives one, as cutechess, fastchess and `tune match` write them (`{+0.35/12 0.1s}`:
//! pawns from the mover's view, then the depth); mate scores (`+M5`) and other comments give none.
//! With `resolve` the score stays with the leaf that replaces the position.
//!
//! Games with result `*` (or none) are skipped whole, and so are games with an illegal or unreadable
//! move, a bad FEN header or an unsupported variant (listed as problems). Games are replayed in parallel
//! batches; each game gets a fresh [`Quiescence`], so the output does not depend on the thread count.

use std::collections::HashSet;
use std::fmt;
use std::io::Read;
use std::ops::ControlFlow;

use anyhow::{Context, Result};
use pgn_reader::shakmaty::san::San;
use pgn_reader::shakmaty::{CastlingSide, Color as PgnColor};
use pgn_reader::{KnownOutcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use rayon::prelude::*;
use whetstone::board::castling::castle_side;
use whetstone::eval::{evaluate, Weights};
use whetstone::movegen::legal_moves;
use whetstone::search::Quiescence;
use whetstone::types::{CastleSide, MoveKind};
use whetstone::{Color, Move, PieceType, Position, Square};

use super::formats::result_index;
use super::reading::MAX_PROBLEMS;
use super::{Label, Outcome};

/// Games replayed per parallel batch.
const BATCH_GAMES: usize = 256;

/// How games become positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PgnOptions {
    /// Plies at the start of each game record that are not used (the opening book).
    pub skip_plies: usize,
    /// Replace each position by its quiescence leaf instead of dropping positions that are not quiet.
    pub resolve: bool,
}

impl Default for PgnOptions {
    fn default() -> PgnOptions {
        PgnOptions { skip_plies: 16, resolve: false }
    }
}

/// Why a position was not kept.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    Book,
    InCheck,
    AfterCapture,
    NotQuiet,
    LeafInCheck,
    Duplicate,
}

impl Reason {
    pub const ALL: [Reason; 6] = [
        Reason::Book,
        Reason::InCheck,
        Reason::AfterCapture,
        Reason::NotQuiet,
        Reason::LeafInCheck,
        Reason::Duplicate,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn describe(self) -> &'static str {
        match self {
            Reason::Book => "book (the first plies of the game)",
            Reason::InCheck => "in check",
            Reason::AfterCapture => "right after a capture or promotion",
            Reason::NotQuiet => "not quiet (quiescence score != static evaluation)",
            Reason::LeafInCheck => "quiescence leaf in check",
            Reason::Duplicate => "duplicate (same Zobrist key as a kept position)",
        }
    }
}

/// What a conversion found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnReport {
    /// Games read.
    pub games: usize,
    /// Games skipped because they have no result (`*`).
    pub unfinished: usize,
    /// Games skipped because of an illegal move, a bad FEN header or an unsupported variant.
    pub broken: usize,
    /// The first problems, one line each.
    pub problems: Vec<String>,
    /// Positions of the games used (the start position and one per move).
    pub positions: usize,
    /// Positions dropped, by [`Reason::index`].
    pub dropped: [usize; 6],
    /// Positions kept (written).
    pub kept: usize,
    /// Kept positions by result: losses, draws, wins (White's view).
    pub by_result: [usize; 3],
}

impl PgnReport {
    pub fn dropped(&self, reason: Reason) -> usize {
        self.dropped[reason.index()]
    }
}

impl fmt::Display for PgnReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let used = self.games - self.unfinished - self.broken;
        writeln!(
            f,
            "games: {} read, {used} used, {} without result (*) skipped, {} broken skipped",
            self.games, self.unfinished, self.broken
        )?;
        for problem in &self.problems {
            writeln!(f, "  {problem}")?;
        }
        if self.broken > self.problems.len() {
            writeln!(f, "  ... and {} more", self.broken - self.problems.len())?;
        }
        writeln!(f, "positions: {} in the games used", self.positions)?;
        for reason in Reason::ALL {
            writeln!(f, "  dropped {:>9}  {}", self.dropped(reason), reason.describe())?;
        }
        let [losses, draws, wins] = self.by_result;
        write!(f, "  kept    {:>9}  (1-0 {wins}, 1/2 {draws}, 0-1 {losses})", self.kept)
    }
}

/// One game as read: what replaying it needs.
#[derive(Clone, Debug, Default)]
struct Game {
    number: usize,
    white: String,
    black: String,
    fen: Option<String>,
    variant: Option<String>,
    sans: Vec<SanPlus>,
    /// Per move of `sans`: the search score its comment gave (centipawns, the mover's view).
    scores: Vec<Option<i32>>,
    /// From the movetext's termination marker; `Some(None)` for `*`.
    marker: Option<Option<Outcome>>,
    header_result: Option<String>,
}

impl Game {
    fn result(&self) -> Option<Outcome> {
        match self.marker {
            Some(marker) => marker,
            None => match self.header_result.as_deref() {
                Some("1-0") => Some(1.0),
                Some("0-1") => Some(0.0),
                Some("1/2-1/2") => Some(0.5),
                _ => None,
            },
        }
    }

    fn name(&self) -> String {
        if self.white.is_empty() && self.black.is_empty() {
            format!("game {}", self.number)
        } else {
            format!("game {} ({} - {})", self.number, self.white, self.black)
        }
    }
}

/// The pgn-reader visitor: collects one game's headers and main-line moves.
#[derive(Default)]
struct Collector {
    count: usize,
    game: Game,
}

impl Visitor for Collector {
    // The game is built in `self.game`; tags and movetext carry nothing of their own.
    type Tags = ();
    type Movetext = ();
    type Output = Game;

    fn begin_tags(&mut self) -> ControlFlow<Game> {
        self.count += 1;
        self.game = Game { number: self.count, ..Game::default() };
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<Game> {
        let text = || value.decode_utf8_lossy().trim().to_string();
        match name {
            b"White" => self.game.white = text(),
            b"Black" => self.game.black = text(),
            b"FEN" => self.game.fen = Some(text()),
            b"Variant" => self.game.variant = Some(text()),
            b"Result" => self.game.header_result = Some(text()),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Game> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _movetext: &mut (), san_plus: SanPlus) -> ControlFlow<Game> {
        self.game.sans.push(san_plus);
        self.game.scores.push(None);
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _movetext: &mut (), comment: RawComment<'_>) -> ControlFlow<Game> {
        // The first comment after a move is its engine's; a later one (the termination reason
        // after the last move) must not overwrite it.
        if let Some(slot @ None) = self.game.scores.last_mut() {
            *slot = parse_score_comment(&String::from_utf8_lossy(comment.as_bytes()));
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut ()) -> ControlFlow<Game, Skip> {
        ControlFlow::Continue(Skip(true)) // the main line only
    }

    fn outcome(&mut self, _movetext: &mut (), outcome: pgn_reader::Outcome) -> ControlFlow<Game> {
        self.game.marker = Some(outcome.known().map(|o| match o {
            KnownOutcome::Decisive { winner: PgnColor::White } => 1.0,
            KnownOutcome::Decisive { winner: PgnColor::Black } => 0.0,
            KnownOutcome::Draw => 0.5,
        }));
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _movetext: ()) -> Game {
        std::mem::take(&mut self.game)
    }
}

/// A PGN reader that reads every comment and tag line pgn-reader 0.26 could (its 16 KiB
/// read-ahead buffer bounded them): the newer default of 255 bytes would refuse long engine
/// comments, such as OpenBench's with a principal variation.
pub(crate) fn games_reader<R: Read>(reader: R) -> Reader<R> {
    Reader::build(reader)
        .set_supported_comment_length(PGN_TOKEN_BYTES)
        .set_supported_tag_line_length(PGN_TOKEN_BYTES)
        .finish()
}

/// The longest comment or tag line [`games_reader`] is sure to read whole.
const PGN_TOKEN_BYTES: usize = 16 * 1024;

/// A move comment's search score, `+0.35/12 0.123s` (cutechess and `tune match`), `0.35/12` or
/// OpenBench's compact `+0.35/12, line=...`:
/// pawns from the mover's view, a slash and the depth. Centipawns, or None for a mate score
/// (`+M5/20`), a book move or any other comment.
pub fn parse_score_comment(comment: &str) -> Option<i32> {
    // OpenBench's compact form ends the score with a comma when a `line=` follows.
    let first = comment.split_whitespace().next()?.trim_end_matches(',');
    let (score, depth) = first.split_once('/')?;
    depth.parse::<u32>().ok()?;
    let digits = score.strip_prefix(['+', '-']).unwrap_or(score);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None; // a mate (`M5`) or not a score at all
    }
    let pawns: f64 = score.parse().ok()?;
    let cp = (pawns * 100.0).round();
    (cp.abs() <= 30_000.0).then_some(cp as i32)
}

/// A position that passed the per-game filters, waiting for the duplicate check.
#[derive(Clone, Debug)]
struct Candidate {
    fen: String,
    key: u64,
    /// The search score of the move played from the game's position here (White's view).
    score: Option<i32>,
}

/// One game replayed.
#[derive(Debug, Default)]
struct Replayed {
    positions: usize,
    dropped: [usize; 6],
    candidates: Vec<Candidate>,
}

/// Every position of a game with its fate (`None`: a candidate, kept unless a duplicate): the per-game
/// filters, in order. With `resolve`, a candidate's FEN is its quiescence leaf's.
fn replay(
    game: &Game,
    options: &PgnOptions,
    weights: &Weights,
) -> Result<Vec<(Candidate, Option<Reason>)>, String> {
    let mut pos = match &game.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN header '{fen}': {e}"))?,
        None => Position::startpos(),
    };
    match game.variant.as_deref().map(|v| v.to_ascii_lowercase()) {
        None => {}
        Some(v) if v == "standard" || v.is_empty() || v == "from position" => {}
        Some(v) if v.contains("960") || v.contains("fischer") || v.contains("frc") => pos.set_chess960(true),
        Some(_) => {
            return Err(format!("variant '{}' is not supported", game.variant.as_deref().unwrap_or("")))
        }
    }
    let mut qs = Quiescence::default();
    let mut out = Vec::with_capacity(game.sans.len() + 1);
    let mut after_noisy = false;
    for ply in 0..=game.sans.len() {
        let white_view = if pos.side_to_move() == Color::White { 1 } else { -1 };
        let move_score = game.scores.get(ply).copied().flatten().map(|s| s * white_view);
        let reason = if ply < options.skip_plies {
            Some(Reason::Book)
        } else if pos.in_check() {
            Some(Reason::InCheck)
        } else if after_noisy {
            Some(Reason::AfterCapture)
        } else {
            None
        };
        let candidate = match reason {
            Some(reason) => {
                (Candidate { fen: String::new(), key: pos.key(), score: move_score }, Some(reason))
            }
            None => {
                // A copy without the game's history: the quiescence search must not see repetitions.
                let fen = pos.to_fen();
                let fresh = Position::from_fen(&fen)
                    .map_err(|e| format!("position {fen} after ply {ply} does not read back: {e}"))?;
                if options.resolve {
                    let leaf = qs.leaf(&fresh, weights);
                    let reason = leaf.in_check().then_some(Reason::LeafInCheck);
                    (Candidate { fen: leaf.to_fen(), key: leaf.key(), score: move_score }, reason)
                } else {
                    let (score, _) = qs.search(&fresh, weights);
                    let reason = (score != evaluate(&fresh, weights)).then_some(Reason::NotQuiet);
                    (Candidate { fen, key: fresh.key(), score: move_score }, reason)
                }
            }
        };
        out.push(candidate);
        let Some(san) = game.sans.get(ply) else { break };
        let m = find_move(&pos, &san.san).map_err(|e| {
            let dots = if pos.side_to_move() == Color::White { "." } else { "..." };
            let number = format!("{}{dots}", pos.fullmove_number());
            format!("move {number} {san}: {e} (in {})", pos.to_fen())
        })?;
        after_noisy = m.kind() == MoveKind::EnPassant
            || m.kind() == MoveKind::Promotion
            || (m.kind() != MoveKind::Castling && pos.piece_on(m.to()).is_some());
        pos.make_move(m);
    }
    Ok(out)
}

fn replay_counted(game: &Game, options: &PgnOptions, weights: &Weights) -> Result<Replayed, String> {
    let mut replayed = Replayed::default();
    for (candidate, reason) in replay(game, options, weights)? {
        replayed.positions += 1;
        match reason {
            Some(reason) => replayed.dropped[reason.index()] += 1,
            None => replayed.candidates.push(candidate),
        }
    }
    Ok(replayed)
}

/// The legal move a SAN names.
pub(crate) fn find_move(pos: &Position, san: &San) -> Result<Move, String> {
    let moves = legal_moves(pos);
    let matching: Vec<Move> = match *san {
        San::Normal { role, file, rank, capture: _, to, promotion } => {
            let role = PieceType::from_letter(role.char()).expect("a shakmaty role has a letter");
            let promotion = promotion.map(|p| PieceType::from_letter(p.char()).expect("a role letter"));
            let to = Square::new(to as u8);
            moves
                .iter()
                .copied()
                .filter(|m| {
                    m.kind() != MoveKind::Castling
                        && m.to() == to
                        && pos.piece_on(m.from()).map(|p| p.piece_type()) == Some(role)
                        && file.is_none_or(|f| m.from().file() == f as u8)
                        && rank.is_none_or(|r| m.from().rank() == r as u8)
                        && m.promotion_piece() == promotion
                })
                .collect()
        }
        San::Castle(side) => {
            let side = match side {
                CastlingSide::KingSide => CastleSide::King,
                CastlingSide::QueenSide => CastleSide::Queen,
            };
            moves
                .iter()
                .copied()
                .filter(|m| m.kind() == MoveKind::Castling && castle_side(m.from(), m.to()) == side)
                .collect()
        }
        San::Put { .. } => return Err("piece drops are not chess".to_string()),
        San::Null => return Err("null moves are not supported".to_string()),
    };
    match matching.as_slice() {
        [m] => Ok(*m),
        [] => Err("illegal".to_string()),
        _ => Err("ambiguous".to_string()),
    }
}

/// Reads PGN games from `reader` and calls `emit(fen, label)` for every kept position, in game order.
// The library's entry point for one PGN stream; the commands read PGN through `openbench.rs`,
// which dedupes across an archive's members with `extract_unseen`.
pub fn extract(
    reader: impl Read,
    options: &PgnOptions,
    emit: impl FnMut(&str, Label) -> Result<()>,
) -> Result<PgnReport> {
    extract_unseen(reader, options, &mut HashSet::new(), emit)
}

/// As [`extract`], with the keys of positions already kept elsewhere in `seen` (a run that adds
/// games to a dataset in batches deduplicates across all of them); kept keys are added to it.
pub fn extract_unseen(
    reader: impl Read,
    options: &PgnOptions,
    seen: &mut HashSet<u64>,
    mut emit: impl FnMut(&str, Label) -> Result<()>,
) -> Result<PgnReport> {
    let weights = Weights::default();
    let mut reader = games_reader(reader);
    let mut collector = Collector::default();
    let mut report = PgnReport::default();
    loop {
        let mut batch = Vec::with_capacity(BATCH_GAMES);
        while batch.len() < BATCH_GAMES {
            let game = reader
                .read_game(&mut collector)
                .with_context(|| format!("reading PGN game {}", collector.count + 1))?;
            match game {
                Some(game) => batch.push(game),
                None => break,
            }
        }
        if batch.is_empty() {
            break;
        }
        let replayed: Vec<Option<Result<Replayed, String>>> = batch
            .par_iter()
            .map(|game| game.result().map(|_| replay_counted(game, options, &weights)))
            .collect();
        for (game, replayed) in batch.iter().zip(replayed) {
            report.games += 1;
            let replayed = match replayed {
                None => {
                    report.unfinished += 1;
                    continue;
                }
                Some(Err(problem)) => {
                    report.broken += 1;
                    if report.problems.len() < MAX_PROBLEMS {
                        report.problems.push(format!("{}: {problem}", game.name()));
                    }
                    continue;
                }
                Some(Ok(replayed)) => replayed,
            };
            let outcome = game.result().expect("only finished games are replayed");
            report.positions += replayed.positions;
            for (total, n) in report.dropped.iter_mut().zip(replayed.dropped) {
                *total += n;
            }
            for candidate in replayed.candidates {
                if !seen.insert(candidate.key) {
                    report.dropped[Reason::Duplicate.index()] += 1;
                    continue;
                }
                emit(&candidate.fen, Label { outcome, score: candidate.score })?;
                report.kept += 1;
                report.by_result[result_index(outcome)] += 1;
            }
        }
    }
    Ok(report)
}

#[cfg(test)]
#[path = "pgn_tests.rs"]
mod tests;
