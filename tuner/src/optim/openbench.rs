//! The values an OpenBench SPSA tune reports, read back into the params sets. OpenBench (read at
//! AndyGrant/OpenBench `9906bad`, `OpenBench/spsa_utils.py` and `views.py::api_spsa`) shows a
//! tune's values in three texts, and a file may hold any one of them:
//!
//! - **outputs**, the workload page's "Copy SPSA Outputs" (`/api/spsa/<id>/outputs/`): one
//!   `name, value` line per parameter, integers already rounded by OpenBench;
//! - **digest**, "Show SPSA Digest" (`/api/spsa/<id>/digest/`): the header
//!   `Name,Curr,Start,Min,Max,C,C_end,R,R_end`, then one row per parameter whose `Curr` is the
//!   current value with four decimals. Copied from the page's table instead, the cells are
//!   tab-separated (and the header may be missing); both are read;
//! - **inputs**, `name, int|float, value, min, max, c_end, r_end`: what `--export-openbench`
//!   writes and a local run leaves in `openbench.txt`. On OpenBench, "Copy SPSA Inputs" gives a
//!   tune's *start*, so importing it undoes the tune; read it only from a local run.
//!
//! Values are rounded half to even, as OpenBench's own outputs round them (Python's `round`), so
//! the digest and the outputs of one tune import the same integers.

use std::fmt;

use anyhow::{anyhow, bail, Context, Result};
use whetstone::eval::EvalParamSet;
use whetstone::search::SearchParamSet;

use super::space::parse_line;

/// Which of OpenBench's texts a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `name, value` ("Copy SPSA Outputs").
    Outputs,
    /// `Name,Curr,Start,Min,Max,C,C_end,R,R_end` rows ("Show SPSA Digest").
    Digest,
    /// `name, int|float, value, min, max, c_end, r_end` (SPSA input lines).
    Inputs,
}

impl Format {
    /// Fields per line.
    fn fields(self) -> usize {
        match self {
            Format::Outputs => 2,
            Format::Digest => DIGEST_HEADER.len(),
            Format::Inputs => 7,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Outputs => "OpenBench SPSA outputs (`name, value`)",
            Format::Digest => "OpenBench SPSA digest (`Name,Curr,...`)",
            Format::Inputs => "OpenBench SPSA input lines",
        })
    }
}

/// The digest's columns, as `spsa_param_digest` writes them and the workload page heads its table.
const DIGEST_HEADER: [&str; 9] = ["Name", "Curr", "Start", "Min", "Max", "C", "C_end", "R", "R_end"];

/// One parameter's reported value and the line it came from (1-based), for error messages.
#[derive(Clone, Debug, PartialEq)]
pub struct Reported {
    pub name: String,
    pub value: f64,
    pub line: usize,
}

/// What [`import_openbench`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub format: Format,
    /// Every value set, by name, as rounded into the params.
    pub values: Vec<(String, f64)>,
    /// Whether any evaluation weight, any search constant was among them.
    pub eval: bool,
    pub search: bool,
}

/// A line's cells: tab-separated when copied from the page's table, comma-separated otherwise.
fn cells(line: &str) -> Vec<&str> {
    let separator = if line.contains('\t') { '\t' } else { ',' };
    line.split(separator).map(str::trim).collect()
}

fn is_digest_header(cells: &[&str]) -> bool {
    cells.len() == DIGEST_HEADER.len()
        && cells.iter().zip(DIGEST_HEADER).all(|(c, h)| c.eq_ignore_ascii_case(h))
}

fn number(cell: &str, what: &str) -> Result<f64> {
    let v: f64 = cell.parse().map_err(|_| anyhow!("{what} `{cell}` is not a number"))?;
    if !v.is_finite() {
        bail!("{what} `{cell}` is not finite");
    }
    Ok(v)
}

/// One data line of a file of `format`.
fn parse_value(format: Format, line: &str, cells: &[&str]) -> Result<(String, f64)> {
    let name = cells[0];
    if name.is_empty() || name.chars().any(char::is_whitespace) {
        bail!("the name must be one word");
    }
    let value = match format {
        Format::Outputs => number(cells[1], "value")?,
        Format::Digest => {
            let (value, min, max) =
                (number(cells[1], "Curr")?, number(cells[3], "Min")?, number(cells[4], "Max")?);
            // OpenBench clips every value to [Min, Max]; half a unit of the 4-decimal print is
            // allowed. Outside, the columns are not the digest's.
            if value < min - 5e-5 || value > max + 5e-5 {
                bail!("Curr {value} is outside [Min {min}, Max {max}]: not a digest row?");
            }
            value
        }
        Format::Inputs => parse_line(line)?.start,
    };
    Ok((name.to_string(), value))
}

/// Reads one of OpenBench's SPSA texts: the format comes from the first line that is not blank
/// or a `#` comment, and every other line must have its shape. Errors name the file and line.
pub fn read_reported(text: &str, file: &str) -> Result<(Format, Vec<Reported>)> {
    let mut format: Option<(Format, usize)> = None;
    let mut values: Vec<Reported> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let n = index + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let cells = cells(line);
        if format.is_none() && line.starts_with('{') {
            // What the API answers instead of text, e.g. when the server wants a login.
            let reason = serde_json::from_str::<serde_json::Value>(text.trim())
                .ok()
                .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_string))
                .unwrap_or_else(|| "a JSON answer, not SPSA text".to_string());
            bail!("{file}:{n}: OpenBench answered with an error instead of SPSA values: {reason}");
        }
        let (format, first) = match format {
            Some(known) => known,
            None if is_digest_header(&cells) => {
                format = Some((Format::Digest, n));
                continue;
            }
            None => {
                let found = match cells.len() {
                    2 => Format::Outputs,
                    9 => Format::Digest,
                    7 => Format::Inputs,
                    other => bail!(
                        "{file}:{n}: `{line}` has {other} fields; expected OpenBench's SPSA outputs \
                         (`name, value`), its digest (`Name,Curr,Start,Min,Max,C,C_end,R,R_end`) or \
                         SPSA input lines (`name, int|float, value, min, max, c_end, r_end`)"
                    ),
                };
                *format.insert((found, n))
            }
        };
        if cells.len() != format.fields() {
            bail!(
                "{file}:{n}: `{line}` has {} fields, but line {first} made this file {format} ({} fields a line)",
                cells.len(),
                format.fields()
            );
        }
        let (name, value) =
            parse_value(format, line, &cells).with_context(|| format!("{file}:{n}: `{line}`"))?;
        if let Some(earlier) = values.iter().find(|r| r.name == name) {
            bail!("{file}:{n}: `{name}` is given twice (first on line {})", earlier.line);
        }
        values.push(Reported { name, value, line: n });
    }
    match format {
        Some((format, _)) if !values.is_empty() => Ok((format, values)),
        _ => bail!("{file}: no values (expected OpenBench's SPSA outputs, its digest or SPSA input lines)"),
    }
}

/// Reads an OpenBench SPSA text ([`read_reported`]) into the params sets: every name must be a
/// value of `eval` or `search` (the UCI option names of the `uci-tunables` build), and every
/// value, rounded half to even, within its declared bounds. Values the file does not name keep
/// theirs.
pub fn import_openbench(
    text: &str,
    file: &str,
    eval: &mut EvalParamSet,
    search: &mut SearchParamSet,
) -> Result<Imported> {
    let (format, reported) = read_reported(text, file)?;
    let (eval_names, search_names) = (eval.value_names(), search.value_names());
    let (mut ev, mut sv) = (eval.values(), search.values());
    let (eb, sb) = (eval.value_bounds(), search.value_bounds());
    let mut done = Imported { format, values: Vec::new(), eval: false, search: false };
    for r in &reported {
        let (values, bounds, i) = if let Some(i) = eval_names.iter().position(|n| *n == r.name) {
            done.eval = true;
            (&mut ev, &eb, i)
        } else if let Some(i) = search_names.iter().position(|n| *n == r.name) {
            done.search = true;
            (&mut sv, &sb, i)
        } else {
            bail!("{file}:{}: `{}` is neither an evaluation weight nor a search constant", r.line, r.name);
        };
        let v = r.value.round_ties_even();
        let (min, max) = bounds[i];
        if v < min as f64 || v > max as f64 {
            bail!("{file}:{}: `{}` = {v} is outside its declared bounds [{min}, {max}]", r.line, r.name);
        }
        values[i] = v as i32;
        done.values.push((r.name.clone(), v));
    }
    eval.set_values(&ev);
    search.set_values(&sv);
    Ok(done)
}

#[cfg(test)]
#[path = "openbench_tests.rs"]
mod tests;
