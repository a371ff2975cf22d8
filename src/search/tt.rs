//! The transposition table: buckets of four 16-byte entries (one 64-byte cache line), shared by
//! all search threads without locks. Each entry stores `key ^ data` beside `data`, so a torn write
//! by another thread reads as a miss instead of a wrong hit; moves read from the table are still
//! checked for legality before use, so a key collision can never corrupt the board.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::types::Move;

/// What a stored score means relative to the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    None = 0,
    /// The score is at most this (fail-low: all moves were searched and none reached alpha).
    Upper = 1,
    /// The score is at least this (fail-high: a move reached beta).
    Lower = 2,
    Exact = 3,
}

/// A decoded table entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub best_move: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The position was on (or searched as) a principal variation when this was stored: the
    /// search reduces such nodes less later, even when they come back in a zero-window search.
    pub was_pv: bool,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; 4]);

pub struct TranspositionTable {
    /// The buckets are `storage[first..first + count]`: a large table starts on a 2 MB boundary
    /// (see [`allocate`]).
    storage: Vec<Bucket>,
    first: usize,
    count: usize,
    generation: AtomicU64,
}

/// The bytes of one huge page (x86-64 Linux's transparent huge pages).
const HUGE_PAGE: usize = 2 << 20;

/// `count` empty buckets, and where the table starts among them. A table of at least one huge
/// page starts on a huge-page boundary and is offered to the kernel for huge pages before it is
/// touched, so that a probe costs one TLB entry per 2 MB instead of per 4 KB: a 16 MB table
/// spans 4,096 small pages, more than the CPU's TLB holds, and its probes are random.
fn allocate(count: usize) -> (Vec<Bucket>, usize) {
    let size = std::mem::size_of::<Bucket>();
    if count * size < HUGE_PAGE {
        let mut storage = Vec::with_capacity(count);
        storage.resize_with(count, Bucket::default);
        return (storage, 0);
    }
    let mut storage: Vec<Bucket> = Vec::with_capacity(count + HUGE_PAGE / size);
    let address = storage.as_ptr() as usize;
    // Buckets are 64-byte aligned, so the distance to the boundary is whole buckets.
    let first = (address.next_multiple_of(HUGE_PAGE) - address) / size;
    advise_huge_pages(address + first * size, count * size);
    storage.resize_with(first + count, Bucket::default);
    (storage, first)
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(start: usize, len: usize) {
    // SAFETY: madvise(MADV_HUGEPAGE) only asks the kernel to back these pages of an allocation
    // this table owns (not yet touched) with huge pages; it reads and writes no memory, and if
    // the kernel declines (huge pages off), ordinary pages serve as before. `start` is
    // page-aligned. Measured: see reports/tests.md, "Speed changes".
    unsafe {
        libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: usize, _len: usize) {}

const GENERATION_MASK: u64 = 0x3f;
/// Depth takes seven bits (searches never reach 128 plies) and the eighth says `was_pv`.
const DEPTH_MASK: u64 = 0x7f;
const WAS_PV_BIT: u64 = 1 << 55;

fn pack(m: Move, score: i32, eval: i32, depth: i32, bound: Bound, was_pv: bool, generation: u64) -> u64 {
    m.raw() as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | (depth.clamp(0, DEPTH_MASK as i32) as u64) << 48
        | (generation & GENERATION_MASK) << 56
        | if was_pv { WAS_PV_BIT } else { 0 }
        | (bound as u64) << 62
}

fn unpack(data: u64) -> TtEntry {
    TtEntry {
        best_move: Move::from_raw(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: (data >> 48 & DEPTH_MASK) as i32,
        bound: match data >> 62 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        },
        was_pv: data & WAS_PV_BIT != 0,
    }
}

fn generation_of(data: u64) -> u64 {
    data >> 56 & GENERATION_MASK
}

impl TranspositionTable {
    /// A table of (about) `mb` megabytes; at least one bucket.
    pub fn new(mb: usize) -> TranspositionTable {
        Self::with_buckets((mb.max(1) << 20) / std::mem::size_of::<Bucket>())
    }

    /// A table of exactly `count` buckets (for small tables that are not sized in megabytes).
    pub fn with_buckets(count: usize) -> TranspositionTable {
        let count = count.max(1);
        let (storage, first) = allocate(count);
        TranspositionTable { storage, first, count, generation: AtomicU64::new(0) }
    }

    fn buckets(&self) -> &[Bucket] {
        &self.storage[self.first..self.first + self.count]
    }

    pub fn size_mb(&self) -> usize {
        (self.count * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Empties every entry (ucinewgame).
    pub fn clear(&mut self) {
        // The padding before a huge-page-aligned table is cleared too: simpler, and never read.
        for bucket in &mut self.storage {
            *bucket = Bucket::default();
        }
        self.generation.store(0, Relaxed);
    }

    /// Marks the start of a new search, so older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the table without a modulo.
        &self.storage[self.first + ((key as u128 * self.count as u128) >> 64) as usize]
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe a little later finds it
    /// there instead of waiting for memory (the probes' loads were about a fifth of the search's
    /// time in a profile of `bench`).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        super::prefetch::prefetch(self.bucket(key));
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in &self.bucket(key).0 {
            let data = slot.data.load(Relaxed);
            if slot.check.load(Relaxed) ^ data == key && data != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result. Replaces the same position's entry (keeping its move if `m` is null), else
    /// an empty slot, else the shallowest and oldest entry.
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, m: Move, score: i32, eval: i32, depth: i32, bound: Bound, was_pv: bool) {
        let generation = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.0 {
            let data = slot.data.load(Relaxed);
            if data == 0 || slot.check.load(Relaxed) ^ data == key {
                victim = slot;
                if data != 0 {
                    let old = unpack(data);
                    // A shallower result of a different bound must not wipe a deeper exact one.
                    if bound != Bound::Exact
                        && depth + 3 < old.depth
                        && generation_of(data) == generation & GENERATION_MASK
                    {
                        return;
                    }
                    if m.is_null() {
                        let data = pack(old.best_move, score, eval, depth, bound, was_pv, generation);
                        slot.data.store(data, Relaxed);
                        slot.check.store(key ^ data, Relaxed);
                        return;
                    }
                }
                break;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & GENERATION_MASK) as i32;
            let worth = unpack(data).depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = pack(m, score, eval, depth, bound, was_pv, generation);
        victim.data.store(data, Relaxed);
        victim.check.store(key ^ data, Relaxed);
    }

    /// Entries per thousand written during the current search (sampled from the first buckets).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed) & GENERATION_MASK;
        let sample = self.count.min(250);
        let used: usize = self.buckets()[..sample]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|s| {
                let d = s.data.load(Relaxed);
                d != 0 && generation_of(d) == generation
            })
            .count();
        (used * 1000 / (sample * 4)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn entries_round_trip_and_miss_on_other_keys() {
        let tt = TranspositionTable::new(1);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        let m = Move::new(Square::E1, Square::E8);
        tt.store(0xdead_beef, m, -31_000, 25, 17, Bound::Lower, true);
        let e = tt.probe(0xdead_beef).unwrap();
        assert_eq!((e.best_move, e.score, e.eval, e.depth, e.bound), (m, -31_000, 25, 17, Bound::Lower));
        assert!(e.was_pv);
        tt.store(0xdead_beef, m, 5, -5, 17, Bound::Upper, false);
        let e = tt.probe(0xdead_beef).unwrap();
        assert_eq!((e.score, e.eval, e.bound, e.was_pv), (5, -5, Bound::Upper, false));
        assert!(tt.probe(0xdead_bef0).is_none());
        assert!(tt.hashfull() <= 4);
    }

    #[test]
    fn a_large_table_starts_on_a_huge_page_and_keeps_its_size() {
        let tt = TranspositionTable::new(4);
        assert_eq!(tt.size_mb(), 4);
        assert_eq!(tt.buckets().as_ptr() as usize % HUGE_PAGE, 0);
        let m = Move::new(Square::E1, Square::E8);
        for key in [1u64, u64::MAX, 0x1234_5678_9abc_def0] {
            tt.store(key, m, 7, 3, 5, Bound::Exact, false);
            assert_eq!(tt.probe(key).map(|e| e.score), Some(7));
        }
        let small = TranspositionTable::with_buckets(1024);
        assert_eq!(small.buckets().len(), 1024);
    }

    #[test]
    fn a_bucket_keeps_the_deepest_entries() {
        let tt = TranspositionTable::new(1);
        let n = tt.count as u64;
        // Keys that land in bucket 0: multiply-shift maps small keys to 0.
        let keys: Vec<u64> = (1..=5).collect();
        assert!(keys.iter().all(|&k| ((k as u128 * n as u128) >> 64) == 0));
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, Move::NULL, 0, 0, 10 - i as i32, Bound::Exact, false);
        }
        // The fifth (shallowest) replaced the shallowest of the four.
        assert!(tt.probe(1).is_some() && tt.probe(5).is_some());
        assert!(tt.probe(4).is_none());
    }
}
