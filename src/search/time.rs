//! Time management: a soft limit (do not start another iteration past it; it stretches when the
//! score drops) and a hard limit (stop at once), from the clock, increment and moves to go.

use std::time::{Duration, Instant};

use crate::types::Color;

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub mate: Option<i32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Remaining time and increment per side in ms.
    pub time: [Option<u64>; 2],
    pub inc: [u64; 2],
    pub movestogo: Option<u32>,
    /// When `go` arrived (the clock starts then, not when the search thread got going); now if unset.
    pub started: Option<Instant>,
}

impl Limits {
    pub fn depth(d: i32) -> Limits {
        Limits { depth: Some(d), ..Limits::default() }
    }

    /// Whether the search stops on the clock at all (not for depth/nodes/mate/infinite only).
    pub fn is_timed(&self, side: Color) -> bool {
        self.movetime.is_some() || self.time[side.index()].is_some()
    }
}

/// How a clock is spread over the moves: the search constants `time.moves_left`,
/// `time.start_percent` and `time.inc_bonus` (see `params/search.toml`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimePlan {
    /// The soft limit plans for this many moves still to play when `go` gives no `movestogo`.
    pub moves_left: u64,
    /// Another iteration starts only while this share (percent) of the budget is unspent.
    pub start_percent: u32,
    /// The share (percent) of the increment the soft limit plans for each move.
    pub inc_percent: u64,
}

/// The shipped plan (the values in `params/search.toml`; a test keeps the two equal), for
/// searches that run without the search constants at hand.
impl Default for TimePlan {
    fn default() -> TimePlan {
        TimePlan { moves_left: 21, start_percent: 60, inc_percent: 75 }
    }
}

#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    start_percent: u32,
}

impl TimeManager {
    /// Limits for `side` to move; `overhead_ms` is kept back for the GUI and the operating system.
    /// The clock runs from `limits.started` (when `go` arrived), or from now.
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64, plan: TimePlan) -> TimeManager {
        let start = limits.started.unwrap_or_else(Instant::now);
        let start_percent = plan.start_percent.clamp(1, 100);
        if let Some(mt) = limits.movetime {
            // A fixed move time is used in full: no soft limit ends the search early.
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return TimeManager { start, soft: None, hard: Some(t), start_percent };
        }
        let Some(left) = limits.time[side.index()] else {
            return TimeManager { start, soft: None, hard: None, start_percent };
        };
        let inc = limits.inc[side.index()];
        let moves_left = limits.movestogo.map_or(plan.moves_left.max(1), |m| m.clamp(1, 50) as u64);
        // Never plan to use time we do not have: keep the overhead and a small reserve back. At
        // sudden death nothing refills the clock, and spending a share of what is left lets it
        // decay towards nothing: at 10 s + 0 one game in eight reached under 0.1 s (docs/strength.md).
        // So there the reserve is one overhead for each move still planned for, as Stockfish keeps
        // (below it the engine plays at once); with an increment or moves to go it stays a fiftieth.
        let sudden_death = inc == 0 && limits.movestogo.is_none();
        let reserve = if sudden_death { (left / 50).max(overhead_ms * moves_left) } else { left / 50 };
        let usable = left.saturating_sub(overhead_ms).saturating_sub(reserve).max(1);
        let soft = (usable / moves_left + inc * plan.inc_percent.min(200) / 100).min(usable / 2).max(1);
        let hard =
            (soft * 4).min(if moves_left == 1 { usable * 9 / 10 } else { usable / 3 }).max(soft.min(usable));
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
            start_percent,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Past the hard limit: stop searching now.
    pub fn hard_exceeded(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether another iteration may start: it would likely not finish once `start_percent` of
    /// the budget is gone (each iteration takes about as long as all before it). `stretch` scales
    /// the soft limit, in percent (100 = normal; more when the score dropped or the best move is
    /// unsettled, less when one move dominates).
    pub fn may_start_iteration(&self, stretch: u32) -> bool {
        match (self.soft, self.hard) {
            (Some(soft), Some(hard)) => {
                let budget = (soft * stretch / 100).min(hard);
                self.start.elapsed() < budget * self.start_percent / 100
            }
            _ => true,
        }
    }
}

#[cfg(test)]
#[path = "time_tests.rs"]
mod tests;
