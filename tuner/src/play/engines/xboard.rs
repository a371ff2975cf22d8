//! An xboard (CECP) engine binary as a player: the process is driven by `xboard_engine.rs`; here
//! the game's limits become `level`/`time`/`sd`, its answers become moves, and its failures the
//! game's result, as `external.rs` does for UCI: a crash (or a process that cannot be restarted),
//! a time loss (no move by its clock plus a second's slack), an illegal move (an illegal or
//! unreadable move, or a refusal of one of the game's moves). A process that died is started
//! again for the next game, as cutechess does; so is one that declared `reuse=0`.
//!
//! Results the engine announces: `resign`, or its claim that the opponent won, loses the game for
//! it (a resignation, as cutechess counts it), whether sent instead of a move or after one (then
//! it is seen at its next turn, unless the game ended first). A draw claim, or a claim of its own
//! win, is left to the rules: the game loop ends games by them (mate, stalemate, repetition, fifty
//! moves, material) before asking for the next move, so a claim they do not confirm is ignored and
//! the game goes on (cutechess forfeits such a claim instead; Fairy-Max claims draws by its own
//! counts, which would make those games losses for it).

use std::time::Duration;

use anyhow::Result;
use whetstone::Position;

use crate::play::engines::engine_failure::engine_failure;
use crate::play::engines::engine_process::{EngineError, EngineSpec};
use crate::play::engines::player::{FailureKind, GameView, Player, PlayerFailure, Thought};
use crate::play::engines::xboard_engine::{XboardAnswer, XboardBudget, XboardEngine};
use crate::play::engines::xboard_text::{edit_castling_problem, score};
use crate::play::limit::{MoveBudget, MoveLimit};
use crate::play::outcome::Outcome;

/// How much later than its clock allows an engine's answer is still waited for; whether the move
/// counts is then the clock's (and the time margin's) decision.
const DEADLINE_SLACK: Duration = Duration::from_millis(1000);
/// At a depth limit without a clock, how long a move may take when the caller sets no bound.
const NO_CLOCK_ALLOWANCE: Duration = Duration::from_secs(60);

pub struct Xboard {
    spec: EngineSpec,
    engine: Option<XboardEngine>,
    start_timeout: Duration,
    /// The engine process has played a game (for `reuse=0`).
    used: bool,
}

impl Xboard {
    /// Starts the engine; an error names it and says why (no such file, no `feature done=1`
    /// after `done=0`, an option it does not have).
    pub fn start(spec: EngineSpec, start_timeout: Duration) -> Result<Xboard> {
        let engine = XboardEngine::start(&spec, start_timeout)?;
        Ok(Xboard { spec, engine: Some(engine), start_timeout, used: false })
    }

    fn failure(&mut self, error: EngineError) -> PlayerFailure {
        engine_failure(&mut self.engine, XboardEngine::is_alive, error)
    }

    fn not_running(&self) -> PlayerFailure {
        PlayerFailure::new(FailureKind::Crash, format!("engine '{}' is not running", self.spec.name))
    }
}

impl Player for Xboard {
    fn name(&self) -> &str {
        &self.spec.name
    }

    fn new_game(&mut self) -> Result<(), PlayerFailure> {
        let reuse = self.engine.as_ref().is_none_or(|engine| engine.features().reuse);
        let alive = self.engine.as_mut().is_some_and(XboardEngine::is_alive);
        if !alive || (self.used && !reuse) {
            self.engine = None;
            let engine = XboardEngine::start(&self.spec, self.start_timeout).map_err(|e| self.failure(e))?;
            self.engine = Some(engine);
            self.used = false;
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
        let own = game.pos.side_to_move().index();
        let limit = match budget {
            MoveBudget::Clock { time_ms, inc_ms, movestogo } => XboardBudget::Clock {
                own_ms: time_ms[own],
                opp_ms: time_ms[1 - own],
                inc_ms: inc_ms[own],
                movestogo,
            },
            MoveBudget::Depth(depth) => {
                XboardBudget::Depth { depth, seconds: allowance.unwrap_or(NO_CLOCK_ALLOWANCE).as_secs() }
            }
            // `check_games` refuses node limits before a run; this is the same answer in a game.
            MoveBudget::Nodes(_) => return Err(PlayerFailure::new(FailureKind::Crash, no_node_limit())),
        };
        let deadline = allowance.unwrap_or(NO_CLOCK_ALLOWANCE) + DEADLINE_SLACK;
        self.used = true;
        let Some(engine) = self.engine.as_mut() else { return Err(self.not_running()) };
        let answer = engine.go(game.start_fen, game.moves, &limit, deadline).map_err(|e| self.failure(e))?;
        let reply = match answer {
            XboardAnswer::Move(reply) => reply,
            XboardAnswer::Resign(line) => {
                // The game's record says who: "Black resigns: it sent 'resign'".
                return Err(PlayerFailure::new(FailureKind::Resignation, format!("it sent '{line}'")));
            }
        };
        // The driver checked the move against its own copy of the game; this is the game's.
        let best = game.pos.parse_uci_move(&reply.mv).map_err(|e| {
            PlayerFailure::new(FailureKind::IllegalMove, format!("move {} ({}): {e}", reply.text, reply.mv))
        })?;
        let thinking = reply.thinking;
        Ok(Thought {
            best,
            score: thinking.map(|t| score(t.score)),
            depth: thinking.map_or(0, |t| t.depth),
            nodes: thinking.map_or(0, |t| t.nodes),
            elapsed: reply.elapsed,
        })
    }

    /// Refuses node limits (xboard has none: `nps` only rescales an engine's clock, and few
    /// engines have it), depth limits for an engine that does not take `sd` (Phalanx), and,
    /// for an engine without `setboard`, openings whose castling rights the `edit` set-up
    /// cannot say.
    fn check_games(&mut self, limit: &MoveLimit, start_fens: &[&str]) -> Result<(), String> {
        let Some(engine) = self.engine.as_mut() else {
            return Err(format!("'{}' is not running", self.spec.name));
        };
        match limit {
            MoveLimit::Nodes(_) => return Err(no_node_limit()),
            MoveLimit::Depth(depth) => {
                let understood = engine.understands(&format!("sd {depth}"), self.start_timeout);
                match understood {
                    Ok(true) => {}
                    Ok(false) => {
                        return Err("it does not take `sd` (a depth limit): play it with --tc".to_string())
                    }
                    Err(e) => return Err(e.to_string()),
                }
            }
            MoveLimit::Clock(_) => {}
        }
        if !engine.features().setboard {
            for fen in start_fens {
                let problem = Position::from_fen(fen).ok().and_then(|pos| edit_castling_problem(&pos));
                if let Some(why) = problem {
                    return Err(format!("cannot be given the opening {fen}: {why}"));
                }
            }
        }
        Ok(())
    }

    fn game_over(&mut self, outcome: Outcome, reason: &str) {
        if let Some(engine) = self.engine.as_mut() {
            // A failure to say it is the next game's to find (`new_game` restarts a dead engine).
            let _ = engine.result(outcome.pgn(), reason);
        }
    }
}

fn no_node_limit() -> String {
    "xboard has no node limit (`nps` only rescales an engine's clock, and few engines have it): \
     play xboard engines with --tc or --depth"
        .to_string()
}

#[cfg(test)]
#[path = "xboard_tests.rs"]
mod tests;
