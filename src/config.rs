//! `engine.toml`: the engine's identity, default UCI option values and the params files the build
//! bakes in. The file is compiled into the binary, so the engine needs nothing beside it to run.

use std::collections::BTreeMap;

use serde::Deserialize;

/// The parsed `engine.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    pub engine: Identity,
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    pub build: Build,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Identity {
    pub name: String,
    pub author: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Build {
    /// The evaluation params file (relative to the repository root) the engine build bakes in.
    pub params: String,
    /// Where its generated Rust module lives.
    pub module: String,
    /// The search constants file the build bakes in.
    #[serde(default = "default_search_params")]
    pub search_params: String,
    /// Where its generated Rust module lives.
    #[serde(default = "default_search_module")]
    pub search_module: String,
}

/// The search constants of a build whose engine.toml predates `search_params`.
fn default_search_params() -> String {
    "params/search.toml".into()
}

fn default_search_module() -> String {
    "src/search/baked.rs".into()
}

/// The text of engine.toml as it was when the engine was built.
pub const ENGINE_TOML: &str = include_str!("../engine.toml");

impl EngineConfig {
    /// The configuration compiled into this binary.
    pub fn built_in() -> EngineConfig {
        Self::parse(ENGINE_TOML).expect("engine.toml is checked by a test")
    }

    pub fn parse(text: &str) -> Result<EngineConfig, toml::de::Error> {
        toml::from_str(text)
    }

    /// A default option value as an integer, if present.
    pub fn option_int(&self, name: &str) -> Option<i64> {
        self.options.get(name).and_then(toml::Value::as_integer)
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
