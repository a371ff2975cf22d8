//! Labelled positions from self-play (`tune datagen`): game pairs of one configuration against
//! itself start from book openings plus a few random plies; every finished pair is appended to
//! `games.pgn`, and its positions, filtered as `tune dataset convert` filters PGN games (not in
//! check, not after a capture, quiet, deduplicated across the whole run), to `positions.epd` in
//! the format `tune texel` reads, each with the search score of the move played from it (`ce`);
//! with `--format text` to `positions.txt` (`fen | score | result`), with `--format viriformat`
//! to `positions.vf` (the same positions as viriformat game chains, for NNUE trainers).
//!
//! The engine is ours in this process or any UCI binary through its process (`tune datagen
//! --engine BINARY`); either way the score is the engine's own, from the move comments (a UCI
//! engine's last `info score cp` before its `bestmove`; a mate score gives none). A game a
//! binary lost by failing (a crash, a hang, an illegal move) has no chess result to label its
//! positions with: it is kept in games.pgn, its positions are dropped, the failure is printed
//! with the pair, the game and the position, and appended to `engine-failures.log`; the player
//! restarts a dead engine for the next game, so the run goes on.
//!
//! Resumable: `progress.txt` records, after each pair, its index and both files' lengths; a
//! resumed run cuts the files back to the last record (a pair torn by a kill is dropped), rebuilds
//! the set of kept positions, and plays the pairs not yet played. Pair i always starts from the
//! same opening and random plies, so a resumed run plays what an uninterrupted one would.
//!
//! The two games of a pair start from the same book opening but each after its own random plies:
//! one engine on both sides at a node limit is deterministic, and from one start it played the
//! same game twice (every second game's positions were duplicates, dropped). With
//! `--random-plies 0` both games start from the opening itself.

use std::collections::{BTreeSet, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use whetstone::movegen::legal_moves;
use whetstone::Position;

use crate::dataset::binary::viri;
use crate::dataset::files::FileFormat;
use crate::dataset::formats::{format_line, Format};
use crate::dataset::pgn::{extract_unseen, PgnOptions};
use crate::dataset::stream::{self, PositionWriter as _, ReadOptions};
use crate::play::games::book::Opening;
use crate::play::games::game::{GameRecord, GameSettings, Termination};
use crate::play::games::output::GAMES_FILE;
use crate::play::games::pgn_out::{write_game, PgnContext};
use crate::play::games::pool::Flow;
use crate::play::games::runner::{self, Contestant, PairJob, PairResult};
use crate::run::game_bar;

/// The labelled positions of a run folder (EPD, the default format).
pub const POSITIONS_FILE: &str = "positions.epd";

/// What `tune datagen --format` writes the positions as.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PositionFormat {
    /// positions.epd: `<FEN> ce <score>; c9 "1-0";` (the search score from the side to move's view)
    #[default]
    Epd,
    /// positions.txt: `<FEN> | <score> | <result>` (bullet's text format, White's view)
    Text,
    /// positions.vf: viriformat game chains, for NNUE trainers (bullet, Viridithas's tools)
    Viriformat,
}

impl PositionFormat {
    pub const ALL: [PositionFormat; 3] =
        [PositionFormat::Epd, PositionFormat::Text, PositionFormat::Viriformat];

    /// The format's name, as the command line and run.json write it.
    pub fn name(self) -> &'static str {
        match self {
            PositionFormat::Epd => "epd",
            PositionFormat::Text => "text",
            PositionFormat::Viriformat => "viriformat",
        }
    }

    /// The positions file of a run folder in this format.
    pub fn file_name(self) -> &'static str {
        match self {
            PositionFormat::Epd => POSITIONS_FILE,
            PositionFormat::Text => "positions.txt",
            PositionFormat::Viriformat => "positions.vf",
        }
    }

    fn file_format(self) -> FileFormat {
        match self {
            PositionFormat::Epd => FileFormat::Epd,
            PositionFormat::Text => FileFormat::Text,
            PositionFormat::Viriformat => FileFormat::Viriformat,
        }
    }
}
impl std::fmt::Display for PositionFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for PositionFormat {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<PositionFormat, String> {
        PositionFormat::ALL
            .into_iter()
            .find(|f| f.name() == text)
            .ok_or_else(|| format!("`{text}` is no positions format (epd, text or viriformat)"))
    }
}

/// The record of finished pairs a resumed run continues from.
pub const PROGRESS_FILE: &str = "progress.txt";
/// The run folder's log of games an engine binary lost by failing, one line each.
pub const FAILURE_LOG: &str = "engine-failures.log";

/// What to generate: everything but the run folder.
pub struct DatagenPlan {
    /// What plays both sides (two independent instances per game): our engine in this process,
    /// or a UCI binary with its options.
    pub engine: Contestant,
    pub settings: GameSettings,
    /// Pair i starts from `openings[i]` and its random plies.
    pub openings: Vec<Opening>,
    /// Random plies after the book opening, drawn from `seed` and the pair's number.
    pub random_plies: usize,
    /// Plies at the start of each game record not used for positions.
    pub skip_plies: usize,
    pub seed: u64,
    pub concurrency: usize,
    /// No progress bar; a line every 100 pairs instead.
    pub quiet: bool,
    /// The PGN's `Event` tag.
    pub event: String,
    /// The positions file's format.
    pub format: PositionFormat,
}

/// What a run (this one, and with earlier ones when resumed) produced.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DatagenResults {
    pub pairs_planned: usize,
    /// Pairs finished by earlier runs of a resumed run.
    pub pairs_done_before: usize,
    pub pairs_this_run: usize,
    /// Positions in `positions.epd`.
    pub positions: usize,
    pub positions_this_run: usize,
    pub plies_this_run: usize,
    /// Games of this run an engine binary lost by failing (crash, hang, illegal move): kept in
    /// games.pgn, their positions dropped.
    pub failed_games_this_run: usize,
    /// Stopped (Ctrl-C) before every pair was played.
    pub interrupted: bool,
}

/// Checked before anything starts: resuming needs a datagen run in `dir`.
pub fn check_resumable(dir: &Path) -> Result<()> {
    let progress = dir.join(PROGRESS_FILE);
    if !progress.is_file() {
        bail!("--resume: no {} in {} (no run to resume there)", PROGRESS_FILE, dir.display());
    }
    Ok(())
}

/// Plays the plan's pairs into `dir` (those not yet played, when `resume`) until all are played
/// or `stop` is raised.
pub fn generate(plan: &DatagenPlan, dir: &Path, resume: bool, stop: &AtomicBool) -> Result<DatagenResults> {
    let pairs = plan.openings.len();
    let files = PositionFiles::new(dir, plan.format);
    let (done, mut seen) = if resume { files.restore()? } else { files.create()? };
    let todo: Vec<usize> = (0..pairs).filter(|i| !done.contains(i)).collect();
    let jobs: Vec<PairJob> = todo
        .iter()
        .map(|&i| {
            let opening = &plan.openings[i];
            let start = |game| {
                with_random_plies(&opening.fen, plan.random_plies, plan.seed, i, game)
                    .with_context(|| format!("opening {}", opening.source))
            };
            let second_start = if plan.random_plies > 0 { Some(start(1)?) } else { None };
            Ok(PairJob {
                start_fen: start(0)?,
                second_start,
                opening: opening.source.clone(),
                first: 0,
                second: 0,
            })
        })
        .collect::<Result<_>>()?;
    println!("{}: {} pairs to play ({} done)", plan.event, jobs.len(), done.len());
    let context = PgnContext::new(&plan.event, plan.settings.limit.pgn_tag());
    let options = PgnOptions { skip_plies: plan.skip_plies, resolve: false };
    let mut writer = files.writer()?;
    let bar = game_bar(2 * jobs.len() as u64, plan.quiet);
    let (mut kept, mut plies, mut played, mut failed) = (0usize, 0usize, 0usize, 0usize);
    let started = Instant::now();
    let contestants = [plan.engine.clone()];
    runner::run(&contestants, &jobs, &plan.settings, plan.concurrency, stop, |mut pair: PairResult| {
        // Jobs are numbered from 0 in this run; the pair's number in the whole run is todo's.
        pair.index = todo[pair.index];
        let (mut text, mut labelled) = (String::new(), String::new());
        for (g, game) in pair.games.iter().enumerate() {
            let round = 2 * pair.index + g + 1;
            let pgn = write_game(game, &context, round, &pair.job.opening);
            if let Some(why) = failure(game) {
                failed += 1;
                report_failure(dir, &format!("pair {} game {round}: {why}", pair.index + 1));
            } else {
                labelled.push_str(&pgn);
            }
            text.push_str(&pgn);
        }
        plies += pair.games.iter().map(|g| g.moves.len()).sum::<usize>();
        kept += writer.add_pair(pair.index, &text, &labelled, &options, &mut seen)?;
        played += 1;
        bar.inc(2);
        let rate = kept as f64 / started.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!("{kept} positions ({rate:.0}/s)"));
        if plan.quiet && pair.index % 100 == 0 {
            println!("pair {}: {kept} positions ({rate:.0}/s)", pair.index + 1);
        }
        Ok(Flow::Continue)
    })?;
    bar.finish_and_clear();
    Ok(DatagenResults {
        pairs_planned: pairs,
        pairs_done_before: done.len(),
        pairs_this_run: played,
        positions: seen.len(),
        positions_this_run: kept,
        plies_this_run: plies,
        failed_games_this_run: failed,
        interrupted: stop.load(Ordering::Relaxed) && done.len() + played < pairs,
    })
}

/// Why a game has no chess result: a side lost it by failing (not by resigning or adjudication),
/// said with the position it failed in.
fn failure(game: &GameRecord) -> Option<String> {
    if !matches!(game.termination, Termination::Crash | Termination::TimeForfeit | Termination::IllegalMove) {
        return None;
    }
    let mut pos = Position::from_fen(&game.start_fen).ok()?;
    for played in &game.moves {
        pos.make_move(played.mv);
    }
    Some(format!(
        "{} ({} against {}, after {} plies, in {}); its positions are dropped and the engine is restarted \
         for the next game",
        game.reason,
        game.white,
        game.black,
        game.moves.len(),
        pos.to_fen()
    ))
}

/// Says a failed game on the terminal and appends it to the run folder's failure log.
fn report_failure(dir: &Path, line: &str) {
    eprintln!("engine failure, {line}");
    let path = dir.join(FAILURE_LOG);
    let appended = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut file| writeln!(file, "{} {line}", crate::run::now()));
    if let Err(e) = appended {
        eprintln!("could not append to {}: {e}", path.display());
    }
}

/// The opening's FEN after `plies` random legal moves drawn for game `game` (0 or 1) of pair
/// `pair`; a line that ends the game (no legal moves) is drawn again. The first game's draw is
/// the one every earlier version made, so runs started before the second game had its own
/// plies resume with the same first games.
pub fn with_random_plies(fen: &str, plies: usize, seed: u64, pair: usize, game: usize) -> Result<String> {
    let key = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pair as u64 ^ ((game as u64) << 48);
    let mut rng = ChaCha8Rng::seed_from_u64(key);
    let start = Position::from_fen(fen).with_context(|| format!("bad FEN '{fen}'"))?;
    for _ in 0..100 {
        let mut pos = Position::from_fen(&start.to_fen()).context("FEN round trip")?;
        let mut ok = true;
        for _ in 0..plies {
            let moves = legal_moves(&pos);
            let Some(&m) = moves.as_slice().choose(&mut rng) else {
                ok = false;
                break;
            };
            pos.make_move(m);
        }
        if ok && !legal_moves(&pos).is_empty() {
            return Ok(pos.to_fen());
        }
    }
    bail!("no line of {plies} random plies from '{fen}' leaves a game to play")
}

/// A datagen run folder's files.
struct PositionFiles {
    games: PathBuf,
    positions: PathBuf,
    progress: PathBuf,
    format: PositionFormat,
}

/// The files open for appending, one finished pair at a time.
struct PositionWriter {
    games: File,
    positions: File,
    progress: File,
    format: PositionFormat,
}

impl PositionFiles {
    fn new(dir: &Path, format: PositionFormat) -> PositionFiles {
        PositionFiles {
            games: dir.join(GAMES_FILE),
            positions: dir.join(format.file_name()),
            progress: dir.join(PROGRESS_FILE),
            format,
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

    /// A resumed run: the pairs done, and the keys of the positions kept, with the files cut back
    /// to the last complete record.
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
        if positions_len > 0 {
            let options = ReadOptions { from: Some(self.format.file_format()), ..ReadOptions::default() };
            stream::read_as(&self.positions, self.format.file_format(), &options, &mut |pos, _| {
                seen.insert(pos.key());
                Ok(())
            })
            .with_context(|| format!("--resume: reading {}", self.positions.display()))?;
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

    fn writer(&self) -> Result<PositionWriter> {
        let open = |path: &Path| {
            OpenOptions::new().append(true).open(path).with_context(|| format!("opening {}", path.display()))
        };
        Ok(PositionWriter {
            games: open(&self.games)?,
            positions: open(&self.positions)?,
            progress: open(&self.progress)?,
            format: self.format,
        })
    }
}

impl PositionWriter {
    /// Appends a pair's games (`pgn`) and the new positions of those with a chess result
    /// (`labelled`), then records the pair as done. Returns the number of positions kept.
    fn add_pair(
        &mut self,
        pair: usize,
        pgn: &str,
        labelled: &str,
        options: &PgnOptions,
        seen: &mut HashSet<u64>,
    ) -> Result<usize> {
        let mut lines = String::new();
        let mut chains = viri::Writer::new(Vec::new(), "positions.vf");
        let format = self.format;
        let report = extract_unseen(labelled.as_bytes(), options, seen, |fen, label| {
            let pos = Position::from_fen(fen).map_err(|e| anyhow::anyhow!("kept position {fen}: {e}"))?;
            match format {
                PositionFormat::Epd | PositionFormat::Text => {
                    let line = if format == PositionFormat::Epd { Format::Epd } else { Format::Text };
                    lines.push_str(&format_line(&pos, label, line));
                    lines.push('\n');
                }
                PositionFormat::Viriformat => chains.write(&pos, label)?,
            }
            Ok(())
        })?;
        let (bytes, _) = chains.into_inner()?;
        if report.broken > 0 {
            bail!("a generated game does not replay: {}", report.problems.join("; "));
        }
        self.games.write_all(pgn.as_bytes()).context("writing games.pgn")?;
        self.positions.write_all(lines.as_bytes()).context("writing the positions file")?;
        self.positions.write_all(&bytes).context("writing the positions file")?;
        self.games.flush()?;
        self.positions.flush()?;
        let (g, p) = (self.games.metadata()?.len(), self.positions.metadata()?.len());
        writeln!(self.progress, "{pair} {g} {p}").context("writing progress.txt")?;
        self.progress.flush()?;
        Ok(report.kept)
    }
}

#[cfg(test)]
#[path = "datagen_tests.rs"]
mod tests;
