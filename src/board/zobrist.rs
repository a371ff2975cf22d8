//! Zobrist keys: random words XOR-ed together describe a position so that make/unmake can update
//! the key incrementally. Generated at compile time by a fixed SplitMix64 stream.

use crate::types::{CastlingRights, Color, Piece, PieceType, SplitMix64, Square};

const fn splitmix(state: &mut u64) -> u64 {
    let mut rng = SplitMix64(*state);
    let word = rng.next_u64();
    *state = rng.0;
    word
}

/// Highest count of one piece kind the material key can describe (2 + 8 promotions, with room).
pub const MAX_PIECE_COUNT: usize = 16;

pub struct Keys {
    pub piece_square: [[u64; 64]; Piece::NUM],
    pub side: u64,
    pub castling: [u64; 16],
    pub en_passant_file: [u64; 8],
    /// material[piece][n]: present in the material key when there are more than `n` such pieces.
    pub material: [[u64; MAX_PIECE_COUNT]; Piece::NUM],
    /// material_of_count[piece][n]: the XOR of material[piece][0..n], the whole contribution of
    /// `n` such pieces, so that a key from scratch is one lookup per piece kind.
    pub material_of_count: [[u64; MAX_PIECE_COUNT + 1]; Piece::NUM],
}

const fn generate() -> Keys {
    let mut s = 0x05ee_d0f5_70e5_u64;
    let mut keys = Keys {
        piece_square: [[0; 64]; Piece::NUM],
        side: 0,
        castling: [0; 16],
        en_passant_file: [0; 8],
        material: [[0; MAX_PIECE_COUNT]; Piece::NUM],
        material_of_count: [[0; MAX_PIECE_COUNT + 1]; Piece::NUM],
    };
    let mut p = 0;
    while p < Piece::NUM {
        let mut sq = 0;
        while sq < 64 {
            keys.piece_square[p][sq] = splitmix(&mut s);
            sq += 1;
        }
        let mut n = 0;
        while n < MAX_PIECE_COUNT {
            keys.material[p][n] = splitmix(&mut s);
            keys.material_of_count[p][n + 1] = keys.material_of_count[p][n] ^ keys.material[p][n];
            n += 1;
        }
        p += 1;
    }
    keys.side = splitmix(&mut s);
    // One word per single right; a set of rights is the XOR of its members.
    let singles = [splitmix(&mut s), splitmix(&mut s), splitmix(&mut s), splitmix(&mut s)];
    let mut r = 0;
    while r < 16 {
        let mut bit = 0;
        while bit < 4 {
            if r >> bit & 1 != 0 {
                keys.castling[r] ^= singles[bit];
            }
            bit += 1;
        }
        r += 1;
    }
    let mut f = 0;
    while f < 8 {
        keys.en_passant_file[f] = splitmix(&mut s);
        f += 1;
    }
    keys
}

pub static KEYS: Keys = generate();

#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    KEYS.piece_square[piece.index()][sq.index()]
}

#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}

#[inline(always)]
pub fn castling(rights: CastlingRights) -> u64 {
    KEYS.castling[rights.0 as usize]
}

#[inline(always)]
pub fn en_passant(sq: Square) -> u64 {
    KEYS.en_passant_file[sq.file() as usize]
}

/// The material-key word toggled when the `n`-th (0-based) piece of this kind appears or disappears.
#[inline(always)]
pub fn material(piece: Piece, n: u32) -> u64 {
    KEYS.material[piece.index()][n as usize]
}

/// The material key of a set of piece counts: depends only on how many of each piece there are.
pub fn material_key(counts: &[[u32; PieceType::NUM]; Color::NUM]) -> u64 {
    let mut key = 0;
    for color in Color::ALL {
        for pt in PieceType::ALL {
            key ^= material_of_count(Piece::new(color, pt), counts[color.index()][pt.index()]);
        }
    }
    key
}

/// The material-key words of `n` pieces of this kind together.
#[inline(always)]
pub fn material_of_count(piece: Piece, n: u32) -> u64 {
    KEYS.material_of_count[piece.index()][n as usize]
}
