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
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn uci_round_trip_including_promotions_and_castling() {
        let p = pos("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for text in ["b7b8q", "b7a8n", "e1g1", "e1c1", "a1a8"] {
            let m = p.parse_uci_move(text).unwrap();
            assert_eq!(p.move_to_uci(m), text);
        }
        // King-takes-rook is understood in standard mode too.
        assert_eq!(p.move_to_uci(p.parse_uci_move("e1h1").unwrap()), "e1g1");
    }

    #[test]
    fn bad_uci_moves_are_rejected_with_reasons() {
        let p = Position::startpos();
        assert!(matches!(p.parse_uci_move("e2e5"), Err(MoveParseError::Illegal { .. })));
        assert!(matches!(p.parse_uci_move("e7e5"), Err(MoveParseError::Illegal { .. })));
        for junk in ["", "e2", "e2e4e", "i2i4", "e2e4k", "e2e4é", "0000"] {
            assert!(p.parse_uci_move(junk).is_err(), "{junk}");
        }
        // A promotion must name its piece.
        assert!(pos("8/1P6/8/8/8/8/8/K6k w - - 0 1").parse_uci_move("b7b8").is_err());
    }

    #[test]
    fn chess960_king_step_is_not_castling() {
        // King f1, rook h1: f1g1 is an ordinary king move; castling is f1h1.
        let mut p = pos("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
        p.set_chess960(true);
        let step = p.parse_uci_move("f1g1").unwrap();
        assert_eq!(step.kind(), MoveKind::Normal);
        assert_eq!(p.parse_uci_move("f1h1").unwrap().kind(), MoveKind::Castling);
    }

    #[test]
    fn san_disambiguation_and_suffixes() {
        let p = pos("3k4/8/8/8/8/8/1N3N2/R3K2R w KQ - 0 1");
        let san = |text: &str| p.move_to_san(p.parse_uci_move(text).unwrap());
        assert_eq!(san("b2d3"), "Nbd3");
        assert_eq!(san("e1g1"), "O-O");
        assert_eq!(san("e1c1"), "O-O-O+"); // the rook lands on d1, facing the king on d8
        assert_eq!(san("a1a8"), "Ra8+");
        let mate = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(mate.move_to_san(mate.parse_uci_move("a1a8").unwrap()), "Ra8#");
        let promo = pos("1n1k4/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(promo.move_to_san(promo.parse_uci_move("a7b8q").unwrap()), "axb8=Q+");
        assert_eq!(promo.move_to_san(promo.parse_uci_move("a7a8r").unwrap()), "a8=R");
        // the b8 knight blocks
    }
}
