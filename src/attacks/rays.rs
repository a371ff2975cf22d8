//! Rays walked square by square: the slow slider attacks that build the magic tables (and check
//! them), and the board step the compile-time tables of [`crate::attacks`] are made with. Kept
//! apart from both so that the tables' builder and their users each only look down here.

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The square `(df, dr)` away from `sq`, if that is on the board.
pub const fn step(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq % 8) as i8 + df;
    let r = (sq / 8) as i8 + dr;
    if f >= 0 && f < 8 && r >= 0 && r < 8 {
        Some((r * 8 + f) as usize)
    } else {
        None
    }
}

/// Squares a slider on `sq` attacks along `dirs`, stopping at (and including) the first blocker in `occ`.
/// The slow reference used to build and verify the magic tables.
pub const fn slider_attacks_slow(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let mut cur = sq;
        while let Some(next) = step(cur, dirs[d].0, dirs[d].1) {
            attacks |= 1 << next;
            if occ & (1 << next) != 0 {
                break;
            }
            cur = next;
        }
        d += 1;
    }
    attacks
}

pub const fn rook_attacks_slow(sq: usize, occ: u64) -> u64 {
    slider_attacks_slow(sq, occ, &ROOK_DIRS)
}

pub const fn bishop_attacks_slow(sq: usize, occ: u64) -> u64 {
    slider_attacks_slow(sq, occ, &BISHOP_DIRS)
}
