//! The one way the workbench draws progress: an indicatif bar over steps (epochs, generations,
//! iterations) or games, with a message line, elapsed time and ETA; hidden with `--quiet`.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar over `len` units, `{unit} 3/10 [bar] message [elapsed, ETA]`.
fn bar(len: u64, template: &str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}

/// A progress bar over `len` steps named `unit` (epoch, generation, iteration).
pub fn progress_bar(len: u64, unit: &str, quiet: bool) -> ProgressBar {
    bar(len, &format!("{unit} {{pos}}/{{len}} {{bar:25}} {{msg}} [{{elapsed_precise}}, ETA {{eta}}]"), quiet)
}

/// A progress bar over games, with their rate.
pub fn game_bar(games: u64, quiet: bool) -> ProgressBar {
    bar(games, "{pos}/{len} games {bar:25} {per_sec} {msg} [{elapsed_precise}, ETA {eta}]", quiet)
}
