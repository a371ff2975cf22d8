//! A UCI engine binary as a player: the process is driven by `uci_engine.rs`; here its answers
//! become moves, and its failures become the game's result (crash, time loss, illegal move). A
//! process that died is started again for the next game, as cutechess does.

use std::time::Duration;

use anyhow::Result;

use crate::play::engines::engine_failure::engine_failure;
use crate::play::engines::engine_process::{EngineError, EngineSpec};
use crate::play::engines::player::{FailureKind, GameView, Player, PlayerFailure, Score, Thought};
use crate::play::engines::uci_engine::{EngineScore, UciEngine};
use crate::play::limit::{MoveBudget, MoveLimit};

/// How long a `go nodes N` probe before a run may take, at least: Stockfish answers 5,000 nodes
/// in milliseconds; an engine that ignores node limits never answers.
const NODES_PROBE: Duration = Duration::from_secs(5);
/// Nodes per second assumed of the slowest engine, for a probe of many nodes.
const PROBE_NPS: u64 = 100_000;

/// How much later than its clock allows an engine's answer is still waited for; whether the move
/// counts is then the clock's (and the time margin's) decision.
const DEADLINE_SLACK: Duration = Duration::from_millis(1000);

pub struct External {
    spec: EngineSpec,
    engine: Option<UciEngine>,
    start_timeout: Duration,
}

impl External {
    /// Starts the engine; an error names it and says why (no such file, no `uciok`, an option it
    /// does not have).
    pub fn start(spec: EngineSpec, start_timeout: Duration) -> Result<External> {
        let engine = UciEngine::start(&spec, start_timeout)?;
        Ok(External { spec, engine: Some(engine), start_timeout })
    }

    /// Sets options between games (a tuner's candidate values): each `(name, value)` that differs
    /// from what the engine has is sent as `setoption` to the running engine and kept for a
    /// restart after a crash. A name or value its declarations rule out is an error naming it
    /// (nothing is sent); an engine that died meanwhile is restarted, with these values, by the
    /// next game's [`Player::new_game`].
    pub fn set_options(&mut self, options: &[(String, String)]) -> Result<()> {
        for (name, value) in options {
            let same_name = |(n, _): &&mut (String, String)| n.eq_ignore_ascii_case(name);
            match self.spec.options.iter_mut().find(same_name) {
                Some((_, old)) if old == value => continue,
                Some((_, old)) => *old = value.clone(),
                None => self.spec.options.push((name.clone(), value.clone())),
            }
            let Some(engine) = self.engine.as_mut() else { continue };
            match engine.set_option(name, value) {
                Ok(()) => {}
                Err(error @ EngineError::Protocol { .. }) => return Err(error.into()),
                // Its input is closed: it is not running any more.
                Err(_) => self.engine = None,
            }
        }
        Ok(())
    }

    fn failure(&mut self, error: EngineError) -> PlayerFailure {
        engine_failure(&mut self.engine, UciEngine::is_alive, error)
    }
}

impl Player for External {
    fn name(&self) -> &str {
        &self.spec.name
    }

    fn new_game(&mut self) -> Result<(), PlayerFailure> {
        if !self.engine.as_mut().is_some_and(UciEngine::is_alive) {
            self.engine = None;
            let engine = UciEngine::start(&self.spec, self.start_timeout).map_err(|e| self.failure(e))?;
            self.engine = Some(engine);
        }
        let timeout = self.start_timeout;
        let engine = self.engine.as_mut().expect("started above");
        engine.new_game(timeout).map_err(|e| self.failure(e))
    }

    fn think(
        &mut self,
        game: &GameView,
        budget: MoveBudget,
        allowance: Option<Duration>,
    ) -> Result<Thought, PlayerFailure> {
        let deadline = allowance.unwrap_or(Duration::from_secs(60)) + DEADLINE_SLACK;
        let Some(engine) = self.engine.as_mut() else {
            return Err(PlayerFailure::new(
                FailureKind::Crash,
                format!("engine '{}' is not running", self.spec.name),
            ));
        };
        let reply = engine.go(game.start_fen, game.moves, &budget, deadline).map_err(|e| self.failure(e))?;
        let best = game.pos.parse_uci_move(reply.bestmove.trim()).map_err(|e| {
            PlayerFailure::new(FailureKind::IllegalMove, format!("bestmove {}: {e}", reply.bestmove))
        })?;
        Ok(Thought {
            best,
            score: reply.score.map(|s| match s {
                EngineScore::Cp(cp) => Score::Cp(cp),
                EngineScore::Mate(n) => Score::Mate(n),
            }),
            depth: reply.depth.unwrap_or(0),
            nodes: reply.nodes.unwrap_or(0),
            elapsed: reply.elapsed,
        })
    }

    /// At a node limit: one `go nodes N` from the first opening, which must end on its own. Some
    /// engines ignore `go nodes` and search until told to stop; every game of theirs would be
    /// lost on time after the hang time-out, so the run is refused instead. Any other failure
    /// (a crash) is left to the games, which count and survive it.
    fn check_games(&mut self, limit: &MoveLimit, start_fens: &[&str]) -> Result<(), String> {
        let (MoveLimit::Nodes(nodes), Some(fen)) = (limit, start_fens.first()) else { return Ok(()) };
        let Some(engine) = self.engine.as_mut() else { return Ok(()) };
        let deadline = NODES_PROBE + Duration::from_secs(nodes / PROBE_NPS);
        match engine.go(fen, &[], &MoveBudget::Nodes(*nodes), deadline) {
            Err(EngineError::Timeout { .. }) => Err(format!(
                "it did not answer `go nodes {nodes}` within {} s: it seems to ignore node limits (some \
                 engines do), so play it at a clock instead: --tc, or --verify-tc for a verification",
                deadline.as_secs()
            )),
            _ => Ok(()),
        }
    }
}
