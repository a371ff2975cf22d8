//! The evaluation terms, by family. Each function is colour-blind: it scores one side, and the
//! accumulator adds White's terms and subtracts Black's.

pub mod closedness;
pub mod complexity;
pub mod king;
pub mod pawns;
pub mod pieces;
pub mod space;
pub mod threats;

use crate::board::Position;
use crate::types::{Bitboard, Color, PieceType};

use super::masks::pawn_attacks_all;

/// Attack maps gathered while the pieces are scored, read by the king-safety terms.
pub struct AttackInfo {
    /// Squares attacked by each colour's pieces of each type (pawns included, index by PieceType).
    pub by_type: [[Bitboard; PieceType::NUM]; 2],
    /// Squares attacked by any piece of each colour.
    pub all: [Bitboard; 2],
    /// Squares attacked at least twice by each colour (gathered as `all` is).
    pub twice: [Bitboard; 2],
    /// Per attacking colour: how many knights, bishops, rooks, queens reach the enemy king zone.
    pub zone_attackers: [[i32; 4]; 2],
    /// Per attacking colour: attacks on squares next to the enemy king / two steps from it.
    pub inner_attacks: [i32; 2],
    pub outer_attacks: [i32; 2],
    /// Per defending colour: the squares next to its king, and those two steps away.
    pub inner_ring: [Bitboard; 2],
    pub outer_ring: [Bitboard; 2],
}

impl AttackInfo {
    pub fn new(pos: &Position) -> AttackInfo {
        let mut info = AttackInfo {
            by_type: [[Bitboard::EMPTY; PieceType::NUM]; 2],
            all: [Bitboard::EMPTY; 2],
            twice: [Bitboard::EMPTY; 2],
            zone_attackers: [[0; 4]; 2],
            inner_attacks: [0; 2],
            outer_attacks: [0; 2],
            inner_ring: [Bitboard::EMPTY; 2],
            outer_ring: [Bitboard::EMPTY; 2],
        };
        for color in Color::ALL {
            let king = pos.king_square(color);
            let inner = crate::attacks::king_attacks(king);
            info.inner_ring[color.index()] = inner;
            info.outer_ring[color.index()] = crate::eval::masks::outer_ring(king);
            let own_pawns = pos.pieces(color, PieceType::Pawn);
            let pawns = pawn_attacks_all(color, own_pawns);
            let up = own_pawns.forward(color);
            let king_att = inner;
            info.by_type[color.index()][PieceType::Pawn.index()] = pawns;
            info.by_type[color.index()][PieceType::King.index()] = king_att;
            info.all[color.index()] = pawns | king_att;
            info.twice[color.index()] = (up.west() & up.east()) | (pawns & king_att);
        }
        info
    }

    /// Records the attacks of one piece of `color` (knight, bishop, rook or queen).
    #[inline]
    pub fn record(&mut self, color: Color, pt: PieceType, attacks: Bitboard) {
        let c = color.index();
        let them = (!color).index();
        self.by_type[c][pt.index()] |= attacks;
        self.twice[c] |= self.all[c] & attacks;
        self.all[c] |= attacks;
        let inner = (attacks & self.inner_ring[them]).count() as i32;
        let outer = (attacks & self.outer_ring[them]).count() as i32;
        if inner + outer > 0 {
            self.zone_attackers[c][pt.index() - 1] += 1;
            self.inner_attacks[c] += inner;
            self.outer_attacks[c] += outer;
        }
    }
}
