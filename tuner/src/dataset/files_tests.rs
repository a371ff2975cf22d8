//! Tests of `dataset/files.rs`.

use super::*;

#[test]
fn extensions_name_formats() {
    for (name, format) in [
        ("a.epd", Some(FileFormat::Epd)),
        ("a.epd.gz", Some(FileFormat::Epd)),
        ("dir.x/a.TXT", Some(FileFormat::Text)),
        ("a.vf", Some(FileFormat::Viriformat)),
        ("a.data", Some(FileFormat::Bulletformat)),
        ("a.binpack", Some(FileFormat::Binpack)),
        ("a.pgn.bz2", Some(FileFormat::Pgn)),
        ("42.pgn.tar", Some(FileFormat::Archive)),
        ("a", None),
        ("a.dat", None),
    ] {
        assert_eq!(FileFormat::from_extension(Path::new(name)), format, "{name}");
    }
}

#[test]
fn content_is_told_by_the_first_bytes() {
    assert_eq!(content(b""), Content::Empty);
    assert_eq!(content(b"BINP\x00\x00"), Content::Binpack);
    assert_eq!(content(b"BZh91AY"), Content::Bzip2);
    assert_eq!(content(b"\n[Event \"x\"]\n1. e4 e5"), Content::Pgn);
    assert_eq!(content(b"8/8/8/8/8/8/8/K6k w - - | 0 | 0.5\n"), Content::Text);
    assert_eq!(content(b"\x01\x00\x05"), Content::Binary);
    let mut tar = vec![0u8; 512];
    tar[257..262].copy_from_slice(b"ustar");
    tar[0] = b'a';
    assert_eq!(content(&tar), Content::Tar);
}
