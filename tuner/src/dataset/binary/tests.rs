//! Tests of `dataset/binary/mod.rs`.

use super::*;

#[test]
fn every_kind_of_move_maps_to_viriformat_and_back() {
    // Castling both ways, en passant, promotions to every piece.
    for fen in [
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        for &m in legal_moves(&pos).iter() {
            let bits = to_viri_bits(m);
            assert_eq!(from_viri_bits(bits), m, "{fen} {}", pos.move_to_uci(m));
            let viri = viriformat::chess::chessmove::Move::from_raw(bits).unwrap();
            assert_eq!(viri.from().inner(), m.from().index() as u8);
            assert_eq!(viri.is_castle(), m.kind() == MoveKind::Castling);
            assert_eq!(viri.is_ep(), m.kind() == MoveKind::EnPassant);
            assert_eq!(viri.is_promo(), m.kind() == MoveKind::Promotion);
        }
    }
}
