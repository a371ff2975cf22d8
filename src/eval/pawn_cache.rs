//! The pawn-structure cache: the pawn-only terms of a position depend on the pawns alone, and
//! searches meet the same few pawn structures again and again, so their score and passed pawns
//! are kept under the position's pawn key. One cache per search thread, fresh for every search
//! (so it can never hold scores from other weights).

use crate::types::Bitboard;

use super::score::S;

/// Entries in a search thread's cache (32 bytes each: 256 KiB).
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_found_under_its_own_key_only() {
        let mut cache = PawnCache::new(4);
        let entry =
            PawnEntry { key: 0x1234_5678_0000_0001, score: S(3, -4), passed: [Bitboard(1), Bitboard(2)] };
        cache.store(entry);
        let found = cache.probe(entry.key).expect("stored");
        assert_eq!((found.score, found.passed), (S(3, -4), [Bitboard(1), Bitboard(2)]));
        // Same slot (same low bits), other key: a miss, not the other structure's score.
        assert!(cache.probe(entry.key ^ (1 << 40)).is_none());
        // A later entry in the slot replaces it.
        cache.store(PawnEntry { key: 5, ..entry });
        assert!(cache.probe(entry.key).is_none());
        assert!(cache.probe(5).is_some());
    }

    #[test]
    fn a_disabled_cache_stores_nothing_and_key_zero_never_hits() {
        let mut off = PawnCache::disabled();
        off.store(PawnEntry { key: 7, ..Default::default() });
        assert!(!off.is_enabled() && off.probe(7).is_none());
        let on = PawnCache::new(3);
        assert!(on.is_enabled());
        assert!(on.probe(0).is_none(), "an empty slot must not answer for key 0");
    }
}
