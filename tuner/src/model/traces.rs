//! Labelled positions as traces: every file of a dataset loaded in parallel, each position traced
//! once by the evaluation's tracer into the compact store, and the store split into training and
//! validation positions by the dataset's hold-out rule (`dataset/holdout.rs`). Shared by `tune
//! texel`, the Texel fitness of the black-box tuners and `tune bench`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use whetstone::eval::{trace_into, Tracer};

use crate::dataset::holdout::HoldOut;
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
        let (items, summary) =
            dataset::load_labelled(path, &LoadOptions { strict, progress }, |pos, label| {
                TRACER.with(|t| {
                    let tracer = &mut t.borrow_mut();
                    let context = trace_into(pos, tracer);
                    Compact::from_tracer(tracer, &context, label)
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

/// Splits a store into training and validation positions by the one hold-out rule
/// ([`HoldOut`]: position i, in load order, is held out by a hash of i and the seed), so `tune
/// dataset split` writes the same split of a file as two files.
pub fn split(store: &TraceStore, fraction: f64, seed: u64) -> Data {
    let rule = HoldOut { fraction, seed };
    Data {
        train: store.subset((0..store.len()).filter(|&i| !rule.holds_out(i))),
        valid: store.subset((0..store.len()).filter(|&i| rule.holds_out(i))),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::tests::random_positions;
    use whetstone::eval::trace;

    /// 3,000 random positions with results in turn.
    fn store() -> TraceStore {
        let positions = random_positions(3000, 3);
        let compacts: Vec<Compact> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| Compact::new(&trace(p), [0.0, 0.5, 1.0][i % 3]))
            .collect();
        TraceStore::from_compacts(&compacts)
    }

    pub fn data() -> Data {
        split(&store(), 0.2, 1)
    }

    #[test]
    fn split_partitions_by_the_hold_out_rule() {
        let store = store();
        let d = split(&store, 0.2, 1);
        assert_eq!(d.train.len() + d.valid.len(), 3000);
        assert!(d.valid.len() > 450 && d.valid.len() < 750, "{}", d.valid.len());
        // The held-out positions are the ones the rule names, in order; the rest train.
        let rule = HoldOut { fraction: 0.2, seed: 1 };
        assert_eq!(d.valid, store.subset((0..3000).filter(|&i| rule.holds_out(i))));
        assert_eq!(d.train, store.subset((0..3000).filter(|&i| !rule.holds_out(i))));
        // The same seed the same split; another seed another.
        assert_eq!(split(&store, 0.2, 1).valid, d.valid);
        assert_ne!(split(&store, 0.2, 2).valid, d.valid);
    }
}
