//! How an engine binary's error becomes the game's failure, the same for both protocols' players
//! (`external.rs` for UCI, `xboard.rs` for xboard), so that a crash, a hang and an illegal answer
//! lose the game the same way whichever protocol the engine speaks.

use crate::play::engines::engine_process::EngineError;
use crate::play::engines::player::{FailureKind, PlayerFailure};

/// The failure `error` means for the game, forgetting the engine in `engine` when its process
/// is gone (unless it merely answered illegally: a live process is kept for the next game), so
/// that the next game starts it again, as cutechess does.
pub fn engine_failure<E>(
    engine: &mut Option<E>,
    is_alive: impl FnOnce(&mut E) -> bool,
    error: EngineError,
) -> PlayerFailure {
    let kind = match error {
        EngineError::Timeout { .. } => FailureKind::TimeLoss,
        EngineError::Protocol { .. } => FailureKind::IllegalMove,
        EngineError::Spawn { .. } | EngineError::Disconnected { .. } | EngineError::Write { .. } => {
            FailureKind::Crash
        }
    };
    if kind != FailureKind::IllegalMove && !engine.as_mut().is_some_and(is_alive) {
        *engine = None;
    }
    PlayerFailure::new(kind, error.to_string())
}
