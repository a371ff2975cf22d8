//! The search: iterative deepening with aspiration windows over a principal variation search
//! (`alphabeta.rs`), a shared lock-free transposition table, staged move ordering, and lazy SMP
//! (helper threads search the same tree and share only the table).

mod alphabeta;
pub mod baked;
pub mod correction;
pub mod history;
pub mod layout;
pub mod movepick;
pub mod params;
pub mod piece_to;
mod prefetch;
pub mod see;
pub mod time;
pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::board::Position;
use crate::eval::pawn_cache::{PawnCache, SEARCH_ENTRIES};
use crate::eval::{evaluate_cached, Weights};
use crate::movegen::legal_moves;
use crate::types::{Move, PieceType};

use baked::idx;
use history::{History, MAX_PLY};
pub use layout::{SearchLayout, SearchParamSet};
pub use params::SearchParams;
pub use time::{Limits, TimeManager, TimePlan};
use tt::TranspositionTable;

pub const INFINITY: i32 = 32_001;
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates (in fewer than MAX_PLY plies).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// How a reported score relates to the truth (aspiration-window failures report bounds).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

/// One `info` line's worth of progress.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: i32,
    pub seldepth: usize,
    pub multipv: usize,
    pub score: i32,
    pub bound: ScoreBound,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub best_move: Move,
    /// The expected reply, for pondering (null when unknown).
    pub ponder_move: Move,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
}

/// What all threads of one search share.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    /// Set by `stop`/`quit`, by the main thread's clock, or when a limit is reached.
    pub stop: &'a AtomicBool,
    /// While set, the clock does not stop the search (`go ponder` until `ponderhit`).
    pub pondering: &'a AtomicBool,
    /// Nodes of all threads together.
    pub nodes: AtomicU64,
}

/// One thread's search state.
pub struct Searcher<'a> {
    pos: Position,
    weights: &'a Weights,
    params: &'a SearchParams,
    tt: &'a TranspositionTable,
    shared: &'a Shared<'a>,
    limits: Limits,
    timer: TimeManager,
    is_main: bool,
    /// 0 for the main thread, 1.. for helpers (which depths a helper skips).
    thread_index: usize,
    stopped: bool,
    /// The deepest iteration finished (0: none yet).
    completed_depth: i32,
    nodes: u64,
    seldepth: usize,
    history: &'a mut History,
    /// Pawn-structure scores under `weights`: fresh for every iterative-deepening search, off for
    /// a lone quiescence search.
    pawns: PawnCache,
    eval_stack: [i32; MAX_PLY + 1],
    /// tt_pv[ply]: the node at `ply` is or was on a principal variation (see the search's step 3).
    tt_pv: [bool; MAX_PLY + 1],
    /// moved[ply + 2]: the piece-to index of the move made at `ply` (for continuation history).
    moved: [history::PieceTo; MAX_PLY + 3],
    /// excluded[ply]: the move a singular-extension search at `ply` leaves out (null: none).
    excluded: [Move; MAX_PLY + 1],
    /// double_extensions[ply]: double singular extensions on the line from the root to `ply`.
    double_extensions: [u8; MAX_PLY + 2],
    /// root_nodes[from][to]: nodes spent below each root move in this search (time management).
    root_nodes: Box<[[u64; 64]; 64]>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    /// Root moves already reported under an earlier MultiPV index in this iteration.
    excluded_root_moves: Vec<Move>,
}

impl<'a> Searcher<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        pos: Position,
        weights: &'a Weights,
        params: &'a SearchParams,
        shared: &'a Shared<'a>,
        history: &'a mut History,
        limits: Limits,
        timer: TimeManager,
        is_main: bool,
    ) -> Searcher<'a> {
        Searcher {
            pos,
            weights,
            params,
            tt: shared.tt,
            shared,
            limits,
            timer,
            is_main,
            thread_index: 0,
            stopped: false,
            completed_depth: 0,
            nodes: 0,
            seldepth: 0,
            history,
            pawns: PawnCache::disabled(),
            eval_stack: [0; MAX_PLY + 1],
            tt_pv: [false; MAX_PLY + 1],
            moved: [history::NO_PIECE_TO; MAX_PLY + 3],
            excluded: [Move::NULL; MAX_PLY + 1],
            double_extensions: [0; MAX_PLY + 2],
            root_nodes: Box::new([[0; 64]; 64]),
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            excluded_root_moves: Vec::new(),
        }
    }

    /// Iterative deepening; `report` receives every finished iteration (main thread only).
    pub fn iterate(&mut self, multipv: usize, report: &mut dyn FnMut(&Report)) -> SearchResult {
        self.history.new_search(self.params[idx::HISTORY_NO_AGEING] == 0);
        if !self.pawns.is_enabled() {
            self.pawns = PawnCache::new(SEARCH_ENTRIES);
        }
        let legal = legal_moves(&self.pos);
        let fallback = legal.iter().next().copied().unwrap_or(Move::NULL);
        let mut result =
            SearchResult { best_move: fallback, ponder_move: Move::NULL, score: 0, depth: 0, nodes: 0 };
        if legal.is_empty() {
            return result;
        }
        let multipv = multipv.clamp(1, legal.len());
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as i32 - 1).clamp(1, MAX_PLY as i32 - 1);
        let mut previous_score = 0;
        let mut stable_iterations = 0;
        for depth in 1..=max_depth {
            if self.skips(depth) {
                continue;
            }
            self.excluded_root_moves.clear();
            let mut iteration_best: Option<(i32, Vec<Move>)> = None;
            for index in 0..multipv {
                self.seldepth = 0;
                let (score, pv) = self.aspiration(depth, previous_score, index + 1, report);
                if self.stopped {
                    break;
                }
                if index == 0 {
                    iteration_best = Some((score, pv.clone()));
                }
                if let Some(&first) = pv.first() {
                    self.excluded_root_moves.push(first);
                }
                if self.is_main {
                    report(&self.report(depth, index + 1, score, ScoreBound::Exact, pv));
                }
            }
            let Some((score, pv)) = iteration_best else { break };
            self.completed_depth = depth;
            let best_changed = pv.first() != Some(&result.best_move) || result.depth == 0;
            stable_iterations = if best_changed { 0 } else { stable_iterations + 1 };
            if let Some(&best) = pv.first() {
                result = SearchResult {
                    best_move: best,
                    ponder_move: pv.get(1).copied().unwrap_or(Move::NULL),
                    score,
                    depth,
                    nodes: self.nodes,
                };
            }
            if self.stopped || !self.is_main {
                if self.stopped {
                    break;
                }
                continue;
            }
            // Stop for `go mate N` once a mate that short is proven.
            if let Some(moves) = self.limits.mate {
                if score >= MATE_BOUND && (MATE - score + 1) / 2 <= moves {
                    break;
                }
            }
            // Do not start an iteration that cannot finish. The budget grows after a score drop,
            // while the best move keeps changing, and when its subtree holds few of the nodes
            // (other moves came close); it shrinks when one move clearly dominates.
            let dropped = score <= previous_score - 33 && depth > 4;
            let panic = if dropped { self.params[idx::TIME_PANIC_PERCENT] as u64 } else { 100 };
            let stability = [160, 125, 105, 90, 80][stable_iterations.min(4)];
            let best_nodes = self.root_nodes[result.best_move.from().index()][result.best_move.to().index()];
            let fraction = best_nodes * 100 / self.nodes.max(1); // percent
            let subtree = (150 - fraction.min(100)) * 135 / 100; // 68..=202
            let stretch = if depth > 4 { panic * stability / 100 * subtree / 100 } else { panic };
            previous_score = score;
            if !self.shared.pondering.load(Ordering::Relaxed)
                && !self.timer.may_start_iteration(stretch as u32)
            {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// One iteration's root search inside a window around the previous score, widened on failure.
    fn aspiration(
        &mut self,
        depth: i32,
        guess: i32,
        multipv: usize,
        report: &mut dyn FnMut(&Report),
    ) -> (i32, Vec<Move>) {
        let mut delta = self.params[idx::ASPIRATION_WINDOW];
        let (mut alpha, mut beta) = if depth >= 5 {
            ((guess - delta).max(-INFINITY), (guess + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        // After a fail high the root move is probably good enough: re-searching it shallower
        // (`aspiration.fail_high_reduce`) confirms it sooner; a fail low restores the depth.
        let mut search_depth = depth;
        loop {
            let score = self.search(alpha, beta, search_depth, 0, false);
            if self.stopped {
                return (score, self.root_pv());
            }
            if score <= alpha {
                if self.is_main && self.timer.elapsed() > Duration::from_secs(3) {
                    report(&self.report(depth, multipv, alpha, ScoreBound::Upper, self.root_pv()));
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                search_depth = depth;
            } else if score >= beta {
                if self.is_main && self.timer.elapsed() > Duration::from_secs(3) {
                    report(&self.report(depth, multipv, beta, ScoreBound::Lower, self.root_pv()));
                }
                beta = (score + delta).min(INFINITY);
                if score.abs() < MATE_BOUND {
                    search_depth = (search_depth - self.params[idx::ASPIRATION_FAIL_HIGH_REDUCE]).max(1);
                }
            } else {
                return (score, self.root_pv());
            }
            delta += delta / 2;
        }
    }

    /// Helpers skip some depths, each in its own pattern, so that they run ahead of the main
    /// thread and of each other instead of searching the same nodes in step (Stockfish's former
    /// lazy-SMP schedule: helper i skips depths in runs of SKIP_SIZE[i], shifted by SKIP_PHASE[i]).
    fn skips(&self, depth: i32) -> bool {
        const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
        const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
        if self.thread_index == 0 || depth <= 1 {
            return false;
        }
        let i = (self.thread_index - 1) % SKIP_SIZE.len();
        ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0
    }

    fn root_pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    fn report(&self, depth: i32, multipv: usize, score: i32, bound: ScoreBound, pv: Vec<Move>) -> Report {
        Report {
            depth,
            seldepth: self.seldepth,
            multipv,
            score,
            bound,
            nodes: self.shared.nodes.load(Ordering::Relaxed) + self.nodes % 1024,
            elapsed: self.timer.elapsed(),
            hashfull: self.tt.hashfull(),
            pv,
        }
    }

    #[inline]
    fn count_node(&mut self, ply: usize) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes % 1024 == 0 {
            self.shared.nodes.fetch_add(1024, Ordering::Relaxed);
        }
    }

    /// Checks the stop flag, and (main thread) the clock and node limit, every 1024 nodes.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes % 1024 != 0 {
            return false;
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        } else if self.is_main {
            // A node limit never stops the first iteration: its move is the least a search
            // must answer with (a tiny limit would otherwise return the first legal move).
            let over_nodes = self.completed_depth >= 1
                && self.limits.nodes.is_some_and(|n| self.shared.nodes.load(Ordering::Relaxed) >= n);
            let over_time = !self.shared.pondering.load(Ordering::Relaxed) && self.timer.hard_exceeded();
            if over_nodes || over_time {
                self.stopped = true;
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        self.stopped
    }

    /// The static evaluation of the current position (side to move's view).
    #[inline]
    fn static_eval(&mut self) -> i32 {
        evaluate_cached(&self.pos, self.weights, &mut self.pawns)
    }

    /// The score of a draw found inside the tree: 0, or with `draw.jitter` plus or minus that many
    /// cp by the node count. With every draw at exactly 0, a side that is slightly worse can take
    /// a line for a forced repetition because each alternative the search tried also scored 0;
    /// dithered, the search keeps looking for a way out (Stockfish's `value_draw`).
    fn draw_score(&self) -> i32 {
        let jitter = self.params[idx::DRAW_JITTER];
        if self.nodes & 2 == 0 {
            -jitter
        } else {
            jitter
        }
    }

    /// Fifty-move rule, insufficient material, and repetition: once inside the search tree, or
    /// twice counting the game's earlier positions.
    fn is_draw(&self, ply: usize) -> bool {
        let st = self.pos.state();
        if st.halfmove_clock >= 100 && !(self.pos.in_check() && legal_moves(&self.pos).is_empty()) {
            return true;
        }
        if self.insufficient_material() {
            return true;
        }
        let history = self.pos.history();
        let back = (st.halfmove_clock as usize).min(st.plies_from_null as usize).min(history.len());
        let mut repetitions = 0;
        let mut i = 4;
        while i <= back {
            if history[history.len() - i].key == st.key {
                if i <= ply {
                    return true;
                }
                repetitions += 1;
                if repetitions >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// No pawns, rooks or queens, and at most one minor piece on the board.
    fn insufficient_material(&self) -> bool {
        let p = &self.pos;
        let heavy = p.pieces_of_type(PieceType::Pawn)
            | p.pieces_of_type(PieceType::Rook)
            | p.pieces_of_type(PieceType::Queen);
        heavy.is_empty()
            && (p.pieces_of_type(PieceType::Knight) | p.pieces_of_type(PieceType::Bishop)).count() <= 1
    }
}

/// Runs a search with `threads` threads (lazy SMP: helpers search the same position and share
/// the table; only the main thread reports and decides). `histories` holds one move-ordering
/// memory per thread and is kept between searches.
#[allow(clippy::too_many_arguments)]
pub fn run(
    pos: &Position,
    weights: &Weights,
    params: &SearchParams,
    shared: &Shared,
    histories: &mut [History],
    limits: &Limits,
    overhead_ms: u64,
    multipv: usize,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    shared.tt.new_search();
    shared.nodes.store(0, Ordering::Relaxed);
    let side = pos.side_to_move();
    let (main_history, helpers) = histories.split_first_mut().expect("at least one thread");
    std::thread::scope(|scope| {
        let handles: Vec<_> = helpers
            .iter_mut()
            .enumerate()
            .map(|(i, history)| {
                let mut helper_limits = limits.clone();
                helper_limits.nodes = None;
                let pos = pos.clone();
                scope.spawn(move || {
                    let timer = TimeManager::new(&Limits::default(), side, 0, params.time_plan);
                    let mut s =
                        Searcher::new(pos, weights, params, shared, history, helper_limits, timer, false);
                    s.thread_index = i + 1;
                    s.iterate(1, &mut |_| {})
                })
            })
            .collect();
        let timer = TimeManager::new(limits, side, overhead_ms, params.time_plan);
        let mut main =
            Searcher::new(pos.clone(), weights, params, shared, main_history, limits.clone(), timer, true);
        let result = main.iterate(multipv, report);
        // The main thread is done: stop the helpers (they never stop on their own).
        shared.stop.store(true, Ordering::Relaxed);
        let helper_results: Vec<SearchResult> = handles.into_iter().filter_map(|h| h.join().ok()).collect();
        if multipv > 1 {
            return result; // MultiPV lines come from the main thread alone
        }
        let mut chosen = vote(&result, &helper_results);
        chosen.nodes = result.nodes;
        chosen
    })
}

/// Lazy SMP's answer: each thread's last completed iteration votes for its best move with weight
/// (score above the worst + a constant) times depth, so a deeper or better-scoring helper can
/// overrule the main thread; the highest-voted move's deepest result is played. A proven mate
/// (found by any thread) is taken as it stands.
fn vote(main: &SearchResult, helpers: &[SearchResult]) -> SearchResult {
    let all: Vec<&SearchResult> = std::iter::once(main)
        .chain(helpers.iter())
        .filter(|r| r.depth > 0 && !r.best_move.is_null())
        .collect();
    if all.len() <= 1 {
        return main.clone();
    }
    if let Some(mate) = all.iter().filter(|r| r.score >= MATE_BOUND).max_by_key(|r| r.score) {
        return (*mate).clone();
    }
    let worst = all.iter().map(|r| r.score).min().unwrap_or(0);
    let weight = |r: &SearchResult| (r.score - worst + 14) as i64 * r.depth as i64;
    let votes_for = |m: Move| all.iter().filter(|r| r.best_move == m).map(|r| weight(r)).sum::<i64>();
    let winner = all.iter().map(|r| r.best_move).max_by_key(|&m| votes_for(m)).unwrap_or(main.best_move);
    if winner == main.best_move || votes_for(winner) <= votes_for(main.best_move) {
        return main.clone();
    }
    all.iter()
        .filter(|r| r.best_move == winner)
        .max_by_key(|r| (r.depth, r.score))
        .map_or_else(|| main.clone(), |r| (*r).clone())
}

/// Quiescence search on its own, for dataset tools: is a position quiet (its quiescence score
/// equals its static evaluation), and what is its quiescence leaf (Texel's resolution). Reusable
/// across positions: it keeps a small table and move-ordering memory.
pub struct Quiescence {
    tt: TranspositionTable,
    history: History,
    params: SearchParams,
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl Default for Quiescence {
    fn default() -> Quiescence {
        Quiescence {
            tt: TranspositionTable::with_buckets(1024),
            history: History::default(),
            params: SearchParams::default(),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
        }
    }
}

impl Quiescence {
    /// The quiescence score (side to move's view) and the capture sequence leading to its leaf.
    pub fn search(&mut self, pos: &Position, weights: &Weights) -> (i32, Vec<Move>) {
        let shared =
            Shared { tt: &self.tt, stop: &self.stop, pondering: &self.pondering, nodes: AtomicU64::new(0) };
        let timer = TimeManager::new(&Limits::default(), pos.side_to_move(), 0, TimePlan::default());
        let mut s = Searcher::new(
            pos.clone(),
            weights,
            &self.params,
            &shared,
            &mut self.history,
            Limits::default(),
            timer,
            false,
        );
        let score = s.qsearch(-INFINITY, INFINITY, 0, 0);
        (score, s.root_pv())
    }

    /// The position at the end of the quiescence principal variation.
    pub fn leaf(&mut self, pos: &Position, weights: &Weights) -> Position {
        let (_, pv) = self.search(pos, weights);
        let mut leaf = pos.clone();
        for m in pv {
            leaf.make_move(m);
        }
        leaf
    }
}

#[cfg(test)]
mod tests;
