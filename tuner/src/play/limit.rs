//! What each side may spend on a move: a node count, a depth, or a clock (`--tc`), and the clocks
//! of a game in progress.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use whetstone::Color;

/// A time control as cutechess-cli and fastchess write it: `[moves/]base[+increment]`, base and
/// increment in seconds (`10+0.1`, `40/60`, `40/1:30+0.5`, `0.5+0.005`); a base may be `m:ss`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Time at the start and, in the moves-to-go form, added again after every `moves` moves (ms).
    pub base_ms: u64,
    /// Added after every move (ms).
    pub inc_ms: u64,
    /// Moves per period (the `40/` in `40/60`); None: the whole game.
    pub moves: Option<u32>,
}

impl FromStr for TimeControl {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> Result<TimeControl> {
        let context = || format!("time control '{text}' (expected e.g. 10+0.1, 40/60, 40/1:30+0.5)");
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let moves: u32 = m.trim().parse().with_context(context)?;
                if moves == 0 {
                    bail!("{}: the moves per period must be at least 1", context());
                }
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let base_ms = seconds_to_ms(base).with_context(context)?;
        let inc_ms = seconds_to_ms(inc).with_context(context)?;
        if base_ms == 0 && inc_ms == 0 {
            bail!("{}: no time at all", context());
        }
        Ok(TimeControl { base_ms, inc_ms, moves })
    }
}

/// `1.5` or `1:30` (minutes:seconds) as milliseconds.
fn seconds_to_ms(text: &str) -> Result<u64> {
    let text = text.trim();
    let (minutes, seconds) = match text.split_once(':') {
        Some((m, s)) => (m.parse::<u64>().context("minutes")?, s),
        None => (0, text),
    };
    let seconds: f64 = seconds.parse().with_context(|| format!("'{seconds}' is not a number of seconds"))?;
    if !seconds.is_finite() || seconds < 0.0 {
        bail!("'{text}' is not a time");
    }
    Ok(minutes * 60_000 + (seconds * 1000.0).round() as u64)
}

impl fmt::Display for TimeControl {
    /// `moves/seconds` and `seconds+increment`: the command line's form, which is also the
    /// PGN `TimeControl` tag's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base_ms as f64 / 1000.0)?;
        if self.inc_ms > 0 {
            write!(f, "+{}", self.inc_ms as f64 / 1000.0)?;
        }
        Ok(())
    }
}

/// How long a side may think on each move, the same for every move of a game: what a run is
/// asked to play at. The game's [`Clocks`] turn it into each move's [`MoveBudget`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveLimit {
    Nodes(u64),
    Depth(u32),
    Clock(TimeControl),
}

impl MoveLimit {
    /// From the command line's `--nodes`, `--depth` and `--tc` (exactly one may be given).
    pub fn from_flags(nodes: Option<u64>, depth: Option<u32>, tc: Option<&str>) -> Result<MoveLimit> {
        match (nodes, depth, tc) {
            (Some(n), None, None) if n > 0 => Ok(MoveLimit::Nodes(n)),
            (None, Some(d), None) if d > 0 => Ok(MoveLimit::Depth(d)),
            (None, None, Some(tc)) => Ok(MoveLimit::Clock(tc.parse()?)),
            (None, None, None) => bail!("give a limit per move: --nodes N, --depth N or --tc BASE+INC"),
            (Some(0), ..) | (_, Some(0), _) => bail!("--nodes and --depth must be at least 1"),
            _ => bail!("give only one of --nodes, --depth and --tc"),
        }
    }

    /// The PGN `TimeControl` tag (`-` when not a clock, as the PGN standard has it for "unknown").
    pub fn pgn_tag(&self) -> String {
        match self {
            MoveLimit::Clock(tc) => tc.to_string(),
            _ => "-".to_string(),
        }
    }
}

/// The limit per move as asked for, unchecked: at most one of nodes, depth and a clock
/// (`--nodes`, `--depth`, `--tc`), kept as given until [`LimitChoice::resolve`] makes it a
/// [`MoveLimit`] (by [`MoveLimit::from_flags`]). It is checked only when games are played, so a run that plays none (a
/// Texel fitness) is not stopped by it, and a command with a default of its own fills it in
/// when none is given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LimitChoice {
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// A clock as the command line writes it (`10+0.1`, `40/60`), parsed when resolved.
    pub tc: Option<String>,
}

impl LimitChoice {
    /// `n` nodes per move (the tests' limit).
    #[cfg(test)]
    pub fn nodes(n: u64) -> LimitChoice {
        LimitChoice { nodes: Some(n), ..LimitChoice::default() }
    }

    pub fn is_given(&self) -> bool {
        self.nodes.is_some() || self.depth.is_some() || self.tc.is_some()
    }

    /// The limit; an error unless exactly one was given, and given well.
    pub fn resolve(&self) -> Result<MoveLimit> {
        MoveLimit::from_flags(self.nodes, self.depth, self.tc.as_deref())
    }

    /// The limit, or `nodes` per move when none was given.
    pub fn resolve_or_nodes(&self, nodes: u64) -> Result<MoveLimit> {
        if self.is_given() {
            self.resolve()
        } else {
            Ok(MoveLimit::Nodes(nodes))
        }
    }
}

impl fmt::Display for MoveLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveLimit::Nodes(n) => write!(f, "{n} nodes per move"),
            MoveLimit::Depth(d) => write!(f, "depth {d}"),
            MoveLimit::Clock(tc) => write!(f, "{tc}"),
        }
    }
}

/// What one side is told for one move: its limit and, with a clock, the time left on both clocks
/// (White's first) now. Not a [`MoveLimit`]: a clock limit says how a game starts, a budget where
/// it stands, which changes every move. A UCI `go` carries exactly this; xboard says it as an
/// `XboardBudget` (`engines/xboard_engine.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveBudget {
    Nodes(u64),
    Depth(u32),
    Clock { time_ms: [u64; 2], inc_ms: [u64; 2], movestogo: Option<u32> },
}

/// Both sides' clocks during a game.
#[derive(Clone, Debug)]
pub struct Clocks {
    limit: MoveLimit,
    left_ms: [u64; 2],
    moves_made: [u32; 2],
}

impl Clocks {
    pub fn new(limit: MoveLimit) -> Clocks {
        let start = match limit {
            MoveLimit::Clock(tc) => tc.base_ms,
            _ => 0,
        };
        Clocks { limit, left_ms: [start; 2], moves_made: [0; 2] }
    }

    /// What `side` is told for its next move.
    pub fn budget(&self, side: Color) -> MoveBudget {
        match self.limit {
            MoveLimit::Nodes(n) => MoveBudget::Nodes(n),
            MoveLimit::Depth(d) => MoveBudget::Depth(d),
            MoveLimit::Clock(tc) => MoveBudget::Clock {
                time_ms: self.left_ms,
                inc_ms: [tc.inc_ms; 2],
                movestogo: tc.moves.map(|m| m - self.moves_made[side.index()] % m),
            },
        }
    }

    /// The longest `side` may take on this move before it has lost on time (None: no clock).
    pub fn allowance(&self, side: Color) -> Option<Duration> {
        match self.limit {
            MoveLimit::Clock(_) => Some(Duration::from_millis(self.left_ms[side.index()])),
            _ => None,
        }
    }

    /// Charges `side` for a move that took `elapsed`; false when its flag fell (time forfeit).
    /// The increment is added after the move, and in the moves-to-go form the base again at the
    /// end of each period, as cutechess does.
    pub fn charge(&mut self, side: Color, elapsed: Duration, margin: Duration) -> bool {
        let MoveLimit::Clock(tc) = self.limit else { return true };
        let i = side.index();
        let spent = elapsed.as_millis() as u64;
        if spent > self.left_ms[i] + margin.as_millis() as u64 {
            self.left_ms[i] = 0;
            return false;
        }
        self.left_ms[i] = self.left_ms[i].saturating_sub(spent) + tc.inc_ms;
        self.moves_made[i] += 1;
        if tc.moves.is_some_and(|m| self.moves_made[i] % m == 0) {
            self.left_ms[i] += tc.base_ms;
        }
        true
    }

    #[cfg(test)]
    pub fn left_ms(&self, side: Color) -> u64 {
        self.left_ms[side.index()]
    }
}

#[cfg(test)]
#[path = "limit_tests.rs"]
mod tests;
