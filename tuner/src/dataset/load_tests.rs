//! Tests of `dataset/load.rs`.

use super::*;
use crate::dataset::formats::parse_line;
use crate::dataset::Outcome;
use crate::testutil::TempDir;

const EPD: &str = "r7/p5kp/6p1/R1p2pB1/2P1b2P/2P3P1/4PK2/8 w - - c9 \"1-0\";";
const ETHEREAL: &str = "4k3/1p4p1/p1n1p2r/2BpP1p1/3P2B1/1Q4P1/PP3q1b/K2R4 b - - 0 30 [0.0]";
const PIPE: &str = "r2q1rk1/5pb1/p1np1npp/1pp1p3/P1N1P1b1/2PP1NP1/1P3PBP/R1BQR1K1 w - - | 1/2-1/2";

fn write(dir: &TempDir, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.path(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn fens(path: &Path, options: &LoadOptions, block: usize) -> Result<(Vec<(String, Outcome)>, LoadSummary)> {
    load_blocks(path, options, |pos, l| (pos.to_fen(), l.outcome), block)
}

const LENIENT: LoadOptions = LoadOptions { strict: false, progress: false };
const STRICT: LoadOptions = LoadOptions { strict: true, progress: false };

#[test]
fn values_come_back_in_file_order_whatever_the_block_size() {
    let dir = TempDir::new("load-order");
    // 3000 lines cycling through three formats, blanks, comments, CRLF and a bad line every 7th.
    let mut text = String::from("# header comment\n");
    let mut expected = Vec::new();
    for i in 0..3000 {
        if i % 7 == 3 {
            text.push_str(&format!("{EPD} bad{i}\n").replace("c9", "c8"));
            continue;
        }
        let line = [EPD, ETHEREAL, PIPE][i % 3];
        text.push_str(line);
        text.push_str(if i % 2 == 0 { "\r\n" } else { "\n" });
        if i % 11 == 0 {
            text.push_str("\n   \n");
        }
        expected.push(i % 3);
    }
    text.push_str(PIPE); // no final newline
    expected.push(2);
    let path = write(&dir, "order.txt", text.as_bytes());
    let line_fen: Vec<(String, Outcome)> = [EPD, ETHEREAL, PIPE]
        .iter()
        .map(|l| parse_line(l).unwrap().map(|(p, o)| (p.to_fen(), o)).unwrap())
        .collect();
    let expected: Vec<(String, Outcome)> = expected.iter().map(|&k| line_fen[k].clone()).collect();
    let mut reference = None;
    for block in [64, 100, 1000, 4096, BLOCK_BYTES] {
        let (values, summary) = fens(&path, &LENIENT, block).unwrap();
        assert_eq!(values, expected, "block {block}");
        assert_eq!(summary.loaded, expected.len());
        assert_eq!(summary.skipped, (0..3000).filter(|i| i % 7 == 3).count());
        assert_eq!(summary.lines, text.lines().count());
        match &reference {
            None => reference = Some(summary),
            Some(r) => assert_eq!(&summary, r, "block {block}"),
        }
    }
    let summary = reference.unwrap();
    assert_eq!(summary.problems.len(), MAX_PROBLEMS);
    let wins = expected.iter().filter(|(_, o)| *o == 1.0).count();
    let losses = expected.iter().filter(|(_, o)| *o == 0.0).count();
    assert_eq!(summary.by_result, [losses, expected.len() - wins - losses, wins]);
}

#[test]
fn broken_lines_are_reported_with_file_and_line_and_counted() {
    let dir = TempDir::new("load-problems");
    let mut bytes = Vec::new();
    for line in [
        EPD,
        "",
        "# comment",
        "r7/p5kp/6p1/R1p2pB1/2P1b2P/2P3P1/4PK2/8 w - - bm Kg1;",
        "8/8/8/8 w - - [1.0]",
        ETHEREAL,
    ] {
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(b"\xff\xfe");
    bytes.extend_from_slice(format!("{PIPE}\n{PIPE}\n").as_bytes());
    let path = write(&dir, "p.epd", &bytes);
    let name = path.display().to_string();
    let (values, summary) = fens(&path, &LENIENT, BLOCK_BYTES).unwrap();
    assert_eq!(values.len(), 3, "{summary}");
    assert_eq!((summary.lines, summary.loaded, summary.skipped), (8, 3, 3));
    assert_eq!(summary.problems.len(), 3);
    assert!(summary.problems[0].starts_with(&format!("{name}:4: EPD operations")), "{:?}", summary.problems);
    assert!(summary.problems[1].starts_with(&format!("{name}:5: bad FEN")), "{:?}", summary.problems);
    assert!(summary.problems[2].starts_with(&format!("{name}:7: not UTF-8")), "{:?}", summary.problems);
    assert_eq!(summary.by_result, [1, 1, 1]);
    let shown = summary.to_string();
    assert!(
        shown.starts_with("3 positions (1-0 1, 1/2 1, 0-1 1) from 8 lines; 3 broken lines skipped"),
        "{shown}"
    );

    // Strict: the first broken line is the error.
    let err = fens(&path, &STRICT, BLOCK_BYTES).unwrap_err().to_string();
    assert_eq!(err, summary.problems[0]);
    let err = fens(&path, &STRICT, 64).unwrap_err().to_string();
    assert_eq!(err, summary.problems[0]);
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let dir = TempDir::new("load-bom");
    let path = write(&dir, "bom.epd", format!("\u{feff}{EPD}\n{PIPE}\n").as_bytes());
    let (values, summary) = fens(&path, &STRICT, BLOCK_BYTES).unwrap();
    assert_eq!((values.len(), summary.lines), (2, 2));
}

#[test]
fn strict_aborts_on_the_first_bad_line_even_late_in_a_big_file() {
    let dir = TempDir::new("load-strict");
    let mut text = format!("{EPD}\n").repeat(5000);
    text.push_str("8/8/8/8/8/8/8/8 w - - c9 \"1-0\";\n");
    text.push_str(&format!("{EPD}\n").repeat(10));
    text.push_str("garbage\n");
    let path = write(&dir, "s.epd", text.as_bytes());
    let err = fens(&path, &STRICT, 4096).unwrap_err().to_string();
    assert!(err.starts_with(&format!("{}:5001: bad FEN", path.display())), "{err}");
    assert!(err.contains("kings"), "{err}");
    let (values, summary) = fens(&path, &LENIENT, 4096).unwrap();
    assert_eq!((values.len(), summary.skipped), (5010, 2));
}

#[test]
fn a_gzip_file_loads_as_its_text_does() {
    use std::io::Write;
    let dir = TempDir::new("load-gzip");
    let text = format!("{EPD}\n{ETHEREAL}\nbad line\n{PIPE}\n").repeat(500);
    let plain = write(&dir, "d.epd", text.as_bytes());
    // Two gzip members, as `cat a.gz b.gz` makes: both are read.
    let mut gz = Vec::new();
    for half in [&text[..text.len() / 2], &text[text.len() / 2..]] {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(half.as_bytes()).unwrap();
        gz.extend(encoder.finish().unwrap());
    }
    let packed = write(&dir, "d.epd.gz", &gz);
    let (expected, plain_summary) = fens(&plain, &LENIENT, BLOCK_BYTES).unwrap();
    for block in [100, BLOCK_BYTES] {
        let (values, summary) = fens(&packed, &LENIENT, block).unwrap();
        assert_eq!(values, expected, "block {block}");
        assert_eq!(
            (summary.loaded, summary.skipped, summary.lines),
            (plain_summary.loaded, plain_summary.skipped, plain_summary.lines)
        );
    }
    assert_eq!(plain_summary.skipped, 500);
}

#[test]
fn files_that_are_not_datasets_are_rejected_at_once() {
    let dir = TempDir::new("load-reject");
    let mut binary: Vec<u8> = (0..=255u8).cycle().take(100_000).collect();
    binary[..EPD.len()].copy_from_slice(EPD.as_bytes());
    let path = write(&dir, "bin.epd", &binary);
    let err = fens(&path, &LENIENT, BLOCK_BYTES).unwrap_err().to_string();
    assert!(err.contains("is binary") && err.contains("NUL byte"), "{err}");

    let path = write(&dir, "zst.epd", b"\x28\xb5\x2f\xfdrest");
    let err = fens(&path, &LENIENT, BLOCK_BYTES).unwrap_err().to_string();
    assert!(err.contains("zstd-compressed"), "{err}");
    // A broken gzip file is an error that names it, not an empty dataset.
    let path = write(&dir, "broken.epd.gz", b"\x1f\x8b\x08\x00rest");
    let err = format!("{:#}", fens(&path, &LENIENT, BLOCK_BYTES).unwrap_err());
    assert!(err.contains("reading") && err.contains("broken.epd.gz"), "{err}");

    // Text, but no dataset: 100 lines that do not parse, then good ones.
    let mut text = "The quick brown fox jumps over the lazy dog.\n".repeat(100);
    text.push_str(&format!("{EPD}\n").repeat(100));
    let path = write(&dir, "prose.txt", text.as_bytes());
    for block in [64, BLOCK_BYTES] {
        let err = fens(&path, &LENIENT, block).unwrap_err().to_string();
        assert!(err.contains("is not a labelled-position file: none of its first 100"), "{err}");
        assert!(err.contains("prose.txt:1: bad FEN"), "{err}");
    }
    // 99 bad lines and then a good one: a dataset with problems.
    let mut text = "The quick brown fox.\n".repeat(99);
    text.push_str(&format!("{EPD}\n"));
    let path = write(&dir, "almost.txt", text.as_bytes());
    let (values, summary) = fens(&path, &LENIENT, BLOCK_BYTES).unwrap();
    assert_eq!((values.len(), summary.skipped), (1, 99));

    // A few lines, none good; an empty file; comments only; a missing file.
    let path = write(&dir, "few.txt", b"a b c\nd e f\n");
    let err = fens(&path, &LENIENT, BLOCK_BYTES).unwrap_err().to_string();
    assert!(err.contains("none of its 2 position lines parse"), "{err}");
    let path = write(&dir, "empty.epd", b"");
    let err = fens(&path, &LENIENT, BLOCK_BYTES).unwrap_err().to_string();
    assert!(err.contains("holds no positions (0 lines"), "{err}");
    let path = write(&dir, "comments.epd", b"# nothing\n\n# here\n");
    let err = fens(&path, &LENIENT, BLOCK_BYTES).unwrap_err().to_string();
    assert!(err.contains("holds no positions (3 lines"), "{err}");
    let err = fens(&dir.path("missing.epd"), &LENIENT, BLOCK_BYTES).unwrap_err().to_string();
    assert!(err.contains("cannot open"), "{err}");
}

#[test]
fn the_public_load_maps_every_position() {
    let dir = TempDir::new("load-public");
    let path = write(&dir, "x.epd", format!("{EPD}\n{ETHEREAL}\n").as_bytes());
    let (values, summary) =
        crate::dataset::load::load(&path, &LoadOptions { strict: true, progress: true }, |pos, o| {
            (whetstone::eval::phase(pos), o)
        })
        .unwrap();
    assert_eq!(values.len(), 2);
    assert_eq!(values[1].1, 0.0);
    assert_eq!(summary.loaded, 2);
}

/// Load speed on the 1M-position TCEC file, one thread, mapping to `()`:
/// `WHETSTONE_MEASURE=1 cargo test --release -p whetstone-tuner -- --ignored load_speed --nocapture`.
#[test]
#[ignore]
fn load_speed() {
    if !crate::testutil::measuring("load_speed") {
        return;
    }
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/texel/tcec-quiet-labeled-1m.epd");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let start = std::time::Instant::now();
    let (values, summary) = pool.install(|| load(&path, &LoadOptions::default(), |_, _| ())).unwrap();
    let seconds = start.elapsed().as_secs_f64();
    assert_eq!((values.len(), summary.skipped), (1_000_000, 0));
    println!(
        "load_speed: {} positions in {seconds:.2} s on 1 thread: {:.0} positions/s",
        summary.loaded,
        summary.loaded as f64 / seconds
    );
}
