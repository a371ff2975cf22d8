//! bulletformat (bullet's 32-byte `ChessBoard`) through the `bulletformat` crate.
//!
//! A record holds the board from the side to move's view (flipped and colours exchanged when
//! Black is to move), the side to move's king squares, the score and the result from the side to
//! move's view. It has no side to move, castling rights, en-passant square or move counters: what
//! reads back is the position as the side to move sees it, with that side as White (an
//! equivalent sample for training: our evaluation is colour-symmetric), `w - - 0 1`.
//!
//! Records are read in blocks and rebuilt through the crate's `ChessBoard` (its piece iterator
//! decodes the board); each is decoded and checked in one pass (piece codes, one king a side
//! where the king squares say, result 0-2) and built as a position from its pieces (the checks
//! of a FEN's placement, without writing and parsing one), so a corrupt record is named by its
//! byte offset. A file whose length is not a multiple of 32 ends in a truncated record, reported
//! so.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use bulletformat::{BulletFormat, ChessBoard};
use whetstone::{Color, Piece, PieceType, Position, Square};

use super::super::file_format::FileFormat;
use super::super::reading::{progress_bar, read_full};
use super::super::record_io::{PositionWriter, ReadOptions, ReadReport, Sink, WriteReport};
use super::super::Label;

pub const RECORD: usize = 32;
const BLOCK_RECORDS: usize = 1 << 16;

/// The crate's board from a record's bytes (its `repr(C)` layout: occupancy, 16 bytes of piece
/// nibbles, score, result, the two king squares, 3 spare bytes; little-endian).
pub fn board_of(b: &[u8]) -> ChessBoard {
    ChessBoard {
        occ: u64::from_le_bytes(b[0..8].try_into().expect("8 bytes")),
        pcs: b[8..24].try_into().expect("16 bytes"),
        score: i16::from_le_bytes([b[24], b[25]]),
        result: b[26],
        ksq: b[27],
        opp_ksq: b[28],
        extra: [b[29], b[30], b[31]],
    }
}

/// A record's pieces, decoded and checked in one pass over the board.
pub struct Pieces {
    pieces: [(Piece, Square); 32],
    len: usize,
}

impl Pieces {
    pub fn as_slice(&self) -> &[(Piece, Square)] {
        &self.pieces[..self.len]
    }
}

/// The record's pieces (the side to move as White), or what is wrong with it: piece codes,
/// one king a side where the king squares say, the result 0-2.
pub fn checked_pieces(board: &ChessBoard) -> Result<Pieces, String> {
    let count = board.occ.count_ones() as usize;
    if !(2..=32).contains(&count) {
        return Err(format!("{count} pieces on the board"));
    }
    let mut decoded =
        Pieces { pieces: [(Piece::new(Color::White, PieceType::Pawn), Square::new(0)); 32], len: count };
    let (mut ours, mut theirs) = (None, None);
    for (i, (code, square)) in board.into_iter().enumerate() {
        let kind = usize::from(code & 7);
        if kind > 5 {
            return Err(format!("piece code {code} is not a piece"));
        }
        let color = if code & 8 == 0 { Color::White } else { Color::Black };
        if kind == 5 {
            let king = if color == Color::White { &mut ours } else { &mut theirs };
            if king.replace(square).is_some() {
                let whose = if color == Color::White { "the side to move" } else { "the other side" };
                return Err(format!("two kings of {whose}"));
            }
        }
        decoded.pieces[i] = (Piece::new(color, PieceType::ALL[kind]), Square::new(square));
    }
    let (Some(ours), Some(theirs)) = (ours, theirs) else { return Err("a king is missing".into()) };
    if board.ksq != ours || board.opp_ksq != theirs ^ 56 {
        return Err(format!("king squares {} and {} do not match the board", board.ksq, board.opp_ksq));
    }
    if board.result > 2 {
        return Err(format!("result {} is not 0, 1 or 2", board.result));
    }
    Ok(decoded)
}

/// Our piece of each 4-bit code: the side to move's pieces 0-5 (as White), the other side's
/// 8-13 (as Black); the codes that are not pieces map to a pawn and are refused before use.
const PIECE_OF_CODE: [Piece; 16] = {
    let mut table = [Piece::new(Color::White, PieceType::Pawn); 16];
    let mut code = 0;
    while code < 16 {
        if code & 7 <= 5 {
            let color = if code & 8 == 0 { Color::White } else { Color::Black };
            table[code] = Piece::new(color, PieceType::ALL[code & 7]);
        }
        code += 1;
    }
    table
};

/// The checks of [`checked_pieces`] that need no pass over the pieces: the piece count, every
/// code a piece (all nibbles at once) and the result. The kings are checked on the position.
fn quick_check(board: &ChessBoard) -> bool {
    let count = board.occ.count_ones();
    let codes = u128::from_le_bytes(board.pcs);
    let used = if count >= 32 { u128::MAX } else { (1u128 << (4 * count)) - 1 };
    // A code's low three bits above 5 have bits 1 and 2 both set.
    let not_pieces = (codes >> 1) & (codes >> 2) & 0x1111_1111_1111_1111_1111_1111_1111_1111 & used;
    (2..=32).contains(&count) && not_pieces == 0 && board.result <= 2
}

/// Whether the position's kings stand where the record's king squares say.
fn kings_where_said(pos: &Position, board: &ChessBoard) -> bool {
    pos.king_square(Color::White).index() == usize::from(board.ksq)
        && pos.king_square(Color::Black).index() == usize::from(board.opp_ksq ^ 56)
}

/// What is wrong with a record, if anything.
pub fn check_record(b: &[u8]) -> Result<(), String> {
    checked_pieces(&board_of(b)).map(|_| ())
}

/// Whether a file's first bytes read as bulletformat records (the first four, or as many as
/// there are).
pub fn check_start(head: &[u8]) -> Result<(), String> {
    if head.len() < RECORD {
        return Err(format!("{} bytes, shorter than a record", head.len()));
    }
    for (i, record) in head.chunks_exact(RECORD).take(4).enumerate() {
        check_record(record).map_err(|e| format!("record {}: {e}", i + 1))?;
    }
    Ok(())
}

/// Reads every record of a bulletformat file into `sink`.
pub fn read(path: &Path, options: &ReadOptions, sink: &mut Sink) -> Result<ReadReport> {
    let name = path.display().to_string();
    let mut file = File::open(path).with_context(|| format!("cannot open {name}"))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bar = progress_bar(options.progress, size, &name);
    let mut report = ReadReport::new(FileFormat::Bulletformat, "records");
    let mut block = vec![0u8; BLOCK_RECORDS * RECORD];
    let mut offset = 0u64;
    loop {
        let n = read_full(&mut file, &mut block).with_context(|| format!("reading {name}"))?;
        bar.inc(n as u64);
        for record in block[..n].chunks(RECORD) {
            report.units += 1;
            // Said only for a broken record: formatting it for each of millions costs more than
            // building the position.
            let (units, at_byte) = (report.units, offset);
            let at = || format!("{name}: record {units} at byte {at_byte}");
            offset += RECORD as u64;
            if record.len() < RECORD {
                report.broken(
                    options.skip_broken,
                    format!("{}: truncated ({} of {RECORD} bytes)", at(), record.len()),
                )?;
                continue;
            }
            let board = board_of(record);
            let built = quick_check(&board).then(|| {
                let pieces =
                    board.into_iter().map(|(code, sq)| (PIECE_OF_CODE[usize::from(code)], Square::new(sq)));
                Position::from_pieces(pieces, Color::White)
            });
            // The record's own checks say what is wrong, once it is known to be wrong.
            let pos = match built {
                Some(Ok(pos)) if kings_where_said(&pos, &board) => Ok(pos),
                other => match (checked_pieces(&board), other) {
                    (Err(why), _) => {
                        report.broken(options.skip_broken, format!("{}: {why}", at()))?;
                        continue;
                    }
                    (Ok(_), Some(built)) => built,
                    (Ok(pieces), None) => {
                        Position::from_pieces(pieces.as_slice().iter().copied(), Color::White)
                    }
                },
            };
            match pos {
                Ok(pos) => {
                    report.positions += 1;
                    let label = Label { outcome: board.result(), score: Some(i32::from(board.score())) };
                    sink(&pos, label)?;
                }
                Err(e) => report.broken(options.skip_broken, format!("{}: bad board: {e}", at()))?,
            }
        }
        if n < block.len() {
            break;
        }
    }
    bar.finish_and_clear();
    Ok(report)
}

/// Writes positions as bulletformat records.
pub struct Writer {
    path: PathBuf,
    out: BufWriter<File>,
    report: WriteReport,
}

impl Writer {
    pub fn create(path: &Path) -> Result<Writer> {
        let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        Ok(Writer {
            path: path.to_path_buf(),
            out: BufWriter::with_capacity(1 << 20, file),
            report: WriteReport::default(),
        })
    }
}

/// The crate's record of a position: bitboards White, Black, pawn .. king; the crate flips them
/// to the side to move's view, with the score and the result.
pub fn record_of(pos: &Position, label: Label) -> Result<ChessBoard> {
    let mut bbs = [0u64; 8];
    bbs[0] = pos.pieces_of(Color::White).0;
    bbs[1] = pos.pieces_of(Color::Black).0;
    for (i, pt) in PieceType::ALL.iter().enumerate() {
        bbs[2 + i] = pos.pieces_of_type(*pt).0;
    }
    let score = label.score.map_or(0, |s| s.clamp(i16::MIN.into(), i16::MAX.into()) as i16);
    let stm = usize::from(pos.side_to_move() == Color::Black);
    ChessBoard::from_raw(bbs, stm, score, label.outcome).map_err(|e| anyhow::anyhow!("{}: {e}", pos.to_fen()))
}

impl PositionWriter for Writer {
    fn write(&mut self, pos: &Position, label: Label) -> Result<()> {
        let board = record_of(pos, label)?;
        if label.score.is_none() {
            self.report.zero_scores += 1;
        }
        self.report.positions += 1;
        self.out
            .write_all(ChessBoard::as_bytes_slice(&[board]))
            .with_context(|| format!("writing {}", self.path.display()))
    }

    fn finish(mut self: Box<Self>) -> Result<WriteReport> {
        self.out.flush().with_context(|| format!("writing {}", self.path.display()))?;
        Ok(self.report)
    }
}
