//! Reports: `tune report` and the report every tuning run leaves behind (the parameters as an
//! Excel workbook, `workbook.rs`), a readable summary of a Texel run and its loss curve.

pub mod workbook;

use std::path::Path;

use anyhow::{anyhow, Result};
use plotters::prelude::*;
use whetstone::params::ParamSet;

use crate::texel::EpochLog;

/// The largest changes (by absolute difference), the losses before and after, and K.
pub fn summary(
    before: &ParamSet,
    after: &ParamSet,
    log: &[EpochLog],
    loss_of: impl Fn(&[f64]) -> f64,
    start: &[f64],
    end: &[f64],
) -> String {
    let names = before.value_names();
    let (old, new) = (before.values(), after.values());
    let mut changes: Vec<(usize, i32)> =
        (0..old.len()).map(|i| (i, new[i] - old[i])).filter(|&(_, d)| d != 0).collect();
    changes.sort_by_key(|&(i, d)| (std::cmp::Reverse(d.abs()), i));
    let mut out = String::new();
    if let (Some(first), Some(last)) = (log.first(), log.last()) {
        out.push_str(&format!(
            "K = {:.4}; epochs {}; train loss {:.6} -> {:.6}; validation loss {:.6} -> {:.6}\n",
            first.k, last.epoch, first.train_loss, last.train_loss, first.valid_loss, last.valid_loss
        ));
    }
    out.push_str(&format!(
        "validation loss with rounded values: {:.6} (start {:.6})\n",
        loss_of(end),
        loss_of(start)
    ));
    out.push_str(&format!("{} of {} values changed; the largest changes:\n", changes.len(), old.len()));
    for &(i, d) in changes.iter().take(25) {
        out.push_str(&format!("  {:<40} {:>6} -> {:>6} ({:+})\n", names[i], old[i], new[i], d));
    }
    out
}

/// Train and validation loss by epoch.
pub fn loss_curve(path: &Path, log: &[EpochLog]) -> Result<()> {
    if log.len() < 2 {
        return Ok(());
    }
    let root = BitMapBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let losses = log.iter().flat_map(|e| [e.train_loss, e.valid_loss]).filter(|v| v.is_finite());
    let (lo, hi) = losses.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = (hi - lo).max(1e-9) * 0.05;
    let mut chart = ChartBuilder::on(&root)
        .caption("Texel tuning: mean squared error by epoch", ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..log.last().unwrap().epoch as f64, (lo - pad)..(hi + pad))
        .map_err(|e| anyhow!("{e}"))?;
    chart.configure_mesh().x_desc("epoch").y_desc("loss").draw().map_err(|e| anyhow!("{e}"))?;
    let train = log.iter().map(|e| (e.epoch as f64, e.train_loss));
    chart
        .draw_series(LineSeries::new(train, &BLUE))
        .map_err(|e| anyhow!("{e}"))?
        .label("train")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
    let valid: Vec<(f64, f64)> =
        log.iter().filter(|e| e.valid_loss.is_finite()).map(|e| (e.epoch as f64, e.valid_loss)).collect();
    if !valid.is_empty() {
        chart
            .draw_series(LineSeries::new(valid, &RED))
            .map_err(|e| anyhow!("{e}"))?
            .label("validation")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()
        .map_err(|e| anyhow!("{e}"))?;
    root.present().map_err(|e| anyhow!("{e}"))?;
    Ok(())
}

/// Options of `tune report`.
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// The parameters to show.
    #[arg(long, default_value = "params/eval.toml")]
    pub params: std::path::PathBuf,
    /// Another params file: adds a difference sheet per piece and the baseline's values beside the
    /// other terms.
    #[arg(long)]
    pub baseline: Option<std::path::PathBuf>,
    /// Report folder (created): eval.xlsx.
    #[arg(long, default_value = "reports/eval")]
    pub out: std::path::PathBuf,
}

/// `tune report`: writes the report of a params file.
pub fn run(args: &ReportArgs) -> Result<()> {
    let params = ParamSet::load(&args.params)?;
    let baseline = args.baseline.as_deref().map(ParamSet::load).transpose()?;
    let index = write_report(&params, baseline.as_ref(), None, &args.out)?;
    println!("wrote {}", index.display());
    Ok(())
}

/// Writes the report of `params` (against `baseline`, with the logs of `run_dir`) into `out`;
/// returns the page to open.
pub fn write_report(
    params: &ParamSet,
    baseline: Option<&ParamSet>,
    _run_dir: Option<&Path>,
    out: &Path,
) -> Result<std::path::PathBuf> {
    use anyhow::Context;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let path = out.join("eval.xlsx");
    workbook::write(params, baseline, &path)?;
    Ok(path)
}
