//! A seeded shuffle of a file that need not fit in memory: every position goes to a bucket drawn
//! at random (a temporary file), then each bucket, small enough for `--memory`, is shuffled in
//! memory and written out in turn. Every order of the positions is equally likely, and the same
//! input and seed give the same output.

use std::path::Path;

use anyhow::Result;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::stream::{self, PositionWriter, ReadOptions, ReadReport};
use super::bucket::{buckets_for, Buckets};

/// Shuffles `input` into `out`; the positions are counted first so the buckets fit `memory_mb`.
pub fn shuffle(
    input: &Path,
    options: &ReadOptions,
    out: &mut dyn PositionWriter,
    seed: u64,
    memory_mb: usize,
) -> Result<(ReadReport, usize)> {
    let mut count = 0u64;
    stream::read(input, options, &mut |_, _| {
        count += 1;
        Ok(())
    })?;
    let mut buckets = Buckets::new(buckets_for(count, memory_mb))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = buckets.len();
    let mut index = 0u64;
    let report = stream::read(input, options, &mut |pos, label| {
        let bucket = rng.random_range(0..n);
        buckets.push(bucket, index, pos, label)?;
        index += 1;
        Ok(())
    })?;
    for mut bucket in buckets.into_readers()? {
        let mut positions = bucket.all()?;
        positions.shuffle(&mut rng);
        for spilled in positions {
            out.write(&spilled.position()?, spilled.label)?;
        }
    }
    Ok((report, n))
}
