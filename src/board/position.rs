//! The position: piece placement (bitboards and a square→piece array), side to move, castling,
//! en passant, move counters, incremental keys, and the check/pin information that legal move
//! generation needs, computed once per position.

use crate::attacks::{between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::types::{Bitboard, CastleSide, CastlingRights, Color, Move, Piece, PieceType, Square};

use super::castling::CastlingConfig;
use super::zobrist;

/// What make_move cannot undo by itself: saved before each move and restored by unmake.
#[derive(Copy, Clone, Debug, Default)]
pub struct State {
    /// Zobrist key of the whole position (placement, side, castling rights, en-passant file).
    pub key: u64,
    /// Zobrist key of the pawns (and only the pawns): the pawn-structure cache key.
    pub pawn_key: u64,
    /// Key of the piece counts alone: the known-endgame table key.
    pub material_key: u64,
    /// Per colour, the key of that side's pieces other than pawns (kings included): the
    /// correction-history key for the piece placement.
    pub non_pawn_keys: [u64; 2],
    /// Key of both sides' knights and bishops: the correction-history key for the minor pieces.
    pub minor_key: u64,
    pub castling: CastlingRights,
    /// Set only when a pawn of the side to move attacks it, so equal positions get equal keys.
    pub en_passant: Option<Square>,
    pub halfmove_clock: u16,
    /// Plies since the last null move (or the root): bounds the repetition scan.
    pub plies_from_null: u16,
    /// The piece the move that led here captured, if any.
    pub captured: Option<Piece>,
    /// Pieces of the side not to move that give check.
    pub checkers: Bitboard,
    /// Pieces of the side to move that are pinned to its own king.
    pub pinned: Bitboard,
    /// The move that led here (`Move::NULL` at the root or after a null move).
    pub last_move: Move,
}

/// A position's keys, as [`Position::keys_from_scratch`] computes them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    pub key: u64,
    pub pawn: u64,
    pub material: u64,
    pub non_pawn: [u64; 2],
    pub minor: u64,
}

/// Knights and bishops: the pieces the minor-piece key follows.
#[inline(always)]
pub fn is_minor(kind: PieceType) -> bool {
    matches!(kind, PieceType::Knight | PieceType::Bishop)
}

/// A chess position with its history of irreversible state.
#[derive(Clone)]
pub struct Position {
    pub(super) by_type: [Bitboard; PieceType::NUM],
    pub(super) by_color: [Bitboard; Color::NUM],
    pub(super) board: [Option<Piece>; Square::NUM],
    pub(super) side: Color,
    /// Plies played since the start of the game (0 = White's first move), for the FEN move number.
    pub(super) game_ply: u32,
    pub(super) castling_config: CastlingConfig,
    pub(super) chess960: bool,
    pub(super) st: State,
    pub(super) history: Vec<State>,
}

impl Position {
    /// An empty board with White to move; only used while building a position.
    pub(super) fn empty() -> Position {
        Position {
            by_type: [Bitboard::EMPTY; PieceType::NUM],
            by_color: [Bitboard::EMPTY; Color::NUM],
            board: [None; Square::NUM],
            side: Color::White,
            game_ply: 0,
            castling_config: CastlingConfig::default(),
            chess960: false,
            st: State::default(),
            history: Vec::new(),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(super::fen::START_FEN).expect("the start FEN is valid")
    }

    // ---- Placement -------------------------------------------------------------------------

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline(always)]
    pub fn pieces_of_type(&self, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, color: Color, pt: PieceType) -> Bitboard {
        self.by_color[color.index()] & self.by_type[pt.index()]
    }

    /// Bishops and queens of `color`.
    #[inline(always)]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
            & (self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Queen.index()])
    }

    /// Rooks and queens of `color`.
    #[inline(always)]
    pub fn orthogonal_sliders(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
            & (self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Queen.index()])
    }

    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceType::King).lsb()
    }

    /// How many pieces of this kind are on the board.
    #[inline(always)]
    pub fn count(&self, color: Color, pt: PieceType) -> u32 {
        self.pieces(color, pt).count()
    }

    // ---- State -----------------------------------------------------------------------------

    #[inline(always)]
    pub fn state(&self) -> &State {
        &self.st
    }

    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st.key
    }

    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.st.pawn_key
    }

    /// The key of `color`'s pieces other than pawns.
    #[inline(always)]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.st.non_pawn_keys[color.index()]
    }

    /// The key of both sides' knights and bishops.
    #[inline(always)]
    pub fn minor_key(&self) -> u64 {
        self.st.minor_key
    }

    #[inline(always)]
    pub fn material_key(&self) -> u64 {
        self.st.material_key
    }

    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.st.castling
    }

    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.st.en_passant
    }

    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.st.halfmove_clock
    }

    /// The FEN full-move number: starts at 1 and increases after each Black move.
    pub fn fullmove_number(&self) -> u32 {
        self.game_ply / 2 + 1
    }

    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.st.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.st.checkers.any()
    }

    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.st.pinned
    }

    /// Whether castling moves are printed and parsed in Chess960 (king-takes-rook) notation.
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    pub fn castling_config(&self) -> &CastlingConfig {
        &self.castling_config
    }

    /// Number of moves made since this position was set up (the length of the undo history).
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }

    /// Keys of earlier positions, most recent last, for repetition detection.
    pub fn history(&self) -> &[State] {
        &self.history
    }

    // ---- Attacks ---------------------------------------------------------------------------

    /// Pieces of both colours that attack `sq`, with occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, PieceType::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, PieceType::Pawn))
            | (knight_attacks(sq) & self.by_type[PieceType::Knight.index()])
            | (king_attacks(sq) & self.by_type[PieceType::King.index()])
            | (bishop_attacks(sq, occ)
                & (self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Queen.index()]))
            | (rook_attacks(sq, occ)
                & (self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Queen.index()]))
    }

    /// Whether any piece of `by` attacks `sq`, given occupancy `occ`.
    #[inline(always)]
    pub fn is_attacked_by(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        (pawn_attacks(!by, sq) & self.by_type[PieceType::Pawn.index()] & them).any()
            || (knight_attacks(sq) & self.by_type[PieceType::Knight.index()] & them).any()
            || (king_attacks(sq) & self.by_type[PieceType::King.index()] & them).any()
            || (bishop_attacks(sq, occ) & self.diagonal_sliders(by)).any()
            || (rook_attacks(sq, occ) & self.orthogonal_sliders(by)).any()
    }

    /// Pieces of `color` standing alone between its own king and an enemy slider.
    #[inline(always)]
    pub fn pinned_pieces(&self, color: Color) -> Bitboard {
        let king = self.king_square(color);
        let occ = self.occupied();
        let snipers = (rook_attacks(king, Bitboard::EMPTY) & self.orthogonal_sliders(!color))
            | (bishop_attacks(king, Bitboard::EMPTY) & self.diagonal_sliders(!color));
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & !Bitboard::from_square(sniper) & occ;
            if blockers.any() && !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & self.by_color[color.index()]
    }

    /// Refreshes checkers and pins of the side to move after the placement changed.
    #[inline(always)]
    pub(super) fn update_check_info(&mut self) {
        let us = self.side;
        let king = self.king_square(us);
        self.st.checkers = self.attackers_to(king, self.occupied()) & self.by_color[(!us).index()];
        self.st.pinned = self.pinned_pieces(us);
    }

    // ---- Placement primitives (keys are maintained by the callers) --------------------------

    #[inline(always)]
    pub(super) fn put_piece(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = Some(piece);
        self.by_type[piece.piece_type().index()] |= sq;
        self.by_color[piece.color().index()] |= sq;
    }

    #[inline(always)]
    pub(super) fn remove_piece(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = None;
        self.by_type[piece.piece_type().index()] ^= sq;
        self.by_color[piece.color().index()] ^= sq;
    }

    #[inline(always)]
    pub(super) fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let both = Bitboard::from_square(from) | to;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        self.by_type[piece.piece_type().index()] ^= both;
        self.by_color[piece.color().index()] ^= both;
    }

    // ---- Keys from scratch -----------------------------------------------------------------

    /// Every key computed from the placement and state, ignoring the incrementally maintained
    /// values: the reference the integrity check compares against.
    pub fn keys_from_scratch(&self) -> Keys {
        let mut keys = Keys::default();
        // Piece kind by piece kind, so that the counts are population counts and no square is
        // looked up (setting up millions of positions from binary records spends its time here).
        for color in Color::ALL {
            for pt in PieceType::ALL {
                let piece = Piece::new(color, pt);
                let squares = self.pieces(color, pt);
                let mut words = 0;
                for sq in squares {
                    words ^= zobrist::piece_square(piece, sq);
                }
                keys.key ^= words;
                match pt {
                    PieceType::Pawn => keys.pawn ^= words,
                    kind => {
                        keys.non_pawn[color.index()] ^= words;
                        if is_minor(kind) {
                            keys.minor ^= words;
                        }
                    }
                }
                keys.material ^= zobrist::material_of_count(piece, squares.count());
            }
        }
        if self.side == Color::Black {
            keys.key ^= zobrist::side();
        }
        keys.key ^= zobrist::castling(self.st.castling);
        if let Some(ep) = self.st.en_passant {
            keys.key ^= zobrist::en_passant(ep);
        }
        keys
    }

    /// Whether an en-passant capture onto `ep` would be pseudo-legal for the side to move.
    pub(super) fn en_passant_capturable(&self, ep: Square) -> bool {
        (pawn_attacks(!self.side, ep) & self.pieces(self.side, PieceType::Pawn)).any()
    }

    // ---- Whole-position transforms ---------------------------------------------------------

    /// The colour-flipped mirror: ranks reversed, colours exchanged, the other side to move.
    /// Every legal-move count and every symmetric evaluation must be the same as for `self`.
    pub fn flipped(&self) -> Position {
        let mut pos = Position::empty();
        for sq in Square::all() {
            if let Some(p) = self.piece_on(sq) {
                pos.put_piece(p.flip_color(), sq.flip_rank());
            }
        }
        pos.side = !self.side;
        pos.chess960 = self.chess960;
        pos.game_ply = self.game_ply;
        let mut rooks = [None; 4];
        for color in Color::ALL {
            for side in [CastleSide::King, CastleSide::Queen] {
                if self.st.castling.has(color, side) {
                    let rook = self.castling_config.rook_square(color, side);
                    rooks[CastlingRights::index(!color, side)] = Some(rook.flip_rank());
                }
            }
        }
        pos.castling_config = CastlingConfig::new(&pos, rooks);
        pos.st.castling = self.st.castling.flip_colors();
        pos.st.en_passant = self.st.en_passant.map(Square::flip_rank);
        pos.st.halfmove_clock = self.st.halfmove_clock;
        pos.finish_setup();
        pos
    }

    /// Completes a position whose placement, side, castling and en passant are set: drops an
    /// en-passant square no pawn can use, computes the keys and the check information.
    pub(super) fn finish_setup(&mut self) {
        if let Some(ep) = self.st.en_passant {
            if !self.en_passant_capturable(ep) {
                self.st.en_passant = None;
            }
        }
        let keys = self.keys_from_scratch();
        self.st.key = keys.key;
        self.st.pawn_key = keys.pawn;
        self.st.material_key = keys.material;
        self.st.non_pawn_keys = keys.non_pawn;
        self.st.minor_key = keys.minor;
        self.update_check_info();
    }
}
