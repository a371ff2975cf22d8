//! The step loop every tuner runs (Texel's epochs, PBIL's generations, CLOP's samples, SPSA's
//! iterations): its progress bar and Ctrl-C flag, and the end of each step, where the whole log,
//! the step's row of `trajectory.csv` and the checkpoint are written before a Ctrl-C may stop the
//! run. A run stopped there, or killed anywhere, continues with `--resume` from its checkpoint
//! and ends as the uninterrupted run would have.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{bail, Result};
use indicatif::ProgressBar;
use serde::Serialize;

use super::{interrupt_flag, progress_bar, RunDir};

/// A run's step loop.
pub struct Steps<'a> {
    run: &'a RunDir,
    step_name: &'static str,
    /// The tuned values' names: the columns of `trajectory.csv` (none: no trajectory).
    names: Option<Vec<String>>,
    /// Steps between checkpoints (the last step and a Ctrl-C always write one).
    checkpoint_every: usize,
    total: usize,
    stop: Arc<AtomicBool>,
    pub bar: ProgressBar,
}

impl<'a> Steps<'a> {
    /// Begins a loop of `total` steps named `step_name` whose bar counts `bar_len` `bar_unit`s.
    /// With a trajectory (the values' names and their starting values), a fresh run starts
    /// `trajectory.csv` anew; a resumed one (at step `done`) keeps its rows up to `done`.
    pub fn begin(
        run: &'a RunDir,
        step_name: &'static str,
        total: usize,
        bar_len: u64,
        bar_unit: &str,
        quiet: bool,
    ) -> Steps<'a> {
        Steps {
            run,
            step_name,
            names: None,
            checkpoint_every: 1,
            total,
            stop: interrupt_flag(),
            bar: progress_bar(bar_len, bar_unit, quiet),
        }
    }

    /// Records the values at every step in `trajectory.csv`, from `starts` at step 0 (fresh) or
    /// continuing after step `done` (resumed).
    pub fn with_trajectory(
        mut self,
        names: Vec<String>,
        starts: &[f64],
        resumed_at: Option<usize>,
    ) -> Result<Self> {
        match resumed_at {
            Some(done) => self.run.trim_trajectory(done)?,
            None => {
                std::fs::remove_file(self.run.file("trajectory.csv")).ok();
                self.run.append_trajectory(self.step_name, &names, 0, starts)?;
            }
        }
        self.names = Some(names);
        Ok(self)
    }

    /// Writes the checkpoint only every `n` steps (and at the last step and on Ctrl-C).
    pub fn checkpoint_every(mut self, n: usize) -> Self {
        self.checkpoint_every = n.max(1);
        self
    }

    /// The flag Ctrl-C raises: long calls inside a step (games) poll it.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The end of step `step`: the whole log, the trajectory row of `values`, the checkpoint of
    /// `state`; after a Ctrl-C, an error saying how to continue, with everything written.
    pub fn end<L: Serialize, S: Serialize>(
        &self,
        log: &[L],
        step: usize,
        values: &[f64],
        state: &S,
    ) -> Result<()> {
        self.run.write_log(log)?;
        if let Some(names) = &self.names {
            self.run.append_trajectory(self.step_name, names, step, values)?;
        }
        let stop = self.stop.load(Ordering::SeqCst);
        if stop || step % self.checkpoint_every == 0 || step >= self.total {
            self.run.save_checkpoint(state)?;
        }
        if stop {
            self.bar.abandon_with_message("interrupted: checkpoint written");
            bail!("interrupted after {} {step}: continue with --resume", self.step_name);
        }
        Ok(())
    }

    /// An error from inside a step (its games); after Ctrl-C it says where the checkpoint stands.
    pub fn resumable(&self, e: anyhow::Error, checkpoint_at: String) -> anyhow::Error {
        if self.stop.load(Ordering::SeqCst) {
            anyhow::anyhow!("{e}; the checkpoint holds {checkpoint_at}: continue with --resume")
        } else {
            e
        }
    }

    /// The loop is over: the bar goes.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
