//! Duplicates removed, the first of each position kept, in file order, in bounded memory: the
//! positions are spread over buckets by their Zobrist key (so equal positions share a bucket),
//! each bucket is deduplicated in memory keeping the earliest, and the survivors of all buckets
//! are merged back by their place in the input.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::path::Path;

use anyhow::Result;

use super::super::stream::{self, PositionWriter, ReadOptions, ReadReport};
use super::bucket::{buckets_for, BucketReader, Buckets};

/// What deduplication did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DedupeReport {
    pub kept: u64,
    pub duplicates: u64,
    pub buckets: usize,
}

/// Positions are the same when their Zobrist keys are (board, side, castling, en passant); the
/// move counters and labels of later copies are dropped with them.
pub fn dedupe(
    input: &Path,
    options: &ReadOptions,
    out: &mut dyn PositionWriter,
    memory_mb: usize,
) -> Result<(ReadReport, DedupeReport)> {
    let mut count = 0u64;
    stream::read(input, options, &mut |_, _| {
        count += 1;
        Ok(())
    })?;
    let mut buckets = Buckets::new(buckets_for(count, memory_mb))?;
    let n = buckets.len() as u64;
    let mut index = 0u64;
    let report = stream::read(input, options, &mut |pos, label| {
        // The key's high bits pick the bucket; Zobrist keys are uniform.
        buckets.push(((pos.key() >> 32) % n) as usize, index, pos, label)?;
        index += 1;
        Ok(())
    })?;
    // Each bucket deduplicated to a second set of files, still in input order within a bucket.
    let mut survivors = Buckets::new(buckets.len())?;
    let mut result = DedupeReport { buckets: buckets.len(), ..DedupeReport::default() };
    for (b, mut bucket) in buckets.into_readers()?.into_iter().enumerate() {
        let positions = bucket.all()?;
        let mut first: HashMap<u64, u64> = HashMap::with_capacity(positions.len());
        let keyed: Vec<(u64, _)> =
            positions.into_iter().map(|s| Ok((s.position()?.key(), s))).collect::<Result<_>>()?;
        for (key, s) in &keyed {
            first.entry(*key).or_insert(s.index);
        }
        for (key, s) in keyed {
            if first[&key] == s.index {
                survivors.push(b, s.index, &s.position()?, s.label)?;
            } else {
                result.duplicates += 1;
            }
        }
    }
    // Merge the buckets by input index.
    let mut readers: Vec<BucketReader> = survivors.into_readers()?;
    let mut heap = BinaryHeap::new();
    let mut heads = Vec::with_capacity(readers.len());
    for (b, reader) in readers.iter_mut().enumerate() {
        let head = reader.next_spilled()?;
        if let Some(s) = &head {
            heap.push(Reverse((s.index, b)));
        }
        heads.push(head);
    }
    while let Some(Reverse((_, b))) = heap.pop() {
        let s = heads[b].take().expect("a bucket in the heap has a head");
        out.write(&s.position()?, s.label)?;
        result.kept += 1;
        heads[b] = readers[b].next_spilled()?;
        if let Some(next) = &heads[b] {
            heap.push(Reverse((next.index, b)));
        }
    }
    Ok((report, result))
}
