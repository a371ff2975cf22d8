//! Tests of `board/fen.rs`.

use super::*;

fn err(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(_) => panic!("'{fen}' was accepted"),
        Err(e) => e,
    }
}

#[test]
fn from_pieces_is_from_fen_without_castling_or_en_passant() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
        "8/8/8/8/8/8/8/K6k b - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R b - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let pieces = (0..64).map(Square::new).filter_map(|sq| pos.piece_on(sq).map(|p| (p, sq)));
        let built = Position::from_pieces(pieces, pos.side_to_move()).unwrap();
        assert_eq!((built.to_fen(), built.key()), (fen.to_string(), pos.key()));
        assert!(built.is_consistent());
    }
    let king = Piece::new(Color::White, PieceType::King);
    let twice = [(king, Square::new(4)), (Piece::new(Color::Black, PieceType::King), Square::new(4))];
    assert!(matches!(Position::from_pieces(twice, Color::White), Err(FenError::SquareTwice(_))));
    assert!(matches!(
        Position::from_pieces([(king, Square::new(4))], Color::White),
        Err(FenError::KingCount { .. })
    ));
    // The side not to move in check: a record no game can reach.
    let rook = Piece::new(Color::White, PieceType::Rook);
    let black_king = Piece::new(Color::Black, PieceType::King);
    let checked = [(king, Square::new(4)), (rook, Square::new(56)), (black_king, Square::new(60))];
    assert!(matches!(Position::from_pieces(checked, Color::White), Err(FenError::OpponentInCheck(_))));
}

#[test]
fn round_trips() {
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/8/8/8/8/8/K6k b - - 99 150",
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1",
        "r3k1rr/8/8/8/8/8/8/R3K1RR w Gg - 0 1",
    ] {
        assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
    }
    // Shredder-FEN letters naming the outermost rooks are written back as X-FEN (KQkq).
    let shredder = Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1").unwrap();
    assert_eq!(shredder.to_fen(), "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1");
    assert!(shredder.is_chess960());
    // EPD-style four fields get default counters.
    assert_eq!(
        Position::from_fen("8/8/8/8/8/8/8/K6k w - -").unwrap().to_fen(),
        "8/8/8/8/8/8/8/K6k w - - 0 1"
    );
}

#[test]
fn unusable_en_passant_square_is_dropped() {
    // Legal e.p. square but no black pawn can capture: not part of the position (or its key).
    let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(pos.en_passant(), None);
    assert_eq!(
        pos.key(),
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap().key()
    );
}

#[test]
fn every_kind_of_malformed_fen_is_named() {
    assert_eq!(err(""), FenError::FieldCount(0));
    assert_eq!(err("8/8/8/8/8/8/8/K6k w - - 0 1 extra"), FenError::FieldCount(7));
    assert_eq!(err("8/8/8/8/8/8/K6k w - - 0 1"), FenError::RankCount(7));
    assert_eq!(err("8/8/8/8/8/8/8/K5xk w - - 0 1"), FenError::BadPiece { letter: 'x', rank: 1 });
    assert!(matches!(err("8/8/8/8/8/8/8/K5k w - - 0 1"), FenError::RankLength { rank: 1, files: 7 }));
    assert!(matches!(err("8/8/8/8/8/8/8/K6k1 w - - 0 1"), FenError::RankLength { rank: 1, .. }));
    assert_eq!(err("8/8/8/8/8/8/8/K7 w - - 0 1"), FenError::KingCount { color: Color::Black, count: 0 });
    assert_eq!(err("8/8/8/8/8/8/8/KK5k w - - 0 1"), FenError::KingCount { color: Color::White, count: 2 });
    assert_eq!(err("P7/8/8/8/8/8/8/K6k w - - 0 1"), FenError::PawnOnBackRank("a8".parse().unwrap()));
    assert!(matches!(err("k7/8/8/8/8/8/PPPPPPPP/KQQQQQQQ w - - 0 1"), FenError::TooManyPieces { .. }));
    assert_eq!(err("8/8/8/8/8/8/8/K6k x - - 0 1"), FenError::BadSide("x".into()));
    assert!(matches!(err("8/8/8/8/8/8/8/K6k w KQ - 0 1"), FenError::CastlingMismatch { right: 'K', .. }));
    assert!(matches!(err("r3k2r/8/8/8/8/8/8/R3K2R w Z - 0 1"), FenError::BadCastlingField(_)));
    assert!(matches!(err("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1"), FenError::BadCastlingField(_)));
    assert!(matches!(
        err("r3k2r/8/8/8/8/8/8/R3K2R w B - 0 1"),
        FenError::CastlingMismatch { right: 'B', .. }
    ));
    assert_eq!(err("8/8/8/8/8/8/8/K6k w - e9 0 1"), FenError::BadEnPassantField("e9".into()));
    assert!(matches!(err("8/8/8/8/8/8/8/K6k w - e3 0 1"), FenError::ImpossibleEnPassant { .. }));
    assert!(matches!(err("8/8/8/8/8/8/8/K6k w - e6 0 1"), FenError::ImpossibleEnPassant { .. }));
    assert!(matches!(
        err("8/8/8/8/8/8/8/K6k w - - x 1"),
        FenError::BadCounter { field: "halfmove clock", .. }
    ));
    assert!(matches!(
        err("8/8/8/8/8/8/8/K6k w - - 0 -3"),
        FenError::BadCounter { field: "fullmove number", .. }
    ));
    assert_eq!(err("k7/8/8/8/8/8/8/R5K1 w - - 0 1"), FenError::OpponentInCheck(Color::Black));
    assert_eq!(err("4r2k/8/8/b7/8/3n4/8/4K3 w - - 0 1"), FenError::TooManyCheckers(3));
}

#[test]
fn en_passant_needs_the_pushed_pawn_and_empty_squares() {
    // The d-pawn is on d5 (white to move, e.p. d6), but d7 is occupied.
    let e = err("4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert!(e.to_string().contains("passed over"), "{e}");
    let e = err("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1");
    assert!(e.to_string().contains("no Black pawn on d5"), "{e}");
}

/// Random corruptions of valid FENs never panic, and whatever is accepted is consistent.
#[test]
fn corrupted_fens_never_panic() {
    let seeds = [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ -wbKQkqabcdefghABCDEFGH09x\u{e9}".chars().collect();
    let mut state = 0x1234_5678_u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut accepted = 0;
    for i in 0..20_000 {
        let mut chars: Vec<char> = seeds[i % seeds.len()].chars().collect();
        for _ in 0..1 + next(3) {
            let at = next(chars.len() + 1);
            match next(3) {
                0 if at < chars.len() => chars[at] = alphabet[next(alphabet.len())],
                1 if at < chars.len() => {
                    chars.remove(at);
                }
                _ => chars.insert(at, alphabet[next(alphabet.len())]),
            }
        }
        let fen: String = chars.into_iter().collect();
        if let Ok(pos) = Position::from_fen(&fen) {
            assert!(pos.is_consistent(), "{fen}: {}", pos.integrity_report());
            let again = Position::from_fen(&pos.to_fen()).unwrap();
            assert_eq!(again.key(), pos.key(), "{fen}");
            accepted += 1;
        }
    }
    assert!(accepted > 100, "only {accepted} corrupted FENs were still valid");
}

#[test]
fn messages_name_the_problem() {
    assert_eq!(err("8/8/8/8/8/8/8/K5xk w - - 0 1").to_string(), "bad piece letter 'x' in rank 1");
    assert_eq!(
        err("8/8/8/8/8/8/8/K6k w K - 0 1").to_string(),
        "castling right 'K' does not match the board: no White rook on the king side of a1"
    );
    assert_eq!(
        err("8/8/8/8/8/8/4K3/7k w k - 0 1").to_string(),
        "castling right 'k' does not match the board: the Black king is on h1, not on its first rank"
    );
}
