//! A game-playing run's `games.pgn`: every game appended as its pair finishes and flushed, so a
//! killed run keeps its games. (The run's folder, `run.json`, `summary.json` and progress bar are
//! the run layer's, in `run/`.)

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::play::games::pgn_out::{write_game, PgnContext};
use crate::play::games::runner::PairResult;

/// The games file of a run folder.
pub const GAMES_FILE: &str = "games.pgn";

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
        let path = dir.join(GAMES_FILE);
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

    /// The file's length: what is written, once flushed (after every pair).
    pub fn byte_len(&self) -> Result<u64> {
        let metadata = self.writer.get_ref().metadata();
        Ok(metadata.with_context(|| format!("reading {}", self.path.display()))?.len())
    }
}
