//! Tests of `eval/endgame/mod.rs`.

use super::test_support::{exact, pos, random_fen, Rng};
use super::*;

/// The verdict the colour-flipped position must get: scores negated, factors exchanged.
fn mirrored(v: Option<Verdict>) -> Option<Verdict> {
    v.map(|v| match v {
        Verdict::Exact(s) => Verdict::Exact(-s),
        Verdict::Scale { white, black } => Verdict::Scale { white: black, black: white },
    })
}

#[test]
fn material_codes_parse() {
    let counts = parse_code("KBNK", Color::Black).unwrap();
    assert_eq!(counts[Color::Black.index()], [0, 1, 1, 0, 0, 1]);
    assert_eq!(counts[Color::White.index()], [0, 0, 0, 0, 0, 1]);
    assert_eq!(parse_code("KK", Color::White).unwrap(), [[0, 0, 0, 0, 0, 1]; 2]);
    for bad in ["", "K", "RK", "KRR", "KrK", "KRKK", "KXK"] {
        assert_eq!(parse_code(bad, Color::White), None, "{bad:?}");
    }
    for &(code, _) in ENDGAMES {
        assert!(parse_code(code, Color::White).is_some(), "{code}");
    }
}

#[test]
fn table_holds_both_colours() {
    // Every code twice, except KK which is the same material for both colours.
    assert_eq!(table().len(), 2 * ENDGAMES.len() - 1);
    for fen in ["8/8/8/3k4/8/8/8/R3K3 w - - 0 1", "r3k3/8/8/8/3K4/8/8/8 w - - 0 1"] {
        let entry = table().get(&pos(fen).material_key()).expect(fen);
        assert_eq!(entry.counts, piece_counts(&pos(fen)));
    }
    assert!(exact("8/8/8/3k4/8/8/8/R3K3 w - - 0 1") > KNOWN_WIN);
    assert!(exact("r3k3/8/8/8/3K4/8/8/8 w - - 0 1") < -KNOWN_WIN);
}

#[test]
fn dead_draws_are_exact_zero() {
    let fens = [
        "8/8/8/3k4/8/8/8/4K3 w - - 0 1",
        "8/8/8/3k4/8/8/8/4K3 b - - 0 1",
        "8/8/8/3k4/8/8/8/3NK3 w - - 0 1",
        "8/8/8/3k4/8/8/8/3nK3 b - - 0 1",
        "8/8/8/3k4/8/8/8/3BK3 b - - 0 1",
        "8/8/8/3kb3/8/8/8/4K3 w - - 0 1",
        "8/8/8/3k4/8/8/8/2NNK3 w - - 0 1",
        "7k/8/5n2/5n2/8/8/8/4K3 b - - 0 1",
    ];
    for fen in fens {
        assert_eq!(probe(&pos(fen)), Some(Verdict::Exact(0)), "{fen}");
    }
}

#[test]
fn middlegame_and_unknown_endgames_are_not_known() {
    for fen in [
        crate::board::START_FEN,
        "8/3p4/8/3k4/8/8/3P4/2QRK3 w - - 0 1",
        "8/5p2/8/3k4/8/8/8/R3K3 w - - 0 1",
        "3q4/3p4/8/3k4/8/8/3P4/Q3K3 w - - 0 1",
    ] {
        assert_eq!(probe(&pos(fen)), None, "{fen}");
    }
}

/// Flipping the colours negates exact scores and exchanges scale factors, for every kind of verdict.
#[test]
fn colour_symmetry_on_random_positions() {
    let codes = [
        "KQK", "KRK", "KBNK", "KPK", "KK", "KNK", "KBK", "KNNK", "KBPPKBP", "KBPPPKBP", "KRBPKRBP", "KRKB",
        "KRKN", "KBBKB", "KBKPP", "KRPKR", "KQKR", "KRRKQP", "KNPKBP", "KRPKRP", "KQPKRP",
    ];
    let mut rng = Rng(0x5eed_e2d9);
    for code in codes {
        let mut tested = 0;
        let mut known = 0;
        while tested < 300 {
            let Ok(p) = Position::from_fen(&random_fen(&mut rng, code)) else { continue };
            tested += 1;
            let verdict = probe(&p);
            known += verdict.is_some() as u32;
            assert_eq!(probe(&p.flipped()), mirrored(verdict), "{code}: {}", p.to_fen());
        }
        // The table endgames and the pawnless rule always answer (KRPKR: Black's factor, KQKR: Black's,
        // KRRKQP: White's); without bishops on both sides and with pawns on both, nothing does.
        match code {
            "KBPPKBP" | "KBPPPKBP" | "KRBPKRBP" => {}
            "KNPKBP" | "KRPKRP" | "KQPKRP" => assert_eq!(known, 0, "{code}"),
            _ => assert_eq!(known, tested, "{code}"),
        }
    }
}
