//! What the tests of several modules share: a temporary folder removed on drop ([`TempDir`]), the
//! test files in `tuner/testdata/` ([`testdata`]), a scratch repository root to bake into, a PNG's
//! size ([`png_size`]), and fixtures: positions and datasets (`data.rs`), settings as the command line's defaults give them
//! (`settings.rs`), and game sources and engines to tune against (`games.rs`). A helper only one
//! module's tests use stays in that module's test file.

mod data;
mod games;
mod settings;

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

pub use data::{
    random_positions, random_positions_of_length, random_trace_data, random_trace_store, small_dataset, Rng,
};
pub use games::{fake_engine_spec, judge, knight_book, knob_engine, pair_judge, Judge};
pub use settings::{test_settings, test_tune_settings};

/// Whether an ignored test outside the slow suite runs: a measurement (figures for a person at an
/// idle machine, not a check) runs only with `WHETSTONE_MEASURE=1`, so that
/// `cargo test -p whetstone-tuner -- --ignored`, the slow suite as CI runs it, passes over it and
/// says so.
pub fn measuring(test: &str) -> bool {
    asked_for(test, "WHETSTONE_MEASURE", "a measurement")
}

/// Whether an ignored test that plays real engines from `/usr/games` runs: only with
/// `WHETSTONE_REAL_ENGINES=1`, as the slow suite (and CI) should not depend on what a machine has
/// installed nor on clocks kept by other programs.
pub fn real_engines(test: &str) -> bool {
    asked_for(test, "WHETSTONE_REAL_ENGINES", "plays real engines")
}

fn asked_for(test: &str, variable: &str, what: &str) -> bool {
    let on = std::env::var_os(variable).is_some_and(|v| v == "1");
    if !on {
        eprintln!("{test}: {what}, not run ({variable}=1 runs it)");
    }
    on
}

/// A fresh folder under the system's temporary directory, unique per test (`tag`, the process id
/// and a counter), removed with everything in it when dropped, so a failing test leaves nothing
/// behind. It derefs to its [`Path`], so `dir.join(..)` and `&dir` work where a path does; a test
/// that checks files after a call keeps the `TempDir` alive until its last assertion.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("whetstone-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    /// A fresh folder's path like [`TempDir::new`]'s that is not made yet, for code that must make
    /// it itself (or must not make it); removed on drop if it was made.
    pub fn reserve(tag: &str) -> TempDir {
        let dir = TempDir::new(tag);
        std::fs::remove_dir(&dir.0).expect("an empty temporary directory");
        dir
    }

    /// `name` inside the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The folder itself.
    pub fn dir(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

/// A test file in `tuner/testdata/`.
pub fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(name)
}

/// A file of the repository (the workspace root), such as `params/eval.toml`.
pub fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// A repository root with the shipped engine.toml and params files under `dir`, for baking into.
pub fn scratch_root(dir: &Path) -> PathBuf {
    let root = dir.join("root");
    std::fs::create_dir_all(root.join("params")).unwrap();
    for file in ["engine.toml", "params/eval.toml", "params/search.toml"] {
        std::fs::copy(repo_file(file), root.join(file)).unwrap();
    }
    root
}

/// Checks the PNG signature and returns the width and height from the IHDR chunk.
pub fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{} is not a PNG", path.display());
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}
