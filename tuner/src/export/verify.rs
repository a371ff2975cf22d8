//! The verdict at the end of a tuning run (`--verify`): the tuned values play the values the run
//! started from, in this process, through the match runner, as an SPRT on pentanomial pairs, at a
//! clock (or fixed nodes to screen), until the SPRT decides or the game cap is reached
//! ("undecided"). The match lives in the run folder's `verify/` (games.pgn, journal.jsonl), so a
//! killed verification continues with the run's `--resume`. `--bake` then bakes the result into
//! the engine build only when the SPRT passed.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};
use whetstone::eval::Weights;
use whetstone::search::SearchParams;

use super::Found;
use crate::play::args::PlayArgs;
use crate::play::game::GameSettings;
use crate::play::identity::RunIdentity;
use crate::play::inprocess::EngineSetup;
use crate::play::limit::MoveLimit;
use crate::play::match_run::{play_match, MatchPlan};
use crate::play::runner::Contestant;
use crate::play::stats::{EloModel, Sprt, SprtDecision};
use crate::run::RunDir;

/// The verification options every tuner shares.
#[derive(clap::Args, Debug, Clone, Serialize, Deserialize)]
pub struct VerifyArgs {
    /// After tuning, play the tuned values against the starting ones (an SPRT on game pairs) and
    /// end with the verdict: Elo ± 95%, LLR and bounds, pentanomial, games. Written to result.json
    /// and run.json, printed last, shown first in the report.
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    #[serde(flatten)]
    pub games: VerifyGames,
    /// Bake the result into the engine build (src/eval/baked.rs, src/search/baked.rs,
    /// engine.toml) when, and only when, the verification's SPRT passed.
    #[arg(long, requires = "verify")]
    pub bake: bool,
}

/// The clock of a verification when neither --verify-tc nor --verify-nodes is given.
pub const DEFAULT_VERIFY_TC: &str = "3+0.03";

/// How a verification plays and decides: shared by every tuner's `--verify` and by the stages of
/// `tune auto`.
#[derive(clap::Args, Debug, Clone, Serialize, Deserialize)]
pub struct VerifyGames {
    /// Clock of the verification games, seconds + increment per move [default: 3+0.03, unless
    /// --verify-nodes is given].
    #[arg(long, value_name = "TC")]
    pub verify_tc: Option<String>,
    /// Nodes per move instead of the clock (to screen quickly; gains at fixed nodes did not always
    /// hold at a clock).
    #[arg(long, value_name = "N")]
    pub verify_nodes: Option<u64>,
    /// Games after which an SPRT that has not decided stops: the verdict is "undecided".
    #[arg(long, default_value_t = 2000, value_name = "N")]
    pub verify_games: u64,
    /// SPRT bounds in normalized Elo: H0 elo0, H1 elo1 (a gainer by default).
    #[arg(long, num_args = 2, default_values_t = [0.0, 5.0], value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    pub verify_bounds: Vec<f64>,
    /// False-positive and false-negative rates of the SPRT (alpha = beta).
    #[arg(long, default_value_t = 0.05, value_name = "P")]
    pub verify_error: f64,
}

impl VerifyGames {
    /// The options as a tuner's command line takes them, with `--verify`.
    pub fn words(&self) -> Vec<String> {
        let mut words = vec!["--verify".to_string(), "--verify-games".into(), self.verify_games.to_string()];
        if let Some(tc) = &self.verify_tc {
            words.extend(["--verify-tc".into(), tc.clone()]);
        } else if let Some(n) = self.verify_nodes {
            words.extend(["--verify-nodes".into(), n.to_string()]);
        }
        words.push("--verify-bounds".into());
        words.extend(self.verify_bounds.iter().map(|b| b.to_string()));
        words.extend(["--verify-error".into(), self.verify_error.to_string()]);
        words
    }

    fn sprt(&self) -> Result<Sprt> {
        let [elo0, elo1] = self.verify_bounds[..] else { bail!("--verify-bounds takes ELO0 ELO1") };
        Sprt::new(elo0, elo1, self.verify_error, self.verify_error, EloModel::Normalized)
            .map_err(|e| anyhow::anyhow!("--verify-bounds/--verify-error: {e}"))
    }

    /// A clock given wins over nodes (`tune auto` defaults to nodes); neither: the default clock.
    pub fn limit(&self) -> Result<MoveLimit> {
        match (&self.verify_tc, self.verify_nodes) {
            (Some(tc), _) => MoveLimit::from_flags(None, None, Some(tc)),
            (None, Some(n)) => MoveLimit::from_flags(Some(n), None, None),
            (None, None) => MoveLimit::from_flags(None, None, Some(DEFAULT_VERIFY_TC)),
        }
    }
}

/// How a verification ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// H1 accepted: the tuned values gain at least elo1 (with the SPRT's error rates).
    Passed,
    /// H0 accepted: they do not gain elo0.
    Failed,
    /// The game cap (or Ctrl-C) came first.
    Undecided,
}

/// What the verification measured, as written to result.json and run.json.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    pub outcome: Outcome,
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub elo_error: f64,
    pub llr: f64,
    /// The LLR's stopping bounds (ln(beta/(1-alpha)), ln((1-beta)/alpha)).
    pub llr_bounds: [f64; 2],
    pub elo_bounds: [f64; 2],
    pub games: u64,
    pub pentanomial: [u64; 5],
    /// The clock or node count, and what the tuned values played.
    pub control: String,
    pub opponent: String,
}

impl Verdict {
    /// The run's last lines.
    pub fn lines(&self) -> String {
        let outcome = match self.outcome {
            Outcome::Passed => "PASSED",
            Outcome::Failed => "FAILED",
            Outcome::Undecided => "UNDECIDED",
        };
        format!(
            "verdict: {outcome}: {:+.1} ± {:.1} Elo over {} games against {} at {}\n\
             SPRT [{:.1}, {:.1}]: LLR {:.2} (bounds {:.2}, {:.2}), pentanomial {:?}",
            self.elo,
            self.elo_error,
            self.games,
            self.opponent,
            self.control,
            self.elo_bounds[0],
            self.elo_bounds[1],
            self.llr,
            self.llr_bounds[0],
            self.llr_bounds[1],
            self.pentanomial
        )
    }
}

impl VerifyArgs {
    /// The options as a command line without any of them sets them: no verification.
    #[cfg(test)]
    pub fn defaults() -> VerifyArgs {
        crate::run::clap_defaults()
    }

    /// Checks that need no games, before the run starts.
    pub fn check(&self) -> Result<()> {
        if !self.verify {
            return Ok(());
        }
        self.games.sprt()?;
        self.games.limit()?;
        if self.games.verify_games < 2 {
            bail!("--verify-games must allow at least one game pair");
        }
        Ok(())
    }
}

impl VerifyArgs {
    /// Checked once the set-up is made, before the run: a verification plays our engine in
    /// process, so the run must tune values of our params files, not a `--space` of another
    /// program's (whose result `tune match` measures: see docs/tuning.md).
    pub fn check_setup(&self, setup: &crate::fitness::setup::Setup) -> Result<()> {
        if self.verify && !setup.from_params {
            bail!(
                "--verify plays the tuned values of our params files in process; a --space run (--fitness \
                 command or engine) has none: measure its result with tune match (for an engine: \
                 --engine-option Name=Value for each tuned value against --opponent-option Name=start)"
            );
        }
        Ok(())
    }
}

/// Plays the tuned values of `found` against its start into `run`'s `verify/` folder (continuing
/// its journal when `resume`), with the book, adjudication, hash and threads of `play`.
pub fn verify(
    run: &RunDir,
    found: &Found,
    args: &VerifyArgs,
    play: &PlayArgs,
    resume: bool,
    stop: &AtomicBool,
) -> Result<Verdict> {
    let sprt = args.games.sprt()?;
    let limit = args.games.limit()?;
    let engine = |name: &str, tuned: bool| {
        let eval = if tuned { found.eval.as_ref() } else { None }.unwrap_or(&found.start_eval);
        let search = if tuned { found.search.as_ref() } else { None }.unwrap_or(&found.start_search);
        let mut setup = EngineSetup::built_in(name);
        setup.weights = Arc::new(Weights::from_params(eval));
        setup.search = Arc::new(SearchParams::from_set(search));
        if let Some(mb) = play.hash {
            setup.hash_mb = mb;
        }
        Contestant::InProcess(setup)
    };
    let (openings, _) = play.openings()?;
    let pairs = (args.games.verify_games / 2).max(1) as usize;
    let settings = GameSettings {
        limit,
        adjudication: play.adjudication(),
        time_margin: Duration::from_millis(play.time_margin),
        hang_timeout: Duration::from_secs(60),
    };
    let identity = RunIdentity::from_options(
        &serde_json::json!({
            "verify": args,
            "tuned_values": found.eval.as_ref().map(|e| e.values()),
            "tuned_search": found.search.as_ref().map(|s| s.values()),
            "book": play.book,
            "seed": play.seed,
        }),
        &["verify_games", "bake"],
        &["book"],
    )?;
    let plan = MatchPlan {
        contestants: [engine("tuned", true), engine("start", false)],
        settings,
        jobs: play.match_jobs(&openings, pairs)?,
        sprt: Some(sprt),
        concurrency: play.concurrency(),
        quiet: play.quiet,
        event: "whetstone verification".into(),
        identity,
    };
    let dir = run.file("verify");
    let resume = resume && dir.join(crate::play::journal::JOURNAL_FILE).exists();
    eprintln!(
        "verifying: the tuned values against the start, SPRT [{}, {}] at {limit}",
        args.games.verify_bounds[0], args.games.verify_bounds[1]
    );
    let outcome = play_match(&plan, &dir, resume, stop)?;
    let tally = &outcome.tally;
    if outcome.interrupted {
        bail!(
            "verification interrupted after {} games; the run's --resume continues it (nothing is lost)",
            tally.games()
        );
    }
    let elo = tally.elo();
    let llr = tally.llr(&sprt);
    let (lower, upper) = sprt.bounds();
    Ok(Verdict {
        outcome: match sprt.decision(llr) {
            Some(SprtDecision::AcceptH1) => Outcome::Passed,
            Some(SprtDecision::AcceptH0) => Outcome::Failed,
            None => Outcome::Undecided,
        },
        elo: elo.elo,
        elo_error: elo.error,
        llr,
        llr_bounds: [lower, upper],
        elo_bounds: [args.games.verify_bounds[0], args.games.verify_bounds[1]],
        games: tally.games(),
        pentanomial: tally.pentanomial.0,
        control: limit.to_string(),
        opponent: "the starting values".into(),
    })
}

/// `--bake`: the run's tuned files into the engine build under `root`, when the SPRT passed;
/// otherwise says why and leaves the build untouched. Returns whether it baked.
pub fn bake_if_passed(run: &RunDir, found: &Found, verdict: &Verdict, root: &Path) -> Result<bool> {
    if found.eval.is_none() && found.search.is_none() {
        bail!("--bake: the run tuned no params file (an OpenBench space), so there is nothing to bake");
    }
    if verdict.outcome != Outcome::Passed {
        eprintln!(
            "not baked: the verification {} (baking needs a passed SPRT); the engine build is untouched",
            match verdict.outcome {
                Outcome::Failed => "failed",
                _ => "did not decide",
            }
        );
        return Ok(false);
    }
    super::bake::bake(&super::bake::Bake {
        params: found.eval.as_ref().map(|_| run.file("tuned.toml")),
        search_params: found.search.as_ref().map(|_| run.file("search.toml")),
        root: root.to_path_buf(),
        toml: run.file("baked-eval.toml"),
        search_toml: run.file("baked-search.toml"),
        no_build: false,
    })?;
    Ok(true)
}

#[cfg(test)]
pub(crate) mod tests {
    use clap::Parser;
    use whetstone::eval::EvalParamSet;
    use whetstone::search::SearchParamSet;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        play: PlayArgs,
        #[command(flatten)]
        verify: VerifyArgs,
    }

    fn cli(extra: &[&str]) -> Cli {
        let argv = ["tune", "--concurrency", "2", "--quiet", "--verify", "--verify-nodes", "400"];
        Cli::parse_from(argv.iter().chain(extra))
    }

    /// Every piece worth one centipawn: an engine that gives its pieces away.
    fn crippled() -> EvalParamSet {
        let baked = EvalParamSet::baked();
        let mut values = baked.values();
        for slot in baked.select(&["material"]).unwrap() {
            values[slot] = 1;
        }
        baked.with_values(&values)
    }

    fn found(start: EvalParamSet, tuned: EvalParamSet) -> Found {
        Found {
            start_eval: start,
            start_search: SearchParamSet::baked(),
            eval: Some(tuned),
            search: None,
            values: Vec::new(),
            frozen: Vec::new(),
            games: 0,
            measured: serde_json::json!({}),
            space_moved: false,
        }
    }

    /// A repository root with the shipped engine.toml and params files, for baking into.
    pub(crate) fn scratch_root(dir: &Path) -> std::path::PathBuf {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let root = dir.join("root");
        std::fs::create_dir_all(root.join("params")).unwrap();
        for file in ["engine.toml", "params/eval.toml", "params/search.toml"] {
            std::fs::copy(repo.join(file), root.join(file)).unwrap();
        }
        root
    }

    #[test]
    fn a_loss_fails_and_is_not_baked_and_a_gain_passes_and_is_baked() {
        let dir = std::env::temp_dir().join(format!("whetstone-verify-{}", std::process::id()));
        let root = scratch_root(&dir);
        let args = cli(&["--bake"]);

        let worse = RunDir::create(&dir.join("worse")).unwrap();
        let lost = found(EvalParamSet::baked(), crippled());
        super::super::finish_run(&worse, &lost).unwrap();
        let verdict =
            verify(&worse, &lost, &args.verify, &args.play, false, &AtomicBool::new(false)).unwrap();
        assert_eq!(verdict.outcome, Outcome::Failed, "{}", verdict.lines());
        assert!(verdict.elo < 0.0 && verdict.llr <= verdict.llr_bounds[0], "{}", verdict.lines());
        assert!(!bake_if_passed(&worse, &lost, &verdict, &root).unwrap());
        assert!(!root.join("src/eval/baked.rs").exists(), "a failed verification bakes nothing");

        let better = RunDir::create(&dir.join("better")).unwrap();
        let gained = found(crippled(), EvalParamSet::baked());
        super::super::finish_run(&better, &gained).unwrap();
        let verdict =
            verify(&better, &gained, &args.verify, &args.play, false, &AtomicBool::new(false)).unwrap();
        assert_eq!(verdict.outcome, Outcome::Passed, "{}", verdict.lines());
        assert!(verdict.lines().starts_with("verdict: PASSED"), "{}", verdict.lines());
        assert!(bake_if_passed(&better, &gained, &verdict, &root).unwrap());
        let baked = std::fs::read_to_string(root.join("src/eval/baked.rs")).unwrap();
        assert!(baked.contains("tuned.toml"), "the module names the run's file");
        // Resuming a decided verification plays nothing more and reaches the same verdict.
        let again =
            verify(&better, &gained, &args.verify, &args.play, true, &AtomicBool::new(false)).unwrap();
        assert_eq!((again.games, again.outcome), (verdict.games, Outcome::Passed));
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A verification stopped mid-way (Ctrl-C) is an error, not a verdict; resumed, it ends where
    /// an uninterrupted one ends (one thread, so pairs finish in order).
    #[test]
    fn an_interrupted_verification_resumes_to_the_uninterrupted_verdict() {
        let dir = std::env::temp_dir().join(format!("whetstone-verify-resume-{}", std::process::id()));
        let mut args = cli(&["--verify-bounds", "0", "40"]);
        args.play.concurrency = Some(1);
        let gained = found(crippled(), EvalParamSet::baked());
        let straight_run = RunDir::create(&dir.join("straight")).unwrap();
        let straight =
            verify(&straight_run, &gained, &args.verify, &args.play, false, &AtomicBool::new(false)).unwrap();
        let run = RunDir::create(&dir.join("halted")).unwrap();
        assert!(straight.games >= 20, "the SPRT must outlast the halt: {}", straight.lines());
        let (stop, finished) = (AtomicBool::new(false), AtomicBool::new(false));
        let journal = run.file("verify").join(crate::play::journal::JOURNAL_FILE);
        let halted = std::thread::scope(|s| {
            s.spawn(|| {
                // Raise the flag once a few pairs are in the journal (its first line is the identity).
                while !finished.load(std::sync::atomic::Ordering::SeqCst)
                    && std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 4
                {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                stop.store(true, std::sync::atomic::Ordering::SeqCst);
            });
            let result = verify(&run, &gained, &args.verify, &args.play, false, &stop);
            finished.store(true, std::sync::atomic::Ordering::SeqCst);
            result
        });
        let e = halted.expect_err("an interrupted verification has no verdict");
        assert!(format!("{e:#}").contains("--resume continues it"), "{e:#}");
        let resumed = verify(&run, &gained, &args.verify, &args.play, true, &AtomicBool::new(false)).unwrap();
        assert_eq!(
            (resumed.outcome, resumed.games, resumed.pentanomial),
            (straight.outcome, straight.games, straight.pentanomial)
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn bad_verification_options_are_refused_before_the_run() {
        assert!(cli(&["--verify-bounds", "5", "0"]).verify.check().is_err());
        assert!(cli(&["--verify-games", "1"]).verify.check().is_err());
        let no_verify = Cli::try_parse_from(["tune", "--bake"]);
        assert!(no_verify.is_err(), "--bake needs --verify");
        let tc = Cli::parse_from(["tune", "--verify", "--verify-tc", "nonsense"]);
        assert!(tc.verify.check().is_err());
    }
}
