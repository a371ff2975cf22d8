//! Whetstone through its own UCI front end: its trace answers give the Texel model exactly the
//! store and layout of the in-process trace (in this process, always); and, over a real process
//! of a build whose weights are options (`--features uci-tunables`; ignored tests, run by hand),
//! the trace of every tunable value and a probe of 86 values give the in-process coefficients.
//!
//! ```text
//! CARGO_TARGET_DIR=target/tunables cargo build --release -p whetstone --features uci-tunables
//! WHETSTONE_TUNABLES_BIN=target/tunables/release/whetstone \
//!     cargo test --release -p whetstone-tuner probe::tests::own_engine -- --ignored --nocapture
//! ```
//!
//! Without WHETSTONE_TUNABLES_BIN those tests say so and return, so the slow suite (`cargo test -p
//! whetstone-tuner -- --ignored`) passes over them; the throughput figures also need
//! `WHETSTONE_MEASURE=1`.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use whetstone::eval::{evaluate, trace_into, EvalParamSet, Tracer, Weights};
use whetstone::uci::{Output, Uci};
use whetstone::Position;

use crate::dataset::Label;
use crate::model::store::{Compact, TraceStore};
use crate::model::{split, Kernel, Layout, Model};
use crate::optim::Adam;
use crate::play::engines::engine_process::{EngineSpec, Protocol};
use crate::probe::eval_probe::{probe, PROBE_JOURNAL};
use crate::probe::fit::{fit, split as split_rows, FitSettings};
use crate::probe::settings::{Freshness, ProbeSettings, TraceSettings};
use crate::probe::tests::positions;
use crate::probe::trace_client::{Declaration, PositionTrace};
use crate::probe::trace_run::{check_eval, store_of, trace, TRACE_JOURNAL};
use crate::testutil::TempDir;

/// Our engine in this process, answering `command` for each position.
fn answers(fens: &[String], command: &str) -> Vec<Vec<String>> {
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let out: Output = buffer.clone();
    let mut uci = Uci::new(out);
    fens.iter()
        .map(|fen| {
            uci.handle(&format!("position fen {fen}"));
            uci.handle(command);
            let text = String::from_utf8(std::mem::take(&mut *buffer.lock().unwrap())).unwrap();
            text.lines().map(str::to_string).collect()
        })
        .collect()
}

/// The store `tune texel` builds in process for these positions.
fn in_process_store(positions: &[(String, Label)]) -> TraceStore {
    let mut tracer = Tracer::new(whetstone::eval::baked::idx::COUNT);
    // Numbered by game as loading numbers them, so both sides hold out the same games.
    let mut games = crate::dataset::holdout::GameCounter::default();
    let compacts: Vec<Compact> = positions
        .iter()
        .map(|(fen, label)| {
            let pos = Position::from_fen(fen).unwrap();
            let context = trace_into(&pos, &mut tracer);
            let mut compact = Compact::from_tracer(&tracer, &context, *label);
            compact.set_game(games.next(crate::dataset::holdout::GameMark::of(&pos, label.outcome)) as u32);
            compact
        })
        .collect();
    TraceStore::from_compacts(&compacts)
}

fn assert_same_layout(a: &Layout, b: &Layout) {
    assert_eq!(a.mg_slot, b.mg_slot);
    assert_eq!(a.eg_slot, b.eg_slot);
    assert_eq!(a.curve_scale, b.curve_scale);
    assert_eq!(a.curve_power, b.curve_power);
    assert_eq!(a.complexity, b.complexity);
    assert_eq!(a.values, b.values);
}

#[test]
fn whetstone_trace_answers_give_the_in_process_store_and_layout() {
    let positions = positions(400, 11);
    let fens: Vec<String> = positions.iter().map(|(f, _)| f.clone()).collect();
    let declaration = Declaration::parse(&answers(&fens[..1], "trace weights")[0]).unwrap();
    let traces: Vec<(PositionTrace, Label)> = answers(&fens, "trace")
        .iter()
        .zip(&positions)
        .map(|(lines, (_, label))| {
            let t = PositionTrace::parse(lines, &declaration).unwrap();
            check_eval(&t, &declaration, 2.0).unwrap();
            (t, *label)
        })
        .collect();
    assert_eq!(store_of(&traces, &declaration).unwrap(), in_process_store(&positions));
    let set = EvalParamSet::baked();
    let (columns, layout) = declaration.columns();
    assert_same_layout(&layout, &Layout::new(&set));
    let starts: Vec<i32> = columns.iter().map(|c| c.start).collect();
    assert_eq!(starts, set.values());
}

#[test]
fn a_level_end_game_gets_no_complexity_in_the_rebuilt_evaluation() {
    // The end-game sum is exactly 0 here, so the engine adds no complexity (its sign is 0); a
    // rebuild with f64::signum (1 at 0) would add it: 16 end-game centipawns here, about 15 cp at
    // phase 2 of 24, and it would miss the eval line by that much. (The position must be
    // re-chosen when the baked values move its end-game sum off 0: `scripts/find_level_end_game.py
    // target/release/whetstone params/eval.toml <dataset>` lists candidates.)
    let fen = "8/2p1k3/1p6/p1p1n1p1/2P1P1B1/PP2P1K1/6P1/8 w - - 0 1".to_string();
    let declaration = Declaration::parse(&answers(std::slice::from_ref(&fen), "trace weights")[0]).unwrap();
    let trace = PositionTrace::parse(&answers(&[fen], "trace")[0], &declaration).unwrap();
    assert_eq!(trace.eval, Some(14));
    // Middle-game sum 173 at phase 2 of 24 and nothing from the end game: 14.42, which the engine
    // truncates to 14.
    let rebuilt = declaration.evaluate(&trace);
    assert!((rebuilt - (173.0 * 2.0 / 24.0)).abs() < 0.01, "{rebuilt}");
    check_eval(&trace, &declaration, 2.0).unwrap();
}

/// Positions labelled by our evaluation and a fixed noise: a win where σ(eval) clears the noise
/// well, a loss where it falls well short, a draw between (random results would fit K to its
/// lower bound and test nothing).
fn labelled(count: usize, seed: u64) -> Vec<(String, Label)> {
    let weights = Weights::default();
    positions(count, seed)
        .into_iter()
        .enumerate()
        .map(|(i, (fen, _))| {
            let pos = Position::from_fen(&fen).unwrap();
            let white = (evaluate(&pos, &weights) * pos.side_to_move().sign()) as f64;
            let p = 1.0 / (1.0 + 10f64.powf(-white / 400.0));
            let u = whetstone::types::mix64(i as u64 ^ seed) as f64 / u64::MAX as f64;
            let outcome = if u < p - 0.15 {
                1.0
            } else if u > p + 0.15 {
                0.0
            } else {
                0.5
            };
            (fen, Label { outcome, score: None })
        })
        .collect()
}

/// The `uci-tunables` build named by WHETSTONE_TUNABLES_BIN (see the module's comment); without
/// it the test says so and does not run, so the slow suite (`-- --ignored`) passes over it.
fn tunables_engine(test: &str) -> Option<EngineSpec> {
    let Some(path) = std::env::var_os("WHETSTONE_TUNABLES_BIN") else {
        eprintln!(
            "{test}: needs WHETSTONE_TUNABLES_BIN, a whetstone built with --features uci-tunables; not run"
        );
        return None;
    };
    Some(EngineSpec {
        name: "whetstone".to_string(),
        command: PathBuf::from(path),
        args: Vec::new(),
        options: Vec::new(),
        working_dir: None,
        protocol: Protocol::Uci,
    })
}

#[test]
#[ignore = "needs a uci-tunables build: see the module's comment"]
fn whetstone_traced_over_uci_gives_the_in_process_store_with_every_tunable_value() {
    let Some(engine) = tunables_engine("whetstone_traced_over_uci") else { return };
    let dir = TempDir::new("probe-whetstone-trace");
    let positions = positions(3000, 12);
    let mut settings = TraceSettings::new(engine.clone());
    settings.workers.workers = 2;
    settings.workers.batch = 1000;
    let start = Instant::now();
    let traced = trace(&positions, &settings, &dir.join(TRACE_JOURNAL), false).unwrap();
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "traced {} positions in {seconds:.2} s: {:.0} positions/s",
        positions.len(),
        positions.len() as f64 / seconds
    );
    assert_eq!(traced.store, in_process_store(&positions));
    let set = EvalParamSet::baked();
    assert_same_layout(&traced.layout, &Layout::new(&set));
    // Every tunable value is a column held by its option.
    let names = set.value_names();
    let bounds = set.value_bounds();
    for slot in set.select(&[]).unwrap() {
        assert_eq!(traced.columns[slot].option.as_deref(), Some(names[slot].as_str()));
        assert_eq!((traced.columns[slot].min, traced.columns[slot].max), bounds[slot]);
    }
}

#[test]
#[ignore = "needs a uci-tunables build: see the module's comment"]
fn whetstone_probed_over_uci_gives_the_in_process_coefficients_and_texel_values() {
    let Some(engine) = tunables_engine("whetstone_probed_over_uci") else { return };
    let dir = TempDir::new("probe-whetstone-probe");
    let set = EvalParamSet::baked();
    let selected = set.select(&["material", "mobility.knight", "mobility.bishop", "mobility.rook"]).unwrap();
    let names = set.value_names();
    let options: Vec<String> = selected.iter().map(|&s| names[s].clone()).collect();
    assert!(options.len() >= 60, "{}", options.len());
    let positions = labelled(2000, 13);
    let mut settings = ProbeSettings::new(engine.clone(), options.clone());
    settings.workers.workers = 2;
    settings.freshness = Freshness::Restart;
    let start = Instant::now();
    let probed = probe(&positions, &settings, &dir.join(PROBE_JOURNAL), false).unwrap();
    let seconds = start.elapsed().as_secs_f64();
    let evaluations = positions.len() * (1 + 2 * options.len());
    println!(
        "probed {} values on {} positions: {evaluations} evaluations in {seconds:.1} s, {:.0} per second",
        options.len(),
        positions.len(),
        evaluations as f64 / seconds
    );
    assert!(probed.left_out.is_empty());
    // The coefficients: the in-process trace's evaluation at the same probed values, differenced
    // the same way, to the last bit.
    let base: Vec<f64> = set.values().iter().map(|&v| v as f64).collect();
    for finding in &probed.findings {
        let slot = selected[options.iter().position(|o| o == &finding.option).unwrap()];
        let at = |value: i32| {
            let mut values = set.values();
            values[slot] = value;
            Weights::from_params(&set.with_values(&values))
        };
        let (low, high) = (at(finding.probed[0]), at(finding.probed[1]));
        let column = probed.columns.iter().position(|c| c.name == finding.option);
        for (row, (fen, _)) in probed.rows.iter().zip(&positions) {
            let pos = Position::from_fen(fen).unwrap();
            let white = |w: &Weights| (evaluate(&pos, w) * pos.side_to_move().sign()) as f64;
            let expected = (white(&high) - white(&low)) / (finding.probed[1] - finding.probed[0]) as f64;
            let got =
                column.and_then(|j| row.coefficients.iter().find(|c| c.0 == j as u32)).map_or(0.0, |c| c.1);
            assert_eq!(got, expected, "{} at {fen}", finding.option);
        }
    }
    // The Texel fit on the probed rows against the in-process model on the same values.
    let fit_settings = FitSettings { epochs: 100, min_coverage: 0, ..FitSettings::default() };
    let fitted = fit(&probed.rows, &probed.columns, &fit_settings);
    let store = in_process_store(&positions);
    let data = split(&store, fit_settings.valid_fraction, fit_settings.seed);
    let (train_rows, valid_rows) = split_rows(&probed.rows, fit_settings.valid_fraction, fit_settings.seed);
    assert_eq!((train_rows.len(), valid_rows.len()), (data.train.len(), data.valid.len()));
    let layout = Layout::new(&set);
    let (train, valid) =
        (Model { layout: &layout, store: &data.train }, Model { layout: &layout, store: &data.valid });
    let k = train.fit_k(&base);
    let tuned: Vec<usize> =
        probed.columns.iter().map(|c| selected[options.iter().position(|o| o == &c.name).unwrap()]).collect();
    let bounds = set.value_bounds();
    let mut w = base.clone();
    let mut adam = Adam::new(w.len(), fit_settings.learning_rate);
    for _ in 0..fit_settings.epochs {
        let (_, mut grad) = train.loss_and_gradient_on(Kernel::detect(), &w, k);
        for &i in &tuned {
            grad[i] += 2.0 * fit_settings.l2 * (w[i] - base[i]) / 1e4;
        }
        adam.update(&mut w, &grad, &tuned, &bounds);
    }
    println!("K: probed {:.4}, in process {k:.4}", fitted.k);
    assert!(k > 0.2 && (fitted.k - k).abs() < 0.01, "{k} {}", fitted.k);
    println!("validation loss: probed {:.6}, in process {:.6}", fitted.valid_loss(), valid.loss(&w, k));
    let mut worst = 0.0f64;
    for (j, &slot) in tuned.iter().enumerate() {
        worst = worst.max((fitted.values[j] - w[slot]).abs());
    }
    println!("largest difference of a fitted value: {worst:.3} cp over {} values", tuned.len());
    assert!(worst < 1.0, "{worst}");
    assert!((fitted.valid_loss() - valid.loss(&w, k)).abs() < 1e-4);
}

/// Seconds per call of `command` in our engine in this process (no pipe), over `fens`.
fn in_process_seconds(fens: &[String], command: &str) -> f64 {
    let out: Output = Arc::new(Mutex::new(std::io::sink()));
    let mut uci = Uci::new(out);
    let start = Instant::now();
    for fen in fens {
        uci.handle(&format!("position fen {fen}"));
        uci.handle(command);
    }
    start.elapsed().as_secs_f64() / fens.len() as f64
}

/// The figures of docs/external-engines.md: probing and tracing throughput against the engine's
/// own `eval` and `trace` in process, by workers and freshness. Run with the machine idle.
#[test]
#[ignore = "a measurement: needs a uci-tunables build and an idle machine (see the module's comment)"]
fn probe_and_trace_throughput() {
    if !crate::testutil::measuring("probe_and_trace_throughput") {
        return;
    }
    let Some(engine) = tunables_engine("probe_and_trace_throughput") else { return };
    let positions = labelled(3000, 12);
    let fens: Vec<String> = positions.iter().map(|(f, _)| f.clone()).collect();
    let eval_in_process = in_process_seconds(&fens, "eval");
    let trace_in_process = in_process_seconds(&fens, "trace");
    println!("| what | workers | per second | µs each |");
    println!("|---|---|---|---|");
    println!(
        "| `eval` in process (no pipe) | 1 | {:.0} | {:.1} |",
        1.0 / eval_in_process,
        eval_in_process * 1e6
    );
    println!(
        "| `trace` in process (no pipe) | 1 | {:.0} | {:.1} |",
        1.0 / trace_in_process,
        trace_in_process * 1e6
    );
    let set = EvalParamSet::baked();
    let names = set.value_names();
    let options: Vec<String> = set.select(&["material"]).unwrap().iter().map(|&s| names[s].clone()).collect();
    let evaluations = (positions.len() * (1 + 2 * options.len())) as f64;
    for freshness in [Freshness::Restart, Freshness::NewGame] {
        for workers in [1, 2] {
            let dir = TempDir::new(&format!("probe-throughput-{workers}-{freshness:?}"));
            let mut settings = ProbeSettings::new(engine.clone(), options.clone());
            (settings.workers.workers, settings.freshness) = (workers, freshness);
            let start = Instant::now();
            probe(&positions, &settings, &dir.join(PROBE_JOURNAL), false).unwrap();
            let seconds = start.elapsed().as_secs_f64();
            println!(
                "| probe, {} settings × {} positions, {freshness:?} | {workers} | {:.0} | {:.1} |",
                1 + 2 * options.len(),
                positions.len(),
                evaluations / seconds,
                seconds / evaluations * 1e6 * workers as f64
            );
        }
    }
    for workers in [1, 2] {
        let dir = TempDir::new(&format!("probe-throughput-trace-{workers}"));
        let mut settings = TraceSettings::new(engine.clone());
        settings.workers.workers = workers;
        let start = Instant::now();
        trace(&positions, &settings, &dir.join(TRACE_JOURNAL), false).unwrap();
        let seconds = start.elapsed().as_secs_f64();
        let n = positions.len() as f64;
        println!(
            "| trace, {} positions | {workers} | {:.0} | {:.1} |",
            positions.len(),
            n / seconds,
            seconds / n * 1e6 * workers as f64
        );
    }
}
