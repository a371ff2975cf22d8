//! The opponents of a gauntlet: the opponents file (TOML, one `[[engine]]` table per engine: an
//! engine binary with its protocol (`uci` unless `protocol = "xboard"`), arguments and options,
//! or a params file played in process; an optional rating), and the table of our results
//! against each.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use crate::play::engines::engine_process::{EngineSpec, Protocol};
use crate::play::engines::inprocess::EngineSetup;
use crate::play::games::runner::Contestant;
use crate::play::games::tally::MatchTally;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct OpponentsFile {
    engine: Vec<OpponentEntry>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct OpponentEntry {
    name: String,
    command: Option<PathBuf>,
    params: Option<PathBuf>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
    working_dir: Option<PathBuf>,
    /// `uci` (the default) or `xboard`.
    protocol: Option<String>,
    rating: Option<f64>,
}

/// An opponent: how to play it and its rating.
pub struct Opponent {
    pub contestant: Contestant,
    pub rating: Option<f64>,
}

/// Reads an opponents file; errors name the file and the entry.
pub fn load_opponents(path: &Path) -> Result<Vec<Opponent>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let file: OpponentsFile = toml::from_str(&text).with_context(|| format!("{}", path.display()))?;
    if file.engine.is_empty() {
        bail!("{}: no [[engine]] table", path.display());
    }
    file.engine.into_iter().map(|entry| opponent(entry, path)).collect()
}

fn opponent(entry: OpponentEntry, file: &Path) -> Result<Opponent> {
    let context = || format!("{}: engine '{}'", file.display(), entry.name);
    let contestant = match (&entry.command, &entry.params) {
        (Some(command), None) => {
            let protocol = match entry.protocol.as_deref() {
                None => Protocol::Uci,
                Some(text) => Protocol::parse(text).with_context(|| {
                    format!("{}: protocol '{text}' is not one of: uci, xboard", context())
                })?,
            };
            let options = entry
                .options
                .iter()
                .map(|(k, v)| {
                    let value = match v {
                        toml::Value::String(s) => s.clone(),
                        toml::Value::Integer(i) => i.to_string(),
                        toml::Value::Float(f) => f.to_string(),
                        toml::Value::Boolean(b) => b.to_string(),
                        other => {
                            bail!("{}: option {k} = {other} is not a string, number or boolean", context())
                        }
                    };
                    Ok((k.clone(), value))
                })
                .collect::<Result<Vec<_>>>()?;
            Contestant::External(EngineSpec {
                name: entry.name.clone(),
                command: command.clone(),
                args: entry.args.clone(),
                options,
                working_dir: entry.working_dir.clone(),
                protocol,
            })
        }
        (None, Some(params)) => {
            if !entry.options.is_empty() || !entry.args.is_empty() || entry.protocol.is_some() {
                bail!("{}: options, args and protocol apply to engine binaries (`command`)", context());
            }
            let mut setup = EngineSetup::from_files(params, None).with_context(context)?;
            setup.name = entry.name.clone();
            Contestant::InProcess(setup)
        }
        _ => bail!(
            "{}: give exactly one of `command` (an engine binary) and `params` (a params file)",
            context()
        ),
    };
    Ok(Opponent { contestant, rating: entry.rating })
}

/// One line per opponent: games, score, W-L-D, Elo ± error (ours against it), failures.
/// `contestants[0]` is ours, `contestants[i]` plays `opponents[i - 1]`, scored in `tallies[i - 1]`.
pub fn table(contestants: &[Contestant], opponents: &[Opponent], tallies: &[MatchTally]) -> String {
    let width = contestants.iter().map(|c| c.name().len()).max().unwrap_or(8).max(8);
    let mut out = format!(
        "{:<width$}  {:>6}  {:>6}  {:>14}  {:>16}  {:>6}  {:>22}\n",
        "opponent", "games", "score", "W-L-D", "Elo (ours)", "rating", "failures ours/theirs"
    );
    for ((contestant, opponent), tally) in contestants[1..].iter().zip(opponents).zip(tallies) {
        let elo = tally.elo();
        let wld = format!("{}-{}-{}", tally.wld.wins, tally.wld.losses, tally.wld.draws);
        let rating = opponent.rating.map_or("-".to_string(), |r| format!("{r:.0}"));
        let failures = format!("{}/{}", tally.failures[0].total(), tally.failures[1].total());
        out.push_str(&format!(
            "{:<width$}  {:>6}  {:>5.1}%  {:>14}  {:>+7.1} ± {:>6.1}  {:>6}  {:>22}\n",
            contestant.name(),
            tally.games(),
            100.0 * tally.wld.score(),
            wld,
            elo.elo,
            elo.error,
            rating,
            failures
        ));
    }
    out
}

#[cfg(test)]
#[path = "opponents_tests.rs"]
mod tests;
