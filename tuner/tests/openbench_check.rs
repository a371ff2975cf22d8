//! Checks `openbench/Whetstone.json`, the engine config an OpenBench server reads from its
//! `Engines/` folder, as OpenBench reads and uses it (AndyGrant/OpenBench at `9906bad`):
//! `OpenBench/config.py::load_engine_config` (the keys and types it asserts, the preset keys it
//! allows, the `default` preset each kind needs), the create page (`static/create_workload.js`:
//! a preset is `default` overlaid by its own keys, `STC` is applied first) and the worker
//! (`Client/worker.py`, `Client/utils.py`: the compiler check, the CPU flags it can see, `make -j
//! EXE=<name>` run in the build path, the options and time controls handed to fastchess).
//! Beyond OpenBench, every preset's options are sent to our engine as `setoption` and every
//! time control is parsed as `tune match --tc/--nodes` would take it, so a preset plays what we
//! measured locally.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::de::DeserializeOwned;
use serde::Deserialize;

use whetstone_tuner::play::limit::MoveLimit;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The keys `load_engine_config` asserts (`verify_engine_basics`, `verify_engine_build`). Unknown
/// keys OpenBench would ignore are refused here, so a misspelt one cannot vanish silently.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct EngineConfig {
    private: bool,
    /// `type(nps) == int and nps > 0`: a JSON float or string is refused.
    nps: u64,
    source: String,
    build: Build,
    test_presets: Option<RawPresets>,
    tune_presets: Option<RawPresets>,
    datagen_presets: Option<RawPresets>,
}

/// A kind of presets as the JSON has them: name -> key -> value.
type RawPresets = BTreeMap<String, serde_json::Map<String, serde_json::Value>>;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Build {
    path: String,
    compilers: Vec<String>,
    cpuflags: Vec<String>,
    systems: Vec<String>,
}

/// The keys `verify_engine_test_preset` allows (`deny_unknown_fields` is its `valid_keys`). Every
/// allowed key is declared, so exactly the others are refused; not all of them are checked further.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct TestPreset {
    both_branch: Option<String>,
    both_bench: Option<u64>,
    both_network: Option<String>,
    both_options: Option<String>,
    both_time_control: Option<String>,
    dev_branch: Option<String>,
    dev_bench: Option<u64>,
    dev_network: Option<String>,
    dev_options: Option<String>,
    dev_time_control: Option<String>,
    base_branch: Option<String>,
    base_bench: Option<u64>,
    base_network: Option<String>,
    base_options: Option<String>,
    base_time_control: Option<String>,
    test_bounds: Option<String>,
    test_confidence: Option<String>,
    test_max_games: Option<u64>,
    book_name: Option<String>,
    upload_pgns: Option<String>,
    priority: Option<i64>,
    throughput: Option<u64>,
    workload_size: Option<u64>,
    syzygy_wdl: Option<String>,
    syzygy_adj: Option<String>,
    win_adj: Option<String>,
    draw_adj: Option<String>,
}

/// The keys `verify_engine_tune_preset` allows.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct TunePreset {
    both_branch: Option<String>,
    both_bench: Option<u64>,
    both_network: Option<String>,
    both_options: Option<String>,
    both_time_control: Option<String>,
    dev_branch: Option<String>,
    dev_bench: Option<u64>,
    dev_network: Option<String>,
    dev_options: Option<String>,
    dev_time_control: Option<String>,
    spsa_reporting_type: Option<String>,
    spsa_distribution_type: Option<String>,
    spsa_alpha: Option<f64>,
    spsa_gamma: Option<f64>,
    #[serde(rename = "spsa_A_ratio")]
    spsa_a_ratio: Option<f64>,
    spsa_iterations: Option<u64>,
    spsa_pairs_per: Option<u64>,
    book_name: Option<String>,
    upload_pgns: Option<String>,
    priority: Option<i64>,
    throughput: Option<u64>,
    syzygy_wdl: Option<String>,
    syzygy_adj: Option<String>,
    win_adj: Option<String>,
    draw_adj: Option<String>,
}

/// Every preset of a kind but `default` as the create page applies it: `default`'s keys, then the
/// preset's own on top (`add_defaults_to_preset`), read as `T`. Each preset is also read alone, as
/// the server checks each one's keys.
fn laid_over_default<T: DeserializeOwned>(raw: &RawPresets, kind: &str) -> Vec<(String, T)> {
    let read = |name: &str, map: serde_json::Map<String, serde_json::Value>| -> T {
        serde_json::from_value(serde_json::Value::Object(map))
            .unwrap_or_else(|e| panic!("{kind} `{name}`: {e}"))
    };
    let default = raw.get("default").unwrap_or_else(|| panic!("{kind} needs a `default` preset"));
    let mut presets = Vec::new();
    for (name, preset) in raw {
        read(name, preset.clone());
        if name != "default" {
            let mut merged = default.clone();
            merged.extend(preset.clone());
            presets.push((name.clone(), read(name, merged)));
        }
    }
    presets
}

/// The books `Config/config.json` lists at `9906bad`; a preset's book must be one of them (an
/// instance may add others: add them here when the config uses one).
const OPENBENCH_BOOKS: [&str; 15] = [
    "2moves_v1.epd",
    "3moves_FRC.epd",
    "4moves_noob.epd",
    "8moves_v3.epd",
    "DFRC.epd",
    "Endgames.epd",
    "Pohl.epd",
    "Pohl.pgn",
    "UHO_4060_v2.epd",
    "UHO_4060_vB.epd",
    "UHO_4060_vT.epd",
    "UHO_Lichess_4852_v1.epd",
    "DFRC_4852_v1.epd",
    "endgames_cdb95105.epd",
    "fortresses_150_250.epd",
];

/// The CPU flags the worker looks for (`scan_for_cpu_flags`); a flag it does not know it can
/// still find, but only under py-cpuinfo's own spelling, so the config sticks to these.
const WORKER_CPU_FLAGS: [&str; 13] = [
    "POPCNT",
    "BMI2",
    "SSSE3",
    "SSE41",
    "SSE42",
    "SSE4A",
    "AVX",
    "AVX2",
    "FMA",
    "AVX512VNNI",
    "AVX512BW",
    "AVX512DQ",
    "AVX512F",
];

/// Of those, what an x86-64-v3 build (`.cargo/config.toml`) executes beyond plain x86-64 and the
/// worker can see (AVX and the SSE levels come with AVX2).
const X86_64_V3_FLAGS: [&str; 4] = ["AVX2", "BMI2", "FMA", "POPCNT"];

fn load() -> EngineConfig {
    let path = repo().join("openbench/Whetstone.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("openbench/Whetstone.json: {e}"))
}

/// `[a, b]` (OpenBench's bounds and confidence fields).
fn pair(text: &str) -> (f64, f64) {
    let inner = text.trim().strip_prefix('[').and_then(|t| t.strip_suffix(']'));
    let parts: Vec<f64> = inner
        .map(|t| t.split(',').map(|x| x.trim().parse().unwrap_or(f64::NAN)).collect())
        .unwrap_or_default();
    assert!(parts.len() == 2 && parts.iter().all(|x| x.is_finite()), "`{text}` is not `[a, b]`");
    (parts[0], parts[1])
}

/// `key=<digits> key=<digits> ...` with exactly these keys, or `None` (the create form's check).
fn adjudication(text: &str, keys: &[&str]) {
    if text == "None" {
        return;
    }
    let words: Vec<&str> = text.split(' ').collect();
    assert_eq!(words.len(), keys.len(), "`{text}`: expected {keys:?}");
    for (word, key) in words.iter().zip(keys) {
        let value = word.strip_prefix(key).and_then(|w| w.strip_prefix('='));
        assert!(value.is_some_and(|v| v.parse::<u32>().is_ok()), "`{text}`: `{word}` is not {key}=N");
    }
}

/// A time control as OpenBench's worker hands it on (`N=`, `D=` unscaled; a clock scaled by the
/// nps), read as `tune match` reads `--nodes`/`--depth`/`--tc`.
fn time_control(text: &str) -> MoveLimit {
    let fixed = |prefix: &str| text.strip_prefix(prefix).map(|n| n.parse::<u64>().expect(text));
    let limit = match (fixed("N="), fixed("D=")) {
        (Some(n), _) => MoveLimit::from_flags(Some(n), None, None),
        (_, Some(d)) => MoveLimit::from_flags(None, Some(d as u32), None),
        _ => MoveLimit::from_flags(None, None, Some(text)),
    };
    limit.unwrap_or_else(|e| panic!("time control `{text}`: {e:#}"))
}

/// Sends each `Name=Value` of a preset's options to the engine as `setoption`; the engine answers
/// a refused one with `info string`.
fn engine_accepts(options: &str) {
    let buffer = Arc::new(Mutex::new(Vec::<u8>::new()));
    let out: whetstone::uci::Output = buffer.clone();
    let mut uci = whetstone::uci::Uci::new(out);
    for option in options.split_whitespace() {
        let (name, value) = option.split_once('=').unwrap_or_else(|| panic!("`{option}` is not Name=Value"));
        uci.handle(&format!("setoption name {name} value {value}"));
    }
    uci.handle("isready");
    let replies = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
    assert_eq!(replies.trim(), "readyok", "options `{options}`: the engine answered {replies}");
}

/// Cargo.toml's `rust-version` as (major, minor, patch).
fn workspace_rust_version() -> Vec<u32> {
    let text = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let toml: toml::Value = toml::from_str(&text).unwrap();
    let version = toml["workspace"]["package"]["rust-version"].as_str().expect("rust-version");
    version_tuple(version)
}

fn version_tuple(text: &str) -> Vec<u32> {
    let mut v: Vec<u32> = text.split('.').map(|x| x.parse().expect(text)).collect();
    v.resize(3, 0);
    v
}

#[test]
fn the_engine_config_has_openbench_s_keys_and_types() {
    let config = load();
    assert!(!config.private, "a private engine needs a token file beside OpenBench's config");
    assert!(config.nps > 0);
    let repo_path = config.source.strip_prefix("https://github.com/").expect("source: a GitHub URL");
    let parts: Vec<&str> = repo_path.split('/').collect();
    assert!(parts.len() == 2 && parts.iter().all(|p| !p.is_empty()), "source: https://github.com/OWNER/REPO");
    // OpenBench fills a kind of preset without `default` with only `{default: {}}`: every other
    // preset of that kind would be dropped without a word.
    for (kind, names) in [
        ("test_presets", config.test_presets.as_ref().map(|p| p.keys().collect::<Vec<_>>())),
        ("tune_presets", config.tune_presets.as_ref().map(|p| p.keys().collect())),
        ("datagen_presets", config.datagen_presets.as_ref().map(|p| p.keys().collect())),
    ] {
        if let Some(names) = names {
            assert!(names.iter().any(|n| *n == "default"), "{kind} needs a `default` preset");
        }
    }
    // Choosing an engine on the create page applies its `STC` preset.
    assert!(config.test_presets.as_ref().is_some_and(|p| p.contains_key("STC")), "a test preset STC");
    assert!(config.tune_presets.as_ref().is_some_and(|p| p.contains_key("STC")), "a tune preset STC");
}

#[test]
fn the_build_is_what_openbench_s_worker_runs() {
    let build = load().build;
    // `make -j EXE=<name>` runs in <checkout>/<path>, which must hold our makefile.
    assert!(!build.path.split('/').any(|p| p == ".."), "the build path stays inside the checkout");
    let dir = repo().join(&build.path);
    assert!(dir.join("makefile").is_file(), "no makefile in build path `{}`", build.path);
    // The worker keeps the first compiler `<name> --version` answers (`name>=x.y.z` sets a
    // minimum) and, for cargo or rustc, adds no CC=/CXX= to make.
    assert!(!build.compilers.is_empty());
    for compiler in &build.compilers {
        let (name, min) = compiler.split_once(">=").unwrap_or((compiler, "0.0.0"));
        assert!(["cargo", "rustc"].contains(&name), "compiler `{compiler}`: the build is cargo's");
        assert_eq!(version_tuple(min), workspace_rust_version(), "`{compiler}`: Cargo.toml's rust-version");
    }
    for flag in &build.cpuflags {
        assert!(WORKER_CPU_FLAGS.contains(&flag.as_str()), "cpu flag `{flag}` is not one the worker reports");
    }
    let cargo_config = std::fs::read_to_string(repo().join(".cargo/config.toml")).unwrap_or_default();
    if cargo_config.contains("target-cpu=x86-64-v3") {
        for flag in X86_64_V3_FLAGS {
            assert!(build.cpuflags.iter().any(|f| f == flag), "the x86-64-v3 build needs {flag}");
        }
    }
    assert!(build.systems.iter().any(|s| s == "Linux"), "Linux, where the makefile is tested");
    for system in &build.systems {
        assert!(["Linux", "Windows", "Darwin"].contains(&system.as_str()), "system `{system}`");
    }
}

/// `make -n` prints what `make -j EXE=<name>` would run; skipped where make is not installed.
#[test]
fn make_exe_builds_the_engine_and_features_builds_the_tunables() {
    let dir = repo().join(load().build.path);
    let dry_run = |extra: &[&str]| -> Option<String> {
        let output =
            std::process::Command::new("make").arg("-n").arg("-C").arg(&dir).args(extra).output().ok()?;
        assert!(output.status.success(), "make -n {extra:?}: {}", String::from_utf8_lossy(&output.stderr));
        Some(String::from_utf8(output.stdout).unwrap())
    };
    // OpenBench names the binary <engine>-<first 8 of the commit>.
    let Some(plain) = dry_run(&["EXE=Whetstone-0123ABCD"]) else {
        eprintln!("make is not installed: skipped");
        return;
    };
    let build_line = plain.lines().find(|l| l.contains("cargo build")).expect("a cargo build line");
    assert!(build_line.contains("--release") && build_line.contains("--bin whetstone"), "{plain}");
    assert!(!build_line.contains("--features"), "{plain}");
    assert!(plain.lines().any(|l| l.starts_with("cp ") && l.ends_with(" Whetstone-0123ABCD")), "{plain}");
    let tunables = dry_run(&["EXE=Whetstone-0123ABCD", "FEATURES=uci-tunables"]).unwrap();
    assert!(tunables.contains("--features \"uci-tunables\""), "{tunables}");
}

#[test]
fn every_test_preset_is_complete_and_plays_what_we_measured() {
    let presets: Vec<(String, TestPreset)> =
        laid_over_default(&load().test_presets.expect("test presets"), "test_presets");
    for (name, p) in &presets {
        let what = format!("test preset `{name}`");
        let control = p.both_time_control.as_deref().or(p.dev_time_control.as_deref()).expect(&what);
        time_control(control);
        if let Some(base) = &p.base_time_control {
            time_control(base);
        }
        let options = p.both_options.as_deref().or(p.dev_options.as_deref()).expect(&what);
        engine_accepts(options);
        assert!(p.base_branch.as_deref().is_some_and(|b| !b.is_empty()), "{what}: base_branch");
        let book = p.book_name.as_deref().expect(&what);
        assert!(OPENBENCH_BOOKS.contains(&book), "{what}: book `{book}` is not one of OpenBench's");
        match (&p.test_bounds, &p.test_confidence, p.test_max_games) {
            (Some(bounds), Some(confidence), _) => {
                let ((elo0, elo1), (alpha, beta)) = (pair(bounds), pair(confidence));
                assert!(elo0 < elo1, "{what}: bounds {bounds}");
                assert!((0.0..0.5).contains(&alpha) && (0.0..0.5).contains(&beta), "{what}: {confidence}");
            }
            (None, None, Some(games)) => assert!(games > 0, "{what}"),
            _ => panic!("{what}: SPRT bounds and confidence, or a number of games"),
        }
        assert!(p.workload_size.is_some_and(|n| n > 0), "{what}: workload_size");
        adjudication(p.win_adj.as_deref().expect(&what), &["movecount", "score"]);
        adjudication(p.draw_adj.as_deref().expect(&what), &["movenumber", "movecount", "score"]);
    }
    // The measured controls (docs/openbench.md): 3 s + 0.03 s here, and 10,000 nodes.
    let stc = &presets.iter().find(|(name, _)| name == "STC").expect("an STC preset").1;
    let clock = time_control(stc.both_time_control.as_deref().unwrap());
    assert_eq!(clock, MoveLimit::from_flags(None, None, Some("3+0.03")).unwrap());
}

#[test]
fn every_tune_preset_is_complete_and_matches_tune_spsa() {
    let presets: Vec<(String, TunePreset)> =
        laid_over_default(&load().tune_presets.expect("tune presets"), "tune_presets");
    let space =
        whetstone_tuner::optim::space::Space::parse_openbench("x, int, 0, -10, 10, 1, 0.002", "x").unwrap();
    let ours = whetstone_tuner::optim::spsa::Spsa::new(&space, 1000);
    for (name, p) in &presets {
        let what = format!("tune preset `{name}`");
        time_control(p.dev_time_control.as_deref().or(p.both_time_control.as_deref()).expect(&what));
        engine_accepts(p.dev_options.as_deref().or(p.both_options.as_deref()).expect(&what));
        let book = p.book_name.as_deref().expect(&what);
        assert!(OPENBENCH_BOOKS.contains(&book), "{what}: book `{book}`");
        adjudication(p.win_adj.as_deref().expect(&what), &["movecount", "score"]);
        adjudication(p.draw_adj.as_deref().expect(&what), &["movenumber", "movecount", "score"]);
        // The schedule `tune spsa` runs (optim/spsa.rs), so a tune there continues one here.
        assert_eq!(p.spsa_alpha, Some(ours.alpha), "{what}");
        assert_eq!(p.spsa_gamma, Some(ours.gamma), "{what}");
        assert_eq!(p.spsa_a_ratio.map(|r| r * 1000.0), Some(ours.big_a), "{what}: A = N / 10");
        assert!(p.spsa_pairs_per.is_some_and(|n| n > 0), "{what}");
        for (field, value, allowed) in [
            ("spsa_reporting_type", &p.spsa_reporting_type, ["BATCHED", "BULK"]),
            ("spsa_distribution_type", &p.spsa_distribution_type, ["SINGLE", "MULTIPLE"]),
        ] {
            if let Some(v) = value {
                assert!(allowed.contains(&v.as_str()), "{what}: {field} `{v}`");
            }
        }
    }
}

#[test]
fn the_docs_give_the_config_s_nps() {
    let nps = load().nps;
    let docs = std::fs::read_to_string(repo().join("docs/openbench.md")).expect("docs/openbench.md");
    let grouped = nps
        .to_string()
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join(",");
    assert!(docs.contains(&grouped), "docs/openbench.md should give the measured nps {grouped}");
}
