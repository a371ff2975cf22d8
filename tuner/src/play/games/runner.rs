//! The match runner: game pairs (one opening, each side once with White) spread over the worker
//! threads of the game pool (`pool.rs`). Each worker owns its own players (an in-process engine's
//! table and histories, an external engine's process), so games never share state; a game pair's
//! result goes back to the caller's thread, which keeps the statistics and may stop the run (an
//! SPRT decision, Ctrl-C).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{anyhow, Result};

use crate::play::engines::engine_process::{EngineSpec, Protocol};
use crate::play::engines::external::External;
use crate::play::engines::inprocess::{EngineSetup, InProcess};
use crate::play::engines::player::Player;
use crate::play::engines::xboard::Xboard;
use crate::play::games::game::{play_game, GameRecord, GameSettings};
use crate::play::games::pool::{self, Flow};

/// A side in a run: a configuration of our engine played in this process, or an engine binary
/// (UCI or xboard, as its spec says).
#[derive(Clone)]
pub enum Contestant {
    InProcess(EngineSetup),
    External(EngineSpec),
}

impl Contestant {
    pub fn name(&self) -> &str {
        match self {
            Contestant::InProcess(setup) => &setup.name,
            Contestant::External(spec) => &spec.name,
        }
    }

    /// A fresh player (for an external engine: a started process).
    pub fn player(&self, start_timeout: Duration) -> Result<Box<dyn Player>> {
        Ok(match self {
            Contestant::InProcess(setup) => Box::new(InProcess::new(setup.clone())),
            Contestant::External(spec) => match spec.protocol {
                Protocol::Uci => Box::new(External::start(spec.clone(), start_timeout)?),
                Protocol::Xboard => Box::new(Xboard::start(spec.clone(), start_timeout)?),
            },
        })
    }
}

/// One game pair to play: both games start from `start_fen` (the second from `second_start`
/// when it is set); in the first, contestant `first` has White against `second`, in the second
/// the colours are swapped.
#[derive(Clone, Debug)]
pub struct PairJob {
    pub start_fen: String,
    /// The second game's own start. Self-play datagen sets it: one engine on both sides at a node
    /// limit plays the same game twice from one start, so a second start doubles its positions.
    pub second_start: Option<String>,
    /// Where the opening came from (`book.epd:17`), for the PGN.
    pub opening: String,
    pub first: usize,
    pub second: usize,
}

/// A finished pair: `games[0]` has `first` as White, `games[1]` as Black.
#[derive(Clone, Debug)]
pub struct PairResult {
    pub index: usize,
    pub job: PairJob,
    pub games: [GameRecord; 2],
}

/// Plays `jobs` on `concurrency` threads and hands every finished pair to `on_pair` (on this
/// thread, in the order they finish). Raising `stop` (or returning [`Flow::Stop`]) ends the run:
/// games in progress are abandoned and not reported. Every engine binary is started once first
/// and asked whether it can play its games (their openings at this limit), so an engine that
/// cannot start or cannot play them is an error before any game.
pub fn run(
    contestants: &[Contestant],
    jobs: &[PairJob],
    settings: &GameSettings,
    concurrency: usize,
    stop: &AtomicBool,
    on_pair: impl FnMut(PairResult) -> Result<Flow>,
) -> Result<()> {
    let start_timeout = Duration::from_secs(10);
    // Only a binary can fail to start; an in-process engine's table is allocated by the worker
    // that plays it (a tuner's generation may hold dozens of contestants).
    for (index, contestant) in contestants.iter().enumerate() {
        if !matches!(contestant, Contestant::External(_)) {
            continue;
        }
        let mut player = contestant.player(start_timeout)?;
        let mut fens: Vec<&str> = jobs
            .iter()
            .filter(|job| job.first == index || job.second == index)
            .flat_map(|job| std::iter::once(job.start_fen.as_str()).chain(job.second_start.as_deref()))
            .collect();
        fens.sort_unstable();
        fens.dedup();
        player
            .check_games(&settings.limit, &fens)
            .map_err(|why| anyhow!("engine '{}' cannot play this run: {why}", contestant.name()))?;
    }
    pool::run_jobs(
        jobs.len(),
        concurrency,
        stop,
        // players[contestant][seat]: a contestant playing itself needs two independent instances.
        || -> Vec<[Option<Box<dyn Player>>; 2]> { contestants.iter().map(|_| [None, None]).collect() },
        |players, index| play_pair(contestants, players, &jobs[index], index, settings, stop, start_timeout),
        on_pair,
    )
}

/// Job `index` on a worker's `players` (made the first time a contestant plays); None when the
/// run stopped during it.
fn play_pair(
    contestants: &[Contestant],
    players: &mut [[Option<Box<dyn Player>>; 2]],
    job: &PairJob,
    index: usize,
    settings: &GameSettings,
    stop: &AtomicBool,
    start_timeout: Duration,
) -> Result<Option<PairResult>> {
    for (c, seat) in [(job.first, 0), (job.second, 1)] {
        if players[c][seat].is_none() {
            players[c][seat] = Some(contestants[c].player(start_timeout)?);
        }
    }
    let mut games = Vec::with_capacity(2);
    for swap in [false, true] {
        let (white, black) = pair_seats(players, job.first, job.second, swap);
        let start = if swap { job.second_start.as_deref().unwrap_or(&job.start_fen) } else { &job.start_fen };
        match play_game(white, black, start, settings, stop) {
            Some(game) => games.push(game),
            None => return Ok(None),
        }
    }
    let games: [GameRecord; 2] = games.try_into().map_err(|_| anyhow!("a pair has two games"))?;
    Ok(Some(PairResult { index, job: job.clone(), games }))
}

/// The two players of a game: `first`'s seat-0 instance and `second`'s seat-1 instance, White
/// first unless `swap`.
fn pair_seats(
    players: &mut [[Option<Box<dyn Player>>; 2]],
    first: usize,
    second: usize,
    swap: bool,
) -> (&mut dyn Player, &mut dyn Player) {
    let (a, b) = if first == second {
        let [seat0, seat1] = &mut players[first];
        (seat0, seat1)
    } else {
        let (low, high) = players.split_at_mut(first.max(second));
        if first < second {
            (&mut low[first][0], &mut high[0][1])
        } else {
            (&mut high[0][0], &mut low[second][1])
        }
    };
    let a: &mut dyn Player = a.as_deref_mut().expect("players are made before the pair");
    let b: &mut dyn Player = b.as_deref_mut().expect("players are made before the pair");
    if swap {
        (b, a)
    } else {
        (a, b)
    }
}

#[cfg(test)]
#[path = "runner_tests.rs"]
mod tests;
