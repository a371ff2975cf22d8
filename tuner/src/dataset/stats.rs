//! Dataset statistics (`tune dataset stats`): positions by result and by game phase, duplicates,
//! problems.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use anyhow::Result;
use whetstone::eval::{phase, MAX_PHASE};

use super::formats::result_index;
use super::load::load;
use super::{LoadOptions, LoadSummary};

/// Game-phase buckets: phase 0-4, 5-9, 10-14, 15-19, 20-24 (24 = all pieces, 0 = pawns and kings).
pub const PHASE_BUCKETS: usize = 5;

/// The bucket of a phase (0..=24).
pub fn phase_bucket(phase: i32) -> usize {
    (phase.clamp(0, MAX_PHASE) as usize * PHASE_BUCKETS) / (MAX_PHASE as usize + 1)
}

/// The phases a bucket holds, as text ("0-4").
pub fn bucket_label(bucket: usize) -> String {
    let width = (MAX_PHASE as usize + 1) / PHASE_BUCKETS;
    format!("{}-{}", bucket * width, bucket * width + width - 1)
}

/// Statistics of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub file: String,
    pub summary: LoadSummary,
    /// Positions by phase bucket and result (losses, draws, wins; White's view).
    pub by_phase: [[usize; 3]; PHASE_BUCKETS],
    /// Positions whose Zobrist key equals an earlier position's.
    pub duplicates: usize,
    /// Positions with White to move.
    pub white_to_move: usize,
}

/// Loads `path` and counts.
pub fn stats(path: &Path, options: &LoadOptions) -> Result<Stats> {
    let (values, summary) = load(path, options, |pos, outcome| {
        let phase = phase_bucket(phase(pos)) as u8;
        let white = pos.side_to_move() == whetstone::Color::White;
        (pos.key(), phase, result_index(outcome) as u8, white)
    })?;
    let mut stats = Stats { file: path.display().to_string(), summary, ..Stats::default() };
    let mut keys = HashSet::with_capacity(values.len());
    for (key, phase, result, white) in values {
        stats.by_phase[phase as usize][result as usize] += 1;
        stats.duplicates += usize::from(!keys.insert(key));
        stats.white_to_move += usize::from(white);
    }
    Ok(stats)
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        let n = s.loaded;
        writeln!(f, "{}: {n} positions from {} {}", self.file, s.lines, s.unit())?;
        let [losses, draws, wins] = s.by_result;
        writeln!(f, "  results (White's view):")?;
        for (name, count) in [("1-0", wins), ("1/2-1/2", draws), ("0-1", losses)] {
            writeln!(f, "    {name:<8} {count:>10}  {:5.1}%", percent(count, n))?;
        }
        let score = percent(2 * wins + draws, 2 * n);
        writeln!(f, "    White's score {score:.1}%")?;
        writeln!(f, "  game phase (24 = all pieces, 0 = pawns and kings):")?;
        writeln!(
            f,
            "    {:<8} {:>10}  {:>6}  {:>6} {:>6} {:>6}",
            "phase", "positions", "share", "1-0", "draw", "0-1"
        )?;
        for (bucket, [l, d, w]) in self.by_phase.iter().copied().enumerate() {
            let count = l + d + w;
            writeln!(
                f,
                "    {:<8} {count:>10}  {:5.1}%  {:5.1}% {:5.1}% {:5.1}%",
                bucket_label(bucket),
                percent(count, n),
                percent(w, count),
                percent(d, count),
                percent(l, count)
            )?;
        }
        writeln!(f, "  White to move: {} ({:.1}%)", self.white_to_move, percent(self.white_to_move, n))?;
        writeln!(f, "  duplicate positions (same Zobrist key as an earlier line): {}", self.duplicates)?;
        write!(f, "  broken lines skipped: {}", s.skipped)?;
        for problem in &s.problems {
            write!(f, "\n    {problem}")?;
        }
        if s.skipped > s.problems.len() {
            write!(f, "\n    ... and {} more", s.skipped - s.problems.len())?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;
