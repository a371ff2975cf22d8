//! Tests of `cmd/args/mod.rs`.

use super::*;
use crate::cmd::args::tuner_args;
use crate::testutil::test_tune_settings;

/// The library's tests build their settings by hand: they must be what the command line
/// gives when nothing else is set.
#[test]
fn the_tuners_defaults_are_the_settings_the_library_tests_use() {
    let out = std::path::Path::new("/nonexistent-out");
    let mut settings = tuner_args::<tune::TuneArgs>(out, &[]).settings();
    assert!(settings.game_options.is_object(), "{}", settings.game_options);
    (settings.play.concurrency, settings.game_options) = (1, serde_json::Value::Null);
    assert_eq!(settings, test_tune_settings(out));
}
