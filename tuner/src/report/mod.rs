//! Reports: `tune report` and the report every tuning run leaves behind: the parameters as an
//! Excel workbook (`workbook.rs`), PNG heat maps and curves, plots of the run's logs
//! (`images.rs`), and an offline `index.html` showing all of it (`html.rs`); also a readable
//! summary of a Texel run and its loss curve.

pub mod html;
pub mod images;
pub mod workbook;

use std::path::Path;

use anyhow::{anyhow, Result};
use plotters::prelude::*;
use whetstone::params::ParamSet;

use crate::run::EpochLog;

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

/// Writes the report of `params` (against `baseline`, with the logs of `run_dir`) into `out` and
/// returns its `index.html`. Without a usable font the images are left out (with a warning) and
/// the page and workbook are still written.
pub fn write_report(
    params: &ParamSet,
    baseline: Option<&ParamSet>,
    run_dir: Option<&Path>,
    out: &Path,
) -> Result<std::path::PathBuf> {
    use anyhow::Context;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    workbook::write(params, baseline, &out.join("eval.xlsx"))?;
    let mut notes = Vec::new();
    let (mut tables, mut run_images) = (Vec::new(), Vec::new());
    match images::check_font() {
        Ok(()) => {
            tables.extend(images::heat_maps(params, baseline, out)?);
            tables.extend(images::curves(params, baseline, out)?);
            if let Some(dir) = run_dir {
                run_images = images::log_plots(dir, out)?;
            }
        }
        Err(e) => {
            eprintln!("report: images left out: {e:#}");
            notes.push(format!("Images left out: {e:#}"));
        }
    }
    let mut sections = Vec::new();
    if let Some(dir) = run_dir {
        sections.extend(html::run_sections(dir, &run_images)?);
    }
    sections.extend(html::param_sections(params, baseline, &tables));
    let mut first = vec![html::Block::Text(
        "The parameters as an Excel workbook (boards with colour scales, material-normalised and mirrored tables, Rust arrays): eval.xlsx".to_string(),
    )];
    first.extend(notes.into_iter().map(html::Block::Text));
    sections.insert(0, html::Section { title: "Files".to_string(), body: first });
    let page = html::Page {
        title: match run_dir {
            Some(dir) => format!("Whetstone tuning run {}", dir.display()),
            None => "Whetstone evaluation parameters".to_string(),
        },
        metadata: vec![
            ("written".to_string(), crate::run::now()),
            ("values".to_string(), params.value_count().to_string()),
            ("baseline".to_string(), if baseline.is_some() { "yes" } else { "none" }.to_string()),
        ],
        sections,
    };
    html::write_index(out, &page)
}
