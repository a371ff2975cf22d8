//! The dataset file formats by name (`--from`/`--to`) and by extension: the words every reader,
//! writer and the content check share.

use std::fmt;
use std::path::Path;

/// A dataset file format, as `--from`/`--to` name it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileFormat {
    /// `<4-field FEN> [ce <score>;] c9 "1-0";` (.epd; reading accepts every text line format)
    Epd,
    /// `<FEN> [1.0]` (Ethereal's; no extension of its own)
    Ethereal,
    /// `fen,result` with a header line (.csv)
    Csv,
    /// `<FEN> | <score> | <result>`, bullet's text format (.txt, .text)
    Text,
    /// Viridithas's game chains (.vf, .viri, .viriformat)
    Viriformat,
    /// bullet's 32-byte boards (.bullet, .bf, .data)
    Bulletformat,
    /// Stockfish's compressed training data, read only (.binpack)
    Binpack,
    /// PGN games, plain, gzip or bzip2 (.pgn, .pgn.gz, .pgn.bz2), read only
    Pgn,
    /// OpenBench's datagen archive, a tar of bzip2-compressed PGNs (.tar), read only
    Archive,
}

impl fmt::Display for FileFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for FileFormat {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<FileFormat, String> {
        FileFormat::ALL
            .into_iter()
            .find(|f| f.name() == text)
            .ok_or_else(|| format!("`{text}` is no dataset format"))
    }
}

impl FileFormat {
    pub const ALL: [FileFormat; 9] = [
        FileFormat::Epd,
        FileFormat::Ethereal,
        FileFormat::Csv,
        FileFormat::Text,
        FileFormat::Viriformat,
        FileFormat::Bulletformat,
        FileFormat::Binpack,
        FileFormat::Pgn,
        FileFormat::Archive,
    ];

    /// The format's name, as `--from`/`--to` and run.json write it.
    pub fn name(self) -> &'static str {
        match self {
            FileFormat::Epd => "epd",
            FileFormat::Ethereal => "ethereal",
            FileFormat::Csv => "csv",
            FileFormat::Text => "text",
            FileFormat::Viriformat => "viriformat",
            FileFormat::Bulletformat => "bulletformat",
            FileFormat::Binpack => "binpack",
            FileFormat::Pgn => "pgn",
            FileFormat::Archive => "archive",
        }
    }

    /// One of the text line formats (all read by the same per-line parser).
    pub fn is_text(self) -> bool {
        matches!(self, FileFormat::Epd | FileFormat::Ethereal | FileFormat::Csv | FileFormat::Text)
    }

    /// Whether `tune` can write this format.
    pub fn writable(self) -> bool {
        !matches!(self, FileFormat::Binpack | FileFormat::Pgn | FileFormat::Archive)
    }

    /// The format a file name implies, if any (`.gz` and `.bz2` are looked through).
    pub fn from_extension(path: &Path) -> Option<FileFormat> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let name = name.strip_suffix(".gz").or_else(|| name.strip_suffix(".bz2")).unwrap_or(&name);
        let extension = name.rsplit_once('.')?.1;
        Some(match extension {
            "epd" => FileFormat::Epd,
            "csv" => FileFormat::Csv,
            "txt" | "text" => FileFormat::Text,
            "vf" | "viri" | "viriformat" => FileFormat::Viriformat,
            "bullet" | "bf" | "data" => FileFormat::Bulletformat,
            "binpack" => FileFormat::Binpack,
            "pgn" => FileFormat::Pgn,
            "tar" => FileFormat::Archive,
            _ => return None,
        })
    }
}
