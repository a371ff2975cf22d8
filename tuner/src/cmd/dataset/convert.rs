//! `tune dataset convert`: any format to any writable one, streamed (one record or game at a
//! time), the output refused if it exists unless --force.

use std::path::Path;

use anyhow::{bail, Result};

use super::{ReadArgs, WriteArgs};
use crate::dataset::files::output_format;
use crate::dataset::split::same_file;
use crate::dataset::stream::{self, ReadReport, WriteReport};

/// What a conversion read and wrote.
#[derive(Clone, Debug)]
pub struct ConvertReport {
    pub read: ReadReport,
    pub written: WriteReport,
}

/// Converts `input` to `output`.
pub fn convert(input: &Path, output: &Path, read: &ReadArgs, write: &WriteArgs) -> Result<ConvertReport> {
    if same_file(input, output) {
        bail!("the output {} is the input; write to another file", output.display());
    }
    let (format, options) = read.options(input)?;
    let to = output_format(output, write.to)?;
    let mut writer = stream::create(output, to, write.force)?;
    let report = stream::read_as(input, format, &options, &mut |pos, label| writer.write(pos, label))?;
    let written = writer.finish()?;
    if report.positions == 0 {
        eprintln!("warning: {}: no position was read", input.display());
    }
    Ok(ConvertReport { read: report, written })
}
