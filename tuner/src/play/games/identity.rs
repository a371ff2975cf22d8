//! What defines a resumable game run: the options whose change would change the games (engines,
//! limits, book, seed, adjudication), recorded when the run starts and compared when it resumes,
//! so a resumed run never mixes games of two different matches.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use whetstone::types::{mix64, GOLDEN_GAMMA};

/// Option name (as the user gives it, `--nodes`) → value as text. A file's value names its content
/// too, so a params file or engine binary changed under the same name differs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunIdentity(pub BTreeMap<String, String>);

impl RunIdentity {
    /// The options of a command-line struct (its serde form; nested structs flattened), each
    /// field `some_name` as `--some-name`, leaving out `skip` (options that do not change the
    /// games: threads, output, progress) and describing the fields in `files` by their content.
    pub fn from_options(options: &impl Serialize, skip: &[&str], files: &[&str]) -> Result<RunIdentity> {
        let value = serde_json::to_value(options).context("serialising the options")?;
        let mut identity = RunIdentity::default();
        identity.add_object(&value, skip, files)?;
        Ok(identity)
    }

    fn add_object(&mut self, value: &serde_json::Value, skip: &[&str], files: &[&str]) -> Result<()> {
        let serde_json::Value::Object(map) = value else { bail!("the options are not a struct") };
        for (name, value) in map {
            if skip.contains(&name.as_str()) {
                continue;
            }
            if value.is_object() {
                self.add_object(value, skip, files)?;
                continue;
            }
            let text = if files.contains(&name.as_str()) {
                match value {
                    serde_json::Value::String(path) => describe_file(Path::new(path))?,
                    _ => text_of(value),
                }
            } else {
                text_of(value)
            };
            self.0.insert(format!("--{}", name.replace('_', "-")), text);
        }
        Ok(())
    }

    /// Every option whose recorded value (`self`) differs from `now`, as `--name: was A, now B`.
    pub fn differences(&self, now: &RunIdentity) -> Vec<String> {
        let names: std::collections::BTreeSet<&String> = self.0.keys().chain(now.0.keys()).collect();
        let shown = |v: Option<&String>| v.map_or("not an option".to_string(), |v| format!("`{v}`"));
        names
            .into_iter()
            .filter(|name| self.0.get(*name) != now.0.get(*name))
            .map(|name| format!("{name}: was {}, now {}", shown(self.0.get(name)), shown(now.0.get(name))))
            .collect()
    }
}

/// A value as the user would type it: strings bare, lists space-separated, absent as `none`.
fn text_of(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "none".to_string(),
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) => {
            if items.is_empty() {
                "none".to_string()
            } else {
                items.iter().map(text_of).collect::<Vec<_>>().join(" ")
            }
        }
        other => other.to_string(),
    }
}

/// A file by where it is and what it holds: `/…/params/eval.toml (48213 bytes, content 3f2a…)`.
/// The path is made absolute, so `./params/eval.toml` and `params/eval.toml` are one file, and
/// kept, because it names an in-process engine in the PGN and the tables.
pub fn describe_file(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let absolute = path.canonicalize().with_context(|| format!("resolving {}", path.display()))?;
    Ok(format!("{} ({} bytes, content {:016x})", absolute.display(), bytes.len(), content_hash(&bytes)))
}

/// A 64-bit hash of a file's bytes: enough to tell an edited file from the one recorded.
fn content_hash(bytes: &[u8]) -> u64 {
    bytes.chunks(8).fold(mix64(bytes.len() as u64), |h, chunk| {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        mix64(h.wrapping_add(GOLDEN_GAMMA) ^ u64::from_le_bytes(word))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::testutil::TempDir;

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
        let identity =
            |seed| RunIdentity::from_options(&options(seed), &["out", "quiet"], &["engine", "book"]);
        let first = identity(1).unwrap();
        let names: Vec<&str> = first.0.keys().map(String::as_str).collect();
        assert_eq!(names, ["--book", "--engine", "--engine-option", "--seed", "--tc"]);
        assert_eq!(first.0["--engine-option"], "Hash=1 Threads=1");
        assert_eq!(first.0["--book"], "none");
        assert!(first.0["--engine"].contains("6 bytes, content"), "{}", first.0["--engine"]);
        let dotted = dir.path(".").join("engine.toml");
        assert_eq!(
            describe_file(&dotted).unwrap(),
            describe_file(&engine).unwrap(),
            "one file, two spellings"
        );
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
}
