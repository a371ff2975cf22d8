//! `tune export`: params files into the engine build (the generated Rust modules of the
//! evaluation and of the search) and TOMLs of the same values.

use std::path::PathBuf;

use std::path::Path;

use anyhow::{bail, Context, Result};
use whetstone::config::EngineConfig;

use crate::export::bake::{bake, Bake};
use crate::run::provenance::Provenance;
use crate::verify::{Standing, CLOCK};

/// Options of `tune export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// Evaluation params file to export [default, when neither file is given: the one
    /// engine.toml bakes in].
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Search constants file to export (params/search.toml format) [default, when neither file is
    /// given: the one engine.toml bakes in].
    #[arg(long, value_name = "FILE")]
    pub search_params: Option<PathBuf>,
    /// Repository root (where engine.toml is).
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
    /// Where to write the TOML of the evaluation's values (normalised layout).
    #[arg(long, default_value = "reports/export/eval.toml")]
    pub toml: PathBuf,
    /// Where to write the TOML of the search constants (normalised layout).
    #[arg(long, value_name = "FILE", default_value = "reports/export/search.toml")]
    pub search_toml: PathBuf,
    /// Only write the TOMLs; leave the engine build (modules and engine.toml) alone.
    #[arg(long)]
    pub no_build: bool,
    /// Bake a file whose result did not pass an SPRT at a clock (failed, undecided, only a
    /// screen at fixed nodes, or unverified): without it such a file is refused, named with
    /// what its record says.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &ExportArgs) -> Result<()> {
    if !args.no_build {
        let config = configured(&args.root)?;
        for (given, configured) in [(&args.params, &config.0), (&args.search_params, &config.1)] {
            let Some(path) = given else { continue };
            // The file the build bakes now is what the engine already plays: re-exporting it
            // changes nothing that games have not seen.
            if same_file(path, &args.root.join(configured)) {
                continue;
            }
            let standing = standing_of(path)?;
            if !standing.bakeable() && !args.force {
                bail!("{}", refusal(path, &standing));
            }
            if !standing.bakeable() {
                eprintln!("--force: baking {} although it {}", path.display(), standing.describe());
            }
        }
    }
    bake(&Bake {
        params: args.params.clone(),
        search_params: args.search_params.clone(),
        root: args.root.clone(),
        toml: args.toml.clone(),
        search_toml: args.search_toml.clone(),
        no_build: args.no_build,
    })
}

/// The files engine.toml names now (evaluation, search constants), relative to `root`.
fn configured(root: &Path) -> Result<(String, String)> {
    let path = root.join("engine.toml");
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let config = EngineConfig::parse(&text).with_context(|| format!("parsing {}", path.display()))?;
    Ok((config.build.params, config.build.search_params))
}

fn same_file(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// How a params file's result stands: the verdict in its provenance, else in the result.json of
/// the run folder it sits in, else unverified.
pub fn standing_of(path: &Path) -> Result<Standing> {
    if let Some(verdict) = Provenance::read(path)?.and_then(|p| p.verdict_json()) {
        if let Some(standing) = Standing::from_json(&verdict) {
            return Ok(standing);
        }
    }
    let result = path.parent().unwrap_or(Path::new(".")).join("result.json");
    if let Ok(text) = std::fs::read_to_string(&result) {
        let json: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("reading {}", result.display()))?;
        if let Some(standing) = json.get("verdict").and_then(Standing::from_json) {
            return Ok(standing);
        }
        return Ok(Standing::Unverified(format!("{} holds no verdict", result.display())));
    }
    Ok(Standing::Unverified("no verdict in its [provenance] and no result.json beside it".into()))
}

/// Why `path` is not baked, and what would let it be.
fn refusal(path: &Path, standing: &Standing) -> String {
    let run = path.parent().filter(|p| p.join("result.json").is_file());
    let verify = match run {
        Some(dir) => format!("verify it at a clock with `tune verify {} --verify-tc {CLOCK}`", dir.display()),
        None => format!(
            "play it against the build's values at a clock with `tune match --engine {} --opponent \
             params/eval.toml --tc {CLOCK} --sprt 0 5 0.05 0.05`",
            path.display()
        ),
    };
    format!(
        "refused: {} {}; tune export bakes only results that passed an SPRT at a clock. To bake it: {verify}, \
         or bake it anyway with --force",
        path.display(),
        standing.describe()
    )
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
