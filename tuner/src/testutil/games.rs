//! Game sources and engines to tune against: [`Judge`], a game source whose results follow from
//! the candidates' first values, and `tuner/testdata/knob_engine.py`, a fake UCI engine whose
//! chance of playing "strong" peaks at Knob = 30, with the knight-shuffle openings it plays from.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use anyhow::Result;

use super::{testdata, TempDir};
use crate::fitness::{GameFitness, Games, Trial};
use crate::play::engines::engine_process::{EngineSpec, Protocol};
use crate::play::games::stats::GameScore;

/// A game source whose candidates win when their first value is larger than the
/// opponent's (the reference is 0), and that records what it was asked to play. With
/// `pairs`, it plays game pairs as self-play does (a trial's games rounded up to pairs) and
/// counts them: the larger value wins the first game and draws the second (1½ points), equal
/// values win one and lose one (1 point).
pub struct Judge {
    duels: bool,
    pairs: bool,
    pub asked: Mutex<Vec<Trial>>,
}

impl GameFitness for Judge {
    fn describe(&self) -> String {
        "judge".into()
    }
    fn duels(&self) -> bool {
        self.duels
    }
    fn games_per_trial(&self, games: u32) -> u32 {
        if self.pairs {
            2 * games.div_ceil(2).max(1)
        } else {
            games
        }
    }
    fn play(
        &self,
        trials: &[Trial],
        _seed: u64,
        _stop: &AtomicBool,
        _on_games: &mut dyn FnMut(u64),
    ) -> Result<Vec<Games>> {
        self.asked.lock().unwrap().extend(trials.iter().cloned());
        Ok(trials
            .iter()
            .map(|t| {
                let other = t.opponent.as_ref().map_or(0.0, |o| o[0]);
                let mut g = Games::default();
                if self.pairs {
                    use crate::play::games::stats::GameScore::{Draw, Loss, Win};
                    for _ in 0..GameFitness::games_per_trial(self, t.games) / 2 {
                        let (first, second) = match t.candidate[0].total_cmp(&other) {
                            std::cmp::Ordering::Greater => (Win, Draw),
                            std::cmp::Ordering::Less => (Loss, Draw),
                            std::cmp::Ordering::Equal => (Win, Loss),
                        };
                        g.record_pair(first, second);
                    }
                    return g;
                }
                for _ in 0..t.games {
                    g.record(match t.candidate[0].total_cmp(&other) {
                        std::cmp::Ordering::Greater => GameScore::Win,
                        std::cmp::Ordering::Less => GameScore::Loss,
                        std::cmp::Ordering::Equal => GameScore::Draw,
                    });
                }
                g
            })
            .collect())
    }
}

pub fn judge(duels: bool) -> Judge {
    Judge { duels, pairs: false, asked: Mutex::new(Vec::new()) }
}

/// A [`Judge`] that plays game pairs.
pub fn pair_judge(duels: bool) -> Judge {
    Judge { duels, pairs: true, asked: Mutex::new(Vec::new()) }
}

/// An executable that runs the fake engine in `mode` (the engine binary a user would give).
pub fn knob_engine(dir: &TempDir, mode: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.path(&format!("knob-{mode}"));
    let script = testdata("knob_engine.py");
    std::fs::write(&path, format!("#!/bin/sh\nexec python3 '{}' {mode} \"$@\"\n", script.display())).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The book the fake engine can play from.
pub fn knight_book() -> PathBuf {
    testdata("knight_book.epd")
}

/// The spec of one of the fake engines in `tuner/testdata/` (`script`, run by python3) in `mode`,
/// appending the lines it receives to `log` when given.
pub fn fake_engine_spec(script: &str, protocol: Protocol, mode: &str, log: Option<&Path>) -> EngineSpec {
    let mut args = vec![testdata(script).display().to_string(), mode.to_string()];
    args.extend(log.map(|log| log.display().to_string()));
    EngineSpec {
        name: format!("fake-{mode}"),
        command: PathBuf::from("python3"),
        args,
        options: Vec::new(),
        working_dir: None,
        protocol,
    }
}
