//! Probing: each position's coefficient for each UCI option, by central differences over the
//! engine's own evaluation. Setting 0 is the options' starting values; option j adds two
//! settings, its value - d and + d (clamped to its bounds). Every setting evaluates every
//! position, a chunk of positions per unit of work, on a fresh process per unit (or one cleared
//! by `ucinewgame`, see [`Freshness`]), so that no cache of the engine's answers with old values.
//!
//! coefficient = (e(+d) - e(-d)) / 2d; the second difference e(+d) - 2 e(0) + e(-d) tells an
//! option whose effect curves (`linearity.rs`). Results go to the journal as each unit ends.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

use anyhow::{anyhow, bail, Context, Result};
use regex::Regex;
use whetstone::Position;

use super::journal::Journal;
use super::linearity::{classify, Differences};
use super::session::{run_unit, spin_option, Session, UnitResult};
use super::settings::{EvalCommand, Freshness, Perspective, ProbeSettings};
use super::space::{Column, Linearity, OptionFinding, ProbedRow};
use crate::dataset::Label;
use crate::play::engines::uci_option::same_name;
use crate::run::progress_bar;

/// The journal's file name in the run folder.
pub const PROBE_JOURNAL: &str = "probe.jsonl";

/// A probe's result: the columns (options that changed some evaluation), one row per position
/// probed, what was found per option, and what went wrong on the way.
#[derive(Clone, Debug)]
pub struct Probed {
    pub columns: Vec<Column>,
    pub rows: Vec<ProbedRow>,
    /// Every option asked for, in order, those left out included.
    pub findings: Vec<OptionFinding>,
    /// Positions left out (the engine failed on them), named.
    pub left_out: Vec<String>,
    /// Restarts, options left out, checks: for the run's report.
    pub notes: Vec<String>,
}

impl Probed {
    /// The options treated as not linear (re-probed around new values between rounds).
    pub fn nonlinear(&self) -> Vec<&str> {
        self.findings
            .iter()
            .filter(|f| f.linearity == Linearity::NonLinear)
            .map(|f| f.option.as_str())
            .collect()
    }
}

/// Reads the number out of an `eval` answer.
pub struct EvalReader {
    regex: Regex,
    eval: EvalCommand,
}

impl EvalReader {
    pub fn new(eval: &EvalCommand) -> Result<EvalReader> {
        let regex = Regex::new(&eval.pattern).with_context(|| format!("eval pattern /{}/", eval.pattern))?;
        if regex.captures_len() < 2 {
            bail!("eval pattern /{}/ has no group: its first group must be the number", eval.pattern);
        }
        Ok(EvalReader { regex, eval: eval.clone() })
    }

    /// The number of the last line that matches, in centipawns from the engine's perspective.
    pub fn read(&self, lines: &[String]) -> Result<f64, String> {
        let found = lines.iter().rev().find_map(|line| self.regex.captures(line).map(|c| c[1].to_string()));
        let Some(text) = found else {
            let printed = if lines.is_empty() { "nothing".to_string() } else { shown(lines) };
            return Err(format!(
                "'{}' printed no number matching /{}/; it printed: {printed}",
                self.eval.command, self.eval.pattern
            ));
        };
        let number: f64 = text.parse().map_err(|_| format!("'{text}' is not a number"))?;
        Ok(number * self.eval.cp_per_unit)
    }

    /// A value from the engine's perspective in White's view.
    pub fn white_view(&self, value: f64, fen: &str) -> f64 {
        match self.eval.perspective {
            Perspective::SideToMove if fen.split_whitespace().nth(1) == Some("b") => -value,
            _ => value,
        }
    }
}

/// An answer's lines, joined and cut short, for a message.
fn shown(lines: &[String]) -> String {
    let text = lines.join(" | ");
    if text.chars().count() > 300 {
        format!("'{}...'", text.chars().take(300).collect::<String>())
    } else {
        format!("'{text}'")
    }
}

/// Answers that held no number (an engine may print none for some positions: Stockfish's
/// `eval` in check): counted, the first kept for the message. Such a position is left out.
#[derive(Default)]
struct Silent {
    count: usize,
    first: Option<String>,
}

impl Silent {
    /// The number, or NaN after noting why there is none.
    fn read(silent: &Mutex<Silent>, reader: &EvalReader, fen: &str, lines: &[String]) -> f64 {
        reader.read(lines).unwrap_or_else(|e| {
            let mut s = silent.lock().expect("silent");
            s.count += 1;
            s.first.get_or_insert_with(|| format!("position {fen}: {e}"));
            f64::NAN
        })
    }
}

/// One probed option as the engine declares it.
struct Probe {
    name: String,
    start: i32,
    min: i32,
    max: i32,
    /// The settings of value - d and + d (`None` at a bound: the start stands in).
    low: (i32, Option<usize>),
    high: (i32, Option<usize>),
}

/// Probes every position of `positions` (FEN and label) for the options of `settings`, writing
/// to and resuming from the journal at `journal`.
pub fn probe(
    positions: &[(String, Label)],
    settings: &ProbeSettings,
    journal: &Path,
    progress: bool,
) -> Result<Probed> {
    if positions.is_empty() {
        bail!("no positions to probe");
    }
    let reader = EvalReader::new(&settings.eval)?;
    let workers = &settings.workers;
    let engine = &workers.engine.name;
    let mut notes = Vec::new();
    let first = Session::start(workers, &[]).with_context(|| format!("starting engine '{engine}'"))?;
    let probes = declared_probes(&first, settings)?;
    let silent = Mutex::new(Silent::default());
    check_perspective(&mut Some(first), positions, settings, &reader, &silent, &mut notes)?;

    // The settings: the start, then each option's low and high side.
    let start: Vec<(String, i32)> = probes.iter().map(|p| (p.name.clone(), p.start)).collect();
    let mut values = vec![start.clone()];
    let mut probes = probes;
    for (j, p) in probes.iter_mut().enumerate() {
        for side in [&mut p.low, &mut p.high] {
            if side.0 != p.start {
                let mut setting = start.clone();
                setting[j].1 = side.0;
                side.1 = Some(values.len());
                values.push(setting);
            }
        }
    }
    let batch = workers.batch.max(1);
    let chunks: Vec<&[(String, Label)]> = positions.chunks(batch).collect();
    let identity = serde_json::json!({
        "probe": 1,
        "engine": workers.engine.command.display().to_string(),
        "args": workers.engine.args,
        "engine_options": workers.engine.options,
        "eval": settings.eval,
        "settings": values,
        "positions": positions.len(),
        "batch": batch,
        "first": positions[0].0,
        "last": positions[positions.len() - 1].0,
    });
    let (mut journal_file, done) = Journal::open::<f64>(journal, &identity)?;
    let mut evals: Vec<Vec<f64>> = vec![vec![f64::NAN; positions.len()]; values.len()];
    let mut missing = VecDeque::new();
    for (s, setting) in evals.iter_mut().enumerate() {
        for (c, chunk) in chunks.iter().enumerate() {
            match done.get(&(s, c)) {
                Some(answers) if answers.len() == chunk.len() => {
                    for (k, a) in answers.iter().enumerate() {
                        setting[c * batch + k] = a.unwrap_or(f64::NAN);
                    }
                }
                _ => missing.push_back((s, c)),
            }
        }
    }
    if !done.is_empty() {
        notes.push(format!("resumed: {} of {} units were done", done.len(), values.len() * chunks.len()));
    }
    let bar = progress_bar(missing.len() as u64, "units", !progress);
    let queue = Mutex::new(missing);
    let stop = AtomicBool::new(false);
    let reuse = settings.freshness == Freshness::NewGame;
    let (sender, receiver) = mpsc::channel::<Result<(usize, usize, UnitResult<f64>)>>();
    let outcome: Result<()> = std::thread::scope(|scope| {
        for _ in 0..workers.workers.max(1) {
            let sender = sender.clone();
            let (queue, stop, values, chunks) = (&queue, &stop, &values, &chunks);
            let (reader, silent) = (&reader, &silent);
            scope.spawn(move || {
                let mut slot: Option<Session> = None;
                while !stop.load(Ordering::SeqCst) {
                    let Some((s, c)) = queue.lock().expect("queue").pop_front() else { break };
                    let fens: Vec<String> = chunks[c].iter().map(|(fen, _)| fen.clone()).collect();
                    let result = run_unit(
                        &mut slot,
                        workers,
                        &values[s],
                        reuse,
                        &fens,
                        &settings.eval.command,
                        |fen, l| Ok(Silent::read(silent, reader, fen, l)),
                    );
                    let failed = result.is_err();
                    let _ = sender.send(result.map(|r| (s, c, r)));
                    if failed {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            });
        }
        drop(sender);
        for message in receiver {
            let (s, c, unit) = match message {
                Ok(unit) => unit,
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    return Err(e);
                }
            };
            journal_file.record(s, c, &unit.answers)?;
            for (k, a) in unit.answers.iter().enumerate() {
                evals[s][c * batch + k] = a.unwrap_or(f64::NAN);
            }
            notes.extend(unit.notes);
            bar.inc(1);
        }
        Ok(())
    });
    bar.finish_and_clear();
    outcome?;
    let silent = silent.into_inner().expect("silent");
    if silent.count > 0 {
        notes.push(format!(
            "{} answers held no number; their positions are left out (first: {})",
            silent.count,
            silent.first.as_deref().unwrap_or("")
        ));
    }
    let probed = rows(positions, settings, &reader, &probes, &evals, notes);
    if probed.rows.is_empty() {
        bail!("engine '{engine}': no position was probed ({})", probed.notes.join("; "));
    }
    Ok(probed)
}

/// The options asked for, as the engine declares them, with their start, bounds and steps.
fn declared_probes(session: &Session, settings: &ProbeSettings) -> Result<Vec<Probe>> {
    let spec = &settings.workers.engine;
    let mut probes: Vec<Probe> = Vec::new();
    for asked in &settings.options {
        let option = spin_option(session.declared(), &spec.name, asked)?;
        if probes.iter().any(|p| same_name(&p.name, &option.name)) {
            bail!("option '{}' is asked for twice", option.name);
        }
        let set = spec.options.iter().find(|(n, _)| same_name(n, &option.name)).map(|(_, v)| v.as_str());
        let start: i32 =
            set.or(option.default.as_deref()).and_then(|v| v.trim().parse().ok()).ok_or_else(|| {
                anyhow!(
                    "engine '{}': option '{}' has no integer default to start from",
                    spec.name,
                    option.name
                )
            })?;
        let clamp32 =
            |v: Option<i64>, other: i64| v.unwrap_or(other).clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        let (min, max) = (clamp32(option.min, i32::MIN as i64), clamp32(option.max, i32::MAX as i64));
        let range = (max as i64 - min as i64).max(0);
        let step = settings.step.unwrap_or((range / 20).clamp(1, 24) as i32).max(1);
        let low = (start.saturating_sub(step).max(min), None);
        let high = (start.saturating_add(step).min(max), None);
        probes.push(Probe { name: option.name.clone(), start, min, max, low, high });
    }
    Ok(probes)
}

/// Evaluates some positions and their colour-flipped twins at the starting values: under the
/// stated perspective, a twin's evaluation has the other sign. An evaluation that keeps its
/// sign is read with the wrong perspective, and every coefficient of Black-to-move positions
/// would have the wrong sign.
fn check_perspective(
    slot: &mut Option<Session>,
    positions: &[(String, Label)],
    settings: &ProbeSettings,
    reader: &EvalReader,
    silent: &Mutex<Silent>,
    notes: &mut Vec<String>,
) -> Result<()> {
    let engine = &settings.workers.engine.name;
    let mut fens = Vec::new();
    for (fen, _) in positions.iter().take(settings.perspective_check) {
        let pos = Position::from_fen(fen).map_err(|e| anyhow!("position {fen}: {e}"))?;
        fens.push(fen.clone());
        fens.push(pos.flipped().to_fen());
    }
    let workers = &settings.workers;
    let read = |fen: &str, lines: &[String]| Ok(Silent::read(silent, reader, fen, lines));
    let unit = run_unit(slot, workers, &[], true, &fens, &settings.eval.command, read)?;
    let answered = unit.answers.iter().flatten().filter(|v| v.is_finite()).count();
    if answered == 0 && !fens.is_empty() {
        let first = silent.lock().expect("silent").first.clone().unwrap_or_default();
        bail!("engine '{engine}', {first}; no answer for the first {} positions held a number", fens.len());
    }
    let (mut unbalanced, mut kept_sign, mut example) = (0, 0, None);
    for (pair, answers) in fens.chunks(2).zip(unit.answers.chunks(2)) {
        let [Some(a), Some(b)] = answers else { continue };
        if !(a.is_finite() && b.is_finite()) {
            continue;
        }
        let (a, b) = (reader.white_view(*a, &pair[0]), reader.white_view(*b, &pair[1]));
        if a.abs() >= 20.0 && b.abs() >= 20.0 {
            unbalanced += 1;
            if a * b > 0.0 {
                kept_sign += 1;
                example.get_or_insert(format!("{} gives {a}, its flip {} gives {b}", pair[0], pair[1]));
            }
        }
    }
    if unbalanced < 4 {
        notes.push(format!(
            "perspective not checked: only {unbalanced} of the first positions are unbalanced"
        ));
    } else if kept_sign * 2 > unbalanced {
        bail!(
            "engine '{engine}': the perspective does not fit: read as {:?}, the evaluation keeps its sign on the \
             colour-flipped position in {kept_sign} of {unbalanced} positions ({}); the engine's number is probably \
             the {} view",
            settings.eval.perspective,
            example.unwrap_or_default(),
            if settings.eval.perspective == Perspective::White { "side to move's" } else { "White" }
        );
    }
    Ok(())
}

/// The rows and findings from every setting's evaluations (`NaN` where one is missing).
fn rows(
    positions: &[(String, Label)],
    settings: &ProbeSettings,
    reader: &EvalReader,
    probes: &[Probe],
    evals: &[Vec<f64>],
    mut notes: Vec<String>,
) -> Probed {
    let mut left_out = Vec::new();
    let mut differences = vec![Differences::default(); probes.len()];
    let mut raw: Vec<Option<(f64, Vec<f64>)>> = Vec::with_capacity(positions.len());
    for (p, (fen, _)) in positions.iter().enumerate() {
        let white = |v: f64| reader.white_view(v, fen);
        let base = evals[0][p];
        let side = |setting: Option<usize>| setting.map_or(base, |s| evals[s][p]);
        let mut coefficients = Vec::with_capacity(probes.len());
        let mut complete = base.is_finite();
        for probe in probes {
            let (lo, hi) = (side(probe.low.1), side(probe.high.1));
            complete &= lo.is_finite() && hi.is_finite();
            coefficients.push((white(hi) - white(lo)) / (probe.high.0 - probe.low.0).max(1) as f64);
        }
        if !complete {
            left_out.push(fen.clone());
            raw.push(None);
            continue;
        }
        for (j, probe) in probes.iter().enumerate() {
            let symmetric = probe.high.0 - probe.start == probe.start - probe.low.0;
            let second =
                symmetric.then(|| white(side(probe.high.1)) - 2.0 * white(base) + white(side(probe.low.1)));
            differences[j].add(coefficients[j], second, settings.curvature_cp);
        }
        raw.push(Some((white(base), coefficients)));
    }
    let mut findings = Vec::new();
    let mut column_of = vec![None; probes.len()];
    let mut columns = Vec::new();
    for (j, probe) in probes.iter().enumerate() {
        let linearity = classify(&differences[j], settings.nonlinear_share);
        if linearity == Linearity::NoEffect {
            notes.push(format!("option '{}' changed no position's evaluation: left out", probe.name));
        } else {
            column_of[j] = Some(columns.len() as u32);
            columns.push(Column {
                name: probe.name.clone(),
                option: Some(probe.name.clone()),
                start: probe.start,
                min: probe.min,
                max: probe.max,
            });
        }
        findings.push(OptionFinding {
            option: probe.name.clone(),
            start: probe.start,
            probed: [probe.low.0, probe.high.0],
            affected: differences[j].affected,
            curved: differences[j].curved,
            linearity,
        });
    }
    let rows = positions
        .iter()
        .zip(raw)
        .filter_map(|((fen, label), raw)| {
            let (base, coefficients) = raw?;
            let coefficients = coefficients
                .iter()
                .enumerate()
                .filter_map(|(j, &c)| Some((column_of[j]?, c)).filter(|_| c != 0.0))
                .collect();
            Some(ProbedRow { fen: fen.clone(), label: *label, base, coefficients })
        })
        .collect();
    if !left_out.is_empty() {
        notes.push(super::left_out_note(&left_out));
    }
    Probed { columns, rows, findings, left_out, notes }
}
