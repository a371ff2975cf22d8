//! A seeded sample of the positions, in file order: a share (each position kept when a hash of
//! its index and the seed falls below it, one pass) or an exact count (the positions counted,
//! then that many indices drawn without replacement; memory is the drawn indices).

use std::collections::HashSet;
use std::path::Path;

use anyhow::{bail, Result};
use rand::seq::index::sample as draw;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::super::holdout::HoldOut;
use super::super::stream::{self, PositionWriter, ReadOptions, ReadReport};

/// How many to keep.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Amount {
    Fraction(f64),
    Count(u64),
}

/// Writes the sample of `input` to `out`; returns how many were kept.
pub fn sample(
    input: &Path,
    options: &ReadOptions,
    out: &mut dyn PositionWriter,
    amount: Amount,
    seed: u64,
) -> Result<(ReadReport, u64)> {
    let mut kept = 0u64;
    let mut index = 0usize;
    let report = match amount {
        Amount::Fraction(fraction) => {
            if !(0.0..=1.0).contains(&fraction) {
                bail!("--fraction {fraction} is not between 0 and 1");
            }
            // The hold-out rule's hash over positions (not games): a deterministic share.
            let rule = HoldOut { fraction, seed };
            stream::read(input, options, &mut |pos, label| {
                if rule.holds_out(index as u64) {
                    out.write(pos, label)?;
                    kept += 1;
                }
                index += 1;
                Ok(())
            })?
        }
        Amount::Count(count) => {
            let mut total = 0usize;
            stream::read(input, options, &mut |_, _| {
                total += 1;
                Ok(())
            })?;
            let count = (count as usize).min(total);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let chosen: HashSet<usize> = draw(&mut rng, total, count).into_iter().collect();
            stream::read(input, options, &mut |pos, label| {
                if chosen.contains(&index) {
                    out.write(pos, label)?;
                    kept += 1;
                }
                index += 1;
                Ok(())
            })?
        }
    };
    Ok((report, kept))
}
