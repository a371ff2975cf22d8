//! What a game-playing run leaves in its folder: every game in `games.pgn` (appended as pairs
//! finish, flushed, so a killed run keeps its games), `summary.json`, and the live progress.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use super::pgn_out::{write_game, PgnContext};
use super::runner::PairResult;

/// A run folder's `games.pgn`.
pub struct PgnFile {
    path: PathBuf,
    writer: BufWriter<File>,
    context: PgnContext,
}

impl PgnFile {
    /// Creates `dir` if needed and opens `dir/games.pgn`, truncated or (`append`) continued.
    pub fn open(dir: &Path, context: PgnContext, append: bool) -> Result<PgnFile> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join("games.pgn");
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        Ok(PgnFile { path, writer: BufWriter::new(file), context })
    }

    /// Writes a pair's two games (rounds 2i+1 and 2i+2) and flushes.
    pub fn write_pair(&mut self, pair: &PairResult) -> Result<()> {
        for (g, game) in pair.games.iter().enumerate() {
            let text = write_game(game, &self.context, 2 * pair.index + g + 1, &pair.job.opening);
            self.writer
                .write_all(text.as_bytes())
                .with_context(|| format!("writing {}", self.path.display()))?;
        }
        self.writer.flush().with_context(|| format!("writing {}", self.path.display()))
    }
}

/// Writes `value` as pretty JSON to `path`.
pub fn write_json(path: &Path, value: &serde_json::Value) -> Result<()> {
    let text = serde_json::to_string_pretty(value).context("serialising the summary")?;
    std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))
}

/// A progress bar over games with a message line (hidden with `quiet`).
pub fn game_bar(games: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template(
            "{pos}/{len} games {bar:25} {per_sec} {msg} [{elapsed_precise}, ETA {eta}]",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

pub use crate::run::{command_line, interrupt_flag};
