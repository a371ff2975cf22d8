//! Tests of `play/games/identity.rs`.

use super::*;
use crate::testutil::TempDir;

#[derive(Serialize)]
struct Inner {
    seed: u64,
    quiet: bool,
}

#[derive(Serialize)]
struct Options {
    engine: String,
    engine_option: Vec<String>,
    book: Option<String>,
    tc: Option<String>,
    out: String,
    play: Inner,
}

#[test]
fn options_become_flags_with_files_named_by_their_content() {
    let dir = TempDir::new("identity");
    let engine = dir.path("engine.toml");
    std::fs::write(&engine, "a = 1\n").unwrap();
    let options = |seed| Options {
        engine: engine.display().to_string(),
        engine_option: vec!["Hash=1".into(), "Threads=1".into()],
        book: None,
        tc: Some("10+0.1".into()),
        out: "reports/x".into(),
        play: Inner { seed, quiet: true },
    };
    let identity = |seed| RunIdentity::from_options(&options(seed), &["out", "quiet"], &["engine", "book"]);
    let first = identity(1).unwrap();
    let names: Vec<&str> = first.0.keys().map(String::as_str).collect();
    assert_eq!(names, ["--book", "--engine", "--engine-option", "--seed", "--tc"]);
    assert_eq!(first.0["--engine-option"], "Hash=1 Threads=1");
    assert_eq!(first.0["--book"], "none");
    assert!(first.0["--engine"].contains("6 bytes, content"), "{}", first.0["--engine"]);
    let dotted = dir.path(".").join("engine.toml");
    assert_eq!(describe_file(&dotted).unwrap(), describe_file(&engine).unwrap(), "one file, two spellings");
    assert!(first.differences(&identity(1).unwrap()).is_empty());
    assert_eq!(first.differences(&identity(2).unwrap()), ["--seed: was `1`, now `2`"]);
    // The same path with other content is another engine.
    std::fs::write(&engine, "a = 2\n").unwrap();
    let changed = first.differences(&identity(1).unwrap());
    assert_eq!(changed.len(), 1);
    assert!(changed[0].starts_with("--engine: was"), "{changed:?}");
    let mut fewer = first.clone();
    fewer.0.remove("--tc");
    assert_eq!(first.differences(&fewer), ["--tc: was `10+0.1`, now not an option"]);
}

#[test]
fn the_content_hash_sees_every_byte_and_the_length() {
    let base = content_hash(b"abcdefghij");
    assert_ne!(base, content_hash(b"abcdefghik"));
    assert_ne!(base, content_hash(b"abcdefghij\0"));
    assert_eq!(base, content_hash(b"abcdefghij"));
}
