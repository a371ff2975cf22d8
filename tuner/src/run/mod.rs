//! The run layer every command that produces a run shares (`tune texel`, `pbil`, `clop`, `spsa`,
//! `match`, `gauntlet`, `datagen`, `report`): the run folder and its files (written through a
//! temporary name, so a kill never leaves half a file), the command line, options and dates in
//! `run.json`, CSV and JSON logs, checkpoints for `--resume`, Ctrl-C, the step loop's end
//! (`steps.rs`), progress bars (`progress.rs`) and the log rows other layers read (`logs.rs`).
//! It knows nothing of chess beyond writing a params file: everything above may use it, it uses
//! nothing above it.

pub mod advice;
mod logs;
mod progress;
pub mod provenance;
mod steps;
pub mod verdict;

pub use logs::EpochLog;
pub use progress::{game_bar, progress_bar};
pub use steps::Steps;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// A run's output folder.
pub struct RunDir {
    dir: PathBuf,
}

impl RunDir {
    /// Creates the folder (and its parents) if needed.
    pub fn create(dir: &Path) -> Result<RunDir> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(RunDir { dir: dir.to_path_buf() })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Writes `name` through a temporary file and a rename.
    pub fn write(&self, name: &str, text: &str) -> Result<()> {
        write_atomically(&self.file(name), text)
    }

    pub fn write_json<T: Serialize + ?Sized>(&self, name: &str, value: &T) -> Result<()> {
        let text = serde_json::to_string_pretty(value).with_context(|| format!("serialising {name}"))?;
        self.write(name, &(text + "\n"))
    }

    /// One CSV row per record, with a header from the field names.
    pub fn write_csv<T: Serialize>(&self, name: &str, rows: &[T]) -> Result<()> {
        let mut csv = csv::Writer::from_writer(Vec::new());
        for row in rows {
            csv.serialize(row).with_context(|| format!("writing {name}"))?;
        }
        let bytes = csv.into_inner().with_context(|| format!("writing {name}"))?;
        self.write(name, &String::from_utf8(bytes).with_context(|| format!("writing {name}"))?)
    }

    /// The run's log as `log.csv` and `log.json` (the whole log each time: logs are small and a
    /// resumed run rewrites exactly what the uninterrupted one would have).
    pub fn write_log<T: Serialize>(&self, rows: &[T]) -> Result<()> {
        self.write_csv("log.csv", rows)?;
        self.write_json("log.json", rows)
    }

    /// Appends a row to `trajectory.csv` (the tuned values at every step: `step`, then one column
    /// per name, for the report's parameter trajectories), with the header when the file is new.
    /// Appending keeps a long run's cost per step constant; `trim_trajectory` repairs the file
    /// on resume.
    pub fn append_trajectory(
        &self,
        step_name: &str,
        names: &[String],
        step: usize,
        values: &[f64],
    ) -> Result<()> {
        use std::io::Write;
        let path = self.file("trajectory.csv");
        let mut csv = csv::Writer::from_writer(Vec::new());
        if !path.exists() {
            csv.write_record(std::iter::once(step_name.to_string()).chain(names.iter().cloned()))
                .context("writing trajectory.csv")?;
        }
        csv.write_record(std::iter::once(step.to_string()).chain(values.iter().map(|v| format_value(*v))))
            .context("writing trajectory.csv")?;
        let bytes = csv.into_inner().context("writing trajectory.csv")?;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        file.write_all(&bytes).with_context(|| format!("writing {}", path.display()))
    }

    /// Keeps the header and the rows up to `step` (a resumed run continues from its checkpoint;
    /// rows written after it, or torn by a kill, go).
    pub fn trim_trajectory(&self, step: usize) -> Result<()> {
        let path = self.file("trajectory.csv");
        let Ok(text) = std::fs::read_to_string(&path) else { return Ok(()) };
        let mut lines = text.lines();
        let mut kept: Vec<&str> = lines.next().into_iter().collect();
        let width = kept.first().map_or(0, |h| h.split(',').count());
        kept.extend(lines.take_while(|l| {
            l.split(',').count() == width
                && l.split(',').next().and_then(|s| s.parse::<usize>().ok()).is_some_and(|s| s <= step)
        }));
        self.write("trajectory.csv", &(kept.join("\n") + "\n"))
    }

    pub fn save_checkpoint<T: Serialize>(&self, state: &T) -> Result<()> {
        self.write("checkpoint.json", &serde_json::to_string(state).context("serialising the checkpoint")?)
    }

    /// The checkpoint `--resume` continues from; a missing or damaged one is a clear error.
    pub fn load_checkpoint<T: DeserializeOwned>(&self) -> Result<T> {
        let path = self.file("checkpoint.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("--resume: reading {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("--resume: {} is damaged", path.display()))
    }

    /// `run.json`: the tool, the command line, the options, when it started (kept from the first
    /// start when resumed) and, once finished, when it ended and what it found.
    pub fn write_meta(
        &self,
        tool: &str,
        options: &impl Serialize,
        resumed: bool,
        results: Option<serde_json::Value>,
    ) -> Result<()> {
        let keep_start = resumed || results.is_some();
        let previous: Option<serde_json::Value> =
            std::fs::read_to_string(self.file("run.json")).ok().and_then(|t| serde_json::from_str(&t).ok());
        let started = previous
            .as_ref()
            .and_then(|p| p.get("started").cloned())
            .filter(|_| keep_start)
            .unwrap_or_else(|| now().into());
        let mut meta = serde_json::json!({
            "tool": tool,
            "command": command_line(),
            "started": started,
            "options": serde_json::to_value(options).context("serialising the options")?,
        });
        if let Some(results) = results {
            meta["finished"] = now().into();
            meta["results"] = results;
        }
        self.write_json("run.json", &meta)
    }
}

impl RunDir {
    /// Adds `key` to a finished run's results: at the top of `result.json` and under `results`
    /// in `run.json` (a verdict reached after the tuner's end, say).
    pub fn add_result(&self, key: &str, value: &serde_json::Value) -> Result<()> {
        for (file, under) in [("result.json", None), ("run.json", Some("results"))] {
            let text = std::fs::read_to_string(self.file(file)).unwrap_or_else(|_| "{}".into());
            let mut doc: serde_json::Value = serde_json::from_str(&text)
                .with_context(|| format!("reading {}", self.file(file).display()))?;
            let target = match under {
                Some(k) => &mut doc[k],
                None => &mut doc,
            };
            if !target.is_object() {
                *target = serde_json::json!({});
            }
            target[key] = value.clone();
            self.write_json(file, &doc)?;
        }
        Ok(())
    }
}

/// Checked before anything is loaded or created: `--resume` needs a run with a checkpoint in `dir`.
pub fn check_resumable(dir: &Path) -> Result<()> {
    let checkpoint = dir.join("checkpoint.json");
    if !checkpoint.is_file() {
        anyhow::bail!("--resume: no checkpoint in {} (no run to resume there)", dir.display());
    }
    Ok(())
}

/// Reads a logged number that JSON wrote as `null` (NaN: a column that does not apply) back
/// as NaN, so checkpoints holding logs round-trip.
pub fn nan_if_null<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<f64, D::Error> {
    Ok(<Option<f64> as serde::Deserialize>::deserialize(d)?.unwrap_or(f64::NAN))
}

/// Writes a file through a temporary name, so a kill never leaves half of it.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension(format!(
        "{}.tmp",
        path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default()
    ));
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))
}

/// Integers without a fraction, others with enough digits to read back.
pub fn format_value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        // 1.9999999 prints as 2.000000: no fraction left, so no point either.
        format!("{v:.6}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The current time as RFC 3339 (UTC, seconds).
pub fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// A fresh flag raised by Ctrl-C: runs stop at the next safe point, write a checkpoint and say
/// how to resume. Each caller gets its own flag (a match runner also raises its flag to end a
/// decided SPRT, which must not stop the next stage), and Ctrl-C raises every flag alive, so a
/// run's later stages (a verification after tuning) stop on it too.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAGS: std::sync::Mutex<Vec<std::sync::Weak<AtomicBool>>> = std::sync::Mutex::new(Vec::new());
    static HANDLER: std::sync::Once = std::sync::Once::new();
    HANDLER.call_once(|| {
        // Without a handler (another library installed one), Ctrl-C ends the process, which
        // loses nothing already written.
        let _ = ctrlc::set_handler(|| {
            let flags = FLAGS.lock().unwrap_or_else(|e| e.into_inner());
            flags.iter().filter_map(std::sync::Weak::upgrade).for_each(|f| f.store(true, Ordering::SeqCst));
        });
    });
    let flag = Arc::new(AtomicBool::new(false));
    let mut flags = FLAGS.lock().unwrap_or_else(|e| e.into_inner());
    flags.retain(|f| f.strong_count() > 0);
    flags.push(Arc::downgrade(&flag));
    flag
}

/// The command line as typed, for the run's records.
pub fn command_line() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
