//! Slider attack tables indexed by "fancy" magic multiplication (the default) or, with the `pext`
//! cargo feature on a BMI2 build, by the PEXT instruction.
//!
//! The project finds its own magic multipliers, deterministically:
//! 1. the relevant-occupancy mask of a square is its empty-board slider attacks without the board
//!    edges (a blocker on the edge never changes the attack set);
//! 2. every subset of the mask is enumerated (carry-rippler) with its reference attack set;
//! 3. sparse random candidates (AND of three random words) are tried until every subset maps to a
//!    slot that is empty or already holds the same attack set ("constructive" collisions allowed).
//!
//! Each square gets a table of exactly 2^bits entries (variable shift), packed one after another:
//! 102,400 rook + 5,248 bishop entries, 841 KiB.
//!
//! The search tries about 1.5 million candidates (~0.2 s in a release build), too slow for every
//! start-up, so its result is committed in `magic_numbers.rs` (written by `whetstone magics
//! --rust`). At start-up each committed magic is checked while its table is filled, exactly as in
//! the search, and re-searched should it ever fail; filling takes about a millisecond. Tests check
//! that the generator still produces the committed numbers and re-verify every table entry
//! against the slow ray walk.

use std::sync::OnceLock;

use super::magic_numbers;
use super::rays::{bishop_attacks_slow, rook_attacks_slow};

/// How one square's attack set is found in the shared table.
#[derive(Copy, Clone, Debug, Default)]
pub struct MagicEntry {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: u32,
}

impl MagicEntry {
    /// Index of the attack set for `occ` in the shared table.
    #[inline(always)]
    fn index(&self, occ: u64) -> usize {
        #[cfg(feature = "pext")]
        {
            self.offset as usize + pext(occ, self.mask) as usize
        }
        #[cfg(not(feature = "pext"))]
        {
            self.offset as usize + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
        }
    }
}

#[cfg(feature = "pext")]
#[inline(always)]
fn pext(value: u64, mask: u64) -> u64 {
    #[cfg(not(target_feature = "bmi2"))]
    compile_error!("the `pext` feature needs a BMI2 build: RUSTFLAGS='-C target-cpu=native' (or +bmi2)");
    // SAFETY: the intrinsic only needs the BMI2 instruction set, and this code is compiled only
    // when BMI2 is enabled for the whole build (the compile_error above), so every CPU that can
    // run this binary has it. (Rust still asks for `unsafe` because callers lack the attribute.)
    unsafe { std::arch::x86_64::_pext_u64(value, mask) }
}

/// Rook and bishop magic entries and the attack table they index.
pub struct SliderTables {
    pub rook: [MagicEntry; 64],
    pub bishop: [MagicEntry; 64],
    pub attacks: Box<[u64]>,
}

static TABLES: OnceLock<SliderTables> = OnceLock::new();

/// The slider tables, built on first use.
#[inline(always)]
pub fn tables() -> &'static SliderTables {
    TABLES.get_or_init(SliderTables::build)
}

#[inline(always)]
pub fn rook_attacks(sq: usize, occ: u64) -> u64 {
    let t = tables();
    t.attacks[t.rook[sq].index(occ)]
}

#[inline(always)]
pub fn bishop_attacks(sq: usize, occ: u64) -> u64 {
    let t = tables();
    t.attacks[t.bishop[sq].index(occ)]
}

/// Small deterministic generator (xorshift64*): the same magics on every run and machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A candidate with few bits set: these make good magics far more often than dense words.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// The board edges that do not matter for a slider on `sq`: the rim, minus the sq's own rank/file.
fn irrelevant_edges(sq: usize) -> u64 {
    const RANK_1: u64 = 0xff;
    const RANK_8: u64 = 0xff << 56;
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let rank = RANK_1 << (8 * (sq / 8));
    let file = FILE_A << (sq % 8);
    ((RANK_1 | RANK_8) & !rank) | ((FILE_A | FILE_H) & !file)
}

/// Every subset of `mask` (carry-rippler enumeration), the empty set first.
fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            return out;
        }
    }
}

/// Statistics of one table build, for `whetstone magics`.
#[derive(Debug, Default, Clone, Copy)]
pub struct BuildStats {
    pub candidates_tried: u64,
    pub table_entries: usize,
}

impl SliderTables {
    fn build() -> SliderTables {
        Self::build_from(Some((&magic_numbers::ROOK, &magic_numbers::BISHOP))).0
    }

    /// Searches magics for every square from scratch (ignoring the committed numbers).
    pub fn search() -> (SliderTables, BuildStats) {
        Self::build_from(None)
    }

    /// Fills the tables, trying the `known` magics first (when given) and searching otherwise.
    pub fn build_from(known: Option<(&[u64; 64], &[u64; 64])>) -> (SliderTables, BuildStats) {
        let mut stats = BuildStats::default();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut attacks: Vec<u64> = Vec::with_capacity(107_648);
        let mut rook = [MagicEntry::default(); 64];
        let mut bishop = [MagicEntry::default(); 64];
        for (entries, slow, known) in [
            (&mut rook, rook_attacks_slow as fn(usize, u64) -> u64, known.map(|k| k.0)),
            (&mut bishop, bishop_attacks_slow as fn(usize, u64) -> u64, known.map(|k| k.1)),
        ] {
            for (sq, entry) in entries.iter_mut().enumerate() {
                let mask = slow(sq, 0) & !irrelevant_edges(sq);
                let occupancies = subsets(mask);
                let reference: Vec<u64> = occupancies.iter().map(|&occ| slow(sq, occ)).collect();
                let bits = mask.count_ones();
                *entry = MagicEntry { mask, magic: 0, shift: 64 - bits, offset: attacks.len() as u32 };
                let slots = if cfg!(feature = "pext") {
                    fill_pext(entry, &occupancies, &reference)
                } else {
                    let first = known.map(|k| k[sq]);
                    find_magic(entry, &occupancies, &reference, first, &mut rng, &mut stats)
                };
                attacks.extend_from_slice(&slots);
            }
        }
        stats.table_entries = attacks.len();
        (SliderTables { rook, bishop, attacks: attacks.into_boxed_slice() }, stats)
    }

    pub fn rook_magics(&self) -> [u64; 64] {
        self.rook.map(|e| e.magic)
    }

    pub fn bishop_magics(&self) -> [u64; 64] {
        self.bishop.map(|e| e.magic)
    }

    /// The magics as a Rust module, the content of `magic_numbers.rs`.
    pub fn to_rust_module(&self) -> String {
        let mut out = String::from(
            "//! Magic multipliers found by `whetstone magics --rust` (see magic.rs). Generated: do not edit.\n\n",
        );
        for (name, entries) in [("ROOK", &self.rook), ("BISHOP", &self.bishop)] {
            out.push_str(&format!("#[rustfmt::skip]\npub const {name}: [u64; 64] = [\n"));
            for row in entries.chunks(4) {
                let words: Vec<String> = row.iter().map(|e| format!("0x{:016x}", e.magic)).collect();
                out.push_str(&format!("    {},\n", words.join(", ")));
            }
            out.push_str("];\n");
        }
        out
    }
}

/// Tries candidates (`first`, then sparse random words) until one maps every occupancy subset
/// without a destructive collision; stores it in `entry` and returns the square's filled slots.
fn find_magic(
    entry: &mut MagicEntry,
    occupancies: &[u64],
    reference: &[u64],
    mut first: Option<u64>,
    rng: &mut Rng,
    stats: &mut BuildStats,
) -> Vec<u64> {
    let size = occupancies.len();
    let mut slots = vec![0u64; size];
    // `epoch[i] == attempt` marks slot i as written during this attempt: no clearing between tries.
    let mut epoch = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        let magic = first.take().unwrap_or_else(|| rng.sparse());
        // Quick reject: a useful magic spreads the mask's bits into the top byte.
        if (entry.mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        stats.candidates_tried += 1;
        attempt += 1;
        let ok = occupancies.iter().zip(reference).all(|(&occ, &att)| {
            let i = (occ.wrapping_mul(magic) >> entry.shift) as usize;
            if epoch[i] != attempt {
                epoch[i] = attempt;
                slots[i] = att;
                true
            } else {
                slots[i] == att
            }
        });
        if ok {
            entry.magic = magic;
            return slots;
        }
    }
}

/// With PEXT the index is the occupancy's mask bits packed together: no search needed.
#[cfg_attr(not(feature = "pext"), allow(dead_code))]
fn fill_pext(entry: &MagicEntry, occupancies: &[u64], reference: &[u64]) -> Vec<u64> {
    let mut slots = vec![0u64; occupancies.len()];
    for (&occ, &att) in occupancies.iter().zip(reference) {
        slots[entry.index(occ) - entry.offset as usize] = att;
    }
    slots
}

#[cfg(test)]
#[path = "magic_tests.rs"]
mod tests;
