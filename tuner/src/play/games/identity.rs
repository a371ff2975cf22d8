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
#[path = "identity_tests.rs"]
mod tests;
