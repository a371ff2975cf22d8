//! `tune report`: the report of a params file (and of a tuning run's folder): an offline
//! `index.html` with PNG heat maps and curves, and the Excel workbook.

use anyhow::Result;
use whetstone::params::ParamSet;

use crate::report;
use crate::run::RunDir;

/// Options of `tune report`.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct ReportArgs {
    /// The parameters to show.
    #[arg(long, default_value = "params/eval.toml")]
    pub params: std::path::PathBuf,
    /// Another params file: difference sheets and heat maps per piece, the baseline's values
    /// beside the other terms and under the curves.
    #[arg(long)]
    pub baseline: Option<std::path::PathBuf>,
    /// A tuning run's folder (`tune texel`, `pbil`, `clop`, `spsa` --out): its command, dates and
    /// results, and plots of its log.csv (loss, fitness, Elo) and trajectory.csv.
    #[arg(long, value_name = "RUN_DIR")]
    pub log: Option<std::path::PathBuf>,
    /// Report folder (created): index.html, eval.xlsx, the PNG images.
    #[arg(long, default_value = "reports/eval")]
    pub out: std::path::PathBuf,
}

/// `tune report`: writes the report of a params file, with `run.json` in its folder.
pub fn run(args: &ReportArgs) -> Result<()> {
    let params = ParamSet::load(&args.params)?;
    let baseline = args.baseline.as_deref().map(ParamSet::load).transpose()?;
    if let Some(dir) = &args.log {
        if !dir.is_dir() {
            anyhow::bail!("--log {}: not a folder", dir.display());
        }
    }
    let started = std::time::Instant::now();
    let run = RunDir::create(&args.out)?;
    run.write_meta("report", args, false, None)?;
    let labels = report::Labels {
        params: Some(args.params.display().to_string()),
        baseline: args.baseline.as_ref().map(|b| b.display().to_string()),
    };
    let index =
        report::write_report_labelled(&params, baseline.as_ref(), args.log.as_deref(), &args.out, &labels)?;
    let seconds = started.elapsed().as_secs_f64();
    run.write_meta("report", args, false, Some(serde_json::json!({ "index": index, "seconds": seconds })))?;
    println!("wrote {} ({:.0} ms)", index.display(), seconds * 1e3);
    Ok(())
}
