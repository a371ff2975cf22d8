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
use crate::play::games::tally::Tally;

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
pub fn table(contestants: &[Contestant], opponents: &[Opponent], tallies: &[Tally]) -> String {
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
mod tests {
    use super::*;
    use crate::dataset::testutil::TempDir;

    fn load(text: &str) -> Result<Vec<Opponent>> {
        let dir = TempDir::new("opponents");
        let path = dir.path("opponents.toml");
        std::fs::write(&path, text).unwrap();
        load_opponents(&path)
    }

    #[test]
    fn binaries_and_params_files_load_with_their_options_as_text() {
        let handset = Path::new(env!("CARGO_MANIFEST_DIR")).join("../params/handset.toml");
        let text = format!(
            "[[engine]]\nname = \"sf\"\ncommand = \"/usr/games/stockfish\"\nargs = [\"-q\"]\n\
             options = {{ UCI_LimitStrength = true, UCI_Elo = 1955, Ratio = 0.5, Style = \"solid\" }}\n\
             rating = 2363\n\n[[engine]]\nname = \"hs\"\nparams = \"{}\"\n",
            handset.display()
        );
        let opponents = load(&text).unwrap();
        assert_eq!(opponents.len(), 2);
        let Contestant::External(spec) = &opponents[0].contestant else { panic!("sf is a binary") };
        assert_eq!((spec.name.as_str(), spec.args.as_slice()), ("sf", ["-q".to_string()].as_slice()));
        let options: Vec<(&str, &str)> = spec.options.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            options,
            [("Ratio", "0.5"), ("Style", "solid"), ("UCI_Elo", "1955"), ("UCI_LimitStrength", "true")]
        );
        assert_eq!(opponents[0].rating, Some(2363.0));
        let Contestant::InProcess(setup) = &opponents[1].contestant else { panic!("hs plays in process") };
        assert_eq!(setup.name, "hs", "named by its table, not its file");
        assert_eq!(opponents[1].rating, None);
    }

    #[test]
    fn the_protocol_is_uci_unless_the_entry_says_xboard() {
        let text = "[[engine]]\nname = \"fm\"\ncommand = \"/usr/games/fairymax\"\nprotocol = \"xboard\"\n\
                    options = { Resign = true }\n\n[[engine]]\nname = \"sf\"\ncommand = \"sf\"\n\n\
                    [[engine]]\nname = \"sf2\"\ncommand = \"sf\"\nprotocol = \"uci\"\n";
        let protocols: Vec<(String, Protocol)> = load(text)
            .unwrap()
            .into_iter()
            .map(|o| match o.contestant {
                Contestant::External(spec) => (spec.name, spec.protocol),
                Contestant::InProcess(_) => panic!("binaries only"),
            })
            .collect();
        assert_eq!(
            protocols,
            [
                ("fm".to_string(), Protocol::Xboard),
                ("sf".to_string(), Protocol::Uci),
                ("sf2".to_string(), Protocol::Uci)
            ]
        );
        // The repository's own opponents file.
        let ours =
            load_opponents(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../params/gauntlet.toml")).unwrap();
        let xboard: Vec<&str> = ours
            .iter()
            .filter_map(|o| match &o.contestant {
                Contestant::External(spec) if spec.protocol == Protocol::Xboard => Some(spec.name.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(xboard, ["fairymax", "phalanx"]);
        // Issue 29's soak opponents.
        let soak =
            load_opponents(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../params/soak.toml")).unwrap();
        assert_eq!(soak.len(), 4);
        let error = |text: &str| format!("{:#}", load(text).err().expect("an error"));
        let cecp = error("[[engine]]\nname = \"old\"\ncommand = \"a\"\nprotocol = \"cecp\"\n");
        assert!(
            cecp.contains("engine 'old'") && cecp.contains("'cecp' is not one of: uci, xboard"),
            "{cecp}"
        );
        let params = error("[[engine]]\nname = \"p\"\nparams = \"b.toml\"\nprotocol = \"xboard\"\n");
        assert!(params.contains("engine 'p'") && params.contains("apply to engine binaries"), "{params}");
    }

    #[test]
    fn broken_files_are_errors_naming_the_file_and_the_engine() {
        let error = |text: &str| format!("{:#}", load(text).err().expect("an error"));
        let both = error("[[engine]]\nname = \"x\"\ncommand = \"a\"\nparams = \"b\"\n");
        assert!(both.contains("engine 'x'") && both.contains("exactly one of"), "{both}");
        assert!(error("[[engine]]\nname = \"x\"\n").contains("exactly one of"));
        assert!(error("engine = []\n").contains("no [[engine]] table"));
        let params_options = error("[[engine]]\nname = \"p\"\nparams = \"b.toml\"\nargs = [\"-q\"]\n");
        assert!(params_options.contains("apply to engine binaries"), "{params_options}");
        let array = error("[[engine]]\nname = \"a\"\ncommand = \"a\"\noptions = { Hash = [1, 2] }\n");
        assert!(array.contains("Hash") && array.contains("not a string, number or boolean"), "{array}");
        assert!(error("[[engine]]\nname = \"a\"\ncommand = \"a\"\nelo = 3\n").contains("unknown field"));
        let dir = TempDir::new("opponents-missing");
        let missing = format!("{:#}", load_opponents(&dir.path("missing.toml")).err().expect("an error"));
        assert!(missing.contains("missing.toml"), "{missing}");
    }
}
