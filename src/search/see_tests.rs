use super::*;

fn see(fen: &str, uci: &str, threshold: i32) -> bool {
    let pos = Position::from_fen(fen).unwrap();
    see_ge(&pos, pos.parse_uci_move(uci).unwrap(), threshold)
}

#[test]
fn simple_exchanges() {
    // Pawn takes an undefended knight: +320.
    let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
    assert!(see(fen, "e4d5", 320));
    assert!(!see(fen, "e4d5", 321));
    // Queen takes a pawn defended by a pawn: loses 850.
    let fen = "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1";
    assert!(see(fen, "d1d5", -850));
    assert!(!see(fen, "d1d5", -849));
    // Rook takes a rook defended by a rook, with a rook behind: wins a rook back (R x R, R x R, R x R = +500).
    let fen = "3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1";
    assert!(see(fen, "d2d7", 0));
    // A quiet move to a square attacked by a pawn loses the piece.
    assert!(see("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", "d1c3", 0));
    assert!(!see("4k3/8/8/8/1p6/8/8/3NK3 w - - 0 1", "d1c3", 0));
}

#[test]
fn x_rays_join_the_exchange() {
    // Bishop takes a pawn defended by a knight, with the queen behind the bishop: B x P, N x B, Q x N.
    let fen = "4k3/8/4n3/3p4/8/1B6/Q7/4K3 w - - 0 1";
    assert!(see(fen, "b3d5", 0) == (100 - 330 + 320 >= 0));
}
