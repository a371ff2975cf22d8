//! `tune export`: params files into the engine build (the generated Rust modules of the
//! evaluation and of the search) and TOMLs of the same values.

use std::path::PathBuf;

use anyhow::Result;

use crate::export::bake::{bake, Bake};

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
}

pub fn run(args: &ExportArgs) -> Result<()> {
    bake(&Bake {
        params: args.params.clone(),
        search_params: args.search_params.clone(),
        root: args.root.clone(),
        toml: args.toml.clone(),
        search_toml: args.search_toml.clone(),
        no_build: args.no_build,
    })
}
