//! Known endgames: exact evaluations where the result is known (KQK, KRK, KBNK, KPK, dead draws) and
//! scale factors for endgames that are hard to win (opposite-coloured bishops, no pawns and too little
//! extra material).
//!
//! [`probe`] first looks the material key up in a table of specialised evaluation functions, then applies
//! the generic scaling rules. Each specialised function is written once, from the strong side's point of
//! view; the table holds every configuration with both colour assignments and negates for Black. Adding an
//! endgame is one function plus one line in [`ENDGAMES`].

mod kpk;
mod mating;
mod scaling;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::board::{zobrist, Position};
use crate::types::{Color, PieceType};

/// What a known endgame says about a position. All scores are from White's point of view, in centipawns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The evaluation is exactly this; no tunable term applies (e.g. KRK, KQK, KBNK, KPK, dead draws).
    Exact(i32),
    /// Scale the end-game part of the evaluation by factor/128 (0 = draw, 128 = unchanged):
    /// `white` applies when the end-game score favours White (> 0), `black` when it favours Black.
    Scale { white: u8, black: u8 },
}

/// Score of a won known endgame before the bonuses that drive the mate (below mate scores, which are > 30000).
pub const KNOWN_WIN: i32 = 10_000;

/// A specialised evaluation: the score for `strong` (positive = good for the strong side) of a position
/// whose material matches the function's table entry, `strong` being the side the entry calls strong.
type EvalFn = fn(&Position, Color) -> i32;

/// Piece counts indexed [colour][piece type], kings included: what a material key describes.
type Counts = [[u32; PieceType::NUM]; Color::NUM];

/// The specialised endgames. A material code lists the strong side's pieces and then the weak side's,
/// each group starting with its king ("KBNK" = king, bishop and knight against a lone king).
const ENDGAMES: &[(&str, EvalFn)] = &[
    ("KQK", mating::kqk),
    ("KRK", mating::krk),
    ("KBNK", mating::kbnk),
    ("KPK", kpk::kpk),
    ("KK", mating::dead_draw),
    ("KNK", mating::dead_draw),
    ("KBK", mating::dead_draw),
    ("KNNK", mating::dead_draw),
];

/// One table entry: which side is strong, the exact counts (to reject a material-key collision), the function.
struct Entry {
    strong: Color,
    counts: Counts,
    eval: EvalFn,
}

/// Material keys are already uniformly random words, so the table uses them as their own hash
/// instead of paying for SipHash on every evaluation.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Table = HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>;

/// Looks the position up: first the table of specialised evaluation functions keyed by
/// `pos.material_key()`, then the generic scaling rules. None = evaluate normally.
pub fn probe(pos: &Position) -> Option<Verdict> {
    // Every specialised endgame has few pieces; most positions skip the table lookup.
    if pos.occupied().count() <= MAX_TABLE_PIECES {
        if let Some(entry) = table().get(&pos.material_key()) {
            if entry.counts == piece_counts(pos) {
                let score = (entry.eval)(pos, entry.strong);
                return Some(Verdict::Exact(score * entry.strong.sign()));
            }
        }
    }
    scaling::scale(pos)
}

/// The most pieces (kings included) of any entry in [`ENDGAMES`].
const MAX_TABLE_PIECES: u32 = 4;

/// The table, built on first use.
fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

/// Every entry of [`ENDGAMES`] under both colour assignments. (KK is the same material either way; its
/// second insertion simply replaces the first.)
fn build_table() -> Table {
    let mut table = Table::default();
    for &(code, eval) in ENDGAMES {
        assert!(code.len() as u32 <= MAX_TABLE_PIECES, "{code} has more pieces than MAX_TABLE_PIECES");
        for strong in Color::ALL {
            let counts = parse_code(code, strong)
                .unwrap_or_else(|| panic!("malformed material code {code:?} in ENDGAMES"));
            table.insert(zobrist::material_key(&counts), Entry { strong, counts, eval });
        }
    }
    table
}

/// Piece counts of a material code such as "KBNK" with `strong` owning the first group; None if the code
/// is not two groups of upper-case piece letters each starting with exactly one king.
fn parse_code(code: &str, strong: Color) -> Option<Counts> {
    let rest = code.strip_prefix('K')?;
    let split = rest.find('K')?;
    let mut counts = [[0; PieceType::NUM]; Color::NUM];
    for (side, letters) in [(strong, &rest[..split]), (!strong, &rest[split + 1..])] {
        counts[side.index()][PieceType::King.index()] = 1;
        for c in letters.chars() {
            let pt =
                PieceType::from_letter(c).filter(|&pt| c.is_ascii_uppercase() && pt != PieceType::King)?;
            counts[side.index()][pt.index()] += 1;
        }
    }
    Some(counts)
}

/// The position's piece counts, for comparison with a table entry's.
fn piece_counts(pos: &Position) -> Counts {
    let mut counts = [[0; PieceType::NUM]; Color::NUM];
    for color in Color::ALL {
        for pt in PieceType::ALL {
            counts[color.index()][pt.index()] = pos.count(color, pt);
        }
    }
    counts
}

/// Helpers shared by the tests of this module and its children.
#[cfg(test)]
mod test_support {
    use super::{probe, Verdict};
    use crate::board::Position;
    use crate::types::{Color, Square};

    /// A FEN with the given pieces (FEN letters), the given side to move, no castling or en passant.
    pub fn fen(pieces: &[(char, Square)], side: Color) -> String {
        let mut board = [None; 64];
        for &(c, sq) in pieces {
            board[sq.index()] = Some(c);
        }
        let mut placement = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 {
                            placement.push_str(&empty.to_string());
                            empty = 0;
                        }
                        placement.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
            if rank > 0 {
                placement.push('/');
            }
        }
        format!("{placement} {} - - 0 1", side.fen_char())
    }

    /// The position of a FEN the test knows to be legal.
    pub fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// The exact score `probe` gives, failing the test if it gives anything else.
    pub fn exact(fen: &str) -> i32 {
        match probe(&pos(fen)) {
            Some(Verdict::Exact(score)) => score,
            other => panic!("{fen}: expected an exact score, got {other:?}"),
        }
    }

    /// A small seeded generator (SplitMix64), so that the random tests are reproducible.
    pub struct Rng(pub u64);

    impl Rng {
        pub fn next_u64(&mut self) -> u64 {
            let mut rng = crate::types::SplitMix64(self.0);
            let word = rng.next_u64();
            self.0 = rng.0;
            word
        }

        /// A number in 0..n.
        pub fn below(&mut self, n: u64) -> u64 {
            self.next_u64() % n
        }
    }

    /// A FEN with White owning the first group of a material code ("KRK", "KBPPKBP") and Black the second,
    /// every piece on a random free square (pawns on ranks 2-7), a random side to move. It may be illegal
    /// (side not to move in check, adjacent kings); callers skip what does not parse.
    pub fn random_fen(rng: &mut Rng, code: &str) -> String {
        let split = code[1..].find('K').expect("two groups") + 1;
        let mut pieces = Vec::new();
        let mut taken = 0u64;
        for (i, c) in code.chars().enumerate() {
            let c = if i < split { c } else { c.to_ascii_lowercase() };
            loop {
                let sq = Square::new(rng.below(64) as u8);
                let pawn_ok = !c.eq_ignore_ascii_case(&'p') || (1..=6).contains(&sq.rank());
                if taken >> sq.index() & 1 == 0 && pawn_ok {
                    taken |= 1 << sq.index();
                    pieces.push((c, sq));
                    break;
                }
            }
        }
        let side = if rng.below(2) == 0 { Color::White } else { Color::Black };
        fen(&pieces, side)
    }
}

#[cfg(test)]
mod tests;
