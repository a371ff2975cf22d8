//! Any program as a fitness, by CLOP's connection-script contract: for each game the tuner runs
//! `PROGRAM ARGS... <worker-id> <seed> <name1> <value1> [<name2> <value2> ...]` and reads `W`, `L`
//! or `D` (the tuned side's result) from the last line of its output. Games run `concurrency` at
//! a time. A run that fails (exit status, no result) is retried; a game whose every attempt failed
//! is counted as failed, printed, and kept out of the results. Each run is one game with its own
//! seed, so the contract knows no game pairs: the games carry no pentanomial counts, and
//! `tune bayes` takes their noise from the win/draw/loss counts.

use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{anyhow, bail, Context, Result};

use super::{GameFitness, Games, Trial};
use crate::optim::space::Space;
use crate::play::games::stats::GameScore;

pub struct CommandFitness {
    pub program: String,
    pub args: Vec<String>,
    pub space: Space,
    pub concurrency: usize,
    /// Further attempts after a failed run of the command.
    pub retries: u32,
}

impl CommandFitness {
    /// Splits `--command` as a POSIX shell splits words.
    pub fn new(command: &str, space: Space, concurrency: usize, retries: u32) -> Result<CommandFitness> {
        let words =
            shlex::split(command).ok_or_else(|| anyhow!("--command `{command}`: unbalanced quotes"))?;
        let Some((program, args)) = words.split_first() else { bail!("--command is empty") };
        Ok(CommandFitness { program: program.clone(), args: args.to_vec(), space, concurrency, retries })
    }

    /// One run of the command: the result, or why there is none.
    fn run_once(&self, worker: usize, seed: u64, x: &[f64]) -> Result<GameScore> {
        let output = Command::new(&self.program)
            .args(&self.args)
            .arg(worker.to_string())
            .arg(seed.to_string())
            .args(self.space.name_value_args(x))
            .stdin(std::process::Stdio::null())
            .output()
            .with_context(|| format!("starting `{}`", self.program))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let last = stdout.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or("");
        let stderr_tail = String::from_utf8_lossy(&output.stderr).lines().last().unwrap_or("").to_string();
        if !output.status.success() {
            bail!("`{}` exited with {} (last stderr line: `{stderr_tail}`)", self.program, output.status);
        }
        match last {
            "W" | "w" => Ok(GameScore::Win),
            "L" | "l" => Ok(GameScore::Loss),
            "D" | "d" => Ok(GameScore::Draw),
            _ => bail!("`{}` printed no result: its last line is `{last}`, expected W, L or D", self.program),
        }
    }
}

impl GameFitness for CommandFitness {
    fn describe(&self) -> String {
        format!("command `{} {}`, {} at a time", self.program, self.args.join(" "), self.concurrency)
    }

    fn duels(&self) -> bool {
        false
    }

    fn play(
        &self,
        trials: &[Trial],
        seed: u64,
        stop: &AtomicBool,
        on_games: &mut dyn FnMut(u64),
    ) -> Result<Vec<Games>> {
        if trials.iter().any(|t| t.opponent.is_some()) {
            bail!("a command plays against its own reference; it cannot play two candidates");
        }
        // One job per game: (trial, game index over the call).
        let jobs: Vec<usize> = trials
            .iter()
            .enumerate()
            .flat_map(|(t, trial)| std::iter::repeat_n(t, trial.games as usize))
            .collect();
        let results = Mutex::new(vec![Games::default(); trials.len()]);
        let (next, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let (sender, receiver) = std::sync::mpsc::channel::<u64>();
        std::thread::scope(|scope| {
            for worker in 1..=self.concurrency.max(1) {
                let sender = sender.clone();
                let (jobs, results, next, done) = (&jobs, &results, &next, &done);
                scope.spawn(move || loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= jobs.len() || stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let game_seed = super::step_seed(seed, g as u64);
                    let trial = &trials[jobs[g]];
                    let mut outcome = None;
                    for attempt in 0..=self.retries {
                        match self.run_once(worker, game_seed, &trial.candidate) {
                            Ok(score) => {
                                outcome = Some(score);
                                break;
                            }
                            Err(e) => eprintln!(
                                "game {} (seed {game_seed}), attempt {} of {}: {e:#}",
                                g + 1,
                                attempt + 1,
                                self.retries + 1
                            ),
                        }
                    }
                    {
                        let mut results = results.lock().unwrap_or_else(|e| e.into_inner());
                        match outcome {
                            Some(score) => results[jobs[g]].record(score),
                            None => results[jobs[g]].failed += 1,
                        }
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                    let _ = sender.send(1);
                });
            }
            drop(sender);
            for n in receiver {
                on_games(n);
            }
        });
        if done.load(Ordering::Relaxed) < jobs.len() {
            bail!("interrupted with {} of {} games played", done.load(Ordering::Relaxed), jobs.len());
        }
        let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
        let failed: u64 = results.iter().map(|g| g.failed).sum();
        if failed == jobs.len() as u64 {
            bail!("every game failed: `{}` never gave a result (see the messages above)", self.program);
        }
        Ok(results)
    }
}

#[cfg(test)]
#[path = "command_tests.rs"]
mod tests;
