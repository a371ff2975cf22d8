use super::*;
use crate::play::engines::engine_process::Protocol;
use crate::testutil::TempDir;
use std::path::PathBuf;

fn scorer(args: &[&str]) -> RescoreOptions {
    let script = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/fake_scorer.py"));
    let mut all = vec![script.display().to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    RescoreOptions {
        spec: EngineSpec {
            name: "fake-scorer".to_string(),
            command: PathBuf::from("python3"),
            args: all,
            options: Vec::new(),
            working_dir: None,
            protocol: Protocol::Uci,
        },
        limit: MoveBudget::Depth(3),
        workers: 2,
        timeout: Duration::from_secs(5),
        progress: false,
        restart_after: SEARCHES_PER_PROCESS,
    }
}

/// Positions with known fake scores: White's pawns - Black's pawns, and the empty squares.
const INPUT: &str = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1/2-1/2\";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR b KQkq - c9 \"0-1\";
rnbqkbnr/ppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ce 7; c9 \"1-0\";
rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1-0\";
rnbqkbnr/pppppp2/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - c9 \"1-0\";
";

/// What the fake scorer makes of INPUT: `ce` is the side to move's view; the queenless position
/// is a mate score and keeps no `ce` (its old one would be wrong too).
const EXPECTED: &str = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ce 32; c9 \"1/2-1/2\";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR b KQkq - ce 67; c9 \"0-1\";
rnbqkbnr/ppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ce 133; c9 \"1-0\";
rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1-0\";
rnbqkbnr/pppppp2/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - ce -234; c9 \"1-0\";
";

fn run(dir: &TempDir, options: &RescoreOptions) -> Result<(RescoreReport, String)> {
    let input = dir.path("in.epd");
    std::fs::write(&input, INPUT).unwrap();
    let output = dir.path("out.epd");
    let report = rescore(&input, &output, options, &AtomicBool::new(false))?;
    Ok((report, std::fs::read_to_string(output).unwrap()))
}

#[test]
fn scores_are_written_in_input_order_from_the_side_to_moves_view() {
    let dir = TempDir::new("rescore-order");
    let (report, text) = run(&dir, &scorer(&[])).unwrap();
    assert_eq!(text, EXPECTED);
    assert_eq!((report.resumed, report.scored, report.mates, report.failed), (0, 4, 1, 0));
    assert!(!report.interrupted);
}

#[test]
fn a_killed_run_resumes_after_the_last_whole_line() {
    let dir = TempDir::new("rescore-resume");
    // Two whole lines and a torn third, as a kill while writing leaves them.
    let torn: String =
        EXPECTED.lines().take(2).map(|l| format!("{l}\n")).collect::<String>() + "rnbqkbnr/ppp";
    std::fs::write(dir.path("out.epd"), torn).unwrap();
    let (report, text) = run(&dir, &scorer(&[])).unwrap();
    assert_eq!(text, EXPECTED);
    assert_eq!((report.resumed, report.scored, report.mates), (2, 2, 1));
}

#[test]
fn another_runs_output_is_refused_and_left_alone() {
    let dir = TempDir::new("rescore-foreign");
    let foreign = "8/8/8/8/8/8/8/K6k w - - c9 \"1/2-1/2\";\n";
    std::fs::write(dir.path("out.epd"), foreign).unwrap();
    let error = run(&dir, &scorer(&[])).unwrap_err().to_string();
    assert!(error.contains("out.epd:1") && error.contains("another run's output"), "{error}");
    assert_eq!(std::fs::read_to_string(dir.path("out.epd")).unwrap(), foreign);
}

#[test]
fn an_engine_that_dies_is_restarted_and_its_position_searched_again() {
    let dir = TempDir::new("rescore-crash");
    let flag = dir.path("crashed");
    let (report, text) = run(&dir, &scorer(&["crash-once", flag.to_str().unwrap()])).unwrap();
    assert!(flag.exists(), "the fake engine crashed once");
    assert_eq!(text, EXPECTED);
    assert_eq!(report.failed, 0);
}

#[test]
fn a_stop_before_the_first_batch_writes_nothing_and_says_so() {
    let dir = TempDir::new("rescore-stop");
    let input = dir.path("in.epd");
    std::fs::write(&input, INPUT).unwrap();
    let output = dir.path("out.epd");
    let report = rescore(&input, &output, &scorer(&[]), &AtomicBool::new(true)).unwrap();
    assert!(report.interrupted);
    assert_eq!(std::fs::read_to_string(output).unwrap(), "");
}

#[test]
fn engines_are_replaced_between_shares_after_their_searches_and_scores_stay_the_same() {
    let dir = TempDir::new("rescore-restart");
    let starts = dir.path("starts.log");
    // 600 positions on one worker are three shares (256, 256, 88); after one search a process
    // is replaced at the next share, never inside one.
    let input = dir.path("in.epd");
    std::fs::write(&input, INPUT.repeat(120)).unwrap();
    let output = dir.path("out.epd");
    let options =
        RescoreOptions { workers: 1, restart_after: 1, ..scorer(&["starts", starts.to_str().unwrap()]) };
    let report = rescore(&input, &output, &options, &AtomicBool::new(false)).unwrap();
    assert_eq!(std::fs::read_to_string(output).unwrap(), EXPECTED.repeat(120));
    assert_eq!((report.scored, report.mates, report.failed), (480, 120, 0));
    let started = std::fs::read_to_string(&starts).unwrap().lines().count();
    assert_eq!(started, 3, "one process per share");
}
