//! `tune match`: two configurations of our engine (or any two UCI engines) play game pairs in
//! parallel; the run prints fastchess's statistics, may stop on an SPRT decision, and leaves
//! `games.pgn`, `journal.jsonl`, `summary.json` and `run.json` in its run folder; `--resume`
//! continues a killed match (the match itself is `play/match_run.rs`).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};

use super::args::play::{EngineArgs, ModelArg, PlayArgs};
use crate::play::games::identity::RunIdentity;
use crate::play::games::output::GAMES_FILE;
use crate::play::games::runner::Contestant;
use crate::play::games::stats::Sprt;
use crate::play::runs::match_run::{play_match, MatchPlan};
use crate::play::runs::settings::distinct_names;
use crate::run::RunDir;

/// Play two engine configurations against each other.
///
/// A configuration is a params file (`.toml`, played in this process with its own table and
/// histories) with optional search constants, or an engine binary (driven over UCI). Every
/// opening is played twice, once with each colour (a game pair); statistics are those of
/// fastchess: W/L/D from --engine's view, pentanomial pair counts, Elo with its 95% interval from
/// the pentanomial variance, nElo, LOS, and an optional SPRT that stops the match on a decision.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct MatchArgs {
    #[command(flatten)]
    #[serde(flatten)]
    pub engine: EngineArgs,
    /// The reference: a params file or an engine binary.
    #[arg(long)]
    pub opponent: PathBuf,
    /// UCI options for an --opponent binary, `Name=Value` (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    pub opponent_option: Vec<String>,
    /// Search constants for --opponent.
    #[arg(long, value_name = "FILE")]
    pub opponent_search: Option<PathBuf>,
    /// Games to play (whole pairs: an odd number is rounded up).
    #[arg(long, default_value_t = 400)]
    pub games: u64,
    /// Sequential probability ratio test: `ELO0 ELO1 ALPHA BETA`, e.g. `0 5 0.05 0.05`; the match
    /// stops when the log-likelihood ratio leaves its bounds (pentanomial GSPRT, as fastchess and
    /// OpenBench).
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"], allow_negative_numbers = true)]
    pub sprt: Option<Vec<f64>>,
    /// What the SPRT's Elo bounds mean: logistic Elo, or normalised Elo (nElo, fastchess's
    /// `model=normalized`).
    #[arg(long, value_enum, default_value = "logistic")]
    pub elo_model: ModelArg,
    #[command(flatten)]
    pub play: PlayArgs,
    /// Run folder for games.pgn, summary.json and run.json [default: reports/match-<engine>-<opponent>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the match in --out where it stopped, the pairs not yet played: give the command it
    /// was started with plus --resume (engines, limits, book, seed, adjudication and SPRT are
    /// checked against the run's, files by their content); --games and --concurrency may differ.
    #[arg(long)]
    pub resume: bool,
}

/// Options that do not change the games: how many are played, where, on how many threads, and
/// how progress shows.
const NOT_DEFINING: [&str; 5] = ["games", "out", "resume", "concurrency", "quiet"];
/// Options naming files, recorded with their content.
const FILES: [&str; 5] = ["engine", "engine_search", "opponent", "opponent_search", "book"];

impl MatchArgs {
    pub fn sprt(&self) -> Result<Option<Sprt>> {
        let Some(v) = &self.sprt else { return Ok(None) };
        Sprt::new(v[0], v[1], v[2], v[3], self.elo_model.into())
            .map(Some)
            .map_err(|e| anyhow::anyhow!("--sprt: {e}"))
    }
}

pub fn run(args: &MatchArgs) -> Result<()> {
    let started = Instant::now();
    let sprt = args.sprt()?;
    let play = args.play.settings();
    let settings = play.game_settings()?;
    let mut contestants = [
        args.engine.contestant(&play)?,
        play.contestant(&args.opponent, args.opponent_search.as_deref(), &args.opponent_option)?,
    ];
    distinct_names(&mut contestants);
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let pairs = args.games.div_ceil(2) as usize;
    let (openings, book_name) = play.openings()?;
    let jobs = play.match_jobs(&openings, pairs)?;
    let title = format!("{} vs {}", contestants[0].name(), contestants[1].name());
    let out = args.out.clone().unwrap_or_else(|| default_out(&contestants));
    let concurrency = play.concurrency;
    let plan = MatchPlan {
        contestants,
        settings: settings.clone(),
        jobs,
        sprt,
        concurrency,
        quiet: play.quiet,
        event: format!("tune match {title}"),
        identity: RunIdentity::from_options(args, &NOT_DEFINING, &FILES)?,
    };
    if args.resume {
        plan.check_resumable(&out)?;
    }
    let run = RunDir::create(&out)?;
    run.write_meta("match", args, args.resume, None)?;
    println!(
        "{title}: {} games ({pairs} pairs), {}, {concurrency} threads, book {book_name}, seed {}",
        2 * pairs,
        settings.limit,
        args.play.seed
    );
    let stop = crate::run::interrupt_flag();
    let outcome = play_match(&plan, &out, args.resume, &stop)?;
    let tally = &outcome.tally;
    let sprt = plan.sprt.as_ref();
    let names = [plan.contestants[0].name(), plan.contestants[1].name()];
    let seconds = started.elapsed().as_secs_f64();
    println!("{}", tally.report(&format!("{title} ({})", settings.limit), sprt));
    let failures = &tally.failures;
    println!(
        "Failures: {} crashes {}, time losses {}, illegal moves {}; {} crashes {}, time losses {}, illegal moves {}",
        names[0],
        failures[0].crashes,
        failures[0].time_losses,
        failures[0].illegal_moves,
        names[1],
        failures[1].crashes,
        failures[1].time_losses,
        failures[1].illegal_moves
    );
    // How much of the workers' time went into searching (the rest: the game loop, PGN, startup).
    let busy = outcome.think_seconds_this_run / (seconds * concurrency as f64).max(1e-9);
    let games_this_run = 2 * outcome.pairs_played;
    println!(
        "{games_this_run} games in {seconds:.1} s ({:.0} games/min; thinking {:.0}% of {concurrency} threads' time); games in {}",
        games_this_run as f64 * 60.0 / seconds.max(1e-9),
        100.0 * busy,
        out.join(GAMES_FILE).display()
    );
    if outcome.interrupted {
        println!("interrupted: run again with --resume to play the remaining pairs");
    }
    let mut summary = tally.json(sprt);
    if let Some(map) = summary.as_object_mut() {
        map.insert("engine".into(), names[0].into());
        map.insert("opponent".into(), names[1].into());
        map.insert("limit".into(), settings.limit.to_string().into());
        map.insert("book".into(), book_name.into());
        map.insert("seed".into(), args.play.seed.into());
        map.insert("concurrency".into(), concurrency.into());
        map.insert("seconds".into(), seconds.into());
        map.insert("pairs_resumed".into(), outcome.pairs_replayed.into());
        // Stopped short of the planned games without an SPRT decision: Ctrl-C.
        map.insert("interrupted".into(), outcome.interrupted.into());
        map.insert("engine_failures".into(), serde_json::to_value(failures[0])?);
        map.insert("opponent_failures".into(), serde_json::to_value(failures[1])?);
    }
    run.write_json("summary.json", &summary)?;
    run.write_meta("match", args, args.resume, Some(summary))
}

fn default_out(contestants: &[Contestant; 2]) -> PathBuf {
    let clean = |s: &str| s.replace(['/', '\\', ' '], "_");
    PathBuf::from("reports").join(format!(
        "match-{}-{}",
        clean(contestants[0].name()),
        clean(contestants[1].name())
    ))
}
