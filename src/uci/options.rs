//! The UCI options: their declarations for `uci`, their current values, and `setoption`.

use crate::config::EngineConfig;
use crate::params::ParamSet;

/// Option values as the GUI set them.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead: u64,
    pub chess960: bool,
    pub own_book: bool,
    pub book_file: String,
    pub eval_file: String,
}

/// What a successful `setoption` changed, for the engine to act on.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    None,
    Hash,
    Threads,
    Chess960,
    EvalFile,
}

#[derive(Debug, PartialEq, Eq)]
pub enum SetError {
    Unknown,
    Invalid(String),
}

pub const MAX_HASH_MB: usize = 65_536;
pub const MAX_THREADS: usize = 256;

impl Options {
    /// Defaults from engine.toml's `[options]`.
    pub fn from_config(config: &EngineConfig) -> Options {
        let int = |name: &str, default: i64| config.option_int(name).unwrap_or(default);
        Options {
            hash_mb: int("Hash", 16).clamp(1, MAX_HASH_MB as i64) as usize,
            threads: int("Threads", 1).clamp(1, MAX_THREADS as i64) as usize,
            multipv: 1,
            ponder: false,
            move_overhead: int("MoveOverhead", 10).clamp(0, 5000) as u64,
            chess960: false,
            own_book: false,
            book_file: String::new(),
            eval_file: String::new(),
        }
    }

    /// The `option name ...` lines `uci` prints.
    pub fn declarations(&self, params: &ParamSet, search: &ParamSet) -> Vec<String> {
        let mut lines = vec![
            format!("option name Hash type spin default {} min 1 max {MAX_HASH_MB}", self.hash_mb),
            format!("option name Threads type spin default {} min 1 max {MAX_THREADS}", self.threads),
            "option name MultiPV type spin default 1 min 1 max 256".to_string(),
            "option name Ponder type check default false".to_string(),
            format!("option name MoveOverhead type spin default {} min 0 max 5000", self.move_overhead),
            "option name UCI_Chess960 type check default false".to_string(),
            "option name OwnBook type check default false".to_string(),
            "option name BookFile type string default <empty>".to_string(),
            "option name EvalFile type string default <built-in>".to_string(),
        ];
        if cfg!(feature = "uci-tunables") {
            for set in [params, search] {
                for (name, value, (min, max)) in tunable_options(set) {
                    lines.push(format!("option name {name} type spin default {value} min {min} max {max}"));
                }
            }
        }
        lines
    }

    /// Applies `setoption name <name> value <value>`; names are case-insensitive.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Change, SetError> {
        let spin = |min: i64, max: i64| -> Result<i64, SetError> {
            let v: i64 = value
                .trim()
                .parse()
                .map_err(|_| SetError::Invalid(format!("{name} takes a number, not '{value}'")))?;
            if (min..=max).contains(&v) {
                Ok(v)
            } else {
                Err(SetError::Invalid(format!("{name}: {v} is outside [{min}, {max}]")))
            }
        };
        let check = || -> Result<bool, SetError> {
            match value.trim() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(SetError::Invalid(format!("{name} takes true or false, not '{value}'"))),
            }
        };
        let path = || if value == "<empty>" { String::new() } else { value.to_string() };
        Ok(match name.to_ascii_lowercase().as_str() {
            "hash" => {
                self.hash_mb = spin(1, MAX_HASH_MB as i64)? as usize;
                Change::Hash
            }
            "threads" => {
                self.threads = spin(1, MAX_THREADS as i64)? as usize;
                Change::Threads
            }
            "multipv" => {
                self.multipv = spin(1, 256)? as usize;
                Change::None
            }
            "ponder" => {
                self.ponder = check()?;
                Change::None
            }
            "moveoverhead" => {
                self.move_overhead = spin(0, 5000)? as u64;
                Change::None
            }
            "uci_chess960" => {
                self.chess960 = check()?;
                Change::Chess960
            }
            "ownbook" => {
                self.own_book = check()?;
                Change::None
            }
            "bookfile" => {
                self.book_file = path();
                Change::None
            }
            "evalfile" => {
                self.eval_file = path();
                Change::EvalFile
            }
            _ => return Err(SetError::Unknown),
        })
    }
}

/// (name, current value, bounds) of every tunable slot, for the `uci-tunables` spin options. An
/// option is named as its value ([`ParamSet::value_names`]), so OpenBench's lines and the tuners'
/// names are the option names.
pub fn tunable_options(params: &ParamSet) -> Vec<(String, i32, (i32, i32))> {
    let names = params.value_names();
    let values = params.values();
    let bounds = params.value_bounds();
    params
        .select(&[])
        .unwrap_or_default()
        .into_iter()
        .map(|i| (names[i].clone(), values[i], bounds[i]))
        .collect()
}
