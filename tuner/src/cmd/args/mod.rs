//! The options commands share, as clap parses them, and what each resolves to in the library:
//! `play.rs` (games: limits, openings, adjudication, threads; the engine under test) gives
//! [`MatchSettings`](crate::play::runs::settings::MatchSettings), `tune.rs` (the black-box tuners')
//! gives [`TuneSettings`](crate::fitness::setup::TuneSettings), `recipe.rs` (a Texel fit's data
//! and objective) gives [`RecipeChoice`](crate::model::recipe::RecipeChoice), `verify.rs` (the
//! verification SPRT) gives [`VerifySettings`](crate::verify::VerifySettings), `engine_eval.rs`
//! (`tune texel --engine`) gives the probe's and the trace's settings; `choices.rs`
//! parses the library's enums. Nothing below `cmd/` sees a clap type.

pub mod choices;
pub mod engine_eval;
pub mod play;
pub mod recipe;
pub mod tune;
pub mod verify;

use anyhow::Result;

/// A clap argument group from a command line of its options alone (no program name), as the
/// subcommand that owns the group would parse it: `tune auto` runs its stages through the same
/// options a user types, so a stage's recorded command line reruns it by hand.
pub fn parse_args<T: clap::Args>(words: &[String]) -> Result<T> {
    #[derive(clap::Parser)]
    struct Line<T: clap::Args> {
        #[command(flatten)]
        args: T,
    }
    let argv = std::iter::once("tune".to_string()).chain(words.iter().cloned());
    <Line<T> as clap::Parser>::try_parse_from(argv)
        .map(|line| line.args)
        .map_err(|e| anyhow::anyhow!("{}: {e}", words.join(" ")))
}

/// A clap argument group as a command line that sets none of its options leaves it (its
/// defaults), for code that needs one without a command line of its own.
pub fn clap_defaults<T: clap::Args>() -> T {
    parse_args(&[]).expect("an argument group's defaults parse")
}

/// A tuner's arguments for a test: `--params params/eval.toml --out OUT --quiet`, then `extra`.
#[cfg(test)]
pub fn tuner_args<T: clap::Args>(out: &std::path::Path, extra: &[&str]) -> T {
    let params = crate::testutil::repo_file("params/eval.toml");
    let mut words = vec!["--params".to_string(), params.display().to_string()];
    words.extend(["--out".into(), out.display().to_string(), "--quiet".into()]);
    words.extend(extra.iter().map(|s| s.to_string()));
    parse_args(&words).unwrap_or_else(|e| panic!("{e:#}"))
}

#[cfg(test)]
mod tests;
