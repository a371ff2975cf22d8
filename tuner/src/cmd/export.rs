//! `tune export`: a params file into the engine build (the generated Rust module) and a TOML of
//! the same values.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use whetstone::config::EngineConfig;
use whetstone::params::{to_rust_module, ParamSet};

/// Options of `tune export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// Params file to export (default: the one engine.toml bakes in).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Repository root (where engine.toml is).
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
    /// Where to write the TOML of the same values (normalised layout).
    #[arg(long, default_value = "reports/export/eval.toml")]
    pub toml: PathBuf,
    /// Only write the TOML; leave the engine build (module and engine.toml) alone.
    #[arg(long)]
    pub no_build: bool,
}

pub fn run(args: &ExportArgs) -> Result<()> {
    let config_path = args.root.join("engine.toml");
    let config_text = std::fs::read_to_string(&config_path)
        .with_context(|| format!("reading {}", config_path.display()))?;
    let config =
        EngineConfig::parse(&config_text).with_context(|| format!("parsing {}", config_path.display()))?;
    let params_rel = match &args.params {
        Some(p) => relative_to(&args.root, p),
        None => PathBuf::from(&config.build.params),
    };
    let params_path = args.root.join(&params_rel);
    let set = ParamSet::load(&params_path)?;
    let baked = ParamSet::baked();
    if !set.terms.is_empty() && !baked.terms.is_empty() {
        // A file for this engine must have the terms the evaluation code reads, as it reads them.
        // Terms the build does not know yet are how the evaluation grows: exporting them gives
        // them index constants for the code that will read them.
        let (known, new): (Vec<_>, Vec<_>) =
            set.terms.iter().cloned().partition(|t| baked.term(&t.name).is_some());
        ParamSet { terms: known }.check_layout(&baked, &params_path.display().to_string())?;
        if !new.is_empty() && !args.no_build {
            let names: Vec<&str> = new.iter().map(|t| t.name.as_str()).collect();
            println!("new terms (not read by the evaluation yet): {}", names.join(", "));
        }
    }
    write(&args.root.join(&args.toml), &set.to_toml())?;
    println!("wrote {} ({} terms, {} values)", args.toml.display(), set.terms.len(), set.value_count());
    if !args.no_build {
        let module = args.root.join(&config.build.module);
        write(&module, &to_rust_module(&set, &params_rel.display().to_string()))?;
        println!("wrote {}", module.display());
        if params_rel.to_string_lossy() != config.build.params {
            let mut doc: toml_edit::DocumentMut = config_text.parse()?;
            doc["build"]["params"] = toml_edit::value(params_rel.display().to_string());
            write(&config_path, &doc.to_string())?;
            println!("engine.toml now bakes in {}", params_rel.display());
        }
        println!("rebuild the engine (cargo build --release) to use these values");
    }
    Ok(())
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
