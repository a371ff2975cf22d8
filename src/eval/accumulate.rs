//! The three places the evaluation's terms go ([`Accumulator`]): [`Sum`] adds weights (the
//! engine; monomorphised, no cost at run time), [`Tracer`] records coefficients (the tuner),
//! [`Breakdown`] sums per term (the `eval` command).

use crate::board::Position;
use crate::types::{Bitboard, Color};

use super::accumulator::{Accumulator, Group};
use super::pawn_cache::{PawnCache, PawnEntry};
use super::score::S;
use super::terms::complexity::{self, FEATURES as COMPLEXITY_FEATURES};
use super::terms::{king, pawns};
use super::weights::{Weights, MAX_KING_UNITS};

/// Attack units of a feature list under some weights, clamped to the curve's range.
#[inline]
pub fn king_units(weights: &Weights, features: &[(usize, i32)]) -> usize {
    let units: i32 = features.iter().map(|&(i, n)| weights.mg[i] * n).sum();
    units.clamp(0, MAX_KING_UNITS as i32) as usize
}

/// Sums the weights: the engine's evaluation, with the pawn-only terms taken from a pawn cache
/// when it has them.
pub struct Sum<'w> {
    pub weights: &'w Weights,
    pub score: S,
    pawns: Option<&'w mut PawnCache>,
}

impl<'w> Sum<'w> {
    pub fn new(weights: &'w Weights) -> Sum<'w> {
        Sum { weights, score: S::ZERO, pawns: None }
    }

    /// A sum that reads and fills `cache` (which must only ever see these weights).
    pub fn with_pawn_cache(weights: &'w Weights, cache: &'w mut PawnCache) -> Sum<'w> {
        Sum { weights, score: S::ZERO, pawns: Some(cache) }
    }
}

impl Accumulator for Sum<'_> {
    #[inline(always)]
    fn skips(&self, group: Group) -> bool {
        self.weights.inert[group as usize]
    }

    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.score += self.weights.packed[index] * (count * color.sign());
    }

    #[inline]
    fn king_danger(&mut self, defender: Color, features: &[(usize, i32)]) {
        let u = king_units(self.weights, features);
        self.score -= S(self.weights.curve_mg[u], self.weights.curve_eg[u]) * defender.sign();
    }

    #[inline]
    fn complexity(&mut self, counts: [i32; COMPLEXITY_FEATURES]) {
        let c = complexity::value(self.weights, counts);
        self.score += S(0, complexity::adjustment(self.score.eg(), c));
    }

    #[inline]
    fn pawn_structure(&mut self, pos: &Position) -> [Bitboard; 2] {
        let Some(cache) = self.pawns.as_deref_mut() else {
            return pawns::structure_both(pos, self);
        };
        // A disabled cache, or key 0 (no pawns), never hits; storing into it changes nothing.
        let key = pos.pawn_key();
        if let Some(entry) = cache.probe(key) {
            self.score += entry.score;
            return entry.passed;
        }
        let mut part = Sum::new(self.weights);
        let passed = pawns::structure_both(pos, &mut part);
        cache.store(PawnEntry::new(key, part.score, passed));
        self.score += part.score;
        passed
    }

    #[inline]
    fn king_pawns(&mut self, pos: &Position, color: Color) {
        let Some(cache) = self.pawns.as_deref_mut() else {
            return king::king_pawns(pos, color, self);
        };
        let (key, king) = (pos.pawn_key(), pos.king_square(color));
        if let Some(score) = cache.probe_king(key, color, king) {
            self.score += score;
            return;
        }
        let mut part = Sum::new(self.weights);
        king::king_pawns(pos, color, &mut part);
        cache.store_king(key, color, king, part.score);
        self.score += part.score;
    }
}

/// Records White-minus-Black coefficients per element and the king-safety features per side.
pub struct Tracer {
    /// Dense coefficients, one per element; all zero between positions.
    coefficients: Vec<i32>,
    /// One bit per element added to since the last `finish`, so finishing visits those in
    /// element order without sorting or scanning every element.
    touched: Vec<u64>,
    /// The last finished position's (element, count) list, sorted by element, zeros left out.
    pub linear: Vec<(u16, i16)>,
    /// King-safety features (element, count) per defending colour.
    pub king_features: [Vec<(u16, i16)>; 2],
    /// The end game's complexity counts (zero in a known end game with an exact score).
    pub complexity: [i16; COMPLEXITY_FEATURES],
}

impl Tracer {
    pub fn new(elements: usize) -> Tracer {
        Tracer {
            coefficients: vec![0; elements],
            touched: vec![0; elements.div_ceil(64)],
            linear: Vec::with_capacity(64),
            king_features: [Vec::new(), Vec::new()],
            complexity: [0; COMPLEXITY_FEATURES],
        }
    }

    /// Forgets the king features and complexity of the previous position (a known endgame
    /// records none).
    pub fn start(&mut self) {
        self.king_features.iter_mut().for_each(Vec::clear);
        self.complexity = [0; COMPLEXITY_FEATURES];
    }

    /// Turns the dense coefficients into the sorted sparse `linear` list and clears them.
    pub fn finish(&mut self) {
        self.linear.clear();
        for (w, word) in self.touched.iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let c = std::mem::take(&mut self.coefficients[i]);
                if c != 0 {
                    self.linear.push((i as u16, c as i16));
                }
            }
        }
    }
}

impl Accumulator for Tracer {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.coefficients[index] += count * color.sign();
        self.touched[index / 64] |= 1 << (index % 64);
    }

    fn king_danger(&mut self, defender: Color, features: &[(usize, i32)]) {
        let list = &mut self.king_features[defender.index()];
        list.clear();
        list.extend(features.iter().filter(|f| f.1 != 0).map(|&(i, n)| (i as u16, n as i16)));
    }

    fn complexity(&mut self, counts: [i32; COMPLEXITY_FEATURES]) {
        self.complexity = counts.map(|n| n as i16);
    }

    fn pawn_structure(&mut self, pos: &Position) -> [Bitboard; 2] {
        pawns::structure_both(pos, self)
    }

    fn king_pawns(&mut self, pos: &Position, color: Color) {
        king::king_pawns(pos, color, self)
    }
}

/// Sums weights per term and colour, for the `eval` command's table.
pub struct Breakdown<'w> {
    pub weights: &'w Weights,
    /// Term index of every element.
    pub term_of: Vec<usize>,
    /// Per term: [White, Black] scores (each from its own side, before the White-minus-Black sum).
    pub per_term: Vec<[S; 2]>,
    /// King-safety curve penalty per defending colour (as a negative score for that colour).
    pub king_safety: [S; 2],
    /// What the end game's complexity added (White's view; end game only).
    pub complexity: S,
}

impl Accumulator for Breakdown<'_> {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let w = S(self.weights.mg[index], self.weights.eg[index]);
        self.per_term[self.term_of[index]][color.index()] += w * count;
    }

    fn king_danger(&mut self, defender: Color, features: &[(usize, i32)]) {
        let u = king_units(self.weights, features);
        self.king_safety[defender.index()] = -S(self.weights.curve_mg[u], self.weights.curve_eg[u]);
    }

    fn complexity(&mut self, counts: [i32; COMPLEXITY_FEATURES]) {
        // Every other term's end-game sum, White's view, as `Sum` has it when it gets here.
        let terms: S = self.per_term.iter().fold(S::ZERO, |t, &[w, b]| t + w - b);
        let eg = (terms + self.king_safety[0] - self.king_safety[1]).eg();
        self.complexity = S(0, complexity::adjustment(eg, complexity::value(self.weights, counts)));
    }

    fn pawn_structure(&mut self, pos: &Position) -> [Bitboard; 2] {
        pawns::structure_both(pos, self)
    }

    fn king_pawns(&mut self, pos: &Position, color: Color) {
        king::king_pawns(pos, color, self)
    }
}
