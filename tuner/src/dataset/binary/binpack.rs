//! Stockfish's `.binpack` through the `sfbinpack` crate (read only).
//!
//! A binpack is a run of chunks (`BINP`, a 4-byte size, the payload); a payload holds chains of
//! entries: a packed position with its move, score, ply and result, then the following moves
//! and scores of the same game, compressed. The crate reads a chunk and unpacks its entries. An
//! entry that continues the previous one (its position is the previous position after the
//! previous entry's move, as in every chain) is played on by our board: the move checked legal,
//! made, and the result compared with the crate's board piece by piece, with the side to move,
//! castling rights, en-passant square and move counters. Any other entry (a chain's start, or
//! a board that differs) is rebuilt by our FEN parser from the crate's FEN, so each position read
//! is the one the crate decoded, and a game costs one FEN, not one a position. Scores and results
//! are the side to move's in the file and White's here.
//!
//! The crate's entry decoder has no error path (corrupt payload bytes panic inside it): an entry
//! that does not decode is reported by its chunk's byte offset and its number and, with
//! `skip_broken`, the rest of that chunk is skipped (the entries before it are kept, the next
//! chunk is read); a chunk cut short by the end of the file ends the reading, reported.

use std::fs::File;
use std::io::{BufReader, Seek};
use std::panic::AssertUnwindSafe;
use std::path::Path;

use anyhow::{Context, Result};
use sfbinpack::chess::castling_rights::CastlingRights as SfCastling;
use sfbinpack::chess::color::Color as SfColor;
use sfbinpack::chess::piecetype::PieceType as SfType;
use sfbinpack::chess::position::Position as SfPosition;
use sfbinpack::chess::r#move::{Move as SfMove, MoveType};
use whetstone::movegen::is_legal_move;
use whetstone::types::{CastleSide, Move, MoveKind, PieceType};
use whetstone::{Color, Position, Square};

use super::super::file_format::FileFormat;
use super::super::reading::progress_bar;
use super::super::record_io::{ReadOptions, ReadReport, Sink};
use super::super::Label;

/// Reads every entry of a binpack into `sink`.
pub fn read(path: &Path, options: &ReadOptions, sink: &mut Sink) -> Result<ReadReport> {
    let name = path.display().to_string();
    let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bar = progress_bar(options.progress, size, &name);
    let mut file = BufReader::with_capacity(1 << 20, file);
    let mut report = ReadReport::new(FileFormat::Binpack, "entries");
    let mut chunk = Vec::new();
    let mut chunks = 0u64;
    loop {
        let offset = file.stream_position().with_context(|| format!("reading {name}"))?;
        if offset >= size {
            break;
        }
        chunks += 1;
        match sfbinpack::read_chunk_into(&mut file, &mut chunk) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                // Without a whole chunk header and payload nothing after it can be found.
                report
                    .broken(options.skip_broken, format!("{name}: chunk {chunks} at byte {offset}: {e}"))?;
                break;
            }
        }
        bar.set_position(offset);
        // Entry by entry, so that a chunk's hundreds of thousands of entries are never held at once.
        let mut entries = sfbinpack::ChunkReader::default();
        // Our board of the previous entry, with that entry's move, while a chain lasts.
        let mut chain: Option<(Position, SfMove)> = None;
        let mut i = 0u64;
        while entries.has_next(&chunk) {
            i += 1;
            let decoded = std::panic::catch_unwind(AssertUnwindSafe(|| entries.next(&chunk)));
            let Ok(entry) = decoded else {
                report.broken(
                    options.skip_broken,
                    format!(
                        "{name}: chunk {chunks} at byte {offset}: entry {i} does not decode ({} bytes; the rest of the chunk is skipped)",
                        chunk.len()
                    ),
                )?;
                break;
            };
            report.units += 1;
            if let Some(pos) = chain.take().and_then(|(pos, m)| played_on(pos, m, &entry.pos)) {
                report.positions += 1;
                sink(&pos, label_of(&pos, entry.score, entry.result))?;
                chain = Some((pos, entry.mv));
                continue;
            }
            let fen = match entry.pos.fen() {
                Ok(fen) => fen,
                Err(e) => {
                    let problem = format!("{name}: chunk {chunks} at byte {offset}, entry {i}: {e:?}");
                    report.broken(options.skip_broken, problem)?;
                    continue;
                }
            };
            let pos = match Position::from_fen(&fen) {
                Ok(pos) => pos,
                Err(e) => {
                    let problem =
                        format!("{name}: chunk {chunks} at byte {offset}, entry {i}: bad board {fen}: {e}");
                    report.broken(options.skip_broken, problem)?;
                    continue;
                }
            };
            report.positions += 1;
            sink(&pos, label_of(&pos, entry.score, entry.result))?;
            chain = Some((pos, entry.mv));
        }
    }
    bar.finish_and_clear();
    Ok(report)
}

/// An entry's score and result, the side to move's in the file, as White's.
fn label_of(pos: &Position, score: i16, result: i16) -> Label {
    let white: i16 = if pos.side_to_move() == Color::White { 1 } else { -1 };
    let outcome = match result * white {
        1 => 1.0,
        -1 => 0.0,
        _ => 0.5,
    };
    Label { outcome, score: Some(i32::from(score) * i32::from(white)) }
}

/// `pos` after the crate's move `m`, if the move is legal there and leads to exactly `theirs`.
fn played_on(mut pos: Position, m: SfMove, theirs: &SfPosition) -> Option<Position> {
    let (from, to) = (Square::new(m.from().index() as u8), Square::new(m.to().index() as u8));
    let ours = match m.mtype() {
        MoveType::Normal => Move::new(from, to),
        MoveType::Castle => Move::with_kind(from, to, MoveKind::Castling),
        MoveType::EnPassant => Move::with_kind(from, to, MoveKind::EnPassant),
        MoveType::Promotion => {
            let kind = match m.promoted_piece().piece_type() {
                SfType::Knight => PieceType::Knight,
                SfType::Bishop => PieceType::Bishop,
                SfType::Rook => PieceType::Rook,
                SfType::Queen => PieceType::Queen,
                _ => return None,
            };
            Move::promotion(from, to, kind)
        }
    };
    if !is_legal_move(&pos, ours) {
        return None;
    }
    pos.make_move(ours);
    same_board(&pos, theirs).then_some(pos)
}

/// Whether our board and the crate's are the same position, move counters included.
fn same_board(ours: &Position, theirs: &SfPosition) -> bool {
    const KINDS: [(PieceType, SfType); 6] = [
        (PieceType::Pawn, SfType::Pawn),
        (PieceType::Knight, SfType::Knight),
        (PieceType::Bishop, SfType::Bishop),
        (PieceType::Rook, SfType::Rook),
        (PieceType::Queen, SfType::Queen),
        (PieceType::King, SfType::King),
    ];
    let colors = [(Color::White, SfColor::White), (Color::Black, SfColor::Black)];
    let pieces = colors.iter().all(|&(c, sc)| {
        KINDS.iter().all(|&(pt, spt)| ours.pieces(c, pt).0 == theirs.pieces_bb_color(sc, spt).bits())
    });
    let side = (ours.side_to_move() == Color::White) == (theirs.side_to_move() == SfColor::White);
    let rights = [
        (Color::White, CastleSide::King, SfCastling::WHITE_KING_SIDE),
        (Color::White, CastleSide::Queen, SfCastling::WHITE_QUEEN_SIDE),
        (Color::Black, CastleSide::King, SfCastling::BLACK_KING_SIDE),
        (Color::Black, CastleSide::Queen, SfCastling::BLACK_QUEEN_SIDE),
    ];
    let castling = rights.iter().all(|&(c, side, theirs_right)| {
        ours.castling_rights().has(c, side) == theirs.castling_rights().contains(theirs_right)
    });
    let en_passant = ours.en_passant().map_or(64, |sq| sq.index() as u32) == theirs.ep_square().index();
    pieces
        && side
        && castling
        && en_passant
        && ours.halfmove_clock() == theirs.rule50_counter()
        && ours.fullmove_number() == u32::from(theirs.ply() / 2 + 1)
}
