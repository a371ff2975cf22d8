//! `tune bench`: the tuner's speed on a dataset: load rate, bytes per position, and the time of
//! one full-gradient epoch with one thread and with all threads (ns per non-zero coefficient).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use whetstone::eval::EvalParamSet;

use crate::model::load_traces;
use crate::model::{Kernel, Layout, Model};

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Labelled positions to load (e.g. ../shared/data/texel/tcec-quiet-labeled-1m.epd).
    #[arg(long, default_value = "datasets/tcec-quiet-50k.epd")]
    pub data: PathBuf,
    /// Epochs to time per thread count (the best is reported).
    #[arg(long, default_value_t = 5)]
    pub epochs: usize,
}

pub fn run(args: &BenchArgs) -> Result<()> {
    let set = EvalParamSet::baked().into_set();
    let layout = Layout::new(&set);
    let w: Vec<f64> = set.values().iter().map(|&v| v as f64).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let start = Instant::now();
    let store = one.install(|| load_traces(std::slice::from_ref(&args.data), false, false))?;
    let load = start.elapsed().as_secs_f64();
    // In the order `tune texel` trains on.
    let store = store.grouped_by_length(usize::MAX);
    let n = store.len();
    let coefficients = store.coefficient_count();
    let king = store.king_feature_count();
    println!("positions            {n} ({} distinct coefficient slots)", store.slot_count());
    println!("load (1 thread)      {load:.2} s, {:.0} positions/s", n as f64 / load);
    println!("bytes per position   {:.1}", store.bytes_per_position());
    println!(
        "coefficients/pos     {:.1} (linear {:.1} + king-safety {:.1})",
        coefficients as f64 / n as f64,
        (coefficients - king) as f64 / n as f64,
        king as f64 / n as f64
    );
    let model = Model { layout: &layout, store: &store };
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let best = Kernel::detect();
    if best != Kernel::Portable {
        // The portable kernel too, one thread, for comparison.
        let portable = Kernel::Portable;
        let time =
            one_thread.install(|| best_epoch(args.epochs, || model.loss_and_gradient_on(portable, &w, 1.0)));
        println!(
            "epoch (1 thread, {portable:?} kernel) {:.1} ms, {:.2} ns per coefficient",
            time * 1e3,
            time * 1e9 / coefficients as f64
        );
    }
    for threads in [1, cores] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
        let time = pool.install(|| best_epoch(args.epochs, || model.loss_and_gradient_on(best, &w, 1.0)));
        println!(
            "epoch ({threads} thread{}, {best:?} kernel) {:.1} ms, {:.2} ns per coefficient per thread",
            if threads == 1 { "" } else { "s" },
            time * 1e3,
            time * 1e9 * threads as f64 / coefficients as f64
        );
        if cores == 1 {
            break;
        }
    }
    Ok(())
}

/// The fastest of `epochs` timed runs of `epoch`, in seconds.
fn best_epoch<T>(epochs: usize, epoch: impl Fn() -> T) -> f64 {
    (0..epochs.max(1))
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(epoch());
            t.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}
