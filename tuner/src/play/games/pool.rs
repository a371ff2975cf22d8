//! The worker pool every game source runs on (the match runner, and the engine fitness with its
//! long-lived engine processes): worker threads take jobs in index order, each keeping its own
//! state (its players) from one job to the next, and hand each result to the caller's thread, in
//! the order they finish; the caller keeps the statistics and may stop the run (an SPRT
//! decision, Ctrl-C). The jobs are numbered, so which games are played does not depend on how
//! many threads play them.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::{anyhow, Result};

/// What the caller wants after a result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// Does jobs `0..jobs` on up to `threads` threads (at least one, at most one a job). Each
/// thread makes its state with `worker`, then does jobs with `job` until none are left or `stop`
/// is raised; `job` returns None when `stop` cut it short (nothing is reported, the thread ends).
/// Every result goes to `on_done` on this thread; returning [`Flow::Stop`] (or an error, which
/// is the run's) raises `stop`, after which results still arriving are dropped. A thread's
/// error or panic is the run's error once every thread has ended.
pub fn run_jobs<S, R: Send>(
    jobs: usize,
    threads: usize,
    stop: &AtomicBool,
    worker: impl Fn() -> S + Sync,
    job: impl Fn(&mut S, usize) -> Result<Option<R>> + Sync,
    mut on_done: impl FnMut(R) -> Result<Flow>,
) -> Result<()> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<R>();
    std::thread::scope(|scope| -> Result<()> {
        let workers: Vec<_> = (0..threads.clamp(1, jobs.max(1)))
            .map(|_| {
                let sender = sender.clone();
                let (worker, job, next) = (&worker, &job, &next);
                scope.spawn(move || -> Result<()> {
                    let mut state = worker();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= jobs || stop.load(Ordering::Relaxed) {
                            return Ok(());
                        }
                        let Some(result) = job(&mut state, index)? else { return Ok(()) };
                        if sender.send(result).is_err() {
                            return Ok(());
                        }
                    }
                })
            })
            .collect();
        drop(sender);
        let mut outcome = Ok(());
        for result in receiver {
            if outcome.is_err() {
                continue;
            }
            match on_done(result) {
                Ok(Flow::Continue) => {}
                Ok(Flow::Stop) => stop.store(true, Ordering::Relaxed),
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    outcome = Err(e);
                }
            }
        }
        for worker in workers {
            match worker.join() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => outcome = outcome.and(Err(e)),
                Err(_) => outcome = outcome.and(Err(anyhow!("a game worker thread panicked"))),
            }
        }
        outcome
    })
}
