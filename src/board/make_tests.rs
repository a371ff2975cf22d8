//! Tests of `board/make.rs`.

use crate::movegen::legal_moves;
use crate::Position;

#[test]
fn null_move_flips_side_and_restores() {
    let mut pos =
        Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3").unwrap();
    let before = (pos.to_fen(), pos.key());
    pos.make_null_move();
    assert_eq!(pos.to_fen(), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3");
    assert!(pos.is_consistent());
    pos.unmake_null_move();
    assert_eq!((pos.to_fen(), pos.key()), before);
}

#[test]
fn material_key_depends_only_on_piece_counts() {
    let a = Position::from_fen("4k3/8/8/3r4/8/8/8/R3K3 w - - 0 1").unwrap();
    let b = Position::from_fen("r3k3/8/8/8/8/8/5R2/4K3 b - - 0 1").unwrap();
    let c = Position::from_fen("4k3/8/8/3q4/8/8/8/R3K3 w - - 0 1").unwrap();
    assert_eq!(a.material_key(), b.material_key());
    assert_ne!(a.material_key(), c.material_key());
    assert_ne!(a.key(), b.key());
}

#[test]
fn transpositions_have_equal_keys() {
    let mut a = Position::startpos();
    let mut b = Position::startpos();
    for m in ["g1f3", "g8f6", "b1c3", "b8c6"] {
        a.play_uci(m).unwrap();
    }
    for m in ["b1c3", "b8c6", "g1f3", "g8f6"] {
        b.play_uci(m).unwrap();
    }
    assert_eq!(a.key(), b.key());
    assert_eq!(a.pawn_key(), Position::startpos().pawn_key());
}

#[test]
fn captures_promotions_and_castling_update_rights_and_clocks() {
    let mut pos = Position::from_fen("rn2k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 5 10").unwrap();
    pos.play_uci("b7a8q").unwrap(); // captures the a8 rook: Black loses queen-side castling
    assert_eq!(pos.to_fen(), "Qn2k2r/8/8/8/8/8/8/R3K2R b KQk - 0 10");
    pos.play_uci("e8g8").unwrap();
    assert_eq!(pos.to_fen(), "Qn3rk1/8/8/8/8/8/8/R3K2R w KQ - 1 11");
    assert_eq!(legal_moves(&pos).len(), 35); // python-chess agrees
}

#[test]
fn key_after_predicts_the_key_of_ordinary_moves() {
    use crate::types::MoveKind;
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ];
    let (mut exact, mut total) = (0, 0);
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        for &m in legal_moves(&pos).as_slice() {
            let mut after = pos.clone();
            after.make_move(m);
            let predicted = pos.key_after(m);
            total += 1;
            // Castling, double pushes and moves that touch a rook's or king's first square
            // may change what the guess leaves out; every other move must be exact.
            let simple = m.kind() != MoveKind::Castling
                && m.kind() != MoveKind::EnPassant
                && after.en_passant().is_none()
                && after.castling_rights() == pos.castling_rights();
            if simple {
                assert_eq!(predicted, after.key(), "{fen}: {m:?}");
            }
            exact += (predicted == after.key()) as usize;
        }
    }
    assert!(exact * 10 >= total * 8, "{exact} of {total} exact");
}
