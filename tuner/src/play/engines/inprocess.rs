//! Our engine as a player inside this process: its own weights, search constants, transposition
//! table and histories, searched by the engine library directly (no UCI pipes, no re-hashing of the
//! game's positions from text).

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use whetstone::config::EngineConfig;
use whetstone::eval::Weights;
use whetstone::search::history::History;
use whetstone::search::tt::TranspositionTable;
use whetstone::search::SearchParamSet;
use whetstone::search::{self, Limits, SearchParams, Shared, MATE, MATE_BOUND};

use crate::play::engines::player::{FailureKind, GameView, Player, PlayerFailure, Score, Thought};
use crate::play::limit::MoveBudget;

/// One configuration of our engine: evaluation weights and search constants (shared, read-only,
/// by every game that plays it) and its options.
#[derive(Clone)]
pub struct EngineSetup {
    pub name: String,
    pub weights: Arc<Weights>,
    pub search: Arc<SearchParams>,
    pub hash_mb: usize,
    pub threads: usize,
    /// Kept back from the clock on every move, as the UCI option MoveOverhead.
    pub move_overhead_ms: u64,
}

impl EngineSetup {
    /// The built-in weights and search constants with engine.toml's default options.
    pub fn built_in(name: &str) -> EngineSetup {
        let config = EngineConfig::built_in();
        EngineSetup {
            name: name.to_string(),
            weights: Arc::new(Weights::default()),
            search: Arc::new(SearchParams::default()),
            hash_mb: config.option_int("Hash").unwrap_or(16).max(1) as usize,
            threads: 1,
            move_overhead_ms: config.option_int("MoveOverhead").unwrap_or(10).max(0) as u64,
        }
    }

    /// A params file's evaluation weights (and, if given, a search.toml's constants), named after
    /// the file. Errors name the file, the term and the bound, as the engine's EvalFile does.
    pub fn from_files(params: &Path, search_params: Option<&Path>) -> Result<EngineSetup> {
        let mut setup = EngineSetup::built_in(&setup_name(params));
        setup.weights = Arc::new(
            Weights::load(params)
                .with_context(|| format!("loading evaluation weights from {}", params.display()))?,
        );
        if let Some(path) = search_params {
            let set = SearchParamSet::load(path).context("loading search constants")?;
            setup.search = Arc::new(SearchParams::from_set(&set));
        }
        Ok(setup)
    }
}

/// A short name for a configuration: the params file's stem (`eval`, `handset`), with its folder
/// when the stem alone says little (`reports/run1/tuned.toml` -> `run1/tuned`).
pub fn setup_name(path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let parent = path.parent().and_then(|p| p.file_name()).map(|s| s.to_string_lossy().into_owned());
    match parent {
        Some(dir) if dir != "params" && !dir.is_empty() => format!("{dir}/{stem}"),
        _ => stem,
    }
}

/// A playing instance of a setup: the per-game state one worker thread owns.
pub struct InProcess {
    setup: EngineSetup,
    tt: TranspositionTable,
    histories: Vec<History>,
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl InProcess {
    pub fn new(setup: EngineSetup) -> InProcess {
        let tt = TranspositionTable::new(setup.hash_mb);
        let histories = (0..setup.threads.max(1)).map(|_| History::default()).collect();
        InProcess { setup, tt, histories, stop: AtomicBool::new(false), pondering: AtomicBool::new(false) }
    }
}

impl Player for InProcess {
    fn name(&self) -> &str {
        &self.setup.name
    }

    fn new_game(&mut self) -> Result<(), PlayerFailure> {
        self.tt.clear();
        for history in &mut self.histories {
            *history = History::default();
        }
        Ok(())
    }

    fn think(
        &mut self,
        game: &GameView,
        budget: MoveBudget,
        _allowance: Option<Duration>,
    ) -> Result<Thought, PlayerFailure> {
        let started = Instant::now();
        let mut limits = Limits { started: Some(started), ..Limits::default() };
        match budget {
            MoveBudget::Nodes(n) => limits.nodes = Some(n),
            MoveBudget::Depth(d) => limits.depth = Some(d as i32),
            MoveBudget::Clock { time_ms, inc_ms, movestogo } => {
                limits.time = time_ms.map(Some);
                limits.inc = inc_ms;
                limits.movestogo = movestogo;
            }
        }
        self.stop.store(false, std::sync::atomic::Ordering::Relaxed);
        let shared =
            Shared { tt: &self.tt, stop: &self.stop, pondering: &self.pondering, nodes: AtomicU64::new(0) };
        let result = search::run(
            game.pos,
            &self.setup.weights,
            &self.setup.search,
            &shared,
            &mut self.histories,
            &limits,
            self.setup.move_overhead_ms,
            1,
            &mut |_| {},
        );
        let elapsed = started.elapsed();
        if result.best_move.is_null() {
            return Err(PlayerFailure::new(FailureKind::IllegalMove, "the search returned no move"));
        }
        Ok(Thought {
            best: result.best_move,
            score: Some(engine_score(result.score)),
            depth: result.depth.max(0) as u32,
            nodes: result.nodes,
            elapsed,
        })
    }
}

/// The search's score as centipawns or mate in moves.
fn engine_score(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Score::Mate(-(MATE + score) / 2)
    } else {
        Score::Cp(score)
    }
}
