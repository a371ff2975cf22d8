//! Legal move generation. Checkers and pins are computed once per position (in make_move), so
//! every move produced here is legal without a make/test/unmake loop:
//! - king moves go only to squares the enemy does not attack with the king lifted off the board;
//! - in double check only the king moves; in single check the other pieces must capture the
//!   checker or block (the check-evasion generator);
//! - a pinned piece moves only along the line through its king and itself;
//! - en passant is tested exactly, with both pawns lifted (the horizontal-pin case);
//! - castling is refused out of, through or into check, with king and rook lifted (Chess960).
//!
//! Three kinds of generation share the code: all moves, "noisy" moves (captures and queen
//! promotions, plus capture-promotions to any piece) and "quiet" moves (everything else). Their
//! union is exactly the legal move list; the search's quiet-check stage splits the quiets with
//! [`super::gives_check`].

use crate::board::Position;
use crate::types::{Bitboard, CastleSide, Color, Move, MoveKind, PieceType, Square};

use super::movelist::MoveSink;
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};

/// Which moves a generator produces.
pub mod kind {
    /// Every legal move.
    pub const ALL: u8 = 0;
    /// Captures (including en passant and capture-promotions) and non-capturing queen promotions.
    pub const NOISY: u8 = 1;
    /// Everything that is not noisy: non-captures, castling, non-capturing under-promotions.
    pub const QUIET: u8 = 2;
}

const ALL_PROMOTIONS: [PieceType; 4] =
    [PieceType::Queen, PieceType::Knight, PieceType::Rook, PieceType::Bishop];
const QUEEN_ONLY: [PieceType; 1] = [PieceType::Queen];
const UNDER_PROMOTIONS: [PieceType; 3] = [PieceType::Knight, PieceType::Rook, PieceType::Bishop];

/// Generates the legal moves of kind `K` (see [`kind`]) into `sink`.
#[inline(always)]
pub fn generate<const K: u8, S: MoveSink>(pos: &Position, sink: &mut S) {
    if pos.in_check() {
        generate_evasions::<K, S>(pos, sink);
    } else {
        generate_non_evasions::<K, S>(pos, sink);
    }
}

/// Moves when the side to move is not in check: every piece, and castling.
fn generate_non_evasions<const K: u8, S: MoveSink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let targets = kind_targets::<K>(pos);
    king_moves(pos, targets, sink);
    piece_moves(pos, targets, sink);
    pawn_moves::<K, S>(pos, Bitboard::ALL, sink);
    if K != kind::NOISY && pos.castling_rights().has_any(us) {
        castling_moves(pos, sink);
    }
}

/// Check evasions: king moves, and with a single checker, captures of it and interpositions.
fn generate_evasions<const K: u8, S: MoveSink>(pos: &Position, sink: &mut S) {
    let targets = kind_targets::<K>(pos);
    king_moves(pos, targets, sink);
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return;
    }
    // The squares between king and checker, and the checker itself.
    let block_or_capture = between(pos.king_square(pos.side_to_move()), checkers.lsb());
    piece_moves(pos, targets & block_or_capture, sink);
    pawn_moves::<K, S>(pos, block_or_capture, sink);
}

/// Destination squares allowed for pieces by the generation kind.
#[inline(always)]
fn kind_targets<const K: u8>(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    match K {
        kind::NOISY => pos.pieces_of(!us),
        kind::QUIET => !pos.occupied(),
        _ => !pos.pieces_of(us),
    }
}

#[inline(always)]
fn king_moves<S: MoveSink>(pos: &Position, targets: Bitboard, sink: &mut S) {
    let us = pos.side_to_move();
    let king = pos.king_square(us);
    // The king itself must not block the attacks it is moving away from.
    let occ = pos.occupied() ^ king;
    let mut safe = Bitboard::EMPTY;
    for to in king_attacks(king) & targets {
        if !pos.is_attacked_by(to, !us, occ) {
            safe |= to;
        }
    }
    sink.push_targets(king, safe);
}

/// Knight, bishop, rook and queen moves to `targets`; pinned pieces stay on their pin line.
#[inline(always)]
fn piece_moves<S: MoveSink>(pos: &Position, targets: Bitboard, sink: &mut S) {
    let us = pos.side_to_move();
    let king = pos.king_square(us);
    let occ = pos.occupied();
    let pinned = pos.pinned();
    // A pinned knight can never move.
    for from in pos.pieces(us, PieceType::Knight) & !pinned {
        sink.push_targets(from, knight_attacks(from) & targets);
    }
    for from in pos.diagonal_sliders(us) {
        let mut to = bishop_attacks(from, occ) & targets;
        if pinned.contains(from) {
            to &= line(king, from);
        }
        sink.push_targets(from, to);
    }
    for from in pos.orthogonal_sliders(us) {
        let mut to = rook_attacks(from, occ) & targets;
        if pinned.contains(from) {
            to &= line(king, from);
        }
        sink.push_targets(from, to);
    }
}

/// Pawn moves whose destination lies in `allowed` (the check-evasion mask, or everything).
#[inline(always)]
fn pawn_moves<const K: u8, S: MoveSink>(pos: &Position, allowed: Bitboard, sink: &mut S) {
    let us = pos.side_to_move();
    let king = pos.king_square(us);
    let pawns = pos.pieces(us, PieceType::Pawn);
    let pinned = pos.pinned() & pawns;
    pawn_group_moves::<K, S>(pos, pawns & !pinned, allowed, sink);
    // Pinned pawns are rare: each moves alone, restricted to its pin line.
    for from in pinned {
        pawn_group_moves::<K, S>(pos, Bitboard::from_square(from), allowed & line(king, from), sink);
    }
    if K != kind::QUIET {
        if let Some(ep) = pos.en_passant() {
            en_passant_moves(pos, ep, sink);
        }
    }
}

/// Pushes, double pushes, captures and promotions of a set of pawns, to squares in `allowed`.
#[inline(always)]
fn pawn_group_moves<const K: u8, S: MoveSink>(
    pos: &Position,
    pawns: Bitboard,
    allowed: Bitboard,
    sink: &mut S,
) {
    let us = pos.side_to_move();
    let empty = !pos.occupied();
    let enemies = pos.pieces_of(!us) & allowed;
    let up: i8 = if us == Color::White { 8 } else { -8 };
    let seventh = Bitboard::relative_rank(us, 6);
    let third = Bitboard::relative_rank(us, 2);
    let promoting = pawns & seventh;
    let others = pawns & !seventh;

    if K != kind::NOISY {
        let single = others.forward(us) & empty;
        let double = (single & third).forward(us) & empty;
        sink.push_pawn_moves(single & allowed, up);
        sink.push_pawn_moves(double & allowed, 2 * up);
    }
    if K != kind::QUIET {
        // "West" is towards the a-file for both colours, so the deltas differ by colour only via `up`.
        sink.push_pawn_moves(others.forward(us).west() & enemies, up - 1);
        sink.push_pawn_moves(others.forward(us).east() & enemies, up + 1);
    }
    if promoting.any() {
        let push = promoting.forward(us) & empty & allowed;
        let west = promoting.forward(us).west() & enemies;
        let east = promoting.forward(us).east() & enemies;
        match K {
            kind::NOISY => {
                sink.push_promotions(push, up, &QUEEN_ONLY);
                sink.push_promotions(west, up - 1, &ALL_PROMOTIONS);
                sink.push_promotions(east, up + 1, &ALL_PROMOTIONS);
            }
            kind::QUIET => sink.push_promotions(push, up, &UNDER_PROMOTIONS),
            _ => {
                sink.push_promotions(push, up, &ALL_PROMOTIONS);
                sink.push_promotions(west, up - 1, &ALL_PROMOTIONS);
                sink.push_promotions(east, up + 1, &ALL_PROMOTIONS);
            }
        }
    }
}

/// En-passant captures onto `ep`, each verified exactly: with the capturing and the captured
/// pawn lifted and the capturer on `ep`, no enemy slider may see the king, and any non-slider
/// checker must be the captured pawn itself.
pub(super) fn en_passant_moves<S: MoveSink>(pos: &Position, ep: Square, sink: &mut S) {
    let us = pos.side_to_move();
    let them = !us;
    let king = pos.king_square(us);
    let captured = ep.relative(us).offset(-8).relative(us);
    let non_slider_checkers =
        pos.checkers() & (pos.pieces_of_type(PieceType::Knight) | pos.pieces_of_type(PieceType::Pawn));
    if (non_slider_checkers & !Bitboard::from_square(captured)).any() {
        return;
    }
    for from in pawn_attacks(them, ep) & pos.pieces(us, PieceType::Pawn) {
        let occ = (pos.occupied() ^ from ^ captured) | ep;
        let exposed = (bishop_attacks(king, occ) & pos.diagonal_sliders(them))
            | (rook_attacks(king, occ) & pos.orthogonal_sliders(them));
        if exposed.is_empty() {
            sink.push(Move::with_kind(from, ep, MoveKind::EnPassant));
        }
    }
}

/// Castling (encoded king takes own rook) when the right exists, the squares between are empty,
/// and the king is not in check and crosses or lands on no attacked square.
pub(super) fn castling_moves<S: MoveSink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let king = pos.king_square(us);
    let config = pos.castling_config();
    for side in [CastleSide::King, CastleSide::Queen] {
        if !pos.castling_rights().has(us, side) || (config.empty_path(us, side) & pos.occupied()).any() {
            continue;
        }
        let rook = config.rook_square(us, side);
        // Lifting the rook matters in Chess960, where it may shield the king's destination.
        let occ = pos.occupied() ^ king ^ rook;
        if config.king_path(us, side).iter().all(|sq| !pos.is_attacked_by(sq, !us, occ)) {
            sink.push(Move::with_kind(king, rook, MoveKind::Castling));
        }
    }
}
