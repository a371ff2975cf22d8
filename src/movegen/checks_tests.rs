//! Tests of `movegen/checks.rs`.

use super::*;
use crate::movegen::legal_moves;

/// Along pseudo-random games from positions rich in pins, castling, en passant and
/// promotions, both tests agree with making the move and looking at the king, for every move.
#[test]
fn check_info_agrees_with_making_the_move() {
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let (mut checks, mut moves) = (0, 0);
    for fen in fens {
        let mut pos = Position::from_fen(fen).unwrap();
        for _ in 0..60 {
            let list = legal_moves(&pos);
            if list.is_empty() {
                break;
            }
            let info = CheckInfo::new(&pos);
            for &m in list.as_slice() {
                let mut after = pos.clone();
                after.make_move(m);
                let truth = after.in_check();
                assert_eq!(gives_check(&pos, m), truth, "{}: {m:?}", pos.to_fen());
                assert_eq!(info.gives_check(&pos, m), truth, "{}: {m:?}", pos.to_fen());
                checks += truth as usize;
                moves += 1;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let m = list.as_slice()[(seed >> 33) as usize % list.len()];
            pos.make_move(m);
        }
    }
    assert!(moves > 5_000 && checks > 200, "{checks} checks among {moves} moves");
}

#[test]
fn discovered_checks_need_the_blocker_to_leave_the_line() {
    let cases = [
        ("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", "e4c5", true),
        ("4k3/8/8/8/8/8/4K3/4R3 w - - 0 1", "e2d2", true),
        ("4k3/8/8/8/8/8/4K3/4R3 w - - 0 1", "e2e3", false),
        ("4k3/8/8/8/8/4P3/8/4R1K1 w - - 0 1", "e3e4", false),
        ("7k/8/8/8/3N4/8/1Q6/K7 w - - 0 1", "d4f5", true),
    ];
    for (fen, uci, expected) in cases {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci_move(uci).unwrap();
        assert_eq!(CheckInfo::new(&pos).gives_check(&pos, m), expected, "{fen} {uci}");
        assert_eq!(gives_check(&pos, m), expected, "{fen} {uci}");
    }
}
