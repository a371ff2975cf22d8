//! Pawn-structure masks, computed at compile time. "Ahead" is towards the colour's promotion rank.

use crate::types::{Bitboard, Color, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;

const fn file_mask(file: i32) -> u64 {
    if file < 0 || file > 7 {
        0
    } else {
        FILE_A << file
    }
}

/// Squares strictly ahead of `sq` for `color` on the given files (`files` a mask of whole files).
const fn ahead(color: usize, sq: usize, files: u64) -> u64 {
    let rank = sq / 8;
    let ranks_ahead = if color == 0 {
        if rank == 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> (8 * (8 - rank))
    };
    ranks_ahead & files
}

const fn tables() -> [[[u64; 64]; 2]; 3] {
    // [front span, passed span, attack span][colour][square]
    let mut t = [[[0u64; 64]; 2]; 3];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let f = (sq % 8) as i32;
            let own = file_mask(f);
            let adjacent = file_mask(f - 1) | file_mask(f + 1);
            t[0][c][sq] = ahead(c, sq, own);
            t[1][c][sq] = ahead(c, sq, own | adjacent);
            t[2][c][sq] = ahead(c, sq, adjacent);
            sq += 1;
        }
        c += 1;
    }
    t
}

static SPANS: [[[u64; 64]; 2]; 3] = tables();

/// Squares exactly two king steps from each square (the king zone's outer ring).
const fn rings() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut to: usize = 0;
        while to < 64 {
            let df = (sq % 8) as i32 - (to % 8) as i32;
            let dr = (sq / 8) as i32 - (to / 8) as i32;
            let (df, dr) = (if df < 0 { -df } else { df }, if dr < 0 { -dr } else { dr });
            if (if df > dr { df } else { dr }) == 2 {
                t[sq] |= 1u64 << to;
            }
            to += 1;
        }
        sq += 1;
    }
    t
}

static OUTER_RINGS: [u64; 64] = rings();

/// Squares exactly two king steps from `sq`.
#[inline(always)]
pub fn outer_ring(sq: Square) -> Bitboard {
    Bitboard(OUTER_RINGS[sq.index()])
}

/// Squares ahead of `sq` on its file.
#[inline(always)]
pub fn front_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(SPANS[0][color.index()][sq.index()])
}

/// Squares ahead of `sq` on its file and the adjacent files: no enemy pawn there = passed pawn.
#[inline(always)]
pub fn passed_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(SPANS[1][color.index()][sq.index()])
}

/// Squares ahead of `sq` on the adjacent files: where enemy pawns that could attack `sq` stand.
#[inline(always)]
pub fn attack_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(SPANS[2][color.index()][sq.index()])
}

/// The files next to `file`.
#[inline(always)]
pub fn adjacent_files(file: u8) -> Bitboard {
    Bitboard(file_mask(file as i32 - 1) | file_mask(file as i32 + 1))
}

/// Squares attacked by all pawns of `color` in `pawns`.
#[inline(always)]
pub fn pawn_attacks_all(color: Color, pawns: Bitboard) -> Bitboard {
    let up = pawns.forward(color);
    up.west() | up.east()
}

#[cfg(test)]
#[path = "masks_tests.rs"]
mod tests;
