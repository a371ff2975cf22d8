//! Tests of `movegen/legality.rs`.

use super::*;
use crate::movegen::legal_moves;

/// Agrees with the legal move list on every legal move and on random 16-bit words, over
/// positions from random play.
#[test]
fn agrees_with_move_generation() {
    let fens = [
        crate::board::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    ];
    let mut state = 0x1234_5678_9abc_def0_u64;
    let mut rng = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut checked = 0;
    for fen in fens {
        for _ in 0..40 {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..(rng() % 60) {
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                for &m in legal.iter() {
                    assert!(is_legal_move(&pos, m), "{m:?} in {}", pos.to_fen());
                }
                for _ in 0..200 {
                    let m = Move::from_raw(rng() as u16);
                    assert_eq!(is_legal_move(&pos, m), legal.contains(m), "{m:?} in {}", pos.to_fen());
                    checked += 1;
                }
                // Moves that are legal in a sibling position are the realistic hash collisions.
                pos.make_move(legal.as_slice()[(rng() % legal.len() as u64) as usize]);
            }
        }
    }
    assert!(checked > 100_000);
}
