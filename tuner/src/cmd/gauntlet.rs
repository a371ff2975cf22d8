//! `tune gauntlet`: our engine against a list of engines (UCI binaries, or params files played in
//! process), as cutechess-cli's gauntlet: a table per opponent, a performance rating where the
//! opponents carry ratings, every failure counted per side.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use crate::play::args::{distinct_names, PlayArgs};
use crate::play::inprocess::EngineSetup;
use crate::play::output::PgnFile;
use crate::play::pgn_out::PgnContext;
use crate::play::runner::{self, Contestant, Flow, PairJob};
use crate::play::stats::performance_rating;
use crate::play::tally::{Failures, Tally};
use crate::play::uci_engine::EngineSpec;
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
/// Instead of `command`, `params = "params/handset.toml"` plays a configuration of our engine in
/// this process. xboard engines are not supported: run them through polyglot's UCI adapter.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct GauntletArgs {
    /// Our engine: a params file (in-process) or an engine binary.
    #[arg(long, default_value = "params/eval.toml")]
    pub engine: PathBuf,
    /// Search constants for --engine.
    #[arg(long, value_name = "FILE")]
    pub engine_search: Option<PathBuf>,
    /// UCI options for an --engine binary, `Name=Value` (repeatable; opponents take theirs from
    /// the opponents file).
    #[arg(long, value_name = "NAME=VALUE")]
    pub engine_option: Vec<String>,
    /// The opponents file.
    #[arg(long)]
    pub opponents: PathBuf,
    /// Games against each opponent (whole pairs).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    #[command(flatten)]
    pub play: PlayArgs,
    /// Run folder for games.pgn, summary.json and run.json.
    #[arg(long, default_value = "reports/gauntlet")]
    pub out: PathBuf,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct OpponentsFile {
    engine: Vec<OpponentEntry>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct OpponentEntry {
    name: String,
    command: Option<PathBuf>,
    params: Option<PathBuf>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
    working_dir: Option<PathBuf>,
    rating: Option<f64>,
}

/// An opponent: how to play it and its rating.
pub struct Opponent {
    pub contestant: Contestant,
    pub rating: Option<f64>,
}

/// Reads an opponents file; errors name the file and the entry.
pub fn load_opponents(path: &Path) -> Result<Vec<Opponent>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let file: OpponentsFile = toml::from_str(&text).with_context(|| format!("{}", path.display()))?;
    if file.engine.is_empty() {
        bail!("{}: no [[engine]] table", path.display());
    }
    file.engine.into_iter().map(|entry| opponent(entry, path)).collect()
}

fn opponent(entry: OpponentEntry, file: &Path) -> Result<Opponent> {
    let context = || format!("{}: engine '{}'", file.display(), entry.name);
    let contestant = match (&entry.command, &entry.params) {
        (Some(command), None) => {
            let options = entry
                .options
                .iter()
                .map(|(k, v)| {
                    let value = match v {
                        toml::Value::String(s) => s.clone(),
                        toml::Value::Integer(i) => i.to_string(),
                        toml::Value::Float(f) => f.to_string(),
                        toml::Value::Boolean(b) => b.to_string(),
                        other => {
                            bail!("{}: option {k} = {other} is not a string, number or boolean", context())
                        }
                    };
                    Ok((k.clone(), value))
                })
                .collect::<Result<Vec<_>>>()?;
            Contestant::External(EngineSpec {
                name: entry.name.clone(),
                command: command.clone(),
                args: entry.args.clone(),
                options,
                working_dir: entry.working_dir.clone(),
            })
        }
        (None, Some(params)) => {
            if !entry.options.is_empty() || !entry.args.is_empty() {
                bail!("{}: options and args apply to engine binaries (`command`)", context());
            }
            let mut setup = EngineSetup::from_files(params, None).with_context(context)?;
            setup.name = entry.name.clone();
            Contestant::InProcess(setup)
        }
        _ => bail!(
            "{}: give exactly one of `command` (an engine binary) and `params` (a params file)",
            context()
        ),
    };
    Ok(Opponent { contestant, rating: entry.rating })
}

pub fn run(args: &GauntletArgs) -> Result<()> {
    let started = Instant::now();
    let settings = args.play.settings()?;
    let opponents = load_opponents(&args.opponents)?;
    let mut contestants =
        vec![args.play.contestant(&args.engine, args.engine_search.as_deref(), &args.engine_option)?];
    contestants.extend(opponents.iter().map(|o| o.contestant.clone()));
    distinct_names(&mut contestants);
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let pairs = args.games.div_ceil(2) as usize;
    let (openings, book_name) = args.play.openings()?;
    let schedule = args.play.opening_schedule(openings.len(), pairs)?;
    // Round by round over the opponents, so that a run stopped early is still balanced.
    let jobs: Vec<PairJob> = schedule
        .iter()
        .flat_map(|&o| {
            let opening = &openings[o];
            (1..contestants.len()).map(move |j| PairJob {
                start_fen: opening.fen.clone(),
                opening: opening.source.clone(),
                first: 0,
                second: j,
            })
        })
        .collect();
    let ours = contestants[0].name().to_string();
    let context = PgnContext::new(&format!("tune gauntlet {ours}"), settings.limit.pgn_tag());
    let run = RunDir::create(&args.out)?;
    run.write_meta("gauntlet", args, false, None)?;
    let mut pgn = PgnFile::open(&args.out, context, false)?;
    let concurrency = args.play.concurrency();
    println!(
        "gauntlet: {ours} against {} opponents, {} games each, {}, {concurrency} threads, book {book_name}",
        opponents.len(),
        2 * pairs,
        settings.limit
    );
    let stop = crate::run::interrupt_flag();
    let bar = game_bar(2 * jobs.len() as u64, args.play.quiet);
    let mut tallies: Vec<Tally> = opponents.iter().map(|_| Tally::default()).collect();
    runner::run(&contestants, &jobs, &settings, concurrency, &stop, |pair| {
        pgn.write_pair(&pair)?;
        let tally = &mut tallies[pair.job.second - 1];
        tally.add_pair(&pair);
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
    let total: u64 = tallies.iter().map(Tally::games).sum();
    println!("{total} games in {seconds:.1} s; games in {}", args.out.join("games.pgn").display());
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
    });
    run.write_json("summary.json", &summary)?;
    run.write_meta("gauntlet", args, false, Some(summary))
}

/// One line per opponent: games, score, W-L-D, Elo ± error (ours against it), failures.
fn table(contestants: &[Contestant], opponents: &[Opponent], tallies: &[Tally]) -> String {
    let width = contestants.iter().map(|c| c.name().len()).max().unwrap_or(8).max(8);
    let mut out = format!(
        "{:<width$}  {:>6}  {:>6}  {:>14}  {:>16}  {:>6}  {:>22}\n",
        "opponent", "games", "score", "W-L-D", "Elo (ours)", "rating", "failures ours/theirs"
    );
    for ((contestant, opponent), tally) in contestants[1..].iter().zip(opponents).zip(tallies) {
        let elo = tally.elo();
        let wld = format!("{}-{}-{}", tally.wld.wins, tally.wld.losses, tally.wld.draws);
        let rating = opponent.rating.map_or("-".to_string(), |r| format!("{r:.0}"));
        let failures = format!("{}/{}", tally.failures[0].total(), tally.failures[1].total());
        out.push_str(&format!(
            "{:<width$}  {:>6}  {:>5.1}%  {:>14}  {:>+7.1} ± {:>6.1}  {:>6}  {:>22}\n",
            contestant.name(),
            tally.games(),
            100.0 * tally.wld.score(),
            wld,
            elo.elo,
            elo.error,
            rating,
            failures
        ));
    }
    out
}
