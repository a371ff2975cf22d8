//! The subcommands end to end, on temporary files.

use clap::{CommandFactory, Parser};

use super::*;
use crate::dataset::files::FileFormat;
use crate::dataset::formats::parse_line;
use crate::dataset::load::load;
use crate::dataset::LoadOptions;
use crate::testutil::TempDir;
use std::path::Path;

/// Ten lines of the bundled TCEC sample, as the EPD writer would write them.
const EPD: &str = r#"r7/p5kp/6p1/R1p2pB1/2P1b2P/2P3P1/4PK2/8 w - - c9 "1-0";
4k3/1p4p1/p1n1p2r/2BpP1p1/3P2B1/1Q4P1/PP3q1b/K2R4 b - - c9 "0-1";
r2q1rk1/5pb1/p1np1npp/1pp1p3/P1N1P1b1/2PP1NP1/1P3PBP/R1BQR1K1 w - - c9 "1/2-1/2";
8/8/4k3/8/3K4/8/8/8 w - - c9 "1/2-1/2";
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 "1-0";
rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 c9 "0-1";
r3k2r/8/8/8/8/8/8/R3K2R w KQkq - c9 "1/2-1/2";
6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - c9 "1-0";
2r3k1/1q3pp1/4p2p/8/3Q4/6P1/5P1P/2R3K1 w - - c9 "0-1";
8/P7/8/8/8/8/6k1/4K3 w - - c9 "1-0";
"#;

/// The same clap wiring main.rs uses: `tune dataset <command>`.
#[derive(Parser, Debug)]
struct Cli {
    #[command(subcommand)]
    command: DatasetCommand,
}

#[test]
fn the_command_line_parses_with_defaults_and_help() {
    Cli::command().debug_assert();
    let parse = |args: &[&str]| Cli::try_parse_from(std::iter::once("dataset").chain(args.iter().copied()));
    assert_eq!(
        parse(&["convert", "in.pgn", "out.epd"]).unwrap().command,
        DatasetCommand::Convert {
            input: "in.pgn".into(),
            output: "out.epd".into(),
            read: ReadArgs::default(),
            write: WriteArgs::default(),
        }
    );
    let c = parse(&["import", "a", "b", "--format", "ethereal", "--skip-plies", "8", "--resolve", "--force"])
        .unwrap();
    assert!(matches!(
        c.command,
        DatasetCommand::Convert {
            write: WriteArgs { to: Some(FileFormat::Ethereal), force: true },
            read: ReadArgs { skip_plies: Some(8), resolve: true, .. },
            ..
        }
    ));
    let c = parse(&["convert", "a", "b", "--from", "viriformat", "--to", "text", "--skip-broken"]).unwrap();
    assert!(matches!(
        c.command,
        DatasetCommand::Convert {
            write: WriteArgs { to: Some(FileFormat::Text), force: false },
            read: ReadArgs { from: Some(FileFormat::Viriformat), skip_broken: true, .. },
            ..
        }
    ));
    assert_eq!(
        parse(&["split", "in", "--train", "t", "--valid", "v"]).unwrap().command,
        DatasetCommand::Split {
            input: "in".into(),
            train: "t".into(),
            valid: "v".into(),
            valid_fraction: 0.1,
            seed: 1,
            read: ReadArgs::default(),
            write: WriteArgs::default(),
        }
    );
    assert!(parse(&["stats"]).is_err(), "stats needs a file");
    assert!(parse(&["convert", "a", "b", "--format", "bin"]).is_err());
    assert!(parse(&["sample", "a", "b"]).is_err(), "sample needs --fraction or --count");
    assert!(parse(&["sample", "a", "b", "--fraction", "0.1", "--count", "3"]).is_err());
    for verb in ["filter", "dedupe", "shuffle", "merge"] {
        let args: Vec<&str> = if verb == "merge" { vec![verb, "a", "-o", "b"] } else { vec![verb, "a", "b"] };
        assert!(parse(&args).is_ok(), "{verb}");
    }
    let help = Cli::command().find_subcommand_mut("convert").unwrap().render_long_help().to_string();
    for words in
        ["--skip-plies", "--resolve", "quiescence", "--from", "--to", "--force", "viriformat", "in check"]
    {
        assert!(help.contains(words), "{words:?} not in the help:\n{help}");
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn convert_cmd(input: &Path, output: &Path, to: FileFormat) -> DatasetCommand {
    DatasetCommand::Convert {
        input: input.into(),
        output: output.into(),
        read: ReadArgs { strict: true, quiet: true, ..ReadArgs::default() },
        write: WriteArgs { to: Some(to), force: false },
    }
}

fn lenient() -> ReadArgs {
    ReadArgs { quiet: true, ..ReadArgs::default() }
}

fn to(format: FileFormat) -> WriteArgs {
    WriteArgs { to: Some(format), force: true }
}

#[test]
fn convert_round_trips_between_the_line_formats() {
    let dir = TempDir::new("convert");
    let epd = dir.path("a.epd");
    std::fs::write(&epd, EPD).unwrap();
    let (eth, csv, back) = (dir.path("b.txt"), dir.path("c.csv"), dir.path("d.epd"));
    run(&convert_cmd(&epd, &eth, FileFormat::Ethereal)).unwrap();
    run(&convert_cmd(&eth, &csv, FileFormat::Csv)).unwrap();
    run(&convert_cmd(&csv, &back, FileFormat::Epd)).unwrap();
    assert_eq!(read(&back), EPD);
    let eth_text = read(&eth);
    assert_eq!(eth_text.lines().next(), Some("r7/p5kp/6p1/R1p2pB1/2P1b2P/2P3P1/4PK2/8 w - - 0 1 [1.0]"));
    assert!(eth_text.contains("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 1 [0.0]"));
    let csv_text = read(&csv);
    assert!(csv_text.starts_with("fen,result\nr7/p5kp/6p1/R1p2pB1/2P1b2P/2P3P1/4PK2/8 w - - 0 1,1.0\n"));
    assert_eq!(csv_text.lines().count(), 11);
    // Every written line is the same position and result as its source line.
    for (a, b) in EPD.lines().zip(eth_text.lines()) {
        let (pa, oa) = parse_line(a).unwrap().unwrap();
        let (pb, ob) = parse_line(b).unwrap().unwrap();
        assert_eq!((pa.key(), oa), (pb.key(), ob), "{a} / {b}");
    }
}

#[test]
fn convert_skips_broken_lines_unless_strict_and_refuses_bad_requests() {
    let dir = TempDir::new("convert-broken");
    let input = dir.path("in.epd");
    std::fs::write(&input, format!("{EPD}8/8/8 w - - c9 \"1-0\";\n")).unwrap();
    let out = dir.path("out.epd");
    let err = run(&convert_cmd(&input, &out, FileFormat::Epd)).unwrap_err().to_string();
    assert!(err.starts_with(&format!("{}:11: bad FEN", input.display())), "{err}");
    // The failed run wrote a partial output: it is not replaced without --force.
    let err = convert(&input, &out, &lenient(), &WriteArgs::default()).unwrap_err().to_string();
    assert!(err.contains("exists: give --force"), "{err}");
    let report = convert(&input, &out, &lenient(), &to(FileFormat::Epd)).unwrap();
    assert_eq!((report.read.positions, report.read.skipped), (10, 1));
    assert_eq!(read(&out), EPD);

    let args = ReadArgs { skip_plies: Some(4), ..lenient() };
    let err = convert(&input, &out, &args, &to(FileFormat::Epd)).unwrap_err();
    assert!(err.to_string().contains("apply to PGN and archive input only"), "{err}");
    let args = ReadArgs { resolve: true, ..lenient() };
    let err = convert(&input, &out, &args, &to(FileFormat::Epd)).unwrap_err();
    assert!(err.to_string().contains("apply to PGN and archive input only"), "{err}");
    let err = convert(&input, &input, &lenient(), &to(FileFormat::Epd)).unwrap_err();
    assert!(err.to_string().contains("is the input"), "{err}");
    assert_eq!(read(&input).lines().count(), 11, "the input is untouched");
    let err = convert(&input, &dir.path("x.binpack"), &lenient(), &to(FileFormat::Binpack)).unwrap_err();
    assert!(err.to_string().contains("read only"), "{err}");
    let err = convert(&input, &dir.path("x.unknown"), &lenient(), &WriteArgs::default()).unwrap_err();
    assert!(err.to_string().contains("give --to"), "{err}");
}

#[test]
fn convert_turns_pgn_games_into_labelled_positions() {
    let dir = TempDir::new("convert-pgn");
    let pgn = dir.path("games.PGN");
    std::fs::write(&pgn, include_str!("../../../testdata/games.pgn")).unwrap();
    for format in [FileFormat::Epd, FileFormat::Ethereal, FileFormat::Csv, FileFormat::Text] {
        let out = dir.path("games.out");
        let args = ReadArgs { skip_plies: Some(8), ..lenient() };
        let report = convert(&pgn, &out, &args, &to(format)).unwrap().read.games.unwrap();
        assert_eq!((report.games, report.unfinished, report.broken), (4, 1, 0));
        assert_eq!(report.dropped(crate::dataset::pgn::Reason::Book), 8 * 3);
        let text = read(&out);
        let header = usize::from(format == FileFormat::Csv);
        assert_eq!(text.lines().count(), report.kept + header, "{report}");
        let (positions, summary) =
            load(&out, &LoadOptions { strict: true, progress: false }, |p, o| (p.key(), o)).unwrap();
        assert_eq!(summary.loaded, report.kept);
        assert_eq!(summary.by_result, report.by_result);
        let unique: std::collections::HashSet<u64> = positions.iter().map(|&(k, _)| k).collect();
        assert_eq!(unique.len(), positions.len());
    }
    // Through run(), with --resolve.
    let out = dir.path("resolved.epd");
    run(&DatasetCommand::Convert {
        input: pgn.clone(),
        output: out.clone(),
        read: ReadArgs { skip_plies: Some(0), resolve: true, ..lenient() },
        write: WriteArgs::default(),
    })
    .unwrap();
    assert!(read(&out).lines().count() > 20);
}

#[test]
fn convert_rejects_a_binary_pgn() {
    let dir = TempDir::new("convert-binary");
    let pgn = dir.path("x.pgn");
    std::fs::write(&pgn, [0x28, 0xb5, 0x2f, 0xfd, 0, 0]).unwrap();
    let err = convert(&pgn, &dir.path("o.epd"), &lenient(), &WriteArgs::default()).unwrap_err();
    assert!(err.to_string().contains("x.pgn is pgn by its extension, but its content is binary"), "{err}");
}

#[test]
fn stats_and_split_run_on_files() {
    let dir = TempDir::new("run");
    let input = dir.path("d.epd");
    std::fs::write(&input, EPD).unwrap();
    run(&DatasetCommand::Stats { files: vec![input.clone(), input.clone()], strict: true, quiet: true })
        .unwrap();
    let garbage = dir.path("g.epd");
    std::fs::write(&garbage, "hello\n").unwrap();
    let err = run(&DatasetCommand::Stats { files: vec![input.clone(), garbage], strict: false, quiet: true });
    assert!(err.unwrap_err().to_string().contains("not a labelled-position file"));

    let (train, valid) = (dir.path("t.epd"), dir.path("v.epd"));
    let split = DatasetCommand::Split {
        input: input.clone(),
        train: train.clone(),
        valid: valid.clone(),
        valid_fraction: 0.3,
        seed: 5,
        read: lenient(),
        write: WriteArgs { to: None, force: true },
    };
    run(&split).unwrap();
    let (t, v) = (read(&train), read(&valid));
    assert_eq!(t.lines().count() + v.lines().count(), 10);
    let mut all: Vec<&str> = t.lines().chain(v.lines()).collect();
    all.sort();
    let mut expected: Vec<&str> = EPD.lines().collect();
    expected.sort();
    assert_eq!(all, expected);
    run(&split).unwrap();
    assert_eq!((read(&train), read(&valid)), (t, v));
}
