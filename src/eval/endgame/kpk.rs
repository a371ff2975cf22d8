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
mod tests {
    use super::super::test_support::{exact, fen};
    use super::super::{probe, Verdict};
    use super::*;
    use crate::movegen::legal_moves;
    use crate::types::Color::{Black, White};

    #[test]
    fn index_round_trips() {
        for i in 0..SIZE {
            assert_eq!(Setup::from_index(i).index(), i);
        }
    }

    #[test]
    fn number_of_won_positions() {
        let won: u32 = bitbase().iter().map(|w| w.count_ones()).sum();
        assert_eq!(won as usize, WON_POSITIONS);
        // Only legal positions are marked won.
        for i in 0..SIZE {
            let s = Setup::from_index(i);
            assert!(s.is_legal() || !is_win(&s), "{s:?}");
        }
    }

    /// What a move leads to, in the test's own graph over every file.
    #[derive(Copy, Clone)]
    enum Successor {
        Win,
        Draw,
        Node(usize),
    }

    /// The test's index over all 48 pawn squares: side to move, kings, pawn (White strong).
    fn all_files_index(pos: &Position) -> usize {
        let pawn = pos.pieces(White, PieceType::Pawn).lsb().index() - 8;
        ((pawn * 64 + pos.king_square(White).index()) * 64 + pos.king_square(Black).index()) * 2
            + usize::from(pos.side_to_move() == White)
    }

    /// After a White move that left KPK: a promotion to a queen or rook wins unless Black, to move, can
    /// take the new piece or is stalemated (decided by the real move generator); anything else (the
    /// pawn taken, an under-promotion) is a draw.
    fn conversion(after: &Position) -> Successor {
        let heavy = after.count(White, PieceType::Queen) + after.count(White, PieceType::Rook);
        if heavy == 0 {
            return Successor::Draw;
        }
        let replies = legal_moves(after);
        let stalemate = replies.is_empty() && !after.in_check();
        let takes = replies.iter().any(|m| after.piece_on(m.to()).is_some());
        if stalemate || takes {
            Successor::Draw
        } else {
            Successor::Win
        }
    }

    /// Every legal KPK position (White strong, every file, both sides to move) with the real legal moves'
    /// successors, and whether the bitbase calls it won. None where the FEN does not parse.
    struct Node {
        white_to_move: bool,
        won: bool,
        successors: Vec<Successor>,
    }

    fn build_graph() -> Vec<Option<Node>> {
        let mut nodes: Vec<Option<Node>> = (0..2 * 64 * 64 * 48).map(|_| None).collect();
        for pawn in (8..56).map(|i| Square::new(i as u8)) {
            for wk in Square::all() {
                for bk in Square::all() {
                    if wk == bk || wk == pawn || bk == pawn {
                        continue;
                    }
                    for side in Color::ALL {
                        let Ok(mut p) = Position::from_fen(&fen(&[('K', wk), ('k', bk), ('P', pawn)], side))
                        else {
                            continue;
                        };
                        let score = match probe(&p) {
                            Some(Verdict::Exact(score)) if score == 0 || score > KNOWN_WIN => score,
                            other => panic!("{}: {other:?}", p.to_fen()),
                        };
                        let mut successors = Vec::new();
                        for &m in legal_moves(&p).iter() {
                            p.make_move(m);
                            let still_kpk = p.count(White, PieceType::Pawn) == 1;
                            successors.push(if still_kpk {
                                Successor::Node(all_files_index(&p))
                            } else {
                                conversion(&p)
                            });
                            p.unmake_move(m);
                        }
                        let node = Node { white_to_move: side == White, won: score > 0, successors };
                        nodes[all_files_index(&p)] = Some(node);
                    }
                }
            }
        }
        nodes
    }

    /// A readable name for a node index of [`all_files_index`], for failure messages.
    fn describe(i: usize) -> String {
        let square = |n: usize| Square::new(n as u8);
        let (pawn, wk, bk) = (square(i / (2 * 64 * 64) + 8), square(i / 128 % 64), square(i / 2 % 64));
        let side = if i % 2 == 1 { White } else { Black };
        fen(&[('K', wk), ('k', bk), ('P', pawn)], side)
    }

    /// Whether a successor is won, given the current labelling of the nodes.
    fn successor_won(s: Successor, won: &[bool]) -> bool {
        match s {
            Successor::Win => true,
            Successor::Draw => false,
            Successor::Node(i) => won[i],
        }
    }

    /// The Bellman equation of a game with no mate: the side with the pawn wins iff one move wins; the
    /// lone king loses iff it has a move and every move loses.
    fn bellman(node: &Node, won: &[bool]) -> bool {
        if node.white_to_move {
            node.successors.iter().any(|&s| successor_won(s, won))
        } else {
            !node.successors.is_empty() && node.successors.iter().all(|&s| successor_won(s, won))
        }
    }

    /// The bitbase against the engine's legal move generator, over every file: (1) each position's value
    /// satisfies the Bellman equation with its real successors, and (2) the set of wins is the least fixed
    /// point of that equation, computed here from scratch on the real move graph, so no drawn cycle is
    /// mislabelled as won.
    #[test]
    fn bitbase_matches_real_move_generator() {
        let nodes = build_graph();
        let present = nodes.iter().filter(|n| n.is_some()).count();
        let won: Vec<bool> = nodes.iter().map(|n| n.as_ref().is_some_and(|n| n.won)).collect();
        for (i, node) in nodes.iter().enumerate() {
            if let Some(node) = node {
                for &s in &node.successors {
                    if let Successor::Node(j) = s {
                        assert!(nodes[j].is_some(), "{} after a move of {}", describe(j), describe(i));
                    }
                }
                assert_eq!(bellman(node, &won), node.won, "Bellman equation fails at {}", describe(i));
            }
        }
        let mut least = vec![false; nodes.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for (i, node) in nodes.iter().enumerate() {
                if let Some(node) = node {
                    if !least[i] && bellman(node, &least) {
                        least[i] = true;
                        changed = true;
                    }
                }
            }
        }
        if let Some(i) = (0..nodes.len()).find(|&i| least[i] != won[i]) {
            panic!("not the least fixed point: {} (bitbase says won: {})", describe(i), won[i]);
        }
        // Mirroring the files doubles the a-d count exactly.
        assert_eq!(won.iter().filter(|&&w| w).count(), 2 * WON_POSITIONS);
        // 2 x 48 x 64 x 64 placements minus overlaps, adjacent kings and Black in check with White to move.
        assert!(present > 300_000, "{present} legal positions");
    }

    #[test]
    fn textbook_positions() {
        let draw = |f: &str| assert_eq!(exact(f), 0, "{f}");
        let win = |f: &str| assert!(exact(f) > KNOWN_WIN, "{f}");
        // The defending king in front of the pawn with the opposition.
        draw("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1");
        // Pawn on the 7th, kings e6 and e8: Black to move is stalemated; White to move wins with Kf6 Kd7,
        // Kf7.
        draw("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1");
        win("4k3/4P3/4K3/8/8/8/8/8 w - - 0 1");
        // Kd6 and e6 against Ke8: White to move wins with e7; Black to move takes the opposition with Kd8
        // (e7+ Ke8, and Ke6 is stalemate).
        win("4k3/8/3KP3/8/8/8/8/8 w - - 0 1");
        draw("4k3/8/3KP3/8/8/8/8/8 b - - 0 1");
        // Rook pawn with the defending king in the promotion corner.
        draw("k7/8/1K6/P7/8/8/8/8 w - - 0 1");
        draw("k7/8/1K6/P7/8/8/8/8 b - - 0 1");
        draw("7k/8/8/7P/8/8/8/K7 w - - 0 1");
        // The strong king on the sixth rank in front of a non-rook pawn wins whoever moves.
        win("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
        win("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1");
        // Pawn on the 7th, its king guarding the promotion square, the other king far away.
        win("8/3KP3/8/8/8/8/8/k7 w - - 0 1");
        win("8/3KP3/8/8/8/8/8/k7 b - - 0 1");
        // The rule of the square: after a5 the lone king is outside the pawn's square ...
        win("8/8/8/8/P4k2/8/8/7K w - - 0 1");
        // ... but with the move it steps into it and catches the pawn.
        draw("8/8/8/8/P4k2/8/8/7K b - - 0 1");
        // The same with Black strong, and with the pawn on the other wing: mirrored scores.
        assert_eq!(exact("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1"), -exact("4k3/4p3/4K3/8/8/8/8/8 b - - 0 1"));
        let white = exact("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
        assert_eq!(-white, exact("8/8/8/8/3p4/3k4/8/3K4 b - - 0 1"));
    }

    #[test]
    fn advanced_pawns_score_higher() {
        let rank6 = exact("8/8/2KP4/8/8/8/8/k7 w - - 0 1");
        let rank3 = exact("8/8/8/8/8/2KP4/8/k7 w - - 0 1");
        assert!(rank6 > rank3 && rank3 > KNOWN_WIN, "{rank6} {rank3}");
        // Below a won KRK.
        assert!(rank6 < exact("k7/8/2K5/8/8/8/8/7R w - - 0 1"));
    }

    /// Run with `cargo test --release --lib kpk_generation_time -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn kpk_generation_time() {
        let start = std::time::Instant::now();
        let bits = generate();
        let elapsed = start.elapsed();
        let won: u32 = bits.iter().map(|w| w.count_ones()).sum();
        println!("KPK bitbase: {won} won positions, generated in {elapsed:?}");
    }
}
