//! Tests of `cmd/args/play.rs`.

use super::*;

/// The library's tests play with `test_settings`, which must be what the command line
/// gives when none of these options is set.
#[test]
fn the_defaults_are_the_settings_the_library_tests_play_with() {
    let mut settings = PlayArgs::defaults().settings();
    (settings.concurrency, settings.quiet) = (1, true);
    assert_eq!(settings, crate::testutil::test_settings(LimitChoice::default()));
}
