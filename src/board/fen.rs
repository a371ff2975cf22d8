//! FEN in and out. Parsing is strict and never panics: every malformed or impossible position is
//! reported with what is wrong. Castling accepts `KQkq`, X-FEN (outermost rook) and Shredder-FEN
//! file letters (`HAha`), so Chess960 positions load too.

use std::fmt::Write;

use thiserror::Error;

use crate::types::{Bitboard, CastleSide, CastlingRights, Color, Piece, PieceType, Square};

use super::castling::CastlingConfig;
use super::Position;

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Everything that can be wrong with a FEN string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error(
        "FEN has {0} fields; expected 4 to 6 (placement, side, castling, en passant, [halfmove, fullmove])"
    )]
    FieldCount(usize),
    #[error("placement has {0} ranks; expected 8 separated by '/'")]
    RankCount(usize),
    #[error("bad piece letter '{letter}' in rank {rank}")]
    BadPiece { letter: char, rank: u8 },
    #[error("rank {rank} describes {files} files; expected 8")]
    RankLength { rank: u8, files: u32 },
    #[error("{color:?} has {count} kings; expected exactly 1")]
    KingCount { color: Color, count: u32 },
    #[error("too many {color:?} pieces: {what}")]
    TooManyPieces { color: Color, what: String },
    #[error("pawn on {0}: pawns cannot stand on the first or last rank")]
    PawnOnBackRank(Square),
    #[error("side to move '{0}' is not 'w' or 'b'")]
    BadSide(String),
    #[error("bad castling field '{0}': use '-', KQkq, or Shredder file letters (e.g. HAha)")]
    BadCastlingField(String),
    #[error("castling right '{right}' does not match the board: {reason}")]
    CastlingMismatch { right: char, reason: String },
    #[error("bad en-passant field '{0}': expected '-' or a square on rank 3 or 6")]
    BadEnPassantField(String),
    #[error("impossible en-passant square {square}: {reason}")]
    ImpossibleEnPassant { square: Square, reason: String },
    #[error("bad {field} '{value}': expected a non-negative number")]
    BadCounter { field: &'static str, value: String },
    #[error("two pieces on {0}")]
    SquareTwice(Square),
    #[error("the side not to move ({0:?}) is in check")]
    OpponentInCheck(Color),
    #[error("the side to move is attacked by {0} pieces; at most two can give check")]
    TooManyCheckers(u32),
}

impl Position {
    /// Parses a FEN (the move counters may be omitted, as in EPD).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        // Up to six fields, without an allocation (positions are parsed by the million when tuning).
        let mut words = fen.split_whitespace();
        let mut fields = [""; 6];
        let mut count = 0;
        for word in words.by_ref().take(6) {
            fields[count] = word;
            count += 1;
        }
        let count = count + words.count();
        if !(4..=6).contains(&count) {
            return Err(FenError::FieldCount(count));
        }
        let fields = &fields[..count];
        let mut pos = Position::empty();
        parse_placement(&mut pos, fields[0])?;
        validate_material(&pos)?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSide(other.to_string())),
        };
        let rooks = parse_castling(&pos, fields[2])?;
        pos.castling_config = CastlingConfig::new(&pos, rooks);
        pos.st.castling = CastlingRights(
            rooks.iter().enumerate().filter(|(_, r)| r.is_some()).map(|(i, _)| 1u8 << i).sum(),
        );
        pos.chess960 = is_chess960_setup(&pos, &rooks);
        pos.st.en_passant = parse_en_passant(&pos, fields[3])?;
        pos.st.halfmove_clock =
            parse_counter(fields.get(4), "halfmove clock", 0)?.min(u16::MAX as u32) as u16;
        // Clamped so that the ply count cannot overflow on absurd move numbers.
        let fullmove = parse_counter(fields.get(5), "fullmove number", 1)?.clamp(1, 1 << 30);
        pos.game_ply = (fullmove - 1) * 2 + (pos.side == Color::Black) as u32;
        pos.finish_setup();
        check_checks(pos)
    }

    /// A position from its pieces and the side to move, with no castling rights, no en-passant
    /// square and the move counters at 0 and 1: what a record of a binary training format
    /// (bulletformat) holds. Checked as `from_fen` checks a placement (one king a side, no pawn on
    /// a back rank, no square twice, the side not to move not in check); millions of records are
    /// read this way, so no FEN text is built and parsed.
    pub fn from_pieces(
        pieces: impl IntoIterator<Item = (Piece, Square)>,
        side: Color,
    ) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        for (piece, sq) in pieces {
            if pos.piece_on(sq).is_some() {
                return Err(FenError::SquareTwice(sq));
            }
            pos.put_piece(piece, sq);
        }
        validate_material(&pos)?;
        pos.side = side;
        let rooks = [None; 4];
        pos.castling_config = CastlingConfig::new(&pos, rooks);
        pos.st.castling = CastlingRights(0);
        pos.chess960 = is_chess960_setup(&pos, &rooks);
        pos.st.en_passant = None;
        pos.st.halfmove_clock = 0;
        pos.game_ply = (side == Color::Black) as u32;
        pos.finish_setup();
        check_checks(pos)
    }

    /// The position as FEN. Castling is written as KQkq unless a castling rook is not the
    /// outermost on its side (Chess960), where the rook's file letter is used (Shredder-FEN).
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_on(Square::from_file_rank(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            write!(fen, "{empty}").unwrap();
                            empty = 0;
                        }
                        fen.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(fen, "{empty}").unwrap();
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        write!(fen, " {} ", self.side.fen_char()).unwrap();
        let before = fen.len();
        for color in Color::ALL {
            for side in [CastleSide::King, CastleSide::Queen] {
                if self.st.castling.has(color, side) {
                    let rook = self.castling_config.rook_square(color, side);
                    let letter = if outermost_rook(self, color, side) == Some(rook) {
                        if side == CastleSide::King {
                            'K'
                        } else {
                            'Q'
                        }
                    } else {
                        (b'A' + rook.file()) as char
                    };
                    fen.push(if color == Color::White { letter } else { letter.to_ascii_lowercase() });
                }
            }
        }
        if fen.len() == before {
            fen.push('-');
        }
        match self.st.en_passant {
            Some(sq) => write!(fen, " {sq}").unwrap(),
            None => fen.push_str(" -"),
        }
        write!(fen, " {} {}", self.st.halfmove_clock, self.fullmove_number()).unwrap();
        fen
    }
}

fn parse_placement(pos: &mut Position, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: u32 = 0;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(FenError::BadPiece { letter: c, rank: rank + 1 });
                }
                file += d;
            } else {
                let piece =
                    Piece::from_fen_char(c).ok_or(FenError::BadPiece { letter: c, rank: rank + 1 })?;
                if file < 8 {
                    pos.put_piece(piece, Square::from_file_rank(file as u8, rank));
                }
                file += 1;
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            let files = text.chars().map(|c| c.to_digit(10).unwrap_or(1)).sum();
            return Err(FenError::RankLength { rank: rank + 1, files });
        }
    }
    Ok(())
}

/// The set-up position, refused when the side not to move is in check or the side to move is in
/// a check no move can have given.
fn check_checks(pos: Position) -> Result<Position, FenError> {
    let them = !pos.side;
    if pos.is_attacked_by(pos.king_square(them), pos.side, pos.occupied()) {
        return Err(FenError::OpponentInCheck(them));
    }
    if pos.checkers().count() > 2 {
        return Err(FenError::TooManyCheckers(pos.checkers().count()));
    }
    Ok(pos)
}

fn validate_material(pos: &Position) -> Result<(), FenError> {
    for color in Color::ALL {
        let kings = pos.count(color, PieceType::King);
        if kings != 1 {
            return Err(FenError::KingCount { color, count: kings });
        }
        let pawns = pos.count(color, PieceType::Pawn);
        let too_many = if pawns > 8 {
            Some(format!("{pawns} pawns"))
        } else if pos.pieces_of(color).count() > 16 {
            Some(format!("{} pieces in all", pos.pieces_of(color).count()))
        } else {
            // Each piece beyond the starting set must be a promoted pawn.
            let extra: u32 =
                [(PieceType::Knight, 2), (PieceType::Bishop, 2), (PieceType::Rook, 2), (PieceType::Queen, 1)]
                    .iter()
                    .map(|&(pt, start)| pos.count(color, pt).saturating_sub(start))
                    .sum();
            (extra + pawns > 8).then(|| format!("{extra} promoted pieces with {pawns} pawns"))
        };
        if let Some(what) = too_many {
            return Err(FenError::TooManyPieces { color, what });
        }
    }
    let back_ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
    if let Some(sq) = (pos.pieces_of_type(PieceType::Pawn) & back_ranks).iter().next() {
        return Err(FenError::PawnOnBackRank(sq));
    }
    Ok(())
}

/// The rook furthest from the king on `side` of the back rank, if any.
fn outermost_rook(pos: &Position, color: Color, side: CastleSide) -> Option<Square> {
    let king = pos.king_square(color);
    let back = Bitboard::relative_rank(color, 0);
    let rooks = (pos.pieces(color, PieceType::Rook) & back)
        .iter()
        .filter(|r| (r.file() > king.file()) == (side == CastleSide::King));
    match side {
        CastleSide::King => rooks.max(),
        CastleSide::Queen => rooks.min(),
    }
}

fn parse_castling(pos: &Position, field: &str) -> Result<[Option<Square>; 4], FenError> {
    let mut rooks = [None; 4];
    if field == "-" {
        return Ok(rooks);
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let king = pos.king_square(color);
        let mismatch = |reason: String| FenError::CastlingMismatch { right: c, reason };
        if king.relative_rank(color) != 0 {
            return Err(mismatch(format!("the {color:?} king is on {king}, not on its first rank")));
        }
        let rook = match c.to_ascii_uppercase() {
            'K' => outermost_rook(pos, color, CastleSide::King)
                .ok_or_else(|| mismatch(format!("no {color:?} rook on the king side of {king}")))?,
            'Q' => outermost_rook(pos, color, CastleSide::Queen)
                .ok_or_else(|| mismatch(format!("no {color:?} rook on the queen side of {king}")))?,
            f @ 'A'..='H' => {
                let sq = Square::from_file_rank(f as u8 - b'A', king.rank());
                if pos.piece_on(sq) != Some(Piece::new(color, PieceType::Rook)) {
                    return Err(mismatch(format!("no {color:?} rook on {sq}")));
                }
                if sq.file() == king.file() {
                    return Err(mismatch("the rook file is the king's".to_string()));
                }
                sq
            }
            _ => return Err(FenError::BadCastlingField(field.to_string())),
        };
        let side = super::castling::castle_side(king, rook);
        let slot = &mut rooks[CastlingRights::index(color, side)];
        if slot.is_some() {
            return Err(FenError::BadCastlingField(field.to_string()));
        }
        *slot = Some(rook);
    }
    Ok(rooks)
}

/// A setup needs Chess960 notation when a castling king or rook is not on its standard square.
fn is_chess960_setup(pos: &Position, rooks: &[Option<Square>; 4]) -> bool {
    Color::ALL.iter().any(|&color| {
        [CastleSide::King, CastleSide::Queen].iter().any(|&side| {
            rooks[CastlingRights::index(color, side)].is_some_and(|rook| {
                let standard_rook = if side == CastleSide::King { Square::H1 } else { Square::A1 };
                pos.king_square(color) != Square::E1.relative(color) || rook != standard_rook.relative(color)
            })
        })
    })
}

fn parse_en_passant(pos: &Position, field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let square: Square = field.parse().map_err(|_| FenError::BadEnPassantField(field.to_string()))?;
    let us = pos.side;
    let impossible = |reason: &str| FenError::ImpossibleEnPassant { square, reason: reason.to_string() };
    if square.relative_rank(us) != 5 {
        return Err(impossible(&format!(
            "with {us:?} to move it must be on rank {}",
            if us == Color::White { 6 } else { 3 }
        )));
    }
    let pushed_to = square.relative(us).offset(-8).relative(us);
    let pushed_from = square.relative(us).offset(8).relative(us);
    if pos.piece_on(pushed_to) != Some(Piece::new(!us, PieceType::Pawn)) {
        return Err(impossible(&format!("no {:?} pawn on {pushed_to} that just advanced two squares", !us)));
    }
    if pos.piece_on(square).is_some() || pos.piece_on(pushed_from).is_some() {
        return Err(impossible("the squares the pawn passed over are not empty"));
    }
    Ok(Some(square))
}

fn parse_counter(field: Option<&&str>, name: &'static str, default: u32) -> Result<u32, FenError> {
    match field {
        None => Ok(default),
        Some(text) => text.parse().map_err(|_| FenError::BadCounter { field: name, value: text.to_string() }),
    }
}

#[cfg(test)]
#[path = "fen_tests.rs"]
mod tests;
