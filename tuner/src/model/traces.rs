//! Labelled positions as traces: every file of a dataset loaded in parallel, each position traced
//! once by the evaluation's tracer into the compact store, and the deterministic hold-out that
//! splits a store into training and validation positions. Shared by `tune texel`, the Texel
//! fitness of the black-box tuners and `tune bench`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use whetstone::eval::{trace_into, Tracer};

use crate::dataset::{self, LoadOptions};
use crate::model::store::{Compact, TraceStore};

thread_local! {
    /// One reusable tracer per loading thread.
    static TRACER: std::cell::RefCell<Tracer> = std::cell::RefCell::new(Tracer::new(whetstone::eval::baked::idx::COUNT));
}

/// Traced datasets, split into training and validation sets.
pub struct Data {
    pub train: TraceStore,
    pub valid: TraceStore,
}

/// Loads files into one trace store, printing rates and problems.
pub fn load_traces(paths: &[PathBuf], strict: bool, progress: bool) -> Result<TraceStore> {
    let mut compacts = Vec::new();
    for path in paths {
        let start = Instant::now();
        let (items, summary) = dataset::load(path, &LoadOptions { strict, progress }, |pos, result| {
            TRACER.with(|t| {
                let tracer = &mut t.borrow_mut();
                let context = trace_into(pos, tracer);
                Compact::from_tracer(tracer, &context, result)
            })
        })
        .with_context(|| format!("loading {}", path.display()))?;
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "{}: {} positions in {:.2} s ({:.0}/s); {} lines skipped",
            path.display(),
            summary.loaded,
            secs,
            summary.loaded as f64 / secs.max(1e-9),
            summary.skipped
        );
        for problem in summary.problems.iter().take(5) {
            eprintln!("  {problem}");
        }
        compacts.extend(items);
    }
    Ok(TraceStore::from_compacts(&compacts))
}

/// Deterministic hold-out: position i goes to validation when its hash falls below the fraction.
/// (`tune dataset split` splits files by line with its own rule; this one splits a loaded store.)
pub fn split(store: &TraceStore, fraction: f64, seed: u64) -> Data {
    let is_valid = |i: usize| {
        let z = whetstone::types::mix64(
            (i as u64).wrapping_add(seed.wrapping_mul(whetstone::types::GOLDEN_GAMMA)),
        );
        (z as f64 / u64::MAX as f64) < fraction
    };
    Data {
        train: store.subset((0..store.len()).filter(|&i| !is_valid(i))),
        valid: store.subset((0..store.len()).filter(|&i| is_valid(i))),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::tests::random_positions;
    use whetstone::eval::trace;

    pub fn data() -> Data {
        let positions = random_positions(3000, 3);
        let compacts: Vec<Compact> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| Compact::new(&trace(p), [0.0, 0.5, 1.0][i % 3]))
            .collect();
        split(&TraceStore::from_compacts(&compacts), 0.2, 1)
    }

    #[test]
    fn split_is_deterministic_and_partitions() {
        let d = data();
        let again = data();
        assert_eq!(d.train.len() + d.valid.len(), 3000);
        assert!(d.valid.len() > 450 && d.valid.len() < 750, "{}", d.valid.len());
        assert_eq!(d.valid, again.valid);
    }
}
