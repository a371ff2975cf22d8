//! A probe's or a trace run's results as they come (`probe.jsonl` / `trace.jsonl` in the run
//! folder): a first line with what defines the run, then one line per finished unit of work
//! (a setting and a chunk of positions), appended and flushed at once. A killed run loses at most
//! the units under way and a torn last line; run again with the same folder, it reads what is
//! there and does only the rest.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// One unit's answers, in its positions' order (`None`: given up on).
#[derive(Serialize, Deserialize)]
struct Entry<T> {
    setting: usize,
    chunk: usize,
    answers: Vec<Option<T>>,
}

/// An open journal.
pub struct Journal {
    path: PathBuf,
    file: File,
}

/// What an earlier run left, by (setting, chunk).
pub type Done<T> = HashMap<(usize, usize), Vec<Option<T>>>;

impl Journal {
    /// Opens `path`, continuing it when its first line is `identity` (a JSON value naming the
    /// engine, settings and dataset), starting it when it does not exist. A journal of another
    /// run is an error: its results would be mixed with these.
    pub fn open<T: DeserializeOwned>(
        path: &Path,
        identity: &serde_json::Value,
    ) -> Result<(Journal, Done<T>)> {
        let mut done = Done::new();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        // A kill while writing leaves a torn last line: it is dropped (that unit is done again).
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let mut lines = text[..whole].lines();
        match lines.next() {
            None => {}
            Some(first) => {
                let found: serde_json::Value = serde_json::from_str(first)
                    .with_context(|| format!("{}:1: not a journal's first line", path.display()))?;
                if &found != identity {
                    bail!(
                        "{} belongs to another run (it was made with {found}, this run is {identity}); remove it \
                         or use another run folder",
                        path.display()
                    );
                }
            }
        }
        for (n, line) in lines.enumerate() {
            let entry: Entry<T> = serde_json::from_str(line)
                .with_context(|| format!("{}:{}: broken entry", path.display(), n + 2))?;
            done.insert((entry.setting, entry.chunk), entry.answers);
        }
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(false)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        file.set_len(whole as u64).with_context(|| format!("cutting the torn end of {}", path.display()))?;
        let mut journal = Journal { path: path.to_path_buf(), file };
        use std::io::Seek;
        journal.file.seek(std::io::SeekFrom::End(0))?;
        if whole == 0 {
            journal.write_line(&identity.to_string())?;
        }
        Ok((journal, done))
    }

    /// Appends a finished unit and flushes it to the file.
    pub fn record<T: Serialize>(
        &mut self,
        setting: usize,
        chunk: usize,
        answers: &[Option<T>],
    ) -> Result<()> {
        #[derive(Serialize)]
        struct EntryRef<'a, T> {
            setting: usize,
            chunk: usize,
            answers: &'a [Option<T>],
        }
        let line = serde_json::to_string(&EntryRef { setting, chunk, answers })?;
        self.write_line(&line)
    }

    fn write_line(&mut self, line: &str) -> Result<()> {
        // One write per line, so a kill tears at most the last one.
        self.file
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.file.flush())
            .with_context(|| format!("writing {}", self.path.display()))
    }
}

#[cfg(test)]
#[path = "journal_tests.rs"]
mod tests;
