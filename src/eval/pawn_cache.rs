//! The pawn-structure cache: the pawn-only terms of a position depend on the pawns alone, and
//! searches meet the same few pawn structures again and again, so their score and passed pawns
//! are kept under the position's pawn key. Each side's king-and-pawn terms (shelter, storm, the
//! nearest pawn) depend on the pawns and that king's square alone, and kings move rarely, so the
//! entry also keeps them for the king square they were computed on. One cache per search thread,
//! fresh for every search (so it can never hold scores from other weights).

use crate::types::{Bitboard, Color, Square};

use super::score::S;

/// Entries in a search thread's cache (56 bytes each: 448 KiB).
pub const SEARCH_ENTRIES: usize = 1 << 13;

#[derive(Copy, Clone, Debug, Default)]
pub struct PawnEntry {
    /// The full pawn key. Empty slots hold 0, the key of a position without pawns, so a probe
    /// for key 0 never hits.
    pub key: u64,
    /// The pawn-only terms, White minus Black.
    pub score: S,
    /// The passed pawns of [White, Black].
    pub passed: [Bitboard; 2],
    /// Per colour: the king square `king_pawns` was computed on, or [`NO_KING`].
    pub king_squares: [u8; 2],
    /// Per colour: that side's king-and-pawn terms (White minus Black, as every score here).
    pub king_pawns: [S; 2],
}

/// No king-and-pawn score kept for this colour yet.
pub const NO_KING: u8 = 64;

impl PawnEntry {
    /// A fresh entry for the pawn-only terms, with no king-and-pawn scores yet.
    pub fn new(key: u64, score: S, passed: [Bitboard; 2]) -> PawnEntry {
        PawnEntry { key, score, passed, king_squares: [NO_KING; 2], king_pawns: [S::ZERO; 2] }
    }
}

/// A direct-mapped table of pawn entries; a cache with no entries stores nothing.
#[derive(Clone, Debug, Default)]
pub struct PawnCache {
    entries: Vec<PawnEntry>,
}

impl PawnCache {
    /// A cache of `entries` slots (rounded up to a power of two; 0 disables it).
    pub fn new(entries: usize) -> PawnCache {
        let len = if entries == 0 { 0 } else { entries.next_power_of_two() };
        PawnCache { entries: vec![PawnEntry::default(); len] }
    }

    /// A cache that stores nothing (for one-off evaluations).
    pub fn disabled() -> PawnCache {
        PawnCache::default()
    }

    pub fn is_enabled(&self) -> bool {
        !self.entries.is_empty()
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    /// The entry stored under exactly `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<PawnEntry> {
        if self.entries.is_empty() {
            return None;
        }
        let entry = self.entries[self.slot(key)];
        (entry.key == key && key != 0).then_some(entry)
    }

    /// Keeps `entry` (always replacing the slot's previous one).
    #[inline]
    pub fn store(&mut self, entry: PawnEntry) {
        if !self.entries.is_empty() {
            let slot = self.slot(entry.key);
            self.entries[slot] = entry;
        }
    }

    /// `color`'s king-and-pawn score under `key` with its king on `king`, if kept.
    #[inline]
    pub fn probe_king(&self, key: u64, color: Color, king: Square) -> Option<S> {
        let entry = self.probe(key)?;
        (entry.king_squares[color.index()] == king.index() as u8).then_some(entry.king_pawns[color.index()])
    }

    /// Keeps `color`'s king-and-pawn score for `king` in the entry under `key` (nothing if that
    /// entry has since been replaced).
    #[inline]
    pub fn store_king(&mut self, key: u64, color: Color, king: Square, score: S) {
        if self.probe(key).is_some() {
            let slot = self.slot(key);
            let entry = &mut self.entries[slot];
            entry.king_squares[color.index()] = king.index() as u8;
            entry.king_pawns[color.index()] = score;
        }
    }
}

#[cfg(test)]
#[path = "pawn_cache_tests.rs"]
mod tests;
