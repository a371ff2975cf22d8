//! `tune datagen`: labelled positions from self-play. Game pairs start from book openings plus a
//! few random plies; every finished pair is appended to `games.pgn`, and its positions, filtered
//! as `tune dataset convert` filters PGN games (not in check, not after a capture, quiet,
//! deduplicated across the whole run), to `positions.epd` in the format `tune texel` reads.
//!
//! Resumable: `progress.txt` records, after each pair, its index and both files' lengths; a rerun
//! with `--resume` cuts the files back to the last record (a pair torn by a kill is dropped),
//! rebuilds the set of kept positions, and plays the pairs not yet played. Pair i always starts
//! from the same opening and random plies, so a resumed run plays what an uninterrupted one would.

use std::collections::{BTreeSet, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use whetstone::movegen::legal_moves;
use whetstone::Position;

use crate::dataset::formats::{format_line, Format};
use crate::dataset::pgn::{extract_unseen, PgnOptions};
use crate::play::args::PlayArgs;
use crate::play::pgn_out::{write_game, PgnContext};
use crate::play::runner::{self, Contestant, Flow, PairJob, PairResult};
use crate::run::{game_bar, RunDir};

/// Generate labelled positions by self-play at a fixed node count.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct DatagenArgs {
    /// The engine that plays both sides: a params file (in-process).
    #[arg(long, default_value = "params/eval.toml")]
    pub engine: PathBuf,
    /// Search constants for --engine.
    #[arg(long, value_name = "FILE")]
    pub engine_search: Option<PathBuf>,
    /// Games to play (whole pairs).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Random plies played after the book opening, different for every pair (uniform over the
    /// legal moves, seeded by --seed and the pair's number).
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub random_plies: usize,
    /// Plies at the start of each game record not used for positions.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub skip_plies: usize,
    #[command(flatten)]
    pub play: PlayArgs,
    /// Run folder: games.pgn, positions.epd, progress.txt, summary.json.
    #[arg(long, default_value = "reports/datagen")]
    pub out: PathBuf,
    /// Continue the run in --out where it stopped.
    #[arg(long)]
    pub resume: bool,
}

/// Nodes per move when no limit is given.
const DEFAULT_NODES: u64 = 5000;

pub fn run(args: &DatagenArgs) -> Result<()> {
    let started = Instant::now();
    let mut play = args.play.clone();
    if play.nodes.is_none() && play.depth.is_none() && play.tc.is_none() {
        play.nodes = Some(DEFAULT_NODES);
    }
    let settings = play.settings()?;
    let contestant = play.contestant(&args.engine, args.engine_search.as_deref(), &[])?;
    if !matches!(contestant, Contestant::InProcess(_)) {
        bail!(
            "{}: datagen plays our engine in this process: give a params file (.toml)",
            args.engine.display()
        );
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let pairs = args.games.div_ceil(2) as usize;
    let (openings, book_name) = play.openings()?;
    let schedule = play.opening_schedule(openings.len(), pairs)?;
    let files = RunFiles::new(&args.out);
    let (done, mut seen) = if args.resume { files.restore()? } else { files.create()? };
    let run = RunDir::create(&args.out)?;
    run.write_meta("datagen", args, args.resume, None)?;
    let jobs: Vec<PairJob> = (0..pairs)
        .filter(|i| !done.contains(i))
        .map(|i| {
            let opening = &openings[schedule[i]];
            let fen = with_random_plies(&opening.fen, args.random_plies, play.seed, i)
                .with_context(|| format!("opening {}", opening.source))?;
            Ok(PairJob { start_fen: fen, opening: opening.source.clone(), first: 0, second: 0 })
        })
        .collect::<Result<_>>()?;
    let indices: Vec<usize> = (0..pairs).filter(|i| !done.contains(i)).collect();
    println!(
        "datagen: {} pairs to play ({} done), {}, {} threads, book {book_name}, {} random plies, seed {}",
        jobs.len(),
        done.len(),
        settings.limit,
        play.concurrency(),
        args.random_plies,
        play.seed
    );
    let context = PgnContext::new("tune datagen", settings.limit.pgn_tag());
    let options = PgnOptions { skip_plies: args.skip_plies, resolve: false };
    let mut writer = files.writer()?;
    let stop = crate::run::interrupt_flag();
    let bar = game_bar(2 * jobs.len() as u64, play.quiet);
    let (mut kept, mut plies) = (0usize, 0usize);
    let run_start = Instant::now();
    runner::run(&[contestant], &jobs, &settings, play.concurrency(), &stop, |mut pair: PairResult| {
        // Jobs were numbered from 0 in this run; the pair's number in the whole run is its index.
        pair.index = indices[pair.index];
        let text: String = pair
            .games
            .iter()
            .enumerate()
            .map(|(g, game)| write_game(game, &context, 2 * pair.index + g + 1, &pair.job.opening))
            .collect();
        plies += pair.games.iter().map(|g| g.moves.len()).sum::<usize>();
        kept += writer.add_pair(pair.index, &text, &options, &mut seen)?;
        bar.inc(2);
        let rate = kept as f64 / run_start.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!("{kept} positions ({rate:.0}/s)"));
        if play.quiet && pair.index % 100 == 0 {
            println!("pair {}: {kept} positions ({rate:.0}/s)", pair.index + 1);
        }
        Ok(Flow::Continue)
    })?;
    bar.finish_and_clear();
    let total = seen.len();
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{kept} positions kept from {plies} plies in this run; {total} in {} ({seconds:.1} s, {:.0} positions/s)",
        files.positions.display(),
        kept as f64 / seconds.max(1e-9)
    );
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        println!("interrupted: run again with --resume to play the remaining pairs");
    }
    let summary = serde_json::json!({
        "pairs_planned": pairs,
        "positions": total,
        "positions_this_run": kept,
        "plies_this_run": plies,
        "seconds_this_run": seconds,
        "limit": settings.limit.to_string(),
        "book": book_name,
        "random_plies": args.random_plies,
        "seed": play.seed,
    });
    run.write_json("summary.json", &summary)?;
    run.write_meta("datagen", args, args.resume, Some(summary))
}

/// The opening's FEN after `plies` random legal moves drawn for pair `pair`; a line that ends the
/// game (no legal moves) is drawn again.
pub fn with_random_plies(fen: &str, plies: usize, seed: u64, pair: usize) -> Result<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pair as u64);
    let start = Position::from_fen(fen).with_context(|| format!("bad FEN '{fen}'"))?;
    for _ in 0..100 {
        let mut pos = Position::from_fen(&start.to_fen()).context("FEN round trip")?;
        let mut ok = true;
        for _ in 0..plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                ok = false;
                break;
            }
            let m = moves.as_slice()[rng.random_range(0..moves.len())];
            pos.make_move(m);
        }
        if ok && !legal_moves(&pos).is_empty() {
            return Ok(pos.to_fen());
        }
    }
    bail!("no line of {plies} random plies from '{fen}' leaves a game to play")
}

/// The run folder's files.
struct RunFiles {
    games: PathBuf,
    positions: PathBuf,
    progress: PathBuf,
}

struct Writer {
    games: File,
    positions: File,
    progress: File,
}

impl RunFiles {
    fn new(dir: &Path) -> RunFiles {
        RunFiles {
            games: dir.join("games.pgn"),
            positions: dir.join("positions.epd"),
            progress: dir.join("progress.txt"),
        }
    }

    /// A new run: empty files (an earlier run's are replaced).
    fn create(&self) -> Result<(BTreeSet<usize>, HashSet<u64>)> {
        if let Some(dir) = self.games.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        for path in [&self.games, &self.positions, &self.progress] {
            File::create(path).with_context(|| format!("creating {}", path.display()))?;
        }
        Ok((BTreeSet::new(), HashSet::new()))
    }

    /// A resumed run: the pairs done, with the files cut back to the last complete record.
    fn restore(&self) -> Result<(BTreeSet<usize>, HashSet<u64>)> {
        let file = File::open(&self.progress).with_context(|| {
            format!("--resume: cannot open {} (no run to resume there)", self.progress.display())
        })?;
        let mut done = BTreeSet::new();
        let (mut games_len, mut positions_len) = (0, 0);
        for (n, line) in BufReader::new(file).lines().enumerate() {
            let line = line.with_context(|| format!("reading {}", self.progress.display()))?;
            let fields: Vec<u64> = line.split_whitespace().filter_map(|f| f.parse().ok()).collect();
            let [pair, games, positions] = fields[..] else {
                // A record torn by a kill is the last line: what it would have recorded is dropped.
                eprintln!("{}:{}: incomplete record ignored", self.progress.display(), n + 1);
                break;
            };
            done.insert(pair as usize);
            (games_len, positions_len) = (games, positions);
        }
        for (path, len) in [(&self.games, games_len), (&self.positions, positions_len)] {
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?;
            file.set_len(len).with_context(|| format!("cutting {} back to {len} bytes", path.display()))?;
        }
        let mut seen = HashSet::new();
        let text = std::fs::read_to_string(&self.positions)
            .with_context(|| format!("reading {}", self.positions.display()))?;
        for (n, line) in text.lines().enumerate() {
            let fen = line.split(" c9 ").next().unwrap_or(line);
            let pos = Position::from_fen(fen)
                .with_context(|| format!("{}:{}: bad position", self.positions.display(), n + 1))?;
            seen.insert(pos.key());
        }
        // Rewrite the progress file without a torn last line.
        let mut progress = String::new();
        for line in std::fs::read_to_string(&self.progress)?.lines().take(done.len()) {
            progress.push_str(line);
            progress.push('\n');
        }
        std::fs::write(&self.progress, progress)
            .with_context(|| format!("writing {}", self.progress.display()))?;
        Ok((done, seen))
    }

    fn writer(&self) -> Result<Writer> {
        let open = |path: &Path| {
            OpenOptions::new().append(true).open(path).with_context(|| format!("opening {}", path.display()))
        };
        Ok(Writer {
            games: open(&self.games)?,
            positions: open(&self.positions)?,
            progress: open(&self.progress)?,
        })
    }
}

impl Writer {
    /// Appends a pair's games and new positions, then records the pair as done. Returns the number
    /// of positions kept.
    fn add_pair(
        &mut self,
        pair: usize,
        pgn: &str,
        options: &PgnOptions,
        seen: &mut HashSet<u64>,
    ) -> Result<usize> {
        let mut lines = String::new();
        let report = extract_unseen(pgn.as_bytes(), options, seen, |fen, outcome| {
            let pos = Position::from_fen(fen).map_err(|e| anyhow::anyhow!("kept position {fen}: {e}"))?;
            lines.push_str(&format_line(&pos, outcome, Format::Epd));
            lines.push('\n');
            Ok(())
        })?;
        if report.broken > 0 {
            bail!("a generated game does not replay: {}", report.problems.join("; "));
        }
        self.games.write_all(pgn.as_bytes()).context("writing games.pgn")?;
        self.positions.write_all(lines.as_bytes()).context("writing positions.epd")?;
        self.games.flush()?;
        self.positions.flush()?;
        let (g, p) = (self.games.metadata()?.len(), self.positions.metadata()?.len());
        writeln!(self.progress, "{pair} {g} {p}").context("writing progress.txt")?;
        self.progress.flush()?;
        Ok(report.kept)
    }
}
