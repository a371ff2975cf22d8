//! Tests of `movegen/notation.rs`.

use super::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

#[test]
fn uci_round_trip_including_promotions_and_castling() {
    let p = pos("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for text in ["b7b8q", "b7a8n", "e1g1", "e1c1", "a1a8"] {
        let m = p.parse_uci_move(text).unwrap();
        assert_eq!(p.move_to_uci(m), text);
    }
    // King-takes-rook is understood in standard mode too.
    assert_eq!(p.move_to_uci(p.parse_uci_move("e1h1").unwrap()), "e1g1");
}

#[test]
fn bad_uci_moves_are_rejected_with_reasons() {
    let p = Position::startpos();
    assert!(matches!(p.parse_uci_move("e2e5"), Err(MoveParseError::Illegal { .. })));
    assert!(matches!(p.parse_uci_move("e7e5"), Err(MoveParseError::Illegal { .. })));
    for junk in ["", "e2", "e2e4e", "i2i4", "e2e4k", "e2e4é", "0000"] {
        assert!(p.parse_uci_move(junk).is_err(), "{junk}");
    }
    // A promotion must name its piece.
    assert!(pos("8/1P6/8/8/8/8/8/K6k w - - 0 1").parse_uci_move("b7b8").is_err());
}

#[test]
fn chess960_king_step_is_not_castling() {
    // King f1, rook h1: f1g1 is an ordinary king move; castling is f1h1.
    let mut p = pos("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    p.set_chess960(true);
    let step = p.parse_uci_move("f1g1").unwrap();
    assert_eq!(step.kind(), MoveKind::Normal);
    assert_eq!(p.parse_uci_move("f1h1").unwrap().kind(), MoveKind::Castling);
}

#[test]
fn san_disambiguation_and_suffixes() {
    let p = pos("3k4/8/8/8/8/8/1N3N2/R3K2R w KQ - 0 1");
    let san = |text: &str| p.move_to_san(p.parse_uci_move(text).unwrap());
    assert_eq!(san("b2d3"), "Nbd3");
    assert_eq!(san("e1g1"), "O-O");
    assert_eq!(san("e1c1"), "O-O-O+"); // the rook lands on d1, facing the king on d8
    assert_eq!(san("a1a8"), "Ra8+");
    let mate = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(mate.move_to_san(mate.parse_uci_move("a1a8").unwrap()), "Ra8#");
    let promo = pos("1n1k4/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(promo.move_to_san(promo.parse_uci_move("a7b8q").unwrap()), "axb8=Q+");
    assert_eq!(promo.move_to_san(promo.parse_uci_move("a7a8r").unwrap()), "a8=R");
    // the b8 knight blocks
}
