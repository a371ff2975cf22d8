//! The text line formats as a [`PositionWriter`]: one line per position, buffered.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use whetstone::Position;

use super::formats::{format_line, Format};
use super::record_io::{PositionWriter, WriteReport};
use super::Label;

pub struct TextWriter {
    path: PathBuf,
    out: BufWriter<File>,
    format: Format,
    report: WriteReport,
}

impl TextWriter {
    pub fn create(path: &Path, format: Format) -> Result<TextWriter> {
        let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        if let Some(header) = format.header() {
            writeln!(out, "{header}").with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(TextWriter { path: path.to_path_buf(), out, format, report: WriteReport::default() })
    }
}

impl PositionWriter for TextWriter {
    fn write(&mut self, pos: &Position, label: Label) -> Result<()> {
        if label.score.is_none() && self.format == Format::Text {
            self.report.zero_scores += 1;
        }
        self.report.positions += 1;
        writeln!(self.out, "{}", format_line(pos, label, self.format))
            .with_context(|| format!("writing {}", self.path.display()))
    }

    fn finish(mut self: Box<Self>) -> Result<WriteReport> {
        self.out.flush().with_context(|| format!("writing {}", self.path.display()))?;
        Ok(self.report)
    }
}
