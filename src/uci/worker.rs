//! The search thread and its state machine.
//!
//! States: `Waiting` (no search), `Starting` (a `go` was accepted; the thread is being set up),
//! `Thinking` (searching, or holding its `bestmove` until `stop`/`ponderhit` for `go infinite` and
//! `go ponder`). The reader thread only ever sets flags or waits for `Waiting`, so it can answer
//! `isready` at any time; the search thread always ends by printing exactly one `bestmove`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::board::Position;
use crate::eval::Weights;
use crate::search::history::History;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, Report, ScoreBound, SearchParams, Shared, MATE, MATE_BOUND};
use crate::types::Move;

use super::options::Options;
use super::{send, Output};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum State {
    Waiting,
    Starting,
    Thinking,
}

struct Control {
    state: Mutex<State>,
    changed: Condvar,
}

impl Control {
    fn set(&self, state: State) {
        *self.state.lock().unwrap_or_else(|e| e.into_inner()) = state;
        self.changed.notify_all();
    }
}

pub struct Worker {
    out: Output,
    tt: Arc<TranspositionTable>,
    histories: Arc<Mutex<Vec<History>>>,
    weights: Arc<Weights>,
    search_params: Arc<SearchParams>,
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
    control: Arc<Control>,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    pub fn new(out: Output, hash_mb: usize, threads: usize) -> Worker {
        Worker {
            out,
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            histories: Arc::new(Mutex::new((0..threads).map(|_| History::default()).collect())),
            weights: Arc::new(Weights::default()),
            search_params: Arc::new(SearchParams::default()),
            stop: Arc::new(AtomicBool::new(false)),
            pondering: Arc::new(AtomicBool::new(false)),
            control: Arc::new(Control { state: Mutex::new(State::Waiting), changed: Condvar::new() }),
            handle: None,
        }
    }

    pub fn state(&self) -> State {
        *self.control.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts searching `pos`. A search still running (a GUI's protocol error) is stopped first,
    /// and prints its own bestmove, so every `go` gets exactly one.
    pub fn go(&mut self, pos: Position, mut limits: Limits, options: &Options) {
        limits.started = Some(std::time::Instant::now());
        self.stop_and_wait();
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(limits.ponder, Ordering::SeqCst);
        self.control.set(State::Starting);
        let (out, tt, histories, weights, params) = (
            self.out.clone(),
            self.tt.clone(),
            self.histories.clone(),
            self.weights.clone(),
            self.search_params.clone(),
        );
        let (stop, pondering, control) = (self.stop.clone(), self.pondering.clone(), self.control.clone());
        let (overhead, multipv) = (options.move_overhead, options.multipv);
        self.handle = Some(std::thread::spawn(move || {
            control.set(State::Thinking);
            let mut histories = histories.lock().unwrap_or_else(|e| e.into_inner());
            let shared = Shared { tt: &tt, stop: &stop, pondering: &pondering, nodes: AtomicU64::new(0) };
            let mut report = |r: &Report| send(&out, &info_line(&pos, r));
            let result = search::run(
                &pos,
                &weights,
                &params,
                &shared,
                &mut histories,
                &limits,
                overhead,
                multipv,
                &mut report,
            );
            // `go infinite` and `go ponder` keep their answer until told to give it.
            while !stop.load(Ordering::SeqCst) && (limits.infinite || pondering.load(Ordering::SeqCst)) {
                std::thread::sleep(Duration::from_millis(1));
            }
            send(&out, &bestmove_line(&pos, result.best_move, result.ponder_move));
            control.set(State::Waiting);
        }));
    }

    /// Asks the search to stop (its thread then prints bestmove); harmless with no search.
    pub fn stop(&self) {
        self.pondering.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the expected move: the search now runs on its own clock.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Stops any search and waits until its thread has printed bestmove and finished.
    pub fn stop_and_wait(&mut self) {
        if let Some(handle) = self.handle.take() {
            self.stop();
            let _ = handle.join();
            // A search thread that panicked never set Waiting; the state machine must not stick.
            self.control.set(State::Waiting);
        }
    }

    /// Clears the table and move-ordering memory (call with no search running).
    pub fn new_game(&mut self) {
        self.stop_and_wait();
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.clear();
        }
        let mut histories = self.histories.lock().unwrap_or_else(|e| e.into_inner());
        for h in histories.iter_mut() {
            *h = History::default();
        }
    }

    /// Replaces the table; refused (false) while a search runs.
    pub fn resize_hash(&mut self, mb: usize) -> bool {
        if self.state() != State::Waiting {
            return false;
        }
        self.stop_and_wait();
        self.tt = Arc::new(TranspositionTable::new(mb));
        true
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.stop_and_wait();
        let mut histories = self.histories.lock().unwrap_or_else(|e| e.into_inner());
        histories.resize_with(threads.max(1), History::default);
    }

    pub fn weights(&self) -> Arc<Weights> {
        self.weights.clone()
    }

    /// New evaluation weights, used from the next search on.
    pub fn set_weights(&mut self, weights: Weights) {
        self.weights = Arc::new(weights);
    }

    pub fn set_search_params(&mut self, params: SearchParams) {
        self.search_params = Arc::new(params);
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}

/// `score cp 34` or `score mate -3` (mate in moves, negative when being mated).
pub fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate {}", -(MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

/// The PV in UCI notation, walked on a copy of the root position (castling notation depends on it).
fn pv_text(root: &Position, pv: &[Move]) -> String {
    let mut pos = root.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        if !pos.is_legal(m) {
            break;
        }
        words.push(pos.move_to_uci(m));
        pos.make_move(m);
    }
    words.join(" ")
}

pub fn info_line(root: &Position, r: &Report) -> String {
    let millis = r.elapsed.as_millis().max(1) as u64;
    let bound = match r.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} time {} pv {}",
        r.depth,
        r.seldepth,
        r.multipv,
        score_text(r.score),
        r.nodes,
        r.nodes * 1000 / millis,
        r.hashfull,
        r.elapsed.as_millis(),
        pv_text(root, &r.pv)
    )
}

fn bestmove_line(root: &Position, best: Move, ponder: Move) -> String {
    if best.is_null() {
        // No legal move (mate or stalemate): UCI has no standard answer; "0000" is what most send.
        return "bestmove 0000".to_string();
    }
    let mut line = format!("bestmove {}", root.move_to_uci(best));
    let mut after = root.clone();
    after.make_move(best);
    if !ponder.is_null() && after.is_legal(ponder) {
        line.push_str(&format!(" ponder {}", after.move_to_uci(ponder)));
    }
    line
}
