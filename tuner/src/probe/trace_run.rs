//! A trace run over a dataset: the engine's declaration once, then every position's trace, a
//! chunk of positions per unit of work on a worker's engine process (kept between units: a
//! trace depends on no option), each trace checked against the engine's own `eval` line, the
//! units journalled as they end. The result is the Texel model's store and layout over the
//! engine's weights.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

use anyhow::{anyhow, bail, Context, Result};

use super::journal::Journal;
use super::session::{run_unit, Session, UnitResult};
use super::settings::TraceSettings;
use super::space::Column;
use super::trace_client::{Declaration, PositionTrace};
use crate::dataset::Label;
use crate::model::store::{Compact, TraceStore};
use crate::model::Layout;
use crate::play::engines::uci_option::{find_option, undeclared};
use crate::run::progress_bar;

/// The journal's file name in the run folder.
pub const TRACE_JOURNAL: &str = "trace.jsonl";

/// A traced dataset.
pub struct Traced {
    pub declaration: Declaration,
    /// The fit's columns (the flat value vector; for Whetstone, its parameter set's).
    pub columns: Vec<Column>,
    pub layout: Layout,
    /// The traced positions, in dataset order (those left out missing).
    pub store: TraceStore,
    /// Each traced position's FEN, store order.
    pub fens: Vec<String>,
    pub left_out: Vec<String>,
    pub notes: Vec<String>,
}

/// Asks the engine for its declaration (`trace weights`).
pub fn declaration(session: &mut Session, settings: &TraceSettings) -> Result<Declaration> {
    let name = &settings.workers.engine.name;
    let (answers, error) = session.ask(
        &["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
        "trace weights",
        settings.workers.timeout,
    );
    if let Some(e) = error {
        return Err(anyhow!(e).context("asking for 'trace weights'"));
    }
    Declaration::parse(&answers[0]).map_err(|e| anyhow!("engine '{name}', 'trace weights': {e}"))
}

/// Traces every position of `positions`, writing to and resuming from the journal at `journal`.
pub fn trace(
    positions: &[(String, Label)],
    settings: &TraceSettings,
    journal: &Path,
    progress: bool,
) -> Result<Traced> {
    if positions.is_empty() {
        bail!("no positions to trace");
    }
    let workers = &settings.workers;
    let name = &workers.engine.name;
    let mut first = Session::start(workers, &[]).with_context(|| format!("starting engine '{name}'"))?;
    let declaration = declaration(&mut first, settings)?;
    let (mut columns, layout) = declaration.columns();
    // Bounds from the options' declarations; a weight no option holds stays where it is.
    for column in &mut columns {
        match &column.option {
            Some(option) => {
                let declared = find_option(first.declared(), option).ok_or_else(|| {
                    anyhow!("engine '{name}', 'trace weights': {}", undeclared(first.declared(), option))
                })?;
                column.min =
                    declared.min.map_or(i32::MIN, |m| m.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
                column.max =
                    declared.max.map_or(i32::MAX, |m| m.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
            }
            None => (column.min, column.max) = (column.start, column.start),
        }
    }
    let batch = workers.batch.max(1);
    let chunks: Vec<&[(String, Label)]> = positions.chunks(batch).collect();
    let identity = serde_json::json!({
        "trace": super::trace_client::VERSION,
        "engine": workers.engine.command.display().to_string(),
        "args": workers.engine.args,
        "engine_options": workers.engine.options,
        "declaration": declaration,
        "positions": positions.len(),
        "batch": batch,
        "first": positions[0].0,
        "last": positions[positions.len() - 1].0,
    });
    let (mut journal_file, done) = Journal::open::<PositionTrace>(journal, &identity)?;
    let mut traces: Vec<Option<Option<PositionTrace>>> = vec![None; positions.len()];
    let mut missing = VecDeque::new();
    for (c, chunk) in chunks.iter().enumerate() {
        match done.get(&(0, c)) {
            Some(answers) if answers.len() == chunk.len() => {
                for (k, a) in answers.iter().enumerate() {
                    traces[c * batch + k] = Some(a.clone());
                }
            }
            _ => missing.push_back(c),
        }
    }
    let mut notes = Vec::new();
    if !done.is_empty() {
        notes.push(format!("resumed: {} of {} chunks were done", done.len(), chunks.len()));
    }
    let bar = progress_bar(missing.len() as u64, "chunks", !progress);
    let queue = Mutex::new(missing);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<Result<(usize, UnitResult<PositionTrace>)>>();
    let mut first = Some(first);
    let outcome: Result<()> = std::thread::scope(|scope| {
        for w in 0..workers.workers.max(1) {
            let sender = sender.clone();
            let (queue, stop, chunks, declaration) = (&queue, &stop, &chunks, &declaration);
            // The first worker keeps the process that declared the weights.
            let mut slot = if w == 0 { first.take() } else { None };
            scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let Some(c) = queue.lock().expect("queue").pop_front() else { break };
                    let fens: Vec<String> = chunks[c].iter().map(|(fen, _)| fen.clone()).collect();
                    let read = |_: &str, lines: &[String]| {
                        let t = PositionTrace::parse(lines, declaration)?;
                        check_eval(&t, declaration, settings.tolerance_cp)?;
                        Ok(t)
                    };
                    let result = run_unit(&mut slot, workers, &[], true, &fens, "trace", read);
                    let failed = result.is_err();
                    let _ = sender.send(result.map(|r| (c, r)));
                    if failed {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            });
        }
        drop(sender);
        for message in receiver {
            let (c, unit) = message.inspect_err(|_| stop.store(true, Ordering::SeqCst))?;
            journal_file.record(0, c, &unit.answers)?;
            for (k, a) in unit.answers.into_iter().enumerate() {
                traces[c * batch + k] = Some(a);
            }
            notes.extend(unit.notes);
            bar.inc(1);
        }
        Ok(())
    });
    bar.finish_and_clear();
    outcome?;
    let mut compacts = Vec::with_capacity(positions.len());
    let (mut fens, mut left_out) = (Vec::new(), Vec::new());
    for ((fen, label), t) in positions.iter().zip(traces) {
        match t.flatten() {
            Some(t) => {
                let compact = t
                    .compact(&declaration, *label)
                    .map_err(|e| anyhow!("engine '{name}', position {fen}: {e}"))?;
                compacts.push(compact);
                fens.push(fen.clone());
            }
            None => left_out.push(fen.clone()),
        }
    }
    if !left_out.is_empty() {
        notes.push(super::left_out_note(&left_out));
    }
    let store = TraceStore::from_compacts(&compacts);
    Ok(Traced { declaration, columns, layout, store, fens, left_out, notes })
}

/// The trace must explain the engine's own evaluation: a term left out would make every fit
/// on it wrong.
pub fn check_eval(t: &PositionTrace, d: &Declaration, tolerance_cp: f64) -> Result<(), String> {
    let Some(eval) = t.eval else { return Ok(()) };
    let rebuilt = d.evaluate(t);
    if (rebuilt - eval as f64).abs() > tolerance_cp {
        return Err(format!(
            "the trace gives {rebuilt:.1} cp at the declared values but the engine's eval line says {eval}: the \
             trace misses a term (or the declared values are not the ones in use)"
        ));
    }
    Ok(())
}

/// Builds the compact store of already parsed traces (for tests and callers with traces in
/// hand).
pub fn store_of(traces: &[(PositionTrace, Label)], d: &Declaration) -> Result<TraceStore, String> {
    let compacts: Vec<Compact> = traces.iter().map(|(t, l)| t.compact(d, *l)).collect::<Result<_, _>>()?;
    Ok(TraceStore::from_compacts(&compacts))
}
