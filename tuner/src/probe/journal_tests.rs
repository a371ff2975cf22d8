//! Tests of `probe/journal.rs`.

use super::*;
use crate::testutil::TempDir;

#[test]
fn a_journal_resumes_drops_a_torn_line_and_refuses_another_run() {
    let dir = TempDir::new("probe-journal");
    let path = dir.join("probe.jsonl");
    let _ = std::fs::remove_file(&path);
    let id = serde_json::json!({"engine": "toy", "options": ["a"]});
    let (mut journal, done) = Journal::open::<f64>(&path, &id).unwrap();
    assert!(done.is_empty());
    journal.record(0, 0, &[Some(1.5), None]).unwrap();
    journal.record(1, 0, &[Some(-2.0), Some(3.0)]).unwrap();
    drop(journal);
    // A kill in the middle of a line.
    let mut file = OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(b"{\"setting\":2,\"chu").unwrap();
    drop(file);
    let (mut journal, done) = Journal::open::<f64>(&path, &id).unwrap();
    assert_eq!(done.len(), 2);
    assert_eq!(done[&(0, 0)], [Some(1.5), None]);
    journal.record(2, 0, &[Some(0.0), Some(0.0)]).unwrap();
    drop(journal);
    let (_, done) = Journal::open::<f64>(&path, &id).unwrap();
    assert_eq!(done.len(), 3);
    let other = serde_json::json!({"engine": "other"});
    let error = Journal::open::<f64>(&path, &other).err().unwrap().to_string();
    assert!(error.contains("belongs to another run"), "{error}");
}
