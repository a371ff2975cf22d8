//! Tests of `play/engines/engine_process.rs`.

use super::*;

#[test]
fn relative_commands_resolve_against_the_working_dir() {
    assert_eq!(resolve_command(Path::new("stockfish"), Some(Path::new("/e"))), PathBuf::from("stockfish"));
    assert_eq!(resolve_command(Path::new("/bin/sf"), Some(Path::new("/e"))), PathBuf::from("/bin/sf"));
    assert_eq!(resolve_command(Path::new("./sf"), Some(Path::new("/e"))), PathBuf::from("/e/sf"));
    let resolved = resolve_command(Path::new("bin/sf"), None);
    assert!(resolved.is_absolute() && resolved.ends_with("bin/sf"), "{}", resolved.display());
}

#[test]
fn protocols_parse_by_their_names_only() {
    assert_eq!(Protocol::parse("uci"), Some(Protocol::Uci));
    assert_eq!(Protocol::parse("xboard"), Some(Protocol::Xboard));
    assert_eq!(Protocol::parse("cecp"), None);
    assert_eq!(Protocol::parse("UCI"), None);
}
