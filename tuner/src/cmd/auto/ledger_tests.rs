use super::*;
use crate::testutil::TempDir;
use crate::verify::VerdictOutcome;

fn row(folder: &str, outcome: VerdictOutcome) -> TestRow {
    let mut verdict = crate::run::verdict::example(outcome, false);
    verdict.games = 1786;
    verdict.wld = Some([454, 378, 954]);
    verdict.pentanomial = [38, 205, 349, 245, 56];
    TestRow {
        change: format!(
            "eval (`tune auto`, cycle 1, its texel stage): `tune texel --only 'a|b'` (`{folder}`)"
        ),
        folder: folder.to_string(),
        commit_bench: "`a5c685f`, 925788".to_string(),
        conclusion: conclusion(outcome, "kept by the loop", "not kept"),
        verdict,
    }
}

#[test]
fn a_row_reads_as_a_hand_made_tests_row() {
    let text = row("/runs/a/cycle-1/texel", VerdictOutcome::Passed).render(55);
    assert_eq!(
        text,
        "| 55 | eval (`tune auto`, cycle 1, its texel stage): `tune texel --only 'a\\|b'` (`/runs/a/cycle-1/texel`) \
         | `a5c685f`, 925788 | [0, 5] | 3 s + 0.03 s | 1,786 | 454-378-954 (pentanomial [38, 205, 349, 245, 56]) \
         | +92.0 ± 23.1 | 2.95 | passed: kept by the loop |"
    );
    assert_eq!(control_words("5000 nodes per move"), "5000 nodes per move");
    assert_eq!(
        (thousands(7), thousands(1000), thousands(1234567)),
        ("7".into(), "1,000".into(), "1,234,567".into())
    );
}

#[test]
fn rows_go_after_the_tables_last_row_numbered_on_and_only_once() {
    let dir = TempDir::new("ledger");
    let path = dir.join("tests.md");
    let table = "# Strength tests\n\n| # | change |\n| --- | --- |\n| 1 | a |\n| 51s | a screen |\n| 7 | b |\nOurs over all: 0 crashes.\n\n## Threads\n\n| threads | nps |\n| --- | --- |\n| 1 | 19 M |\n| 2 | 39 M |\n";
    std::fs::write(&path, table).unwrap();
    let rows = [
        row("/runs/x/cycle-1/texel", VerdictOutcome::Passed),
        row("/runs/x/cycle-2/texel", VerdictOutcome::Failed),
    ];
    assert_eq!(insert_rows(&path, &rows).unwrap(), vec![52, 53]);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[7].starts_with("| 52 | ") && lines[7].ends_with("| passed: kept by the loop |"), "{text}");
    assert!(lines[8].starts_with("| 53 | ") && lines[8].ends_with("| failed: not kept |"), "{text}");
    assert_eq!(lines[9], "Ours over all: 0 crashes.");
    assert_eq!(lines.last(), Some(&"| 2 | 39 M |"), "a later table's numbered rows are not the tests'");
    assert!(text.ends_with('\n'));
    // The same run finished again adds nothing; a new stage goes on from 53.
    assert_eq!(insert_rows(&path, &rows).unwrap(), Vec::<usize>::new());
    let third = row("/runs/x/cycle-3/texel", VerdictOutcome::Undecided);
    assert_eq!(insert_rows(&path, &[rows[0].clone(), third]).unwrap(), vec![54]);
    // A file without a numbered row is refused by name.
    let empty = dir.join("empty.md");
    std::fs::write(&empty, "# nothing here\n").unwrap();
    let message = format!("{:#}", insert_rows(&empty, &rows).unwrap_err());
    assert!(message.contains("empty.md") && message.contains("no table of tests"), "{message}");
    assert_eq!(
        (row_number("| --- | --- |"), row_number("text | 3 |"), row_number("| 12 | x |")),
        (None, None, Some(12))
    );
}

#[test]
fn a_row_names_what_min_evidence_kept() {
    let result = serde_json::json!({"min_evidence": 2.0, "kept": ["lmp_base", "lmr_divisor"]});
    assert_eq!(kept_words(&result), ", 2 kept by their evidence (|z| >= 2: lmp_base, lmr_divisor)");
    let none = serde_json::json!({"min_evidence": 2.5, "kept": []});
    assert_eq!(kept_words(&none), ", 0 kept by their evidence (|z| >= 2.5: none)");
    assert_eq!(kept_words(&serde_json::json!({"values_changed": 3})), "");
}
