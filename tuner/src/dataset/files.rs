//! Which format a dataset file is in: named by `--from`/`--to` or by the file's extension, and
//! checked against the file's first bytes, so a file whose content is not what its name says is
//! refused with what it looks like instead of being misread.

use std::io::Read;
use std::path::Path;

use anyhow::{bail, Context, Result};

use super::binary::{bullet, viri};
pub use super::file_format::FileFormat;

/// What a file's first bytes show.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// Text lines (possibly gzip-compressed): a labelled-position file or PGN, told apart later.
    Text,
    /// PGN text (the first line that is not blank is a tag pair or a move number).
    Pgn,
    /// bzip2-compressed data (a `.pgn.bz2`).
    Bzip2,
    Binpack,
    Tar,
    /// Fixed binary records; which of the two 32-byte formats is checked by their rules.
    Binary,
    Empty,
}

/// Bytes read to decide.
const SNIFF_BYTES: usize = 64 << 10;

/// The first bytes of a file (up to 64 KiB).
pub fn head(path: &Path) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    file.take(SNIFF_BYTES as u64)
        .read_to_end(&mut head)
        .with_context(|| format!("reading {}", path.display()))?;
    Ok(head)
}

/// What the bytes look like.
pub fn content(head: &[u8]) -> Content {
    if head.is_empty() {
        return Content::Empty;
    }
    if head.starts_with(b"BINP") {
        return Content::Binpack;
    }
    if head.len() > 262 && &head[257..262] == b"ustar" {
        return Content::Tar;
    }
    if head.starts_with(b"BZh") {
        return Content::Bzip2;
    }
    if head.starts_with(b"\x1f\x8b") {
        return Content::Text; // decoded (and refused if it is not text) by the text reader
    }
    if head.contains(&0)
        || std::str::from_utf8(&head[..head.len().min(4096)]).is_err_and(|e| e.error_len().is_some())
    {
        return Content::Binary;
    }
    let first =
        std::str::from_utf8(head).unwrap_or("").lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    if first.starts_with('[') && first.ends_with(']') && first.contains(" \"") || first.starts_with("1.") {
        return Content::Pgn;
    }
    Content::Text
}

/// The format to read `path` as: `from` if given, else its extension's, else its content's;
/// the choice is checked against the content and a mismatch is an error that says what the
/// content looks like.
pub fn input_format(path: &Path, from: Option<FileFormat>) -> Result<FileFormat> {
    let head = head(path)?;
    let named = from.or_else(|| FileFormat::from_extension(path));
    let how = if from.is_some() { "--from" } else { "its extension" };
    let name = path.display();
    let found = content(&head);
    let binary_guess = || -> Result<FileFormat> {
        match (viri::check_start(&head), bullet::check_start(&head)) {
            (Ok(()), Err(_)) => Ok(FileFormat::Viriformat),
            (Err(_), Ok(())) => Ok(FileFormat::Bulletformat),
            (Ok(()), Ok(())) => {
                bail!("{name}: binary records that read both as viriformat and as bulletformat: give --from")
            }
            (Err(v), Err(b)) => bail!(
                "{name}: binary, but neither viriformat ({v}) nor bulletformat ({b}) by its first record"
            ),
        }
    };
    let looks = |found: Content| -> &'static str {
        match found {
            Content::Text => "a text file",
            Content::Pgn => "PGN",
            Content::Bzip2 => "bzip2-compressed",
            Content::Binpack => "a Stockfish binpack",
            Content::Tar => "a tar archive",
            Content::Binary => "binary",
            Content::Empty => "empty",
        }
    };
    if found == Content::Empty {
        bail!("{name} is empty");
    }
    let Some(named) = named else {
        return match found {
            Content::Text => Ok(FileFormat::Epd),
            Content::Pgn | Content::Bzip2 => Ok(FileFormat::Pgn),
            Content::Binpack => Ok(FileFormat::Binpack),
            Content::Tar => Ok(FileFormat::Archive),
            Content::Binary => binary_guess(),
            Content::Empty => unreachable!("handled above"),
        };
    };
    let fits = match named {
        f if f.is_text() => found == Content::Text,
        FileFormat::Pgn => matches!(found, Content::Pgn | Content::Bzip2 | Content::Text),
        FileFormat::Archive => found == Content::Tar,
        FileFormat::Binpack => found == Content::Binpack,
        FileFormat::Viriformat | FileFormat::Bulletformat => found == Content::Binary,
        _ => false,
    };
    if !fits {
        let hint = match found {
            Content::Text => " (give --from epd to read it as labelled positions)",
            Content::Pgn | Content::Bzip2 => " (give --from pgn to read its games)",
            Content::Binary => " (give --from viriformat or --from bulletformat)",
            Content::Binpack => " (give --from binpack)",
            Content::Tar => " (give --from archive)",
            Content::Empty => "",
        };
        bail!("{name} is {named} by {how}, but its content is {}{hint}", looks(found));
    }
    if matches!(named, FileFormat::Viriformat | FileFormat::Bulletformat) {
        let check = if named == FileFormat::Viriformat {
            viri::check_start(&head)
        } else {
            bullet::check_start(&head)
        };
        if let Err(why) = check {
            let other = binary_guess().ok().filter(|&f| f != named);
            let hint = other.map(|f| format!("; it reads as {f}: give --from {f}")).unwrap_or_default();
            bail!("{name} is {named} by {how}, but its first record is not: {why}{hint}");
        }
    }
    Ok(named)
}

/// The format to write `path` in: `to` if given, else its extension's (an unknown extension is
/// an error rather than a guess).
pub fn output_format(path: &Path, to: Option<FileFormat>) -> Result<FileFormat> {
    let format = match to.or_else(|| FileFormat::from_extension(path)) {
        Some(format) => format,
        None => bail!(
            "{}: no format for this extension; give --to (epd, ethereal, csv, text, viriformat, bulletformat)",
            path.display()
        ),
    };
    if !format.writable() {
        bail!(
            "{}: {format} is read only; write epd, ethereal, csv, text, viriformat or bulletformat",
            path.display()
        );
    }
    Ok(format)
}

/// Refuses to replace an existing file unless `force`.
pub fn check_overwrite(path: &Path, force: bool) -> Result<()> {
    if !force && path.exists() {
        bail!("{} exists: give --force to overwrite it", path.display());
    }
    Ok(())
}

#[cfg(test)]
#[path = "files_tests.rs"]
mod tests;
