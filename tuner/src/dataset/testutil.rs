//! Test helpers: a temporary directory removed on drop, and a scratch repository root to bake into.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("whetstone-dataset-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl TempDir {
    /// The directory itself.
    pub fn dir(&self) -> &std::path::Path {
        &self.0
    }
}

/// A repository root with the shipped engine.toml and params files under `dir`, for baking into.
pub fn scratch_root(dir: &std::path::Path) -> PathBuf {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = dir.join("root");
    std::fs::create_dir_all(root.join("params")).unwrap();
    for file in ["engine.toml", "params/eval.toml", "params/search.toml"] {
        std::fs::copy(repo.join(file), root.join(file)).unwrap();
    }
    root
}
