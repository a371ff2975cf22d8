//! Evaluation tests over thousands of positions: the trace rebuilds the evaluation exactly, and
//! the evaluation is colour-symmetric (and left-right symmetric under the symmetric defaults).

use super::*;
use crate::movegen::legal_moves;

/// The net coefficient (White's count minus Black's) of one weight element in the trace of `fen`.
pub(crate) fn coefficient(fen: &str, element: usize) -> i16 {
    let t = trace(&Position::from_fen(fen).unwrap());
    t.linear.iter().find(|&&(i, _)| i as usize == element).map_or(0, |&(_, c)| c)
}

/// Every perft-suite position plus positions reached from them by seeded random play.
pub(crate) fn sample_positions(count: usize) -> Vec<Position> {
    let suites =
        [include_str!("../../tests/data/perftsuite.epd"), include_str!("../../tests/data/seed_perft.epd")];
    let starts: Vec<Position> = suites
        .iter()
        .flat_map(|s| s.lines())
        .filter_map(|l| l.split(';').next())
        .filter_map(|fen| Position::from_fen(fen.trim()).ok())
        .collect();
    let mut out = starts.clone();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut rng = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let mut game = 0;
    while out.len() < count {
        let mut pos = starts[game % starts.len()].clone();
        game += 1;
        for _ in 0..(20 + rng() % 100) {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.as_slice()[(rng() % moves.len() as u64) as usize]);
            out.push(Position::from_fen(&pos.to_fen()).unwrap());
        }
    }
    out.truncate(count);
    out
}

/// The position mirrored left-right (a-file <-> h-file); only without castling rights.
fn mirror_files(pos: &Position) -> Option<Position> {
    let fen = pos.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    if fields[2] != "-" {
        return None;
    }
    let placement: Vec<String> = fields[0].split('/').map(|rank| rank.chars().rev().collect()).collect();
    let ep = match fields[3] {
        "-" => "-".to_string(),
        sq => {
            let sq: crate::types::Square = sq.parse().unwrap();
            sq.flip_file().to_string()
        }
    };
    let mirrored = format!("{} {} - {} {} {}", placement.join("/"), fields[1], ep, fields[4], fields[5]);
    Some(Position::from_fen(&mirrored).unwrap())
}

#[test]
fn trace_rebuilds_the_evaluation_exactly() {
    let weights = Weights::default();
    // Perturbed weights too, so that a coefficient attributed to the wrong element would show.
    let mut params = crate::eval::EvalParamSet::baked();
    let mut values = params.values();
    for (i, v) in values.iter_mut().enumerate() {
        *v += (i as i32 * 7919) % 23 - 11;
    }
    params.set_values(&values);
    let perturbed = Weights::from_params(&params);
    let mut nonzero = 0;
    for pos in sample_positions(4000) {
        let t = trace(&pos);
        for w in [&weights, &perturbed] {
            assert_eq!(t.evaluate(w), evaluate(&pos, w), "{}", pos.to_fen());
        }
        nonzero += t.linear.len();
    }
    // White-minus-Black merging cancels symmetric terms, so traces are sparse; not this sparse.
    assert!(nonzero > 4000 * 4, "traces are suspiciously sparse: {nonzero}");
}

/// A group of terms whose weights are all zero is left out by the engine's sum (it would add
/// nothing), and one nonzero weight brings it back: the evaluation equals the trace's either way.
#[test]
fn a_group_at_zero_is_left_out_and_one_weight_brings_it_back() {
    let mut params = crate::eval::EvalParamSet::baked();
    let mut values = params.values();
    for group in crate::eval::Group::ALL {
        for slot in params.select(group.terms()).unwrap() {
            values[slot] = 0;
        }
    }
    params.set_values(&values);
    let zero = Weights::from_params(&params);
    assert_eq!(zero.inert, [true; 3]);
    let slot = params.select(&["space.center_control"]).unwrap()[1];
    values[slot] = 5;
    params.set_values(&values);
    let space = Weights::from_params(&params);
    assert_eq!(space.inert, [true, false, true], "only the space group is read");
    for pos in sample_positions(1000) {
        let t = trace(&pos);
        for w in [&zero, &space] {
            assert_eq!(t.evaluate(w), evaluate(&pos, w), "{}", pos.to_fen());
        }
    }
}

/// Win-at-chess middle games and every position one legal move from them: many pawn structures,
/// most of them met more than once.
fn pawn_rich_positions() -> Vec<Position> {
    let roots = include_str!("../../tests/data/wac.epd")
        .lines()
        .filter_map(|l| l.split(" bm ").next())
        .filter_map(|fen| Position::from_fen(&format!("{} 0 1", fen.trim())).ok());
    let mut out = Vec::new();
    for root in roots {
        for m in legal_moves(&root).iter() {
            let mut child = root.clone();
            child.make_move(*m);
            out.push(child);
        }
        out.push(root);
    }
    out
}

#[test]
fn the_pawn_cache_never_changes_the_evaluation() {
    // A roomy cache (hits on every repeated structure) and a two-slot one (constant collisions,
    // so a score kept under another key would show).
    let weights = Weights::default();
    let mut positions = pawn_rich_positions();
    assert!(positions.len() > 5000, "{} positions", positions.len());
    positions.extend(sample_positions(1000));
    for entries in [1 << 13, 2] {
        let mut cache = PawnCache::new(entries);
        let mut hits = 0;
        for pos in positions.iter().chain(&positions) {
            hits += cache.probe(pos.pawn_key()).is_some() as usize;
            let cached = evaluate_cached(pos, &weights, &mut cache);
            assert_eq!(cached, evaluate(pos, &weights), "{entries} entries: {}", pos.to_fen());
        }
        if entries > 2 {
            assert!(hits > positions.len(), "most structures repeat: only {hits} hits");
        }
    }
}

#[test]
fn evaluation_is_colour_symmetric() {
    let weights = Weights::default();
    for pos in sample_positions(4000) {
        let flipped = pos.flipped();
        assert_eq!(
            evaluate(&pos, &weights),
            evaluate(&flipped, &weights),
            "{} vs {}",
            pos.to_fen(),
            flipped.to_fen()
        );
    }
}

/// The baked weights with every piece-square table made left-right symmetric (tuned tables are
/// not; every other term is file-blind).
fn file_symmetric_weights() -> Weights {
    let mut set = crate::eval::EvalParamSet::baked().into_set();
    for term in set.terms.iter_mut().filter(|t| t.shape == crate::params::Shape::Square) {
        for values in [&mut term.mg, &mut term.eg] {
            for sq in 0..64 {
                let mirror = sq ^ 7;
                let mean = (values[sq] + values[mirror]).div_euclid(2);
                values[sq] = mean;
                values[mirror] = mean;
            }
        }
    }
    let set = crate::eval::EvalParamSet::from_set(set, "symmetrised baked parameters")
        .expect("symmetrising keeps the layout");
    Weights::from_params(&set)
}

#[test]
fn evaluation_is_left_right_symmetric_with_symmetric_tables() {
    let weights = file_symmetric_weights();
    let mut checked = 0;
    for pos in sample_positions(4000) {
        if let Some(mirrored) = mirror_files(&pos) {
            assert_eq!(evaluate(&pos, &weights), evaluate(&mirrored, &weights), "{}", pos.to_fen());
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn start_position_is_balanced_and_tempo_counts() {
    let w = Weights::default();
    let start = Position::startpos();
    let tempo = w.mg[baked::idx::TEMPO];
    assert_eq!(evaluate(&start, &w), tempo);
    // Material matters: White a queen up is far ahead.
    let up = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    assert!(evaluate(&up, &w) > 700);
}

#[test]
fn breakdown_ends_with_the_final_evaluation() {
    let params = crate::eval::EvalParamSet::baked().into_set();
    let w = Weights::default();
    let pos =
        Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
    let report = breakdown::report(&pos, &params, &w);
    let last = report.lines().last().unwrap();
    assert_eq!(last, format!("Final evaluation: {} cp (white side)", evaluate(&pos, &w)));
    assert!(report.contains("mobility.knight") && report.contains("pst.pawn"));
}

/// The baked weights with Ethereal-like complexity weights (the baked ones may be zero).
pub(crate) fn weights_with_complexity() -> Weights {
    let mut params = crate::eval::EvalParamSet::baked();
    let mut values = params.values();
    for (name, value) in [
        ("complexity.pawns", 8),
        ("complexity.both_flanks", 80),
        ("complexity.pawns_only", 76),
        ("complexity.offset", -157),
    ] {
        let slot = params.select(&[name]).unwrap()[0];
        values[slot] = value;
    }
    params.set_values(&values);
    Weights::from_params(&params)
}

#[test]
fn complexity_is_applied_last_traced_and_cached_alike() {
    let weights = weights_with_complexity();
    let (mut moved, mut clamped) = (0, 0);
    let mut cache = PawnCache::new(1 << 10);
    for pos in sample_positions(3000) {
        let t = trace(&pos);
        let with = evaluate(&pos, &weights);
        assert_eq!(t.evaluate(&weights), with, "{}", pos.to_fen());
        assert_eq!(evaluate_cached(&pos, &weights, &mut cache), with, "{}", pos.to_fen());
        // The same sum without complexity, then the adjustment by hand.
        let mut sum = Sum::new(&weights);
        let context = evaluate_with(&pos, &mut sum);
        if let Some(endgame::Verdict::Exact(_)) = context.verdict {
            continue;
        }
        let c = terms::complexity::value(&weights, terms::complexity::counts(&pos));
        let before = sum.score.eg();
        let mut plain = Sum::new(&weights);
        let mut no_complexity = NoComplexity(&mut plain);
        evaluate_with(&pos, &mut no_complexity);
        let eg = plain.score.eg();
        assert_eq!(before, eg + terms::complexity::adjustment(eg, c), "{}", pos.to_fen());
        moved += (terms::complexity::adjustment(eg, c) != 0) as usize;
        clamped += (c < -eg.abs()) as usize;
    }
    assert!(moved > 1000 && clamped > 100, "{moved} moved, {clamped} drawn to zero");
}

/// A `Sum` that leaves complexity out: the reference for the test above.
struct NoComplexity<'a, 'w>(&'a mut Sum<'w>);

impl Accumulator for NoComplexity<'_, '_> {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.0.add(color, index, count)
    }
    fn king_danger(&mut self, defender: Color, features: &[(usize, i32)]) {
        self.0.king_danger(defender, features)
    }
    fn complexity(&mut self, _: [i32; terms::complexity::FEATURES]) {}
    fn pawn_structure(&mut self, pos: &Position) -> [crate::types::Bitboard; 2] {
        self.0.pawn_structure(pos)
    }
    fn king_pawns(&mut self, pos: &Position, color: Color) {
        self.0.king_pawns(pos, color)
    }
}
