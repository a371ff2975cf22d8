//! The streamed dataset tools behind `tune dataset filter|dedupe|shuffle|sample|merge|split`:
//! argument checks, the reading and writing, the report on stdout.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::{ReadArgs, WriteArgs};
use crate::dataset::files::output_format;
use crate::dataset::holdout::{GameCounter, GameMark, HoldOut};
use crate::dataset::split::{same_file, split as split_lines, SplitReport};
use crate::dataset::stream::{self, PositionWriter};
use crate::dataset::tools::filter::{Filter, FilterRules};
use crate::dataset::tools::{dedupe as dd, sample as sm, shuffle as sh};

/// The output writer, refused if it is an input or exists without --force.
fn writer(inputs: &[&Path], output: &Path, write: &WriteArgs) -> Result<Box<dyn PositionWriter>> {
    for input in inputs {
        if same_file(input, output) {
            bail!("the output {} is an input; write to another file", output.display());
        }
    }
    stream::create(output, output_format(output, write.to)?, write.force)
}

pub fn filter(
    input: &Path,
    output: &Path,
    rules: &FilterRules,
    read: &ReadArgs,
    write: &WriteArgs,
) -> Result<()> {
    let (format, options) = read.options(input)?;
    let mut out = writer(&[input], output, write)?;
    let mut filter = Filter::new(rules.clone());
    let report = stream::read_as(input, format, &options, &mut |pos, label| {
        if filter.keep(pos, label) {
            out.write(pos, label)?;
        }
        Ok(())
    })?;
    let written = out.finish()?;
    println!("{}: {report}", input.display());
    println!("{filter}");
    println!("{}: {written}", output.display());
    Ok(())
}

pub fn dedupe(input: &Path, output: &Path, memory: usize, read: &ReadArgs, write: &WriteArgs) -> Result<()> {
    let (_, options) = read.options(input)?;
    let mut out = writer(&[input], output, write)?;
    let (report, result) = dd::dedupe(input, &options, out.as_mut(), memory)?;
    let written = out.finish()?;
    println!("{}: {report}", input.display());
    println!("{} duplicates dropped, {} kept ({} buckets)", result.duplicates, result.kept, result.buckets);
    println!("{}: {written}", output.display());
    Ok(())
}

pub fn shuffle(
    input: &Path,
    output: &Path,
    seed: u64,
    memory: usize,
    read: &ReadArgs,
    write: &WriteArgs,
) -> Result<()> {
    let (_, options) = read.options(input)?;
    let mut out = writer(&[input], output, write)?;
    let (report, buckets) = sh::shuffle(input, &options, out.as_mut(), seed, memory)?;
    let written = out.finish()?;
    println!("{}: {report}", input.display());
    println!("shuffled through {buckets} buckets (seed {seed})");
    println!("{}: {written}", output.display());
    Ok(())
}

pub fn sample(
    input: &Path,
    output: &Path,
    fraction: Option<f64>,
    count: Option<u64>,
    seed: u64,
    read: &ReadArgs,
    write: &WriteArgs,
) -> Result<()> {
    let amount = match (fraction, count) {
        (Some(f), _) => sm::Amount::Fraction(f),
        (None, Some(c)) => sm::Amount::Count(c),
        (None, None) => bail!("give --fraction or --count"),
    };
    let (_, options) = read.options(input)?;
    let mut out = writer(&[input], output, write)?;
    let (report, kept) = sm::sample(input, &options, out.as_mut(), amount, seed)?;
    let written = out.finish()?;
    println!("{}: {report}", input.display());
    println!("sampled {kept} (seed {seed})");
    println!("{}: {written}", output.display());
    Ok(())
}

pub fn merge(inputs: &[PathBuf], output: &Path, read: &ReadArgs, write: &WriteArgs) -> Result<()> {
    let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    // Every input is checked before anything is written.
    let settled = inputs.iter().map(|input| read.options(input)).collect::<Result<Vec<_>>>()?;
    let mut out = writer(&refs, output, write)?;
    for (input, (format, options)) in inputs.iter().zip(settled) {
        let report = stream::read_as(input, format, &options, &mut |pos, label| out.write(pos, label))?;
        println!("{}: {report}", input.display());
    }
    let written = out.finish()?;
    println!("{}: {written}", output.display());
    Ok(())
}

pub fn split(
    input: &Path,
    train: &Path,
    valid: &Path,
    fraction: f64,
    seed: u64,
    read: &ReadArgs,
    write: &WriteArgs,
) -> Result<()> {
    if !(0.0..=1.0).contains(&fraction) {
        bail!("--valid-fraction {fraction} is not between 0 and 1");
    }
    if same_file(train, valid) {
        bail!("--train and --valid are the same file ({})", train.display());
    }
    for out in [train, valid] {
        crate::dataset::files::check_overwrite(out, write.force)?;
    }
    let (format, options) = read.options(input)?;
    let same_text = |out: &Path| output_format(out, write.to).map(|f| f.is_text()).unwrap_or(true);
    if format.is_text() && write.to.is_none() && same_text(train) && same_text(valid) {
        // Text to text: the lines copied byte for byte.
        let SplitReport { lines, train: t, valid: v, other, header } =
            split_lines(input, train, valid, fraction, seed)?;
        let other =
            if other > 0 { format!(", {other} without a position (to training)") } else { String::new() };
        println!(
            "{}: {lines} lines{}{other} -> {} ({t} positions, {:.1}%), {} ({v} positions, {:.1}%)",
            input.display(),
            if header { " (the CSV header copied to both)" } else { "" },
            train.display(),
            100.0 * t as f64 / (t + v).max(1) as f64,
            valid.display(),
            100.0 * v as f64 / (t + v).max(1) as f64,
        );
        return Ok(());
    }
    let rule = HoldOut { fraction, seed };
    let mut outs = [writer(&[input], train, write)?, writer(&[input], valid, write)?];
    // Whole games to one side, as the tuners hold them out.
    let mut games = GameCounter::default();
    let report = stream::read_as(input, format, &options, &mut |pos, label| {
        let game = games.next(GameMark::of(pos, label.outcome));
        outs[usize::from(rule.holds_out(game))].write(pos, label)?;
        Ok(())
    })?;
    let [t, v] = outs;
    let (t, v) = (t.finish()?, v.finish()?);
    println!("{}: {report}", input.display());
    println!("{}: {t}", train.display());
    println!("{}: {v}", valid.display());
    Ok(())
}
