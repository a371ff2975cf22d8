//! Baking params files into the engine build: the generated Rust modules of the evaluation
//! (`src/eval/baked.rs`) and of the search (`src/search/baked.rs`), the file `engine.toml`
//! records for each, and a normalised TOML of the same values. `tune export` is this with its
//! options; a verified tuning run's `--bake` is this with the run's tuned files.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use whetstone::config::EngineConfig;
use whetstone::eval::EvalLayout;
use whetstone::params::{to_rust_module, CheckedSet, Layout, ParamSet};
use whetstone::search::SearchLayout;

use crate::run::provenance::Provenance;

/// What to bake, and where.
#[derive(Clone, Debug)]
pub struct Bake {
    /// Evaluation params file [None with `search_params` None: the one engine.toml names].
    pub params: Option<PathBuf>,
    /// Search constants file [None with `params` None: the one engine.toml names].
    pub search_params: Option<PathBuf>,
    /// Repository root (where engine.toml is).
    pub root: PathBuf,
    /// Where to write the TOML of the evaluation's values (normalised layout).
    pub toml: PathBuf,
    /// Where to write the TOML of the search constants (normalised layout).
    pub search_toml: PathBuf,
    /// Only write the TOMLs; leave the engine build (modules and engine.toml) alone.
    pub no_build: bool,
}

/// One set the build bakes in: where its file comes from and where its outputs go.
struct Target<'a> {
    /// The params file, relative to the root when it lies below it.
    params: PathBuf,
    /// engine.toml's `[build]` key naming the file, and the file it names now.
    config_key: &'static str,
    configured: &'a str,
    /// The generated module (relative to the root).
    module: &'a str,
    /// The normalised TOML (relative to the root).
    toml: &'a Path,
}

/// Bakes the chosen files (see [`Bake`]).
pub fn bake(args: &Bake) -> Result<()> {
    let config_path = args.root.join("engine.toml");
    let config_text = std::fs::read_to_string(&config_path)
        .with_context(|| format!("reading {}", config_path.display()))?;
    let config =
        EngineConfig::parse(&config_text).with_context(|| format!("parsing {}", config_path.display()))?;
    // With neither file named, both sets are regenerated from the files engine.toml names.
    let neither = args.params.is_none() && args.search_params.is_none();
    let chosen = |given: &Option<PathBuf>, configured: &str| match given {
        Some(p) => Some(relative_to(&args.root, p)),
        None => neither.then(|| PathBuf::from(configured)),
    };
    let mut config_doc: toml_edit::DocumentMut = config_text.parse()?;
    let mut config_changed = false;
    if let Some(params) = chosen(&args.params, &config.build.params) {
        let params = into_repository(args, params, &config.build.params)?;
        let target = Target {
            params,
            config_key: "params",
            configured: &config.build.params,
            module: &config.build.module,
            toml: &args.toml,
        };
        config_changed |= export::<EvalLayout>(args, &target, &mut config_doc)?;
    }
    if let Some(params) = chosen(&args.search_params, &config.build.search_params) {
        let params = into_repository(args, params, &config.build.search_params)?;
        let target = Target {
            params,
            config_key: "search_params",
            configured: &config.build.search_params,
            module: &config.build.search_module,
            toml: &args.search_toml,
        };
        config_changed |= export::<SearchLayout>(args, &target, &mut config_doc)?;
    }
    if config_changed {
        write(&config_path, &config_doc.to_string())?;
    }
    if !args.no_build {
        println!("rebuild the engine (cargo build --release) to use these values");
    }
    Ok(())
}

/// Exports one set: its TOML and, unless --no-build, its module, recording the file in
/// `config_doc` when it is not the one engine.toml names. Returns whether `config_doc` changed.
fn export<L: Layout>(args: &Bake, target: &Target, config_doc: &mut toml_edit::DocumentMut) -> Result<bool> {
    let params_path = args.root.join(&target.params);
    let mut set = ParamSet::load(&params_path)?;
    if !set.terms.is_empty() && !L::baked().terms.is_empty() {
        // A file for this engine must have the terms the engine's code reads, as it reads them.
        // Terms the build does not know yet are how the engine grows: exporting them gives them
        // index constants for the code that will read them.
        let new = CheckedSet::<L>::check_known_terms(&mut set, &params_path.display().to_string())?;
        if !new.is_empty() && !args.no_build {
            println!("new terms (not read by {} yet): {}", L::READER.name, new.join(", "));
        }
    }
    // The normalised file keeps what the file says of how it was tuned.
    let text = match Provenance::read(&params_path)? {
        Some(provenance) => provenance.append_to(&set.to_toml())?,
        None => set.to_toml(),
    };
    write(&args.root.join(target.toml), &text)?;
    println!("wrote {} ({} terms, {} values)", target.toml.display(), set.terms.len(), set.value_count());
    if args.no_build {
        return Ok(false);
    }
    let module = args.root.join(target.module);
    write(&module, &to_rust_module(&set, &target.params.display().to_string(), L::MODULE)?)?;
    println!("wrote {}", module.display());
    if target.params.to_string_lossy() == target.configured {
        return Ok(false);
    }
    config_doc["build"][target.config_key] = toml_edit::value(target.params.display().to_string());
    println!("engine.toml now bakes in {}", target.params.display());
    Ok(true)
}

/// The file the build is to bake, inside the repository: a file outside it (a run folder in
/// /tmp or on another disk) is copied over the file engine.toml names, with what it records of
/// how it was tuned, because engine.toml and the module must name a file every clone has.
fn into_repository(args: &Bake, params: PathBuf, configured: &str) -> Result<PathBuf> {
    let outside = params.is_absolute() || params.components().any(|c| c == std::path::Component::ParentDir);
    if !outside || args.no_build {
        return Ok(params);
    }
    let text = std::fs::read_to_string(&params).with_context(|| format!("reading {}", params.display()))?;
    write(&args.root.join(configured), &text)?;
    println!("copied {} to {configured} (engine.toml names files inside the repository)", params.display());
    Ok(PathBuf::from(configured))
}

/// Writes through a temporary name (the run layer's rule), so a kill never leaves half of the
/// engine's baked module or engine.toml.
fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    crate::run::write_atomically(path, text)
}

/// `p` relative to `root` when it lies below it (so engine.toml stays portable).
fn relative_to(root: &Path, p: &Path) -> PathBuf {
    let abs = |x: &Path| std::fs::canonicalize(x).unwrap_or_else(|_| x.to_path_buf());
    abs(p).strip_prefix(abs(root)).map(Path::to_path_buf).unwrap_or_else(|_| p.to_path_buf())
}

#[cfg(test)]
#[path = "bake_tests.rs"]
mod tests;
