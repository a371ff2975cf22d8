//! Search scores for labelled positions from a UCI engine (`tune dataset rescore`): each position
//! of a dataset is searched to a fixed depth or node count and written back with the score as
//! EPD's `ce` beside its game result, for `tune texel --score-weight`. Any UCI engine can score:
//! our own binary at a deeper search than the games that made the positions, or a stronger
//! engine whose judgement the evaluation should learn.
//!
//! The output is written in input order, one batch at a time, so a killed run leaves whole
//! batches behind (and at most one torn line, dropped on resume): run the same command again and
//! it continues after the last position written. Each worker thread drives its own engine
//! process and sends `ucinewgame` before each share of a batch, so a position's score does not
//! depend on where a run was stopped.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use whetstone::Position;

use crate::dataset::formats::{format_line, Format};
use crate::dataset::load::load_labelled;
use crate::dataset::{Label, LoadOptions, LoadSummary};
use crate::play::engines::engine_process::{EngineError, EngineSpec};
use crate::play::engines::uci_engine::{EngineScore, UciEngine};
use crate::play::limit::MoveBudget;
use crate::run::progress_bar;

/// Positions each worker searches per batch: a batch is what a kill can lose.
const PER_WORKER: usize = 256;

/// Searches an engine process makes before it is replaced by a fresh one (the default of
/// [`RescoreOptions::restart_after`]). Ethereal 12 leaves a
/// thread behind after every `go` and stops answering after about 32,000 of them (seen here: both
/// processes hung at 32,512 positions each, with 268 GB of address space in thread stacks); no
/// game lasts that long, but a dataset does. A restart costs milliseconds.
pub const SEARCHES_PER_PROCESS: usize = 8192;

/// How to score.
#[derive(Clone, Debug)]
pub struct RescoreOptions {
    /// The engine, with its options.
    pub spec: EngineSpec,
    /// `go depth N` or `go nodes N`.
    pub limit: MoveBudget,
    /// Engine processes searching at once.
    pub workers: usize,
    /// How long one search may take before it is stopped and the position keeps no score; also
    /// the bound on the engine's start-up handshake.
    pub timeout: Duration,
    /// Show a progress bar.
    pub progress: bool,
    /// Searches after which an engine process is replaced, at the next share of a batch
    /// ([`SEARCHES_PER_PROCESS`]).
    pub restart_after: usize,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RescoreReport {
    /// What reading the input found.
    pub input: LoadSummary,
    /// Positions already in the output from an earlier run (not searched again).
    pub resumed: usize,
    /// Positions searched by this run and written with a score.
    pub scored: usize,
    /// Positions searched by this run whose score was a mate (written without a score: a mate
    /// is no centipawn label).
    pub mates: usize,
    /// Positions whose search failed (timed out, or the engine died twice), written without a score.
    pub failed: usize,
    /// Whether a Ctrl-C stopped the run before the end (what was written is kept).
    pub interrupted: bool,
}

/// Scores every position of `input` into `output` (EPD with `ce` and `c9`), continuing an
/// earlier run's `output`. Stops at the next batch on `stop` (Ctrl-C).
pub fn rescore(
    input: &Path,
    output: &Path,
    options: &RescoreOptions,
    stop: &AtomicBool,
) -> Result<RescoreReport> {
    let load = LoadOptions { strict: false, progress: options.progress };
    let (positions, summary) = load_labelled(input, &load, |pos, label| (pos.to_fen(), label.outcome))?;
    let resumed = written_so_far(output, &positions)?;
    let mut report = RescoreReport { input: summary, resumed, ..RescoreReport::default() };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(output)
        .with_context(|| format!("cannot open {}", output.display()))?;
    let mut out = BufWriter::new(file);
    let workers = options.workers.max(1);
    let mut engines: Vec<Worker> = (0..workers).map(|_| Worker::default()).collect();
    let bar = progress_bar(positions.len() as u64, "positions", !options.progress);
    bar.set_position(resumed as u64);
    for batch in positions[resumed..].chunks(workers * PER_WORKER) {
        if stop.load(Ordering::SeqCst) {
            report.interrupted = true;
            break;
        }
        let share = batch.len().div_ceil(workers);
        let scores: Vec<Result<Vec<Searched>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .chunks(share)
                .zip(engines.iter_mut())
                .map(|(part, worker)| scope.spawn(move || score_part(part, worker, options)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| bail!("a scoring thread panicked")))
                .collect()
        });
        for ((fen, outcome), searched) in
            batch.iter().zip(scores.into_iter().collect::<Result<Vec<_>>>()?.concat())
        {
            let pos = Position::from_fen(fen).map_err(|e| anyhow::anyhow!("position {fen}: {e}"))?;
            let score = match searched {
                Searched::Cp(cp) => {
                    report.scored += 1;
                    Some(if pos.side_to_move() == whetstone::Color::White { cp } else { -cp })
                }
                Searched::Mate => {
                    report.mates += 1;
                    None
                }
                Searched::Failed => {
                    report.failed += 1;
                    None
                }
            };
            let line = format_line(&pos, Label { outcome: *outcome, score }, Format::Epd);
            writeln!(out, "{line}").with_context(|| format!("writing {}", output.display()))?;
        }
        out.flush().with_context(|| format!("writing {}", output.display()))?;
        bar.inc(batch.len() as u64);
    }
    bar.finish_and_clear();
    for engine in engines.into_iter().filter_map(|w| w.engine) {
        engine.quit(Duration::from_secs(1));
    }
    Ok(report)
}

/// One position's search, from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Searched {
    Cp(i32),
    Mate,
    Failed,
}

/// One scoring thread's engine process, and how many searches it has made.
#[derive(Default)]
struct Worker {
    engine: Option<UciEngine>,
    searches: usize,
}

/// Searches `part` in order on this worker's engine (started, or restarted after it died or
/// after [`RescoreOptions::restart_after`] searches, here).
fn score_part(
    part: &[(String, f32)],
    worker: &mut Worker,
    options: &RescoreOptions,
) -> Result<Vec<Searched>> {
    // Replaced between shares only, where the table is cleared anyway, so that no score depends
    // on when the process started.
    if worker.searches >= options.restart_after {
        if let Some(old) = worker.engine.take() {
            old.quit(Duration::from_secs(1));
        }
    }
    let mut scores = Vec::with_capacity(part.len());
    let mut fresh_game = true;
    for (fen, _) in part {
        let mut searched = Searched::Failed;
        // A second try on a fresh process when the engine died; a search that times out is not
        // tried again (it would time out again).
        for _attempt in 0..2 {
            if !worker.engine.as_mut().is_some_and(UciEngine::is_alive) {
                fresh_game = true;
                worker.engine = None;
                worker.searches = 0;
            }
            let running = match &mut worker.engine {
                Some(running) => running,
                None => worker.engine.insert(UciEngine::start(&options.spec, options.timeout).with_context(
                    || format!("starting {} to score positions", options.spec.command.display()),
                )?),
            };
            if fresh_game {
                running.new_game(options.timeout)?;
                fresh_game = false;
            }
            worker.searches += 1;
            match running.go(fen, &[], &options.limit, options.timeout) {
                Ok(reply) => {
                    searched = match reply.score {
                        Some(EngineScore::Cp(cp)) => Searched::Cp(cp),
                        Some(EngineScore::Mate(_)) => Searched::Mate,
                        None => Searched::Failed,
                    };
                    break;
                }
                Err(EngineError::Timeout { .. }) | Err(EngineError::Protocol { .. }) => break,
                Err(_) => worker.engine = None,
            }
        }
        scores.push(searched);
    }
    Ok(scores)
}

/// How many positions `output` already holds from an earlier run of the same input (0 when it
/// does not exist). A torn last line (a kill while writing) is cut off. An output whose lines are
/// not the input's first positions is an error: it belongs to another run.
fn written_so_far(output: &Path, positions: &[(String, f32)]) -> Result<usize> {
    let mut file = match OpenOptions::new().read(true).write(true).open(output) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e).with_context(|| format!("cannot open {}", output.display())),
    };
    let mut text = String::new();
    file.read_to_string(&mut text).with_context(|| format!("reading {}", output.display()))?;
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        truncate(&mut file, whole as u64, output)?;
    }
    let lines: Vec<&str> = text[..whole].lines().collect();
    if lines.len() > positions.len() {
        bail!(
            "{} holds {} positions, more than the input's {}: it is another run's output; remove it or write elsewhere",
            output.display(),
            lines.len(),
            positions.len()
        );
    }
    for (i, (line, (fen, _))) in lines.iter().zip(positions).enumerate() {
        if !same_placement(line, fen) {
            bail!(
                "{}:{}: this line is not the input's position {} ({fen}): the file is another run's output; \
                 remove it or write elsewhere",
                output.display(),
                i + 1,
                i + 1
            );
        }
    }
    Ok(lines.len())
}

fn truncate(file: &mut File, len: u64, output: &Path) -> Result<()> {
    file.set_len(len).with_context(|| format!("cutting the torn last line of {}", output.display()))?;
    file.seek(SeekFrom::End(0)).map(|_| ()).with_context(|| format!("seeking in {}", output.display()))
}

/// Whether an output line starts with the same four FEN fields as `fen`.
fn same_placement(line: &str, fen: &str) -> bool {
    line.split_whitespace().take(4).eq(fen.split_whitespace().take(4))
}

#[cfg(test)]
#[path = "rescore_tests.rs"]
mod tests;
