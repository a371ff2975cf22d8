//! King and pawn against king, exactly: a bitbase of every position, generated once on first use.
//!
//! Positions are seen from the strong side with its pawn moving up the board (White's view) and the
//! pawn's file mirrored to a-d, and indexed by side to move, strong king, weak king and pawn square:
//! 2 x 64 x 64 x 24 = 196,608 entries, one bit each (24 KiB). The generator works by iterated
//! retrograde analysis to a fixed point: every position starts unknown; a strong-side-to-move position
//! is won once one of its moves reaches a won position, a weak-side-to-move position once all of its
//! moves do; a pass that changes nothing ends the search, and what is still unknown is a draw (the
//! strong side can never force a conversion). It uses its own king and pawn move rules, not the
//! engine's move generator, so the tests can check it against the real legal moves.
//!
//! Generation takes about 25 ms in a release build on the 2-core development machine (measured with the
//! ignored test `kpk_generation_time`), once per process, on the first KPK probe.

use std::sync::OnceLock;

use super::KNOWN_WIN;
use crate::board::Position;
use crate::types::{Color, PieceType, Square};

/// Pawn squares in the index: files a-d, ranks 2-7.
const PAWN_SQUARES: usize = 24;
/// Entries in the bitbase.
const SIZE: usize = 2 * 64 * 64 * PAWN_SQUARES;

/// Won KPK positions with the pawn on files a-d, both sides to move; the same number again with the pawn
/// on files e-h. Checked by the tests.
#[cfg(test)]
const WON_POSITIONS: usize = 111_282;

/// A won position scores this above [`KNOWN_WIN`], plus [`RANK_BONUS`] per rank the pawn has advanced,
/// so the search pushes the pawn whenever that keeps the win (and stays below a won KRK or KQK, so it
/// promotes).
const PAWN_BONUS: i32 = 100;
const RANK_BONUS: i32 = 20;

/// Outcome flags of the generator; a set of them is the union of the outcomes of a side's moves.
const INVALID: u8 = 0;
const UNKNOWN: u8 = 1;
const DRAW: u8 = 2;
const WIN: u8 = 4;

/// The evaluation of KPK for `strong`, the side with the pawn: a won position is worth [`KNOWN_WIN`] plus
/// a bonus for the pawn's advance, a drawn one 0.
pub(super) fn kpk(pos: &Position, strong: Color) -> i32 {
    let weak = !strong;
    let mut strong_king = pos.king_square(strong).relative(strong);
    let mut weak_king = pos.king_square(weak).relative(strong);
    let mut pawn = pos.pieces(strong, PieceType::Pawn).lsb().relative(strong);
    if pawn.file() >= 4 {
        strong_king = strong_king.flip_file();
        weak_king = weak_king.flip_file();
        pawn = pawn.flip_file();
    }
    let setup = Setup { strong_to_move: pos.side_to_move() == strong, strong_king, weak_king, pawn };
    if is_win(&setup) {
        KNOWN_WIN + PAWN_BONUS + RANK_BONUS * i32::from(pawn.rank())
    } else {
        0
    }
}

/// One KPK position from the strong side's point of view, pawn on files a-d and ranks 2-7.
#[derive(Copy, Clone, Debug)]
struct Setup {
    strong_to_move: bool,
    strong_king: Square,
    weak_king: Square,
    pawn: Square,
}

impl Setup {
    /// The bitbase index: pawn square, then strong king, weak king, side to move.
    fn index(&self) -> usize {
        debug_assert!(self.pawn.file() < 4 && (1..=6).contains(&self.pawn.rank()));
        let pawn = usize::from(self.pawn.rank() - 1) * 4 + usize::from(self.pawn.file());
        ((pawn * 64 + self.strong_king.index()) * 64 + self.weak_king.index()) * 2
            + usize::from(self.strong_to_move)
    }

    /// The position with this index (inverse of [`Setup::index`]).
    fn from_index(index: usize) -> Setup {
        let pawn = index / (2 * 64 * 64);
        Setup {
            strong_to_move: index & 1 == 1,
            weak_king: Square::new((index >> 1 & 63) as u8),
            strong_king: Square::new((index >> 7 & 63) as u8),
            pawn: Square::from_file_rank((pawn % 4) as u8, (pawn / 4 + 1) as u8),
        }
    }

    /// Whether this can occur in a game: three distinct squares, kings not adjacent, and the weak king
    /// not in check when the strong side is to move.
    fn is_legal(&self) -> bool {
        let Setup { strong_to_move, strong_king, weak_king, pawn } = *self;
        strong_king != pawn
            && weak_king != pawn
            && strong_king.distance(weak_king) > 1
            && !(strong_to_move && pawn_attacks(pawn, weak_king))
    }
}

/// Whether the (legal) position is won for the strong side.
fn is_win(setup: &Setup) -> bool {
    let index = setup.index();
    bitbase()[index / 64] >> (index % 64) & 1 != 0
}

/// The bitbase, generated on first use.
fn bitbase() -> &'static [u64] {
    static BITBASE: OnceLock<Vec<u64>> = OnceLock::new();
    BITBASE.get_or_init(generate)
}

/// Solves every position and packs the wins into bits.
fn generate() -> Vec<u64> {
    let mut outcomes: Vec<u8> =
        (0..SIZE).map(|i| if Setup::from_index(i).is_legal() { UNKNOWN } else { INVALID }).collect();
    // Pawn pushes lead to higher indices, so the backward sweep sees most successors already solved.
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..SIZE).rev() {
            if outcomes[i] == UNKNOWN {
                let outcome = classify(&outcomes, &Setup::from_index(i));
                if outcome != UNKNOWN {
                    outcomes[i] = outcome;
                    changed = true;
                }
            }
        }
    }
    let mut bits = vec![0u64; SIZE / 64];
    for (i, &outcome) in outcomes.iter().enumerate() {
        if outcome == WIN {
            bits[i / 64] |= 1 << (i % 64);
        }
    }
    bits
}

/// The outcome of a position as far as its successors' outcomes are known (UNKNOWN if not yet decided).
fn classify(outcomes: &[u8], setup: &Setup) -> u8 {
    if setup.strong_to_move {
        let seen = strong_move_outcomes(outcomes, setup);
        // One winning move wins; otherwise it is a draw once every move is known to draw (or there is none).
        if seen & WIN != 0 {
            WIN
        } else if seen & UNKNOWN != 0 {
            UNKNOWN
        } else {
            DRAW
        }
    } else {
        let seen = weak_move_outcomes(outcomes, setup);
        if seen == 0 {
            // No legal move: mate if the pawn gives check (cannot happen in KPK), else stalemate.
            return if pawn_attacks(setup.pawn, setup.weak_king) { WIN } else { DRAW };
        }
        // One drawing move draws; otherwise it is lost once every move is known to lose.
        if seen & DRAW != 0 {
            DRAW
        } else if seen & UNKNOWN != 0 {
            UNKNOWN
        } else {
            WIN
        }
    }
}

/// The union of the outcomes of the strong side's legal moves (0 if it has none).
fn strong_move_outcomes(outcomes: &[u8], s: &Setup) -> u8 {
    let mut seen = 0;
    let after =
        |strong_king, pawn| Setup { strong_to_move: false, strong_king, weak_king: s.weak_king, pawn };
    for to in king_steps(s.strong_king) {
        if to != s.pawn && to.distance(s.weak_king) > 1 {
            seen |= outcomes[after(to, s.pawn).index()];
        }
    }
    let push = s.pawn.offset(8);
    if push != s.strong_king && push != s.weak_king {
        if push.rank() == 7 {
            seen |= if promotion_wins(s.strong_king, s.weak_king, push) { WIN } else { DRAW };
        } else {
            seen |= outcomes[after(s.strong_king, push).index()];
            let double = push.offset(8);
            if s.pawn.rank() == 1 && double != s.strong_king && double != s.weak_king {
                seen |= outcomes[after(s.strong_king, double).index()];
            }
        }
    }
    seen
}

/// The union of the outcomes of the weak king's legal moves (0 if it has none). Taking the pawn draws.
fn weak_move_outcomes(outcomes: &[u8], s: &Setup) -> u8 {
    let mut seen = 0;
    for to in king_steps(s.weak_king) {
        if to.distance(s.strong_king) <= 1 {
            continue;
        }
        if to == s.pawn {
            seen |= DRAW;
        } else if !pawn_attacks(s.pawn, to) {
            let after = Setup { strong_to_move: true, weak_king: to, ..*s };
            seen |= outcomes[after.index()];
        }
    }
    seen
}

/// Whether promoting on `square` wins, the weak side then to move: the new queen or rook must not be
/// taken at once and must leave the weak king a move or give check (no stalemate). KQK and KRK are won
/// in every other case.
fn promotion_wins(strong_king: Square, weak_king: Square, square: Square) -> bool {
    if weak_king.distance(square) == 1 && strong_king.distance(square) > 1 {
        return false;
    }
    [&ROOK_DIRECTIONS[..], &QUEEN_DIRECTIONS[..]].iter().any(|directions| {
        let attacked = |sq| slider_reaches(square, sq, strong_king, directions);
        let has_move = king_steps(weak_king).any(|to| to.distance(strong_king) > 1 && !attacked(to));
        has_move || attacked(weak_king)
    })
}

const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const QUEEN_DIRECTIONS: [(i8, i8); 8] =
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Whether a slider on `from` moving in `directions` reaches `target`, with `blocker` the only piece in
/// the way (the weak king does not block: it cannot hide behind itself).
fn slider_reaches(from: Square, target: Square, blocker: Square, directions: &[(i8, i8)]) -> bool {
    directions.iter().any(|&(df, dr)| {
        let mut sq = from;
        while let Some(next) = step(sq, df, dr) {
            if next == target {
                return true;
            }
            if next == blocker {
                return false;
            }
            sq = next;
        }
        false
    })
}

/// The square `df` files and `dr` ranks away, if it is on the board.
fn step(sq: Square, df: i8, dr: i8) -> Option<Square> {
    let file = sq.file() as i8 + df;
    let rank = sq.rank() as i8 + dr;
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| Square::from_file_rank(file as u8, rank as u8))
}

/// The squares a king on `sq` can step to.
fn king_steps(sq: Square) -> impl Iterator<Item = Square> {
    QUEEN_DIRECTIONS.iter().filter_map(move |&(df, dr)| step(sq, df, dr))
}

/// Whether a pawn on `pawn`, moving up the board, attacks `sq`.
fn pawn_attacks(pawn: Square, sq: Square) -> bool {
    sq.rank() == pawn.rank() + 1 && sq.file().abs_diff(pawn.file()) == 1
}

#[cfg(test)]
#[path = "kpk_tests.rs"]
mod tests;
