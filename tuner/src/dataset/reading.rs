//! What every dataset reader shares at the bottom: the cap on listed problems, a progress bar over
//! a file's bytes, a reader that advances it, opening a text file (plain or gzip) and refusing
//! other compressions and binary content, and reading a block in full.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

/// How many problems a summary lists (all are counted).
pub const MAX_PROBLEMS: usize = 20;

/// A reader that advances a progress bar by the bytes it reads (from disk, before any decoding).
pub struct Counting<R> {
    pub inner: R,
    pub bar: ProgressBar,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        Ok(n)
    }
}

const GZIP_MAGIC: &[u8] = b"\x1f\x8b";

/// Opens a text file for reading, through a gzip decoder when it is gzip-compressed, with a
/// progress bar over its bytes on disk. What comes out is still checked by [`check_text`].
pub fn open_text(path: &Path, progress: bool) -> Result<(Box<dyn Read + Send>, ProgressBar)> {
    let name = path.display().to_string();
    let mut file = File::open(path).with_context(|| format!("cannot open {name}"))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut magic = Vec::with_capacity(2);
    (&mut file).take(2).read_to_end(&mut magic).with_context(|| format!("reading {name}"))?;
    let bar = progress_bar(progress, size, &name);
    bar.inc(magic.len() as u64);
    let raw = std::io::Cursor::new(magic.clone()).chain(Counting { inner: file, bar: bar.clone() });
    let reader: Box<dyn Read + Send> = if magic == GZIP_MAGIC {
        Box::new(flate2::read::MultiGzDecoder::new(BufReader::new(raw)))
    } else {
        Box::new(raw)
    };
    Ok((reader, bar))
}

/// Rejects compressed (other than gzip, which [`open_text`] decodes) and binary files by their
/// first bytes.
pub fn check_text(head: &[u8], name: &str) -> Result<()> {
    let magic: [(&[u8], &str); 5] = [
        (b"\x1f\x8b", "gzip"),
        (b"\x28\xb5\x2f\xfd", "zstd"),
        (b"\xfd7zXZ\x00", "xz"),
        (b"BZh", "bzip2"),
        (b"PK\x03\x04", "zip"),
    ];
    for (bytes, kind) in magic {
        if head.starts_with(bytes) {
            bail!("{name} is {kind}-compressed, not a labelled-position text file: decompress it first");
        }
    }
    let sample = &head[..head.len().min(64 << 10)];
    if let Some(offset) = sample.iter().position(|&b| b == 0) {
        bail!("{name} is binary, not a labelled-position text file (a NUL byte at offset {offset})");
    }
    Ok(())
}

/// Reads until `buf` is full or the file ends; returns the bytes read.
pub fn read_full(file: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

pub fn progress_bar(show: bool, bytes: u64, name: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(bytes);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_message(name.to_string());
    bar
}

/// Checked before anything is loaded or a run folder made: every file named by `flag` exists.
pub fn check_files(flag: &str, paths: &[std::path::PathBuf]) -> anyhow::Result<()> {
    for path in paths {
        if !path.is_file() {
            anyhow::bail!("{flag} {}: no such file", path.display());
        }
    }
    Ok(())
}
