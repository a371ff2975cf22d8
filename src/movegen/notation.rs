//! Moves as text: UCI long algebraic notation in and out (standard and Chess960 castling), and
//! Standard Algebraic Notation out (for PGN).

use thiserror::Error;

use super::{gives_check, legal_moves};
use crate::board::castling::{castle_side, king_destination};
use crate::board::Position;
use crate::types::{Move, MoveKind, PieceType, Square};

/// Why a UCI move string was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveParseError {
    #[error("'{0}' is not a move in UCI notation (expected e.g. e2e4, e7e8q)")]
    Syntax(String),
    #[error("'{text}' is not legal in this position ({fen})")]
    Illegal { text: String, fen: String },
}

impl Position {
    /// The move in UCI notation: `e2e4`, `e7e8q`; castling as the king's two-square move
    /// (`e1g1`) in standard chess and as king-takes-rook (`e1h1`) in Chess960 mode.
    pub fn move_to_uci(&self, m: Move) -> String {
        if m.is_null() {
            return "0000".to_string();
        }
        let to = if m.kind() == MoveKind::Castling && !self.is_chess960() {
            king_destination(self.side_to_move(), castle_side(m.from(), m.to()))
        } else {
            m.to()
        };
        let mut s = format!("{}{}", m.from(), to);
        if let Some(pt) = m.promotion_piece() {
            s.push(pt.letter());
        }
        s
    }

    /// Finds the legal move written as `text` in UCI notation. Castling is accepted as
    /// king-takes-rook always, and as the king's two-square move outside Chess960 mode (in
    /// Chess960 that text can be an ordinary king move, e.g. f1g1 with the rook on h1).
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let bytes = text.as_bytes();
        let syntax = || MoveParseError::Syntax(text.to_string());
        if !(4..=5).contains(&bytes.len()) || !text.is_ascii() {
            return Err(syntax());
        }
        let from: Square = text[0..2].parse().map_err(|_| syntax())?;
        let to: Square = text[2..4].parse().map_err(|_| syntax())?;
        let promotion = match bytes.get(4) {
            None => None,
            Some(&c) => match PieceType::from_letter(c as char) {
                Some(pt @ (PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen)) => {
                    Some(pt)
                }
                _ => return Err(syntax()),
            },
        };
        legal_moves(self)
            .iter()
            .copied()
            .find(|&m| {
                m.from() == from
                    && m.promotion_piece() == promotion
                    && (m.to() == to
                        || (m.kind() == MoveKind::Castling
                            && !self.is_chess960()
                            && king_destination(self.side_to_move(), castle_side(m.from(), m.to())) == to))
            })
            .ok_or_else(|| MoveParseError::Illegal { text: text.to_string(), fen: self.to_fen() })
    }

    /// Parses and plays a UCI move; the position is unchanged on error.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveParseError> {
        let m = self.parse_uci_move(text)?;
        self.make_move(m);
        Ok(m)
    }

    /// Whether `m` is a legal move here (for moves from untrusted sources: hash tables, books).
    pub fn is_legal(&self, m: Move) -> bool {
        super::is_legal_move(self, m)
    }

    /// The legal move `m` in Standard Algebraic Notation: `Nbd7`, `exd5`, `e8=Q+`, `O-O-O#`.
    pub fn move_to_san(&self, m: Move) -> String {
        let mut san = String::new();
        let from = m.from();
        let to = m.to();
        let piece = self.piece_on(from).expect("a move starts on a piece").piece_type();
        if m.kind() == MoveKind::Castling {
            san.push_str(match castle_side(from, to) {
                crate::types::CastleSide::King => "O-O",
                crate::types::CastleSide::Queen => "O-O-O",
            });
        } else {
            let capture = self.piece_on(to).is_some() || m.kind() == MoveKind::EnPassant;
            if piece == PieceType::Pawn {
                if capture {
                    san.push((b'a' + from.file()) as char);
                }
            } else {
                san.push(piece.letter().to_ascii_uppercase());
                // Disambiguate against other pieces of the same type that can reach `to`.
                let rivals: Vec<Square> = legal_moves(self)
                    .iter()
                    .filter(|o| {
                        o.to() == to
                            && o.from() != from
                            && o.kind() != MoveKind::Castling
                            && self.piece_on(o.from()).map(|p| p.piece_type()) == Some(piece)
                    })
                    .map(|o| o.from())
                    .collect();
                if !rivals.is_empty() {
                    if rivals.iter().all(|r| r.file() != from.file()) {
                        san.push((b'a' + from.file()) as char);
                    } else if rivals.iter().all(|r| r.rank() != from.rank()) {
                        san.push((b'1' + from.rank()) as char);
                    } else {
                        san.push_str(&from.to_string());
                    }
                }
            }
            if capture {
                san.push('x');
            }
            san.push_str(&to.to_string());
            if let Some(pt) = m.promotion_piece() {
                san.push('=');
                san.push(pt.letter().to_ascii_uppercase());
            }
        }
        if gives_check(self, m) {
            let mut after = self.clone();
            after.make_move(m);
            san.push(if legal_moves(&after).is_empty() { '#' } else { '+' });
        }
        san
    }
}

#[cfg(test)]
#[path = "notation_tests.rs"]
mod tests;
