//! `tune gauntlet`: our engine against a list of engines (UCI or xboard binaries, or params files
//! played in process), as cutechess-cli's gauntlet: a table per opponent, a performance rating
//! where the opponents carry ratings, every failure counted per side.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};

use super::args::play::{EngineArgs, PlayArgs};
use crate::play::games::identity::RunIdentity;
use crate::play::games::journal::{missing_pairs, PairEntry, PairJournal};
use crate::play::games::output::PgnFile;
use crate::play::games::pgn_out::PgnContext;
use crate::play::games::pool::Flow;
use crate::play::games::runner::{self, PairJob};
use crate::play::games::stats::performance_rating;
use crate::play::games::tally::{Failures, GameSummary, MatchTally};
use crate::play::runs::opponents::{load_opponents, table};
use crate::play::runs::settings::distinct_names;
use crate::run::{game_bar, RunDir};

/// Play our engine against each engine of an opponents file.
///
/// The opponents file is TOML, one `[[engine]]` table per opponent:
///
///   [[engine]]
///   name = "sf-1955"
///   command = "/usr/games/stockfish"
///   args = []
///   options = { UCI_LimitStrength = true, UCI_Elo = 1955, Hash = 16 }
///   rating = 2363          # optional: used for our performance rating
///
///   [[engine]]
///   name = "fairymax"
///   command = "/usr/games/fairymax"
///   protocol = "xboard"    # CECP v2; the default is "uci"
///
/// An xboard engine's `options` are its `feature option` controls (sent as `option NAME=VALUE`);
/// it plays at --tc or --depth (xboard has no node limit, so --nodes is refused). Instead of
/// `command`, `params = "params/handset.toml"` plays a configuration of our engine in this process.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
#[command(
    mut_arg("engine", |a| a.help("Our engine: a params file (in-process) or an engine binary")),
    mut_arg("engine_search", |a| a.help("Search constants for --engine")),
    mut_arg("engine_option", |a| a.help(
        "UCI options for an --engine binary, `Name=Value` (repeatable; opponents take theirs from the opponents file)"
    )),
)]
pub struct GauntletArgs {
    #[command(flatten)]
    #[serde(flatten)]
    pub engine: EngineArgs,
    /// The opponents file.
    #[arg(long)]
    pub opponents: PathBuf,
    /// Games against each opponent (whole pairs).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    #[command(flatten)]
    pub play: PlayArgs,
    /// Run folder for games.pgn, journal.jsonl, summary.json and run.json.
    #[arg(long, default_value = "reports/gauntlet")]
    pub out: PathBuf,
    /// Continue the gauntlet in --out where it stopped, the pairs not yet played: give the command
    /// it was started with plus --resume (engine, opponents file, limits, book, seed and
    /// adjudication are checked against the run's, files by their content); --games may grow, and
    /// --concurrency may differ. A long soak runs this way over several sittings.
    #[arg(long)]
    pub resume: bool,
}

/// Options that do not change the games: how many are played, where, on how many threads, and
/// how progress shows.
const NOT_DEFINING: [&str; 5] = ["games", "out", "resume", "concurrency", "quiet"];
/// Options naming files, recorded with their content.
const FILES: [&str; 4] = ["engine", "engine_search", "opponents", "book"];

pub fn run(args: &GauntletArgs) -> Result<()> {
    let started = Instant::now();
    let play = args.play.settings();
    let settings = play.game_settings()?;
    let opponents = load_opponents(&args.opponents)?;
    let mut contestants = vec![args.engine.contestant(&play)?];
    contestants.extend(opponents.iter().map(|o| o.contestant.clone()));
    distinct_names(&mut contestants);
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let pairs = args.games.div_ceil(2) as usize;
    let (openings, book_name) = play.openings()?;
    let schedule = play.opening_schedule(openings.len(), pairs)?;
    // Round by round over the opponents, so that a run stopped early is still balanced.
    let jobs: Vec<PairJob> = schedule
        .iter()
        .flat_map(|&o| {
            let opening = &openings[o];
            (1..contestants.len()).map(move |j| PairJob {
                start_fen: opening.fen.clone(),
                second_start: None,
                opening: opening.source.clone(),
                first: 0,
                second: j,
            })
        })
        .collect();
    let ours = contestants[0].name().to_string();
    let identity = RunIdentity::from_options(args, &NOT_DEFINING, &FILES)?;
    if args.resume {
        PairJournal::check_resumable(&args.out, &identity, jobs.len())?;
    }
    let run = RunDir::create(&args.out)?;
    run.write_meta("gauntlet", args, args.resume, None)?;
    let (mut journal, done) = PairJournal::start(&args.out, &identity, jobs.len(), args.resume)?;
    // The tallies of the pairs played before, each under the opponent its job names.
    let mut tallies: Vec<MatchTally> = opponents.iter().map(|_| MatchTally::default()).collect();
    for entry in &done {
        tallies[jobs[entry.pair].second - 1].add(&entry.games);
    }
    let todo = missing_pairs(jobs.len(), &done);
    let todo_jobs: Vec<PairJob> = todo.iter().map(|&i| jobs[i].clone()).collect();
    let context = PgnContext::new(&format!("tune gauntlet {ours}"), settings.limit.pgn_tag());
    let mut pgn = PgnFile::open(&args.out, context, args.resume)?;
    let concurrency = play.concurrency;
    println!(
        "gauntlet: {ours} against {} opponents, {} games each, {}, {concurrency} threads, book {book_name}",
        opponents.len(),
        2 * pairs,
        settings.limit
    );
    if args.resume {
        println!("resumed: {} pairs played before, {} to play", done.len(), todo.len());
    }
    let stop = crate::run::interrupt_flag();
    let bar = game_bar(2 * todo_jobs.len() as u64, args.play.quiet);
    let mut played = 0;
    runner::run(&contestants, &todo_jobs, &settings, concurrency, &stop, |mut pair| {
        // Jobs are numbered from 0 in this run; the pair's number in the whole gauntlet is todo's.
        pair.index = todo[pair.index];
        pgn.write_pair(&pair)?;
        let games = GameSummary::of_pair(&pair);
        journal.append(&PairEntry { pair: pair.index, pgn_bytes: pgn.byte_len()?, games: games.clone() })?;
        played += 1;
        let tally = &mut tallies[pair.job.second - 1];
        tally.add(&games);
        bar.inc(2);
        bar.set_message(format!("{}: {}", contestants[pair.job.second].name(), tally.progress(None)));
        if args.play.quiet {
            println!(
                "pair {} vs {}: {}",
                pair.index + 1,
                contestants[pair.job.second].name(),
                tally.progress(None)
            );
        }
        Ok(Flow::Continue)
    })?;
    bar.finish_and_clear();
    let table = table(&contestants, &opponents, &tallies);
    println!("{table}");
    let rated: Vec<(f64, f64, f64)> = opponents
        .iter()
        .zip(&tallies)
        .filter_map(|(o, t)| {
            o.rating.map(|r| (r, t.games() as f64, t.wld.wins as f64 + t.wld.draws as f64 / 2.0))
        })
        .filter(|&(_, games, _)| games > 0.0)
        .collect();
    let performance = performance_rating(&rated);
    if let Some(p) = performance {
        println!("Performance rating of {ours}: {p:.0} (over the {} rated opponents)", rated.len());
    }
    let seconds = started.elapsed().as_secs_f64();
    let total: u64 = tallies.iter().map(MatchTally::games).sum();
    println!(
        "{total} games ({} in this run, {seconds:.1} s); games in {}",
        2 * played,
        args.out.join("games.pgn").display()
    );
    let interrupted = done.len() + played < jobs.len();
    if interrupted {
        println!("interrupted: run again with --resume to play the remaining pairs");
    }
    let mut ours_failures = Failures::default();
    let mut list = Vec::new();
    for ((contestant, opponent), tally) in contestants[1..].iter().zip(&opponents).zip(&tallies) {
        ours_failures.add(&tally.failures[0]);
        let mut entry = tally.json(None);
        if let Some(map) = entry.as_object_mut() {
            map.insert("name".into(), contestant.name().into());
            map.insert("rating".into(), opponent.rating.into());
            let [engine, theirs] = tally.failures;
            map.insert(
                "crashes".into(),
                serde_json::json!({ "engine": engine.crashes, "opponent": theirs.crashes }),
            );
            map.insert(
                "time_losses".into(),
                serde_json::json!({ "engine": engine.time_losses, "opponent": theirs.time_losses }),
            );
            map.insert(
                "illegal_moves".into(),
                serde_json::json!({ "engine": engine.illegal_moves, "opponent": theirs.illegal_moves }),
            );
        }
        list.push(entry);
    }
    let summary = serde_json::json!({
        "engine": ours,
        "games": total,
        "opponents": list,
        "performance_rating": performance,
        "engine_failures": ours_failures,
        "limit": settings.limit.to_string(),
        "book": book_name,
        "seed": args.play.seed,
        "concurrency": concurrency,
        "seconds": seconds,
        "pairs_resumed": done.len(),
        "interrupted": interrupted,
    });
    run.write_json("summary.json", &summary)?;
    run.write_meta("gauntlet", args, false, Some(summary))
}
