//! Attack sets: leaper tables and square-pair tables computed at compile time, slider attacks
//! through the magic (or PEXT) tables of [`magic`]. Below the board: a position uses them to
//! find checks and pins, and move generation, evaluation and search above it all read them.

pub mod magic;
mod magic_numbers;
pub mod rays;

use crate::types::{Bitboard, Color, PieceType, Square};
use rays::step;

const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

const fn leaper_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = step(sq, steps[i].0, steps[i].1) {
                table[sq] |= 1 << to;
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn pawn_table() -> [[u64; 64]; 2] {
    [leaper_table(&[(-1, 1), (1, 1)]), leaper_table(&[(-1, -1), (1, -1)])]
}

/// BETWEEN[a][b]: squares strictly between two aligned squares, plus `b` itself (so that
/// "block or capture the checker" is one mask); just `b` when they are not aligned.
/// LINE[a][b]: the whole line through two aligned squares, empty when they are not aligned.
const fn pair_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let dirs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            between[a][b] = 1 << b;
            b += 1;
        }
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction and its opposite.
            let mut full = 1u64 << a;
            let mut cur = a;
            while let Some(n) = step(cur, df, dr) {
                full |= 1 << n;
                cur = n;
            }
            cur = a;
            while let Some(n) = step(cur, -df, -dr) {
                full |= 1 << n;
                cur = n;
            }
            let mut gap = 0u64;
            cur = a;
            while let Some(n) = step(cur, df, dr) {
                between[a][n] = gap | 1 << n;
                line[a][n] = full;
                gap |= 1 << n;
                cur = n;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static KNIGHT: [u64; 64] = leaper_table(&KNIGHT_STEPS);
static KING: [u64; 64] = leaper_table(&KING_STEPS);
static PAWN: [[u64; 64]; 2] = pawn_table();
static PAIRS: ([[u64; 64]; 64], [[u64; 64]; 64]) = pair_tables();

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `side` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(side: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[side.index()][sq.index()])
}

/// Squares strictly between `a` and `b` plus `b` (see [`pair_tables`]).
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(PAIRS.0[a.index()][b.index()])
}

/// The line (rank, file or diagonal) through `a` and `b`, or empty when they are not aligned.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(PAIRS.1[a.index()][b.index()])
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(magic::bishop_attacks(sq.index(), occ.0))
}

#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(magic::rook_attacks(sq.index(), occ.0))
}

#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    bishop_attacks(sq, occ) | rook_attacks(sq, occ)
}

/// Attacks of a non-pawn piece type from `sq` with occupancy `occ`.
#[inline(always)]
pub fn piece_attacks(pt: PieceType, sq: Square, occ: Bitboard) -> Bitboard {
    match pt {
        PieceType::Pawn => unreachable!("pawn attacks depend on colour: use pawn_attacks"),
        PieceType::Knight => knight_attacks(sq),
        PieceType::Bishop => bishop_attacks(sq, occ),
        PieceType::Rook => rook_attacks(sq, occ),
        PieceType::Queen => queen_attacks(sq, occ),
        PieceType::King => king_attacks(sq),
    }
}

#[cfg(test)]
mod tests;
