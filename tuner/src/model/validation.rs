//! Which games a fit holds out for validation, file by file.
//!
//! Why: a fit that continues from tuned values on their own data must not validate on the games
//! those values were fitted on. The start fits them already, so it scores as well as anything there
//! and the validation loss says nothing: the loop's teacher cycle read 0.115523 -> 0.115527 that
//! way, and 0.105684 -> 0.105459 on its new games alone (docs/tuning.md, test 59). Games are held
//! out by their number in load order ([`HoldOut`]), so the start's data is loaded first, in the
//! order its provenance records, and its games keep the start's own rule; the other files take
//! the run's. The start's validation games stay unseen by both fits, and the run's validation
//! loss compares the two on games neither was fitted on.

use std::path::{Path, PathBuf};

use crate::dataset::holdout::HoldOut;
use crate::model::store::TraceStore;
use crate::model::traces::Data;
use crate::run::provenance::{HeldOut, Provenance};

/// `tune texel`'s default seed of the split (`--seed`), also read from commands that do not give one.
pub const DEFAULT_SEED: u64 = 1;
/// `tune texel`'s default share of games held out (`--valid-fraction`).
pub const DEFAULT_FRACTION: f64 = 0.1;

/// The hold-out a start's provenance records for its data, segments covering every file; for a
/// file written before it was recorded, read from its `tune texel` command line (`--seed`,
/// `--valid-fraction`, or nothing held out with `--valid`). Empty when it cannot be told.
pub fn recorded_hold_out(provenance: &Provenance) -> Vec<HeldOut> {
    let Some(recipe) = &provenance.recipe else {
        return Vec::new();
    };
    if !recipe.held_out.is_empty() {
        let files: usize = recipe.held_out.iter().map(|h| h.files).sum();
        return if files == recipe.data.len() { recipe.held_out.clone() } else { Vec::new() };
    }
    if provenance.tool != "texel" || recipe.data.is_empty() {
        return Vec::new();
    }
    let Some(words) = shlex::split(&provenance.command) else {
        return Vec::new();
    };
    let value = |option: &str| -> Option<String> {
        let inline = format!("{option}=");
        words.iter().enumerate().find_map(|(i, w)| {
            if w == option {
                words.get(i + 1).cloned()
            } else {
                w.strip_prefix(inline.as_str()).map(str::to_string)
            }
        })
    };
    let seed = match value("--seed") {
        Some(text) => match text.parse() {
            Ok(seed) => seed,
            Err(_) => return Vec::new(),
        },
        None => DEFAULT_SEED,
    };
    let fraction = if value("--valid").is_some() {
        0.0
    } else {
        match value("--valid-fraction") {
            Some(text) => match text.parse() {
                Ok(fraction) => fraction,
                Err(_) => return Vec::new(),
            },
            None => DEFAULT_FRACTION,
        }
    };
    vec![HeldOut { files: recipe.data.len(), seed, fraction }]
}

/// Puts the start's data first in `data`, in the order its provenance records, and returns the
/// start's hold-out of those files; empty, with `data` untouched, when the start records none or
/// some of its files are not in `data`.
pub fn start_first(provenance: Option<&Provenance>, data: &mut Vec<PathBuf>) -> Vec<HeldOut> {
    let Some(provenance) = provenance else {
        return Vec::new();
    };
    let (Some(recipe), held) = (&provenance.recipe, recorded_hold_out(provenance)) else {
        return Vec::new();
    };
    if held.is_empty() {
        return Vec::new();
    }
    let mut rest = data.clone();
    let mut first = Vec::with_capacity(data.len());
    for file in &recipe.data {
        let Some(at) = rest.iter().position(|d| same_file(d, Path::new(file))) else {
            return Vec::new();
        };
        first.push(rest.remove(at));
    }
    first.extend(rest);
    *data = first;
    held
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// The hold-out of a fit's data: segments covering its files in order.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitPlan {
    pub segments: Vec<HeldOut>,
    /// How many leading files keep the start's hold-out.
    pub start_files: usize,
}

impl SplitPlan {
    /// The start's hold-out `start` for the leading files (from [`start_first`]), the run's
    /// `seed` and `fraction` for the other files of `files`.
    pub fn new(start: &[HeldOut], files: usize, seed: u64, fraction: f64) -> SplitPlan {
        let start_files: usize = start.iter().map(|h| h.files).sum();
        let mut segments: Vec<HeldOut> = Vec::new();
        let run = HeldOut { files: files.saturating_sub(start_files), seed, fraction };
        for segment in start.iter().chain(std::iter::once(&run)).filter(|h| h.files > 0) {
            match segments.last_mut() {
                Some(last) if (last.seed, last.fraction) == (segment.seed, segment.fraction) => {
                    last.files += segment.files
                }
                _ => segments.push(*segment),
            }
        }
        SplitPlan { segments, start_files }
    }

    /// Training and validation positions of `store`, whose file i ends with game `ends[i]`.
    pub fn split(&self, store: &TraceStore, ends: &[u64]) -> Data {
        let rules: Vec<HoldOut> = self
            .segments
            .iter()
            .flat_map(|h| std::iter::repeat_n(HoldOut { fraction: h.fraction, seed: h.seed }, h.files))
            .collect();
        let held: Vec<bool> = store
            .game
            .iter()
            .map(|&g| {
                let file = ends.partition_point(|&end| end <= g as u64);
                rules.get(file).is_some_and(|rule| rule.holds_out(g as u64))
            })
            .collect();
        Data {
            train: store.subset((0..store.len()).filter(|&i| !held[i])),
            valid: store.subset((0..store.len()).filter(|&i| held[i])),
        }
    }

    /// One line for the log when the start's hold-out is kept.
    pub fn describe(&self, params: &Path) -> Option<String> {
        (self.start_files > 0).then(|| {
            format!(
                "validation: the games {} held out of its own data (its first {} file(s) here), which its values \
                 were not fitted on, and the run's share of the other files' games",
                params.display(),
                self.start_files
            )
        })
    }
}

#[cfg(test)]
#[path = "validation_tests.rs"]
mod tests;
