//! viriformat (Viridithas's game chains) through the `viriformat` crate.
//!
//! A game is a 32-byte marlinformat board (the start position, the game's result for White:
//! 2 win, 1 draw, 0 loss), then per move 2 bytes of move and 2 bytes of the search score of the
//! position the move was played from (centipawns, White's view), then four zero bytes. The
//! positions of a game are those a move was played from: the last position of a game is not one.
//!
//! Reading: the crate decodes each game and unpacks its board; we check the 32 header bytes
//! first (the crate's unpacking panics on some corrupt codes), rebuild the start as our
//! `Position` from the crate's FEN, and replay every move through our legality check (the crate
//! checks legality itself only in debug builds). A broken game is named by its byte offset and
//! number and skipped whole; with `skip_broken` the file reads on after it (the game's end
//! marker delimits it).
//!
//! Writing: consecutive positions with the same result that follow each other by a legal move
//! are chained into one game; a position that ends a chain gets its first legal move (the move
//! is never read as a position), and a position without a legal move cannot be stored (counted
//! as dropped). A position without a search score is written with 0.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};
use viriformat::chess::board::{Board, DrawType, GameOutcome, WinType};
use viriformat::dataformat::Game;
use whetstone::movegen::legal_moves;
use whetstone::{Move, Position};

use super::super::file_format::FileFormat;
use super::super::reading::{progress_bar, read_full};
use super::super::record_io::{PositionWriter, ReadOptions, ReadReport, Sink, WriteReport};
use super::super::Label;
use super::{from_viri_bits, move_between, nibble, to_viri_bits};

const HEADER: usize = 32;
const MOVE: usize = 4;
/// A game longer than this many bytes (16,000 moves) is corrupt: its end marker is missing.
const MAX_GAME: usize = HEADER + 16_000 * MOVE;
const READ_BYTES: usize = 4 << 20;

/// What is wrong with a 32-byte marlinformat board, checked before the crate unpacks it.
pub fn check_header(b: &[u8]) -> Result<(), String> {
    let occupancy = u64::from_le_bytes(b[0..8].try_into().expect("8 bytes"));
    let count = occupancy.count_ones() as usize;
    if !(2..=32).contains(&count) {
        return Err(format!("{count} pieces on the board"));
    }
    let mut kings = [0; 2];
    for i in 0..count {
        let code = nibble(&b[8..24], i);
        match code & 7 {
            7 => return Err(format!("piece code {code} is not a piece")),
            5 => kings[usize::from(code >> 3)] += 1,
            _ => {}
        }
    }
    if kings != [1, 1] {
        return Err(format!("{} white and {} black kings", kings[0], kings[1]));
    }
    let ep = b[24] & 0x7f;
    if ep != 64 && !(16..24).contains(&ep) && !(40..48).contains(&ep) {
        return Err(format!("en-passant square {ep} is not on the third or sixth rank"));
    }
    if b[30] > 2 {
        return Err(format!("result {} is not 0, 1 or 2", b[30]));
    }
    Ok(())
}

/// Whether a file's first bytes read as the start of a viriformat game: a good board whose first
/// move is legal in it (or that ends there).
pub fn check_start(head: &[u8]) -> Result<(), String> {
    if head.len() < HEADER + MOVE {
        return Err(format!("{} bytes, shorter than a game ({} bytes)", head.len(), HEADER + MOVE));
    }
    check_header(&head[..HEADER])?;
    let pos = start_position(&head[..HEADER])?;
    let bits = u16::from_le_bytes([head[HEADER], head[HEADER + 1]]);
    let score = [head[HEADER + 2], head[HEADER + 3]];
    if bits == 0 && score == [0, 0] {
        return Ok(());
    }
    if !pos.is_legal(from_viri_bits(bits)) {
        return Err(format!("the first move (0x{bits:04x}) is not legal in {}", pos.to_fen()));
    }
    Ok(())
}

/// The start position a checked header describes, through the crate's unpacking and FEN.
fn start_position(header: &[u8]) -> Result<Position, String> {
    let bytes: [u8; HEADER] = header.try_into().expect("a 32-byte header");
    let game = Game::deserialise_from(&mut &[&bytes[..], &[0u8; MOVE]].concat()[..], Vec::new())
        .map_err(|e| format!("the board does not decode: {e}"))?;
    start_of(&game).map(|(pos, _)| pos)
}

/// A decoded game's start position and its result for White.
fn start_of(game: &Game) -> Result<(Position, f32), String> {
    // The crate's unpacking panics on some impossible boards that pass the header check.
    let unpacked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (board, _, wdl, _) = game.initial_position.unpack();
        (board.to_string(), wdl)
    }));
    let (fen, wdl) = unpacked.map_err(|_| "the board does not unpack".to_string())?;
    let pos = Position::from_fen(&fen).map_err(|e| format!("bad board {fen}: {e}"))?;
    Ok((pos, f32::from(wdl) / 2.0))
}

/// Reads every game of a viriformat file into `sink`, position by position.
pub fn read(path: &Path, options: &ReadOptions, sink: &mut Sink) -> Result<ReadReport> {
    let name = path.display().to_string();
    let mut file = File::open(path).with_context(|| format!("cannot open {name}"))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bar = progress_bar(options.progress, size, &name);
    let mut report = ReadReport::new(FileFormat::Viriformat, "games");
    let mut buf: Vec<u8> = Vec::with_capacity(READ_BYTES + MAX_GAME);
    // File offset of buf[0]; parsing position in buf; whether the file is read to its end.
    let (mut base, mut at, mut eof) = (0u64, 0usize, false);
    let mut moves = Vec::new();
    loop {
        if !eof && buf.len() - at < MAX_GAME {
            buf.drain(..at);
            base += at as u64;
            at = 0;
            let before = buf.len();
            buf.resize(before + READ_BYTES, 0);
            let n = read_full(&mut file, &mut buf[before..]).with_context(|| format!("reading {name}"))?;
            buf.truncate(before + n);
            eof = n == 0;
            bar.inc(n as u64);
            continue;
        }
        if at == buf.len() {
            break;
        }
        let offset = base + at as u64;
        report.units += 1;
        let game_number = report.units;
        let rest = &buf[at..];
        let Some(end) = game_end(rest) else {
            let problem = if rest.len() >= MAX_GAME {
                format!("{name}: game {game_number} at byte {offset}: no end marker within {MAX_GAME} bytes")
            } else {
                format!(
                    "{name}: game {game_number} at byte {offset}: truncated ({} bytes to the end of the file, no end marker)",
                    rest.len()
                )
            };
            report.broken(options.skip_broken, problem)?;
            // Nothing after it can be delimited but by its end marker: the rest is skipped.
            if rest.len() < MAX_GAME {
                break;
            }
            at += MAX_GAME;
            continue;
        };
        let bytes = &buf[at..at + end];
        at += end;
        if let Err(why) = check_header(&bytes[..HEADER]) {
            report.broken(
                options.skip_broken,
                format!("{name}: game {game_number} at byte {offset}: bad board: {why}"),
            )?;
            continue;
        }
        let game = match Game::deserialise_from(&mut &bytes[..], std::mem::take(&mut moves)) {
            Ok(game) => game,
            Err(e) => {
                report.broken(
                    options.skip_broken,
                    format!("{name}: game {game_number} at byte {offset}: {e}"),
                )?;
                continue;
            }
        };
        let (mut pos, outcome) = match start_of(&game) {
            Ok(start) => start,
            Err(why) => {
                report.broken(
                    options.skip_broken,
                    format!("{name}: game {game_number} at byte {offset}: {why}"),
                )?;
                moves = game.into_move_buffer();
                continue;
            }
        };
        // Every move checked before any position is passed on: a broken game is skipped whole.
        let mut check = pos.clone();
        let illegal = game.moves.iter().enumerate().find_map(|(ply, (viri_move, _))| {
            let m = from_viri_bits(viri_move.inner());
            if check.is_legal(m) {
                check.make_move(m);
                None
            } else {
                Some((ply, viri_move.inner(), check.to_fen()))
            }
        });
        if let Some((ply, bits, fen)) = illegal {
            let record = offset + (HEADER + ply * MOVE) as u64;
            let problem = format!(
                "{name}: game {game_number} at byte {offset}: move {} (byte {record}, 0x{bits:04x}) is not legal in {fen}",
                ply + 1
            );
            report.broken(options.skip_broken, problem)?;
            moves = game.into_move_buffer();
            continue;
        }
        for (viri_move, score) in &game.moves {
            report.positions += 1;
            sink(&pos, Label { outcome, score: Some(i32::from(score.get())) })?;
            pos.make_move(from_viri_bits(viri_move.inner()));
        }
        moves = game.into_move_buffer();
    }
    bar.finish_and_clear();
    Ok(report)
}

/// The length of the game at the start of `bytes` (through its end marker), if it is all there.
fn game_end(bytes: &[u8]) -> Option<usize> {
    let mut end = HEADER;
    while end + MOVE <= bytes.len().min(MAX_GAME) {
        if bytes[end..end + MOVE] == [0; MOVE] {
            return Some(end + MOVE);
        }
        end += MOVE;
    }
    None
}

/// A game being chained: its record so far, the last position (whose move is not known yet),
/// that position's score.
struct Chain {
    game: Game,
    last: Position,
    last_score: i16,
    outcome: f32,
}

/// Writes positions as viriformat game chains (to a file, or to any writer: `tune datagen`
/// encodes each pair's positions in memory and appends them).
pub struct Writer<W: Write = BufWriter<File>> {
    name: String,
    out: W,
    chain: Option<Chain>,
    report: WriteReport,
}

impl Writer {
    pub fn create(path: &Path) -> Result<Writer> {
        let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        Ok(Writer::new(BufWriter::with_capacity(1 << 20, file), &path.display().to_string()))
    }
}

impl<W: Write> Writer<W> {
    pub fn new(out: W, name: &str) -> Writer<W> {
        Writer { name: name.to_string(), out, chain: None, report: WriteReport::default() }
    }

    /// Ends the last chain and hands back the output and the report.
    pub fn into_inner(mut self) -> Result<(W, WriteReport)> {
        self.close()?;
        self.out.flush().with_context(|| format!("writing {}", self.name))?;
        Ok((self.out, self.report))
    }

    /// Ends the chain: its last position gets a move (any legal one), and the game is written.
    fn close(&mut self) -> Result<()> {
        let Some(mut chain) = self.chain.take() else { return Ok(()) };
        match legal_moves(&chain.last).iter().next() {
            Some(&m) => push(&mut chain.game, m, chain.last_score)?,
            None => {
                self.report.dropped += 1;
                self.report.positions -= 1;
            }
        }
        if chain.game.is_empty() {
            return Ok(());
        }
        chain.game.serialise_into(&mut self.out).with_context(|| format!("writing {}", self.name))?;
        self.report.games += 1;
        Ok(())
    }
}

fn push(game: &mut Game, m: Move, score: i16) -> Result<()> {
    let viri_move = viriformat::chess::chessmove::Move::from_raw(to_viri_bits(m))
        .context("a legal move is never the all-zero word")?;
    game.add_move(viri_move, score);
    Ok(())
}

fn outcome_of(result: f32) -> GameOutcome {
    match super::super::formats::result_index(result) {
        2 => GameOutcome::WhiteWin(WinType::Adjudication),
        0 => GameOutcome::BlackWin(WinType::Adjudication),
        _ => GameOutcome::Draw(DrawType::Adjudication),
    }
}

impl<W: Write> PositionWriter for Writer<W> {
    fn write(&mut self, pos: &Position, label: Label) -> Result<()> {
        let score = label.score.map_or(0, |s| s.clamp(i16::MIN.into(), i16::MAX.into()) as i16);
        if label.score.is_none() {
            self.report.zero_scores += 1;
        }
        self.report.positions += 1;
        // Chain on when a legal move of the last position leads here, with the same result.
        if let Some(chain) = &mut self.chain {
            if chain.outcome == label.outcome {
                if let Some(m) = move_between(&mut chain.last, pos) {
                    push(&mut chain.game, m, chain.last_score)?;
                    chain.last.make_move(m);
                    chain.last_score = score;
                    return Ok(());
                }
            }
        }
        self.close()?;
        let fen = pos.to_fen();
        let mut board = Board::new();
        board
            .set_from_fen(&fen, pos.is_chess960())
            .map_err(|e| anyhow::anyhow!("viriformat cannot hold {fen}: {e}"))?;
        let mut game = Game::new(&board);
        game.set_outcome(outcome_of(label.outcome));
        let last = Position::from_fen(&fen).map_err(|e| anyhow::anyhow!("{fen}: {e}"))?;
        self.chain = Some(Chain { game, last, last_score: score, outcome: label.outcome });
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<WriteReport> {
        Ok(self.into_inner()?.1)
    }
}
