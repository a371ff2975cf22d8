//! Tests of `play/runs/opponents.rs`.

use super::*;
use crate::testutil::TempDir;

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
    let soak = load_opponents(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../params/soak.toml")).unwrap();
    assert_eq!(soak.len(), 4);
    let error = |text: &str| format!("{:#}", load(text).err().expect("an error"));
    let cecp = error("[[engine]]\nname = \"old\"\ncommand = \"a\"\nprotocol = \"cecp\"\n");
    assert!(cecp.contains("engine 'old'") && cecp.contains("'cecp' is not one of: uci, xboard"), "{cecp}");
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
