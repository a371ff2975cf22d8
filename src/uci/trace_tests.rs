//! The `trace` answers hold exactly the in-process trace (`eval::trace_into`): every element's
//! coefficient, the king-danger features, the complexity counts, the phase, the known-endgame
//! verdict and the evaluation, over many positions; `trace weights` declares every element.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::*;
use crate::eval::tests::sample_positions;
use crate::eval::{trace, EvalTrace};
use crate::uci::{Output, Uci};

/// A Uci writing into a buffer, and a way to read and clear that buffer.
fn engine() -> (Uci, impl FnMut() -> String) {
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let out: Output = buffer.clone();
    let take = move || String::from_utf8(std::mem::take(&mut *buffer.lock().unwrap())).unwrap();
    (Uci::new(out), take)
}

/// The element index of every protocol name.
fn indices() -> HashMap<String, u16> {
    let command = TraceCommand::new(&EvalParamSet::baked());
    command.names.iter().enumerate().map(|(i, n)| (n.clone(), i as u16)).collect()
}

/// Reads a `trace` answer back into an in-process trace and the evaluation it states.
fn parse(answer: &str, index: &HashMap<String, u16>) -> (EvalTrace, i32) {
    let mut lines = answer.lines();
    assert_eq!(lines.next(), Some("trace begin 1"));
    let mut t = EvalTrace {
        linear: Vec::new(),
        king_features: [Vec::new(), Vec::new()],
        complexity: [0; crate::eval::terms::complexity::FEATURES],
        context: crate::eval::EvalContext { phase: -1, verdict: None, side_to_move: Color::White },
    };
    let mut eval = None;
    for line in lines.by_ref() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let element = |w: &str| index[w];
        match words[..] {
            ["phase", p, "24"] => t.context.phase = p.parse().unwrap(),
            ["exact", v] => t.context.verdict = Some(Verdict::Exact(v.parse().unwrap())),
            ["scale", w, b] => {
                t.context.verdict =
                    Some(Verdict::Scale { white: w.parse().unwrap(), black: b.parse().unwrap() })
            }
            ["c", e, n] => t.linear.push((element(e), n.parse().unwrap())),
            ["king", side, e, n] => {
                t.king_features[(side == "black") as usize].push((element(e), n.parse().unwrap()))
            }
            ["complexity", e, n] => {
                t.complexity[element(e) as usize - idx::COMPLEXITY_PAWNS] = n.parse().unwrap()
            }
            ["eval", v] => eval = Some(v.parse().unwrap()),
            ["trace", "end"] => break,
            _ => panic!("unexpected line '{line}' in:\n{answer}"),
        }
    }
    assert_eq!(lines.next(), None, "nothing after the end marker");
    (t, eval.expect("an eval line"))
}

#[test]
fn trace_answers_equal_the_in_process_trace() {
    let index = indices();
    let (mut uci, mut take) = engine();
    let positions = sample_positions(600);
    let (mut exact, mut scaled, mut king) = (0, 0, 0);
    for pos in &positions {
        uci.handle(&format!("position fen {}", pos.to_fen()));
        uci.handle("trace");
        let (mut got, eval) = parse(&take(), &index);
        let expected = trace(pos);
        got.context.side_to_move = pos.side_to_move();
        // The king features in the order the evaluation gave them.
        assert_eq!(got, expected, "{}", pos.to_fen());
        assert_eq!(eval, evaluate(pos, &Weights::default()) * pos.side_to_move().sign());
        exact += matches!(expected.context.verdict, Some(Verdict::Exact(_))) as usize;
        scaled += matches!(expected.context.verdict, Some(Verdict::Scale { .. })) as usize;
        king += expected.king_features.iter().any(|f| !f.is_empty()) as usize;
    }
    assert!(
        king > 200 && scaled > 0 && exact > 0,
        "king {king}, scaled {scaled}, exact {exact}: the sample covers the forms"
    );
}

#[test]
fn trace_weights_declares_every_element_once_with_its_values() {
    let (mut uci, mut take) = engine();
    uci.handle("trace weights");
    let answer = take();
    let params = EvalParamSet::baked();
    let mut lines = answer.lines();
    assert_eq!(lines.next(), Some("trace weights 1"));
    let weights: Vec<Vec<&str>> =
        lines.clone().filter(|l| l.starts_with("weight ")).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(weights.len(), idx::COUNT);
    assert_eq!(weights[idx::PST_KNIGHT + 28][1], "pst.knight[28]");
    assert_eq!(weights[idx::TEMPO][1], "tempo");
    // The values, in the flat vector's order, are the parameter set's.
    let values: Vec<i32> = weights
        .iter()
        .flat_map(|w| match w[2] {
            "phased" => vec![w[4].parse().unwrap(), w[6].parse().unwrap()],
            _ => vec![w[4].parse().unwrap()],
        })
        .collect();
    assert_eq!(values, params.values());
    let options: Vec<&str> =
        weights.iter().flat_map(|w| if w[2] == "phased" { vec![w[3], w[5]] } else { vec![w[3]] }).collect();
    let names = params.value_names();
    let tunable = params.select(&[]).unwrap();
    for (slot, option) in options.iter().enumerate() {
        let declared = cfg!(feature = "uci-tunables") && tunable.contains(&slot);
        assert_eq!(*option, if declared { names[slot].as_str() } else { "-" }, "slot {slot}");
    }
    assert!(answer.contains("\ncurve king_safety.curve_scale king_safety.curve_power 800\n"), "{answer}");
    assert!(answer.contains(
        "\ncomplexity complexity.pawns complexity.both_flanks complexity.pawns_only complexity.offset\n"
    ));
    assert!(answer.ends_with("trace end\n"));
}

#[test]
fn trace_follows_the_weights_set_and_rejects_unknown_requests() {
    let (mut uci, mut take) = engine();
    uci.handle("trace nonsense");
    assert_eq!(take(), "trace error unknown request 'trace nonsense': expected 'trace' or 'trace weights'\n");
    // The start position's evaluation is the tempo alone (everything else cancels).
    uci.handle("position startpos");
    uci.handle("trace");
    let before = take();
    assert!(before.contains("\nc tempo 1\n"), "{before}");
    if cfg!(feature = "uci-tunables") {
        uci.handle("setoption name tempo_mg value 40");
        uci.handle("trace");
        assert!(take().contains("\neval 40\n"));
    }
}
