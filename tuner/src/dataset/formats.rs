//! The labelled-position line formats: parsing (detected per line) and writing.
//!
//! Accepted, one position per line:
//!
//! | format | example |
//! | --- | --- |
//! | EPD, zurichess/texel style | `<4-field FEN> c9 "1/2-1/2";` (other opcodes may come before or after `c9`; a `ce` opcode is the search score) |
//! | Ethereal, lichess-big3-resolved | `<FEN> [1.0]`, `<FEN> [1-0]`; an integer after `]` (Ethereal's search score) is ignored |
//! | pipe | `<FEN> \| 1-0` |
//! | text (bullet's) | `<FEN> \| 35 \| 1.0` (score in centipawns from White's view, then the result) |
//! | CSV | `<FEN>,1-0` (a `fen,result` header line is skipped) |
//!
//! The FEN may have 4 or 6 fields everywhere. A result is `1-0`, `1/2-1/2`, `0-1`, or the number 1, 0.5
//! or 0 (`1.0`, `0.50`, ... too); it is always White's point of view. Blank lines and lines starting with
//! `#` are ignored.
//!
//! A search score rides along in EPD as the standard `ce` opcode (centipawns from the side to
//! move's point of view; `tune datagen` and `tune dataset convert` write it from the games'
//! `{+0.35/12 ...}` move comments) and in the text format as its middle field (White's view, as
//! bullet and most datagen tools write it). In memory it is White's view, like the result.

use whetstone::Position;

use super::{Label, Outcome};

/// An output line format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// `<4-field FEN> c9 "1-0";` (zurichess quiet-labeled.epd style; the move counters are dropped)
    Epd,
    /// `<FEN> [1.0]` (Ethereal style: 6-field FEN, result 1.0 / 0.5 / 0.0)
    Ethereal,
    /// `fen,result` with a header line, result 1.0 / 0.5 / 0.0
    Csv,
    /// `<FEN> | <score> | <result>` (bullet's text format: White's centipawns, result 1.0 / 0.5 /
    /// 0.0; a position without a score gets 0)
    Text,
}

impl Format {
    /// The line written before any position (the CSV header), if any.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Format::Csv => Some("fen,result"),
            Format::Epd | Format::Ethereal | Format::Text => None,
        }
    }
}

/// Writes one labelled position in `format` (no line terminator). The search score, if any, is
/// EPD's `ce` and the text format's middle field (0 there when there is none); Ethereal's and
/// CSV have no place for it and drop it.
pub fn format_line(pos: &Position, label: Label, format: Format) -> String {
    let fen = pos.to_fen();
    let outcome = label.outcome;
    match format {
        Format::Epd => {
            let epd: Vec<&str> = fen.split(' ').take(4).collect();
            let score = label.score.map(|s| format!(" ce {};", to_side_to_move(pos, s))).unwrap_or_default();
            format!("{}{score} c9 \"{}\";", epd.join(" "), result_pgn(outcome))
        }
        Format::Ethereal => format!("{fen} [{}]", result_decimal(outcome)),
        Format::Csv => csv_record(&[&fen, result_decimal(outcome)]),
        Format::Text => format!("{fen} | {} | {}", label.score.unwrap_or(0), result_decimal(outcome)),
    }
}

/// A White's-view score as the side to move's, and back (the same flip both ways).
fn to_side_to_move(pos: &Position, score: i32) -> i32 {
    if pos.side_to_move() == whetstone::Color::White {
        score
    } else {
        -score
    }
}

/// One CSV record without its terminator (fields quoted where CSV needs it).
fn csv_record(fields: &[&str]) -> String {
    let mut writer =
        csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
    // Writing to memory cannot fail; an empty record is the worst case.
    let _ = writer.write_record(fields);
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8_lossy(&bytes).trim_end_matches('\n').to_string()
}

/// The result as PGN writes it: `1-0`, `1/2-1/2`, `0-1`.
pub fn result_pgn(outcome: Outcome) -> &'static str {
    ["0-1", "1/2-1/2", "1-0"][result_index(outcome)]
}

/// The result as a decimal: `1.0`, `0.5`, `0.0`.
pub fn result_decimal(outcome: Outcome) -> &'static str {
    ["0.0", "0.5", "1.0"][result_index(outcome)]
}

/// 0 for a loss, 1 for a draw, 2 for a win (White's view): the index into `LoadSummary::by_result`.
pub fn result_index(outcome: Outcome) -> usize {
    if outcome < 0.25 {
        0
    } else if outcome > 0.75 {
        2
    } else {
        1
    }
}

/// Parses a result in any accepted spelling.
pub fn parse_result(text: &str) -> Result<Outcome, String> {
    let bad = || {
        format!("bad result '{text}': expected 1-0, 1/2-1/2 or 0-1 (or 1, 0.5, 0) from White's point of view")
    };
    match text {
        "1-0" => return Ok(1.0),
        "0-1" => return Ok(0.0),
        "1/2-1/2" | "½-½" => return Ok(0.5),
        _ => {}
    }
    // Numbers: only plain decimals (no signs, exponents, "inf" or "nan").
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(bad());
    }
    match text.parse::<f32>() {
        Ok(v) if v == 0.0 || v == 0.5 || v == 1.0 => Ok(v),
        _ => Err(bad()),
    }
}

/// What a line looks like, decided by its punctuation (a FEN contains none of `[ | , ; "`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Shape {
    Bracket,
    Pipe,
    Csv,
    Epd,
}

fn shape(line: &str) -> Shape {
    // One pass over the bytes (this runs for every line of multi-million-line files).
    let seen = line.bytes().fold(0u8, |seen, b| {
        seen | match b {
            b'[' | b']' => 1,
            b'|' => 2,
            b',' => 4,
            _ => 0,
        }
    });
    if seen & 1 != 0 {
        Shape::Bracket
    } else if seen & 2 != 0 {
        Shape::Pipe
    } else if seen & 4 != 0 {
        Shape::Csv
    } else {
        Shape::Epd
    }
}

const NO_RESULT: &str =
    "no game result after the FEN: expected `c9 \"1-0\";`, `[1.0]`, `| 1-0`, `| 35 | 1.0` or `,1-0` \
     (result 1-0, 1/2-1/2 or 0-1)";

/// Parses one line (without its line terminator). `Ok(None)` for blank and comment (`#`) lines and for a
/// `fen,result` CSV header.
pub fn parse_line(line: &str) -> Result<Option<(Position, Outcome)>, String> {
    Ok(parse_labelled_line(line)?.map(|(pos, label)| (pos, label.outcome)))
}

/// As [`parse_line`], with the search score where the line has one (EPD's `ce`).
pub fn parse_labelled_line(line: &str) -> Result<Option<(Position, Label)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let csv_fields;
    let mut ce = None;
    let mut white_score = None;
    let (fen, result): (&str, &str) = match shape(line) {
        Shape::Bracket => split_bracket(line)?,
        Shape::Pipe => {
            let (fen, score, result) = split_pipe(line)?;
            white_score = score;
            (fen, result)
        }
        Shape::Csv => {
            if line.eq_ignore_ascii_case("fen,result") {
                return Ok(None);
            }
            csv_fields = split_csv(line)?;
            (&csv_fields.0, &csv_fields.1)
        }
        Shape::Epd => {
            let (fen, result, score) = split_epd(line)?;
            ce = score;
            (fen, result)
        }
    };
    let outcome = parse_result(result)?;
    let pos = parse_fen(fen)?;
    let score = match (ce, white_score) {
        (None, Some(text)) => {
            Some(text.parse::<i32>().ok().filter(|cp| cp.abs() <= MAX_TEXT_SCORE).ok_or_else(|| {
                format!("bad score '{text}': expected centipawns, at most {MAX_TEXT_SCORE} either way")
            })?)
        }
        (None, None) => None,
        (Some(text), _) => {
            let cp = text.parse::<i32>().ok().filter(|cp| cp.abs() <= MAX_CE).ok_or_else(|| {
                format!("bad ce '{text}': expected centipawns, at most {MAX_CE} either way")
            })?;
            Some(to_side_to_move(&pos, cp))
        }
    };
    Ok(Some((pos, Label { outcome, score })))
}

/// The largest `ce` accepted: beyond it a score is a mate, not an evaluation.
const MAX_CE: i32 = 30_000;
/// The largest text-format score accepted: what the binary formats' 16 bits hold (mate scores of
/// other engines' datagen included).
const MAX_TEXT_SCORE: i32 = i16::MAX as i32;

fn parse_fen(fen: &str) -> Result<Position, String> {
    let fen = fen.trim();
    if fen.is_empty() {
        return Err("missing FEN before the result".to_string());
    }
    Position::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))
}

/// `<FEN> [result]`, optionally followed by an integer score.
fn split_bracket(line: &str) -> Result<(&str, &str), String> {
    let (Some(open), Some(close)) = (line.find('['), line.rfind(']')) else {
        return Err(format!("unbalanced brackets: expected `<FEN> [result]`, e.g. `[1.0]`; {NO_RESULT}"));
    };
    if close < open || line[open + 1..].contains('[') {
        return Err("unbalanced brackets: expected `<FEN> [result]`, e.g. `[1.0]`".to_string());
    }
    let after = line[close + 1..].trim();
    if !after.is_empty() && after.strip_prefix('-').unwrap_or(after).parse::<u32>().is_err() {
        return Err(format!("unexpected text '{after}' after `[result]` (only a score may follow)"));
    }
    Ok((&line[..open], line[open + 1..close].trim()))
}

/// `<FEN> | result` or `<FEN> | score | result`.
fn split_pipe(line: &str) -> Result<(&str, Option<&str>, &str), String> {
    let mut parts = line.split('|');
    let fen = parts.next().unwrap_or("");
    let (second, third) = (parts.next().unwrap_or(""), parts.next());
    if parts.next().is_some() {
        return Err(
            "more than two '|': expected `<FEN> | <result>` or `<FEN> | <score> | <result>`".to_string()
        );
    }
    Ok(match third {
        None => (fen, None, second.trim()),
        Some(result) => (fen, Some(second.trim()), result.trim()),
    })
}

/// `<FEN>,result`, read as one CSV record (fields may be quoted).
fn split_csv(line: &str) -> Result<(String, String), String> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(line.as_bytes());
    let mut record = csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(true) => {}
        Ok(false) => return Err("an empty CSV record".to_string()),
        Err(e) => return Err(format!("not a CSV record: {e}")),
    }
    if record.len() != 2 {
        return Err(format!("{} CSV fields: expected `<FEN>,<result>`", record.len()));
    }
    Ok((record[0].trim().to_string(), record[1].trim().to_string()))
}

/// `<4-field FEN> [halfmove fullmove] op; op; ...` with a `c9 "<result>"` operation: the FEN, the
/// result and the `ce` operand if there is one.
fn split_epd(line: &str) -> Result<(&str, &str, Option<&str>), String> {
    // The position: four fields, then the two move counters if present.
    let mut rest = line;
    for field in 0..6 {
        let trimmed = rest.trim_start();
        let end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
        let token = &trimmed[..end];
        if token.is_empty() {
            if field < 4 {
                // Too short to be a FEN: say so rather than asking for a result.
                return Err(parse_fen(line).err().unwrap_or_else(|| NO_RESULT.to_string()));
            }
            break;
        }
        if field >= 4 && !token.bytes().all(|b| b.is_ascii_digit()) {
            break;
        }
        rest = &trimmed[end..];
    }
    let fen = &line[..line.len() - rest.len()];
    let ops = rest.trim();
    // Without a result, a FEN that does not parse is the more useful complaint.
    let no_result = |message: String| parse_fen(fen).err().unwrap_or(message);
    if ops.is_empty() {
        return Err(no_result(NO_RESULT.to_string()));
    }
    let (mut result, mut ce) = (None, None);
    for op in ops.split(';') {
        let op = op.trim();
        let (code, value) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let value = value.trim();
        match code {
            "c9" if result.is_none() => {
                let unquoted = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value);
                result = Some(unquoted.trim());
            }
            "ce" if ce.is_none() => ce = Some(value),
            _ => {}
        }
    }
    match result {
        Some(result) => Ok((fen, result, ce)),
        None => Err(no_result(format!(
            "EPD operations '{ops}' have no c9 result opcode (expected e.g. `c9 \"1-0\";`)"
        ))),
    }
}

#[cfg(test)]
#[path = "formats_tests.rs"]
mod tests;
