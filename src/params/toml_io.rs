//! Reading and writing parameter files. The `toml` crate parses; this module turns its values into
//! terms with errors that name the term and the problem, and writes files back in the same layout.

use std::fmt::Write;

use toml::Value;

use super::{ParamSet, ParamsError, Shape, Term};

const KEYS: [&str; 11] =
    ["name", "doc", "shape", "phased", "tunable", "min", "max", "mg", "eg", "value", "fixed"];

pub(super) fn parse(text: &str, file: &str) -> Result<ParamSet, ParamsError> {
    // The parser's whole message (line and column, the offending line with a caret, what was
    // expected); only its trailing newline goes.
    let table: toml::Table = toml::from_str(text).map_err(|e| ParamsError::Toml {
        file: file.into(),
        message: e.to_string().trim_end().to_string(),
    })?;
    let malformed =
        |index: usize, message: String| ParamsError::Malformed { file: file.into(), index, message };
    // `[provenance]` says how the values were tuned; the tuner reads it, the engine passes over it.
    if let Some(key) = table.keys().find(|k| !["term", "provenance"].contains(&k.as_str())) {
        return Err(malformed(
            0,
            format!("unknown top-level key '{key}' (only [[term]] tables and [provenance] are allowed)"),
        ));
    }
    let Some(Value::Array(entries)) = table.get("term") else {
        return Err(malformed(0, "no [[term]] tables".into()));
    };
    let mut terms: Vec<Term> = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let Value::Table(t) = entry else { return Err(malformed(i + 1, "a term must be a table".into())) };
        let Some(Value::String(name)) = t.get("name") else {
            return Err(malformed(i + 1, "missing 'name' (a string)".into()));
        };
        let term = parse_term(name, t).map_err(|message| ParamsError::BadTerm {
            file: file.into(),
            term: name.clone(),
            message,
        })?;
        if terms.iter().any(|t| t.name == term.name) {
            return Err(ParamsError::Duplicate { file: file.into(), term: term.name });
        }
        check_bounds(&term, file)?;
        terms.push(term);
    }
    Ok(ParamSet { terms })
}

fn parse_term(name: &str, t: &toml::Table) -> Result<Term, String> {
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._".contains(c))
    {
        return Err("a name uses lower-case letters, digits, '_' and '.' only".into());
    }
    if let Some(key) = t.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!("unknown key '{key}' (allowed: {})", KEYS.join(", ")));
    }
    let shape: Shape = match t.get("shape") {
        Some(v) => {
            v.clone().try_into().map_err(|_| "shape must be scalar, list, piece or square".to_string())?
        }
        None => return Err("missing 'shape'".into()),
    };
    let flag = |key: &str, default: bool| match t.get(key) {
        None => Ok(default),
        Some(Value::Boolean(b)) => Ok(*b),
        Some(_) => Err(format!("'{key}' must be true or false")),
    };
    let phased = flag("phased", true)?;
    let tunable = flag("tunable", true)?;
    let bound = |key: &str| match t.get(key) {
        Some(Value::Integer(n)) => i32::try_from(*n).map_err(|_| format!("'{key}' is out of range")),
        Some(_) => Err(format!("'{key}' must be an integer")),
        None => Err(format!("missing '{key}'")),
    };
    let (min, max) = (bound("min")?, bound("max")?);
    if min > max {
        return Err(format!("min {min} is above max {max}"));
    }
    let doc = match t.get("doc") {
        Some(Value::String(s)) => s.clone(),
        None => String::new(),
        Some(_) => return Err("'doc' must be a string".into()),
    };
    let values = |key: &str| -> Result<Vec<i32>, String> {
        let v = t.get(key).ok_or_else(|| format!("missing '{key}'"))?;
        parse_values(shape, v).map_err(|e| format!("'{key}': {e}"))
    };
    let (mg, eg) = if phased {
        if t.contains_key("value") {
            return Err("a phased term has 'mg' and 'eg', not 'value'".into());
        }
        let (mg, eg) = (values("mg")?, values("eg")?);
        if mg.len() != eg.len() {
            return Err(format!("'mg' has {} elements but 'eg' has {}", mg.len(), eg.len()));
        }
        (mg, eg)
    } else {
        if t.contains_key("mg") || t.contains_key("eg") {
            return Err("an unphased term ('phased = false') has 'value', not 'mg'/'eg'".into());
        }
        let v = values("value")?;
        (v.clone(), v)
    };
    let mut term = Term { name: name.into(), doc, shape, phased, tunable, min, max, mg, eg, fixed: vec![] };
    if let Some(v) = t.get("fixed") {
        term.fixed = parse_fixed(&term, v).map_err(|e| format!("'fixed': {e}"))?;
    }
    Ok(term)
}

/// `fixed = [...]`: element labels as `element_label` spells them (`a1`, `knight`, `3`), list
/// indices as integers, and for boards whole ranks as `rank N`. Returned sorted, without repeats.
fn parse_fixed(term: &Term, v: &Value) -> Result<Vec<usize>, String> {
    let Value::Array(items) = v else { return Err("expected an array of element labels".into()) };
    let mut out = Vec::new();
    for item in items {
        match item {
            Value::Integer(n) if term.shape == Shape::List => match usize::try_from(*n) {
                Ok(i) if i < term.len() => out.push(i),
                _ => return Err(format!("{n} is not an index of this {}-element list", term.len())),
            },
            Value::String(label) => {
                let rank = label.strip_prefix("rank ").and_then(|r| r.trim().parse::<usize>().ok());
                match rank {
                    Some(r @ 1..=8) if term.shape == Shape::Square => out.extend((r - 1) * 8..r * 8),
                    _ => match (0..term.len()).find(|&i| term.element_label(i) == *label) {
                        Some(i) => out.push(i),
                        None => {
                            return Err(format!("`{label}` names no element of this {}", term.shape.name()))
                        }
                    },
                }
            }
            other => return Err(format!("expected an element label, found {}", other.type_str())),
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// `fixed` as `parse_fixed` reads it, whole board ranks as `rank N`.
fn fixed_labels(term: &Term) -> Vec<String> {
    let mut labels = Vec::new();
    let mut rest: Vec<usize> = term.fixed.clone();
    if term.shape == Shape::Square {
        for r in 0..8 {
            if (r * 8..r * 8 + 8).all(|i| term.fixed.contains(&i)) {
                labels.push(format!("\"rank {}\"", r + 1));
                rest.retain(|i| i / 8 != r);
            }
        }
    }
    labels.extend(rest.iter().map(|&i| match term.shape {
        Shape::List => i.to_string(),
        _ => format!("\"{}\"", term.element_label(i)),
    }));
    labels
}

fn integer(v: &Value) -> Result<i32, String> {
    match v {
        Value::Integer(n) => i32::try_from(*n).map_err(|_| format!("{n} does not fit in 32 bits")),
        other => Err(format!("expected an integer, found {}", other.type_str())),
    }
}

fn integers(v: &Value) -> Result<Vec<i32>, String> {
    match v {
        Value::Array(items) => items.iter().map(integer).collect(),
        other => Err(format!("expected an array of integers, found {}", other.type_str())),
    }
}

/// Values of one phase in the shape's layout; boards come rank 8 first and are returned a1-first.
fn parse_values(shape: Shape, v: &Value) -> Result<Vec<i32>, String> {
    match shape {
        Shape::Scalar => Ok(vec![integer(v)?]),
        Shape::List => {
            let list = integers(v)?;
            if list.is_empty() {
                return Err("a list needs at least one element".into());
            }
            Ok(list)
        }
        Shape::Piece => {
            let list = integers(v)?;
            if list.len() != 5 {
                return Err(format!("a piece table has 5 elements (P N B R Q), found {}", list.len()));
            }
            Ok(list)
        }
        Shape::Square => {
            let Value::Array(rows) = v else { return Err("a square table is 8 rows of 8 integers".into()) };
            if rows.len() != 8 {
                return Err(format!("a square table has 8 rows (rank 8 first), found {}", rows.len()));
            }
            let mut board = vec![0; 64];
            for (r, row) in rows.iter().enumerate() {
                let row = integers(row).map_err(|e| format!("rank {}: {e}", 8 - r))?;
                if row.len() != 8 {
                    return Err(format!("rank {} has {} values, expected 8", 8 - r, row.len()));
                }
                let rank = 7 - r;
                board[rank * 8..rank * 8 + 8].copy_from_slice(&row);
            }
            Ok(board)
        }
    }
}

fn check_bounds(term: &Term, file: &str) -> Result<(), ParamsError> {
    let phases: &[(&str, &Vec<i32>)] =
        if term.phased { &[("mg", &term.mg), ("eg", &term.eg)] } else { &[("", &term.mg)] };
    for &(phase, values) in phases {
        for (i, &value) in values.iter().enumerate() {
            if value < term.min || value > term.max {
                let label = term.element_label(i);
                let element = match (label.is_empty(), phase.is_empty()) {
                    (true, true) => String::new(),
                    (true, false) => format!(" {phase}"),
                    (false, true) => format!(" [{label}]"),
                    (false, false) => format!(" [{label}] {phase}"),
                };
                return Err(ParamsError::OutOfBounds {
                    file: file.into(),
                    term: term.name.clone(),
                    element,
                    value,
                    min: term.min,
                    max: term.max,
                });
            }
        }
    }
    Ok(())
}

/// The set as TOML, in the layout `parse` reads.
pub(super) fn write(set: &ParamSet) -> String {
    let mut out = String::from(
        "# Whetstone evaluation parameters: every weight the evaluation uses, declared once.\n\
         # shape: scalar | list | piece (pawn knight bishop rook queen) | square (8 rows, rank 8 first).\n\
         # phased = true: 'mg' and 'eg' values, interpolated by game phase; false: one 'value'.\n",
    );
    for t in &set.terms {
        writeln!(out, "\n[[term]]").unwrap();
        writeln!(out, "name = {}", Value::String(t.name.clone())).unwrap();
        writeln!(out, "doc = {}", Value::String(t.doc.clone())).unwrap();
        writeln!(out, "shape = \"{}\"", t.shape.name()).unwrap();
        writeln!(out, "phased = {}", t.phased).unwrap();
        writeln!(out, "tunable = {}", t.tunable).unwrap();
        writeln!(out, "min = {}", t.min).unwrap();
        writeln!(out, "max = {}", t.max).unwrap();
        if !t.fixed.is_empty() {
            writeln!(out, "fixed = [{}]", fixed_labels(t).join(", ")).unwrap();
        }
        if t.phased {
            write_values(&mut out, "mg", t.shape, &t.mg);
            write_values(&mut out, "eg", t.shape, &t.eg);
        } else {
            write_values(&mut out, "value", t.shape, &t.mg);
        }
    }
    out
}

fn write_values(out: &mut String, key: &str, shape: Shape, values: &[i32]) {
    let join = |vals: &[i32]| vals.iter().map(|v| format!("{v:4}")).collect::<Vec<_>>().join(",");
    match shape {
        Shape::Scalar => writeln!(out, "{key} = {}", values[0]).unwrap(),
        Shape::Square => {
            writeln!(out, "{key} = [").unwrap();
            for rank in (0..8).rev() {
                writeln!(out, "  [{}], # {}", join(&values[rank * 8..rank * 8 + 8]), rank + 1).unwrap();
            }
            writeln!(out, "]").unwrap();
        }
        Shape::List | Shape::Piece if values.len() > 16 => {
            writeln!(out, "{key} = [").unwrap();
            for chunk in values.chunks(8) {
                writeln!(out, "  {},", join(chunk)).unwrap();
            }
            writeln!(out, "]").unwrap();
        }
        Shape::List | Shape::Piece => writeln!(out, "{key} = [{}]", join(values)).unwrap(),
    }
}
