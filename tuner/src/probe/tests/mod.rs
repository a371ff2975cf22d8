//! The probe and the trace client against the toy engine (`tuner/testdata/toy_engine.py`):
//! coefficients, linearity, resuming, and every fault the library must name.

mod own_engine;

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::eval_probe::{probe, Probed, PROBE_JOURNAL};
use super::fit::{fit, FitSettings};
use super::run::{rounds, write_option_values};
use super::settings::{Freshness, Perspective, ProbeSettings, TraceSettings};
use super::space::Linearity;
use super::trace_run::{trace, TRACE_JOURNAL};
use crate::dataset::Label;
use crate::play::engines::engine_process::{EngineSpec, Protocol};
use crate::testutil::{random_positions, TempDir};

pub fn toy(flags: &[&str]) -> EngineSpec {
    let script = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/toy_engine.py"));
    let mut args = vec![script.display().to_string()];
    args.extend(flags.iter().map(|f| f.to_string()));
    EngineSpec {
        name: "toy".to_string(),
        command: PathBuf::from("python3"),
        args,
        options: Vec::new(),
        working_dir: None,
        protocol: Protocol::Uci,
    }
}

/// `count` random positions with results in turn.
pub fn positions(count: usize, seed: u64) -> Vec<(String, Label)> {
    random_positions(count, seed)
        .iter()
        .enumerate()
        .map(|(i, p)| (p.to_fen(), Label { outcome: [0.0, 0.5, 1.0][i % 3], score: None }))
        .collect()
}

fn settings(flags: &[&str], options: &[&str]) -> ProbeSettings {
    let mut s = ProbeSettings::new(toy(flags), options.iter().map(|o| o.to_string()).collect());
    s.workers.workers = 2;
    s.workers.batch = 40;
    s.workers.timeout = Duration::from_secs(5);
    s.freshness = Freshness::NewGame;
    s
}

fn probe_toy(flags: &[&str], options: &[&str], dir: &Path, n: usize) -> anyhow::Result<Probed> {
    probe(&positions(n, 7), &settings(flags, options), &dir.join(PROBE_JOURNAL), false)
}

/// The toy's trace of each position, to hold the probe against.
fn toy_traces(n: usize, dir: &Path) -> super::trace_run::Traced {
    let mut s = TraceSettings::new(toy(&[]));
    s.workers.batch = 40;
    trace(&positions(n, 7), &s, &dir.join(TRACE_JOURNAL), false).unwrap()
}

#[test]
fn probed_coefficients_are_the_traced_counts_times_the_phase() {
    let dir = TempDir::new("probe-coefficients");
    let options = ["material_1_mg", "material_1_eg", "advance_3", "spare", "danger_attack"];
    let probed = probe_toy(&[], &options, &dir, 60).unwrap();
    let traced = toy_traces(60, &dir);
    assert_eq!(probed.rows.len(), 60);
    assert_eq!(traced.store.len(), 60);
    let d = &traced.declaration;
    let (knight, advance) = (d.element("material[1]").unwrap(), d.element("advance[3]").unwrap());
    let column = |name: &str| probed.columns.iter().position(|c| c.name == name).unwrap() as u32;
    let (mg, eg, adv) = (column("material_1_mg"), column("material_1_eg"), column("advance_3"));
    let mut compared = 0;
    for (p, row) in probed.rows.iter().enumerate() {
        let phase = traced.store.phase[p] as f64 / 24.0;
        let count = |e: usize| {
            traced.store.coefficients(p).filter(|&(i, _)| i == e).map(|(_, c)| c as f64).sum::<f64>()
        };
        let got = |j: u32| row.coefficients.iter().find(|c| c.0 == j).map_or(0.0, |c| c.1);
        // The toy's evaluation is an integer (floor of the phase blend): at a step of 24 the
        // differences are within 1/24 of the exact derivative.
        for (j, expected) in
            [(mg, count(knight) * phase), (eg, count(knight) * (1.0 - phase)), (adv, count(advance))]
        {
            assert!(
                (got(j) - expected).abs() <= 1.0 / 24.0 + 1e-9,
                "{}: {} against {expected}",
                row.fen,
                got(j)
            );
            compared += (expected != 0.0) as usize;
        }
    }
    assert!(compared > 60, "{compared}");
    let finding = |name: &str| probed.findings.iter().find(|f| f.option == name).unwrap().linearity;
    assert_eq!(finding("material_1_mg"), Linearity::Linear);
    assert_eq!(finding("advance_3"), Linearity::Linear);
    // The weight of an attack inside the king-danger curve (a square at the toy's power 200).
    assert_eq!(finding("danger_attack"), Linearity::NonLinear);
    // A weight nothing reads: the option is left out, and said.
    assert_eq!(finding("spare"), Linearity::NoEffect);
    assert!(probed.columns.iter().all(|c| c.name != "spare"));
    assert!(probed.notes.iter().any(|n| n.contains("'spare' changed no position's evaluation")));
    assert_eq!(probed.nonlinear(), ["danger_attack"]);
}

#[test]
fn an_option_the_engine_lacks_is_named_with_the_engine_list() {
    let dir = TempDir::new("probe-unknown");
    let error = format!("{:#}", probe_toy(&[], &["material_1_mg", "queen_bonus"], &dir, 10).unwrap_err());
    assert!(error.contains("option 'queen_bonus' is not declared by the engine"), "{error}");
    assert!(error.contains("material_0_mg, material_0_eg"), "{error}");
}

#[test]
fn an_eval_without_a_number_says_what_it_printed() {
    let dir = TempDir::new("probe-no-number");
    let error = format!("{:#}", probe_toy(&["--no-number"], &["material_1_mg"], &dir, 10).unwrap_err());
    assert!(error.contains("engine 'toy', position"), "{error}");
    assert!(error.contains("printed no number matching"), "{error}");
    assert!(error.contains("it printed: 'Final evaluation: unknown'"), "{error}");
    // An engine that prints nothing at all for an unknown command says so too.
    let mut s = settings(&[], &["material_1_mg"]);
    s.eval.command = "evaluate".to_string();
    let error = format!("{:#}", probe(&positions(5, 7), &s, &dir.join("b.jsonl"), false).unwrap_err());
    assert!(
        error.contains("'evaluate' printed no number") && error.contains("it printed: nothing"),
        "{error}"
    );
}

#[test]
fn positions_without_a_number_are_left_out_and_said() {
    let dir = TempDir::new("probe-in-check");
    let positions = positions(60, 7);
    let in_check: Vec<&String> = positions
        .iter()
        .map(|(fen, _)| fen)
        .filter(|fen| whetstone::Position::from_fen(fen).unwrap().in_check())
        .collect();
    assert!(!in_check.is_empty());
    let probed =
        probe(&positions, &settings(&["--none-in-check"], &["material_1_mg"]), &dir.join("a"), false);
    let probed = probed.unwrap();
    assert_eq!(probed.rows.len(), 60 - in_check.len());
    assert_eq!(probed.left_out, in_check.into_iter().cloned().collect::<Vec<_>>());
    let note = probed.notes.iter().find(|n| n.contains("held no number")).expect("a note");
    assert!(note.contains("it printed: 'Final evaluation: none (in check)'"), "{note}");
}

#[test]
fn a_perspective_that_does_not_fit_is_said_and_the_right_one_probes_the_same() {
    let dir = TempDir::new("probe-perspective");
    let error = format!("{:#}", probe_toy(&["--side-to-move"], &["material_1_mg"], &dir, 40).unwrap_err());
    assert!(error.contains("the perspective does not fit"), "{error}");
    assert!(error.contains("side to move's view"), "{error}");
    let mut s = settings(&["--side-to-move"], &["material_1_mg"]);
    s.eval.perspective = Perspective::SideToMove;
    let stm = probe(&positions(40, 7), &s, &dir.join("stm.jsonl"), false).unwrap();
    let white = probe_toy(&[], &["material_1_mg"], &dir, 40).unwrap();
    assert_eq!(stm.rows, white.rows);
}

#[test]
fn a_shallow_search_s_score_probes_as_the_static_evaluation_when_it_is_the_same() {
    // The toy's `go` reports its static evaluation from the side to move's view: probed through
    // `go depth 1` (one position at a time, ended by `bestmove`) it gives the `eval` probe's rows.
    let dir = TempDir::new("probe-search");
    let mut s = settings(&[], &["material_1_mg", "advance_3"]);
    s.eval.command = "go depth 1".to_string();
    s.eval.pattern = r"score cp (-?[0-9]+)".to_string();
    s.eval.perspective = Perspective::SideToMove;
    let searched = probe(&positions(30, 7), &s, &dir.join("search.jsonl"), false).unwrap();
    let evaluated = probe_toy(&[], &["material_1_mg", "advance_3"], &dir, 30).unwrap();
    assert_eq!(searched.rows, evaluated.rows);
}

/// A probe of one option on 20 positions without the perspective check (fewer evaluations:
/// each restart of the toy costs a Python start).
fn probe_quick(flags: &[&str], dir: &Path, timeout: Duration) -> Probed {
    let mut s = settings(flags, &["material_1_mg"]);
    s.perspective_check = 0;
    s.workers.timeout = timeout;
    probe(&positions(20, 7), &s, &dir.join(PROBE_JOURNAL), false).unwrap()
}

#[test]
fn a_crashing_engine_is_restarted_where_it_died() {
    let dir = TempDir::new("probe-crash");
    let clean = probe_quick(&[], &dir.join("a"), Duration::from_secs(5));
    // Dies at every 25th evaluation: restarted each time at the position it died on.
    let crashing = probe_quick(&["--crash-every", "25"], &dir.join("b"), Duration::from_secs(5));
    assert_eq!(crashing.rows, clean.rows);
    assert!(
        crashing.notes.iter().any(|n| n.contains("exited") && n.contains("engine restarted")),
        "{:?}",
        crashing.notes
    );
}

#[test]
fn a_position_the_engine_always_dies_on_is_left_out_and_named() {
    let dir = TempDir::new("probe-deadly");
    let fen = &positions(20, 7)[11].0;
    let placement = fen.split_whitespace().next().unwrap();
    let deadly = probe_quick(&["--crash-on", placement], &dir, Duration::from_secs(5));
    assert_eq!(&deadly.left_out, std::slice::from_ref(fen));
    assert_eq!(deadly.rows.len(), 19);
    assert!(deadly.notes.iter().any(|n| n.contains(fen.as_str()) && n.contains("left out")));
}

#[test]
fn a_long_list_of_positions_left_out_is_named_in_short() {
    let fens: Vec<String> = (0..5).map(|i| format!("8/8/8/8/8/8/8/K{i}k5 w - - 0 1")).collect();
    let note = super::left_out_note(&fens);
    assert!(note.starts_with("5 positions left out"), "{note}");
    assert!(note.contains(super::LEFT_OUT_FILE), "{note}");
    assert!(note.contains(&fens[2]) && !note.contains(&fens[3]), "{note}");
    assert!(note.ends_with(" and 2 more"), "{note}");
    assert!(!super::left_out_note(&fens[..1]).contains("more"));
}

#[test]
fn a_hanging_engine_is_killed_and_restarted() {
    let dir = TempDir::new("probe-hang");
    let clean = probe_quick(&[], &dir.join("a"), Duration::from_secs(5));
    // Hangs at its 30th evaluation: timed out, killed, restarted.
    let hanging = probe_quick(&["--hang-every", "30"], &dir.join("b"), Duration::from_millis(500));
    assert_eq!(hanging.rows, clean.rows);
    assert!(hanging.notes.iter().any(|n| n.contains("did not answer")), "{:?}", hanging.notes);
}

#[test]
fn a_killed_probe_resumes_from_its_journal() {
    let dir = TempDir::new("probe-resume");
    let options = ["material_1_mg", "advance_3"];
    let whole = probe_toy(&[], &options, &dir, 80).unwrap();
    let journal = dir.join(PROBE_JOURNAL);
    let text = std::fs::read_to_string(&journal).unwrap();
    // 5 settings by 2 chunks of 40: a header and 10 units.
    assert_eq!(text.lines().count(), 11);
    // A kill after 4 units, in the middle of the fifth line.
    let cut: Vec<&str> = text.lines().take(5).collect();
    std::fs::write(&journal, format!("{}\n{{\"setting\":3,", cut.join("\n"))).unwrap();
    let resumed = probe_toy(&[], &options, &dir, 80).unwrap();
    assert_eq!(resumed.rows, whole.rows);
    assert!(resumed.notes.iter().any(|n| n.contains("resumed: 4 of 10 units")), "{:?}", resumed.notes);
    assert_eq!(std::fs::read_to_string(&journal).unwrap().lines().count(), 11);
    // Another run's journal is refused, not mixed in.
    let error = format!("{:#}", probe_toy(&[], &["material_1_eg"], &dir, 80).unwrap_err());
    assert!(error.contains("belongs to another run"), "{error}");
}

#[test]
fn a_broken_trace_names_the_line_and_the_position() {
    let dir = TempDir::new("probe-bad-trace");
    let mut s = TraceSettings::new(toy(&["--bad-trace", "material[9]"]));
    s.workers.batch = 10;
    let error = format!("{:#}", trace(&positions(10, 7), &s, &dir.join(TRACE_JOURNAL), false).err().unwrap());
    assert!(error.contains("engine 'toy', position"), "{error}");
    assert!(error.contains("'c material[9] 1': unknown element 'material[9]'"), "{error}");
}

#[test]
fn toy_traces_explain_its_evaluation_and_fit() {
    let dir = TempDir::new("probe-toy-trace");
    let traced = toy_traces(60, &dir);
    // Every weight a column, in declaration order.
    assert_eq!(traced.columns.len(), 25 + 1);
    assert_eq!(traced.columns[0].name, "material_0_mg");
    assert_eq!((traced.columns[0].min, traced.columns[0].max), (0, 2000));
    // The column that stands in for the complexity the toy has not.
    assert_eq!(traced.columns[25].option, None);
    assert!(traced.left_out.is_empty());
    let resumed = toy_traces(60, &dir);
    assert_eq!(resumed.store, traced.store);
    assert!(resumed.notes.iter().any(|n| n.contains("resumed")));
}

#[test]
fn probed_rows_fit_and_rounds_say_which_options_curve() {
    let dir = TempDir::new("probe-fit");
    let options = ["material_1_mg", "material_1_eg", "advance_3", "danger_attack"];
    let probed = probe_toy(&[], &options, &dir, 120).unwrap();
    let settings_fit =
        FitSettings { epochs: 60, min_coverage: 5, valid_fraction: 0.2, ..FitSettings::default() };
    let fitted = fit(&probed.rows, &probed.columns, &settings_fit);
    assert!(fitted.log[60].0 < fitted.log[0].0, "{:?}", fitted.log);
    // Rounds over a dataset file: the curve is re-probed at the moved values.
    let data = dir.join("data.epd");
    let lines: Vec<String> = positions(60, 9)
        .iter()
        .map(|(fen, l)| format!("{fen} c9 \"{}\";", ["0-1", "1/2-1/2", "1-0"][(l.outcome * 2.0) as usize]))
        .collect();
    std::fs::write(&data, lines.join("\n")).unwrap();
    let r = rounds(&[data], &settings(&[], &options), &settings_fit, 2, &dir, false).unwrap();
    assert!(!r.rounds.is_empty());
    assert_eq!(r.rounds[0].nonlinear, ["danger_attack"]);
    // A curved option moved: a second round, which probes only that option again (the linear
    // ones keep their coefficients) at the first round's fitted values.
    assert_eq!(r.rounds.len(), 2);
    let second = &r.rounds[1];
    assert_eq!(second.findings.len(), 1);
    assert_eq!(second.probed_at, r.rounds[0].fitted);
    assert!(dir.join("round-0").join(PROBE_JOURNAL).exists());
    let written = write_option_values(&dir, &probed.columns, &r.start, &r.values).unwrap();
    assert_eq!(written.len(), 3);
    let setoption = std::fs::read_to_string(dir.join("options.txt")).unwrap();
    assert!(setoption.starts_with("setoption name material_1_mg value "), "{setoption}");
}
