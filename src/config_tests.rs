//! Tests of `config.rs`.

use super::*;

#[test]
fn built_in_config_parses() {
    let c = EngineConfig::built_in();
    assert_eq!(c.engine.name, "Whetstone");
    assert!(c.option_int("Hash").unwrap() > 0);
    assert!(c.build.params.ends_with(".toml"));
    assert!(c.build.search_params.ends_with(".toml"));
    // A file without the search keys (written before they existed) names the shipped ones.
    let old = "[engine]\nname = \"W\"\nauthor = \"A\"\n[build]\nparams = \"p.toml\"\nmodule = \"m.rs\"\n";
    let old = EngineConfig::parse(old).unwrap();
    assert_eq!(
        (old.build.search_params.as_str(), old.build.search_module.as_str()),
        ("params/search.toml", "src/search/baked.rs")
    );
}
