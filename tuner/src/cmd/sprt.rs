//! `tune sprt`: what an SPRT will cost before it is played. For each true Elo difference, the
//! chance that the test passes and the games it takes on average (Wald's approximations,
//! `play/games/sprt_outlook.rs`), at the spread of a match's pair counts: how to choose bounds
//! that a machine can afford for the gains a change can bring.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use super::args::play::ModelArg;
use crate::play::games::sprt_outlook::{outlook, outlook_within, pair_spread};
use crate::play::games::stats::{EloModel, Pentanomial, Sprt};

/// Test 57's pairs at 3 s + 0.03 s (reports/tests.md): this engine against a version of itself
/// at the clock its SPRTs use.
const DEFAULT_PROFILE: [u64; 5] = [105, 562, 947, 616, 160];

/// The pass chance and expected games of an SPRT, by true Elo difference.
///
/// The spread of the results comes from a match's pair counts (--pentanomial, or the
/// summary.json of a `tune match` run folder with --from); by default, this engine against a
/// version of itself at 3 s + 0.03 s (test 57's 2,390 pairs). Figures are Wald's approximations:
/// real tests overshoot their bounds a little, so they pass slightly less often at the bounds and
/// run slightly longer. With --max-games, the chance of ending undecided at that cap too (the
/// LLR's distribution carried forward on a grid).
#[derive(clap::Args, Debug)]
pub struct SprtArgs {
    /// The SPRT's bounds: H0 elo0, H1 elo1.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], default_values_t = [0.0, 5.0], allow_negative_numbers = true)]
    pub bounds: Vec<f64>,
    /// False-positive and false-negative rates (alpha = beta).
    #[arg(long, default_value_t = 0.05)]
    pub error: f64,
    /// What the bounds mean: normalised Elo (as the tuners verify) or logistic Elo.
    #[arg(long, value_enum, default_value = "normalized")]
    pub elo_model: ModelArg,
    /// The pair counts whose spread the test will see: LL, LD, WL+DD, WD, WW.
    #[arg(long, num_args = 5, value_names = ["LL", "LD", "DD", "WD", "WW"], conflicts_with = "from")]
    pub pentanomial: Option<Vec<u64>>,
    /// A `tune match` run folder whose summary.json gives the pair counts.
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// True differences to show, logistic Elo.
    #[arg(long, num_args = 1.., allow_negative_numbers = true,
          default_values_t = [-5.0, -2.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 10.0, 15.0, 20.0])]
    pub elo: Vec<f64>,
    /// Games a minute on the machine at that clock: adds the hours each test takes.
    #[arg(long)]
    pub games_per_minute: Option<f64>,
    /// The test's cap on games (as --verify-games or a match's --games): adds the chance of
    /// reaching it undecided.
    #[arg(long)]
    pub max_games: Option<u64>,
}

pub fn run(args: &SprtArgs) -> Result<()> {
    let model: EloModel = args.elo_model.into();
    let sprt = Sprt::new(args.bounds[0], args.bounds[1], args.error, args.error, model)
        .map_err(|e| anyhow::anyhow!("--bounds/--error: {e}"))?;
    let (profile, source) = profile(args)?;
    let Some(variance) = pair_spread(&profile) else {
        bail!(
            "the pair counts {:?} ({source}) have no spread: at least two kinds of pair are needed",
            profile.0
        );
    };
    if let Some(rate) = args.games_per_minute {
        if !(rate > 0.0 && rate.is_finite()) {
            bail!("--games-per-minute must be a positive number (got {rate})");
        }
    }
    let (lower, upper) = sprt.bounds();
    let unit = if model == EloModel::Normalized { "normalised Elo" } else { "logistic Elo" };
    println!(
        "SPRT [{}, {}] in {unit}, alpha = beta = {} (LLR bounds {lower:.2}, {upper:.2})",
        args.bounds[0], args.bounds[1], args.error
    );
    println!(
        "spread: pairs {:?} ({source}), {} pairs, pair-score sd {:.3}",
        profile.0,
        profile.pairs(),
        variance.sqrt()
    );
    if args.max_games == Some(0) {
        bail!("--max-games must be at least 2 (one pair)");
    }
    let hours_of = |games: f64| {
        args.games_per_minute.map_or(String::new(), |rate| format!("  {:>5.1}", games / rate / 60.0))
    };
    let hours = if args.games_per_minute.is_some() { "  hours" } else { "" };
    match args.max_games {
        None => println!("{:>8} {:>8} {:>9} {:>10}{hours}", "Elo", "nElo", "P(pass)", "games"),
        Some(cap) => println!(
            "{:>8} {:>8} {:>9} {:>9} {:>11} {:>10}{hours}   (at most {cap} games)",
            "Elo", "nElo", "P(pass)", "P(fail)", "P(undecided)", "games"
        ),
    }
    for &elo in &args.elo {
        let o = outlook(&sprt, variance, elo);
        match args.max_games {
            None => {
                let games = 2.0 * o.pairs;
                println!("{:>8.1} {:>8.1} {:>9.3} {:>10.0}{}", o.elo, o.nelo, o.pass, games, hours_of(games));
            }
            Some(cap) => {
                let c = outlook_within(&sprt, variance, elo, cap.div_ceil(2));
                let games = 2.0 * c.pairs;
                println!(
                    "{:>8.1} {:>8.1} {:>9.3} {:>9.3} {:>11.3} {:>10.0}{}",
                    o.elo,
                    o.nelo,
                    c.pass,
                    c.reject,
                    c.undecided,
                    games,
                    hours_of(games)
                );
            }
        }
    }
    println!("(Wald's approximations: real tests overshoot the bounds a little and run a little longer)");
    Ok(())
}

/// The pair counts to take the spread from, and where they came from.
fn profile(args: &SprtArgs) -> Result<(Pentanomial, String)> {
    if let Some(counts) = &args.pentanomial {
        return Ok((Pentanomial(counts.clone().try_into().expect("five counts")), "--pentanomial".into()));
    }
    let Some(run) = &args.from else {
        return Ok((Pentanomial(DEFAULT_PROFILE), "test 57 at 3+0.03, this engine against itself".into()));
    };
    let file = run.join("summary.json");
    let text =
        std::fs::read_to_string(&file).with_context(|| format!("--from: cannot read {}", file.display()))?;
    let summary: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", file.display()))?;
    let counts: Vec<u64> = summary
        .get("pentanomial")
        .and_then(|p| serde_json::from_value(p.clone()).ok())
        .filter(|c: &Vec<u64>| c.len() == 5)
        .with_context(|| {
            format!("{}: no 'pentanomial' of five pair counts (a `tune match` run's summary)", file.display())
        })?;
    Ok((Pentanomial(counts.try_into().expect("five counts")), file.display().to_string()))
}

#[cfg(test)]
#[path = "sprt_tests.rs"]
mod tests;
