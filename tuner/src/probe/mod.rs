//! An engine's evaluation as the Texel fit sees it, read through the engine's own binary
//! (docs/trace-protocol.md): by probing its UCI spin options with finite differences over its
//! `eval` command (`eval_probe.rs`, second differences in `linearity.rs`), or by asking its
//! `trace` command for every term's coefficient (`trace_client.rs`). Either way each unit of
//! work runs on an engine process of its own (`session.rs`, over the workbench's UCI driver),
//! results go to a journal in the run folder as they come (`journal.rs`), and the result is a
//! set of columns (the engine's options, `space.rs`) with one row per position for the fit
//! (`fit.rs` for probed rows; a trace gives the Texel model's own `TraceStore`, fitted by
//! `trace_fit.rs` with `tune texel`'s objective). `run.rs` runs either over a dataset. Settings are plain structs (`settings.rs`).

pub mod eval_probe;
pub mod fit;
pub mod journal;
pub mod linearity;
pub mod run;
pub mod session;
pub mod settings;
pub mod space;
pub mod trace_client;
pub mod trace_fit;
pub mod trace_run;

/// The file of the run folder that lists every position left out, one FEN a line.
pub const LEFT_OUT_FILE: &str = "left-out.txt";

/// How many positions left out a note names; the rest are counted (all are in `LEFT_OUT_FILE`).
const LEFT_OUT_NAMED: usize = 3;

/// The note for positions the engine failed on: the first few named, the rest counted, so that
/// a dataset with many such positions gives one readable line.
pub fn left_out_note(left_out: &[String]) -> String {
    let named = left_out.iter().take(LEFT_OUT_NAMED).cloned().collect::<Vec<_>>().join("; ");
    let more = left_out.len().saturating_sub(LEFT_OUT_NAMED);
    let rest = if more > 0 { format!(" and {more} more") } else { String::new() };
    format!(
        "{} positions left out (the engine failed on them; all in {LEFT_OUT_FILE}): {named}{rest}",
        left_out.len()
    )
}

#[cfg(test)]
mod tests;
