//! The engine's parameters: every evaluation weight and search constant declared once, in a TOML
//! file (`params/eval.toml`, `params/search.toml`), held here as a [`ParamSet`], and baked into the
//! build as a generated module (`src/eval/baked.rs`, `src/search/baked.rs`) whose `idx` offsets the
//! engine's code reads. A set reaches the engine only as a [`CheckedSet`] ([`EvalParamSet`],
//! [`SearchParamSet`]), whose layout was checked against that module's when it was made.
//!
//! A term has a dotted name (`pst.knight`, `mobility.bishop`), a shape (scalar, list, per-piece,
//! 64-square table), middle-game and end-game values (`phased = true`, keys `mg`/`eg`) or one value
//! used in both phases (`phased = false`, key `value`), bounds, a tunable flag and a line of doc.
//!
//! # The flat vector
//! Elements are numbered in file order: term after term, element after element (squares a1 = 0
//! … h8 = 63, pieces pawn, knight, bishop, rook, queen). The flat *value* vector the tuners see
//! holds, for each element, `mg` then `eg` when the term is phased, or its single value when not;
//! [`ParamSet::value_names`] names every slot (`pst_knight_e4_mg`: one spelling, which is also the
//! value's UCI option name and OpenBench name) and [`ParamSet::select`] picks slots by glob over
//! term names (`pst.*`, `mobility.knight`).
//!
//! In the TOML, 64-square tables are written as eight rows of eight, rank 8 first, as a board is
//! printed; the loader turns them into a1-first order.

mod rust_module;
mod toml_io;
mod typed;

use std::fmt;
use std::path::Path;

use thiserror::Error;

pub use rust_module::{to_rust_module, ModuleKind};
pub use typed::{CheckedSet, Layout, Reader};

/// How a term's elements are arranged.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// One element.
    Scalar,
    /// `len` elements indexed by a count (mobility, ranks, distances, attack units).
    List,
    /// Five elements: pawn, knight, bishop, rook, queen.
    Piece,
    /// Sixty-four elements, one per square from White's point of view (a1 = 0); Black uses the
    /// rank-mirrored square.
    Square,
}

impl Shape {
    /// The number of elements a term of this shape has (`list_len` for lists).
    pub fn len(self, list_len: usize) -> usize {
        match self {
            Shape::Scalar => 1,
            Shape::List => list_len,
            Shape::Piece => 5,
            Shape::Square => 64,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Shape::Scalar => "scalar",
            Shape::List => "list",
            Shape::Piece => "piece",
            Shape::Square => "square",
        }
    }
}

/// One declared term with its current values.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub name: String,
    pub doc: String,
    pub shape: Shape,
    pub phased: bool,
    pub tunable: bool,
    pub min: i32,
    pub max: i32,
    /// Middle-game values (for unphased terms, the value).
    pub mg: Vec<i32>,
    /// End-game values (for unphased terms, equal to `mg`).
    pub eg: Vec<i32>,
    /// Elements that never reach the evaluation (a pawn on the first or last rank, a passed
    /// pawn's index 0): kept as declared and never tuned, so no tuner counts or moves them.
    pub fixed: Vec<usize>,
}

impl Term {
    pub fn len(&self) -> usize {
        self.mg.len()
    }

    pub fn is_empty(&self) -> bool {
        self.mg.is_empty()
    }

    /// Slots this term occupies in the flat value vector.
    pub fn value_count(&self) -> usize {
        if self.phased {
            2 * self.len()
        } else {
            self.len()
        }
    }

    /// A readable label for element `i`: `e4` for squares, `knight` for pieces, `3` for lists.
    pub fn element_label(&self, i: usize) -> String {
        match self.shape {
            Shape::Scalar => String::new(),
            Shape::Square => crate::types::Square::new(i as u8).to_string(),
            Shape::Piece => ["pawn", "knight", "bishop", "rook", "queen"][i].to_string(),
            Shape::List => i.to_string(),
        }
    }

    /// The name of element `i`'s value (with `eg`, its end-game value; an unphased term's one
    /// value answers both): the term's name with `.` as `_`, the element's label, and `mg` or `eg`
    /// when the term is phased, joined by `_`: `pst_knight_e4_mg`, `tempo_eg`,
    /// `king_safety_attackers_0`, `nmp_base`. Term names use lower-case letters, digits, `_` and
    /// `.` only, so every value name is ASCII letters, digits and `_`: one spelling that is also
    /// the value's UCI option name (the `uci-tunables` build) and its name in OpenBench's SPSA
    /// lines.
    pub fn value_name(&self, i: usize, eg: bool) -> String {
        let mut name = self.name.replace('.', "_");
        let label = self.element_label(i);
        if !label.is_empty() {
            name = format!("{name}_{label}");
        }
        match (self.phased, eg) {
            (false, _) => name,
            (true, false) => format!("{name}_mg"),
            (true, true) => format!("{name}_eg"),
        }
    }
}

/// Everything that can be wrong with a parameters file. Each message names the term.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParamsError {
    #[error("{file}: cannot read: {message}")]
    Io { file: String, message: String },
    #[error("{file}: not valid TOML: {message}")]
    Toml { file: String, message: String },
    #[error("{file}: term #{index}: {message}")]
    Malformed { file: String, index: usize, message: String },
    #[error("{file}: term '{term}': {message}")]
    BadTerm { file: String, term: String, message: String },
    #[error("{file}: term '{term}' is declared twice")]
    Duplicate { file: String, term: String },
    #[error("{file}: term '{term}' is not one {reader} knows")]
    Unknown { file: String, term: String, reader: &'static str },
    #[error(
        "{file}: term '{term}' is missing ({reader} needs it; a file older than the term can take its \
         [[term]] block from {declared_in})"
    )]
    Missing { file: String, term: String, reader: &'static str, declared_in: &'static str },
    #[error("{file}: term '{term}' has {found} elements; {reader} expects {expected}")]
    WrongLength { file: String, term: String, reader: &'static str, expected: usize, found: usize },
    #[error("{file}: term '{term}'{element}: {value} is outside its bounds [{min}, {max}]")]
    OutOfBounds { file: String, term: String, element: String, value: i32, min: i32, max: i32 },
    #[error("bad selection '{pattern}': {message}")]
    BadGlob { pattern: String, message: String },
}

/// A set of parameters as a file declares them: the evaluation's weights or the search
/// constants, not yet checked against what the engine's code reads. The engine takes only a
/// [`CheckedSet`] ([`EvalParamSet`], [`SearchParamSet`]), made by that check.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSet {
    pub terms: Vec<Term>,
}

impl ParamSet {
    /// Reads and validates a parameters file (structure, shapes, bounds, duplicates).
    pub fn load(path: &Path) -> Result<ParamSet, ParamsError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| ParamsError::Io { file: file.clone(), message: e.to_string() })?;
        Self::from_toml_str(&text, &file)
    }

    /// Parses and validates TOML text; `file` names the source in error messages.
    pub fn from_toml_str(text: &str, file: &str) -> Result<ParamSet, ParamsError> {
        toml_io::parse(text, file)
    }

    /// Writes the set as TOML in the same layout the loader reads (boards as 8×8 rows).
    pub fn to_toml(&self) -> String {
        toml_io::write(self)
    }

    /// Checks that this set has exactly the terms, shapes and lengths of `layout` (the baked set
    /// the code of `reader` was written against), in its order. The one place this is checked:
    /// [`CheckedSet`] calls it when a set is made, so nothing that holds one checks again.
    fn check_layout(&self, layout: &ParamSet, file: &str, reader: &Reader) -> Result<(), ParamsError> {
        for term in &self.terms {
            let Some(expected) = layout.term(&term.name) else {
                return Err(ParamsError::Unknown {
                    file: file.into(),
                    term: term.name.clone(),
                    reader: reader.name,
                });
            };
            if expected.shape != term.shape || expected.phased != term.phased {
                return Err(ParamsError::BadTerm {
                    file: file.into(),
                    term: term.name.clone(),
                    message: format!(
                        "declared as {} {}, {} expects {} {}",
                        if term.phased { "phased" } else { "unphased" },
                        term.shape.name(),
                        reader.name,
                        if expected.phased { "phased" } else { "unphased" },
                        expected.shape.name()
                    ),
                });
            }
            if expected.len() != term.len() {
                return Err(ParamsError::WrongLength {
                    file: file.into(),
                    term: term.name.clone(),
                    reader: reader.name,
                    expected: expected.len(),
                    found: term.len(),
                });
            }
        }
        for expected in &layout.terms {
            if self.term(&expected.name).is_none() {
                return Err(ParamsError::Missing {
                    file: file.into(),
                    term: expected.name.clone(),
                    reader: reader.name,
                    declared_in: reader.declared_in,
                });
            }
        }
        // Same names, so the same order is all that is left.
        if self.terms.iter().map(|t| &t.name).ne(layout.terms.iter().map(|t| &t.name)) {
            return Err(ParamsError::BadTerm {
                file: file.into(),
                term: self.terms[0].name.clone(),
                message: format!(
                    "terms must be declared in the order {} reads them (see {})",
                    reader.name, reader.declared_in
                ),
            });
        }
        Ok(())
    }

    pub fn term(&self, name: &str) -> Option<&Term> {
        self.terms.iter().find(|t| t.name == name)
    }

    /// Total number of elements (the length of the engine's weight arrays).
    pub fn element_count(&self) -> usize {
        self.terms.iter().map(Term::len).sum()
    }

    /// Element offset of each term, in order.
    pub fn element_offsets(&self) -> Vec<usize> {
        self.terms
            .iter()
            .scan(0, |next, t| {
                let at = *next;
                *next += t.len();
                Some(at)
            })
            .collect()
    }

    /// The flat value vector (see the module docs for its order).
    pub fn values(&self) -> Vec<i32> {
        let mut out = Vec::new();
        for t in &self.terms {
            for i in 0..t.len() {
                out.push(t.mg[i]);
                if t.phased {
                    out.push(t.eg[i]);
                }
            }
        }
        out
    }

    /// Replaces every value from a flat vector of the same layout.
    pub fn set_values(&mut self, values: &[i32]) {
        assert_eq!(values.len(), self.value_count(), "flat vector length");
        let mut it = values.iter().copied();
        for t in &mut self.terms {
            for i in 0..t.mg.len() {
                t.mg[i] = it.next().unwrap();
                t.eg[i] = if t.phased { it.next().unwrap() } else { t.mg[i] };
            }
        }
    }

    pub fn value_count(&self) -> usize {
        self.terms.iter().map(Term::value_count).sum()
    }

    /// The name of every slot of the flat value vector, as [`Term::value_name`] spells it
    /// (`pst_knight_e4_mg`, `tempo_eg`, `king_safety_curve_power`): what the tuners, their run
    /// folders and reports, OpenBench's lines and the engine's UCI options all call the value.
    pub fn value_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        for t in &self.terms {
            for i in 0..t.len() {
                out.push(t.value_name(i, false));
                if t.phased {
                    out.push(t.value_name(i, true));
                }
            }
        }
        out
    }

    /// Bounds of every slot of the flat value vector.
    pub fn value_bounds(&self) -> Vec<(i32, i32)> {
        self.terms.iter().flat_map(|t| std::iter::repeat_n((t.min, t.max), t.value_count())).collect()
    }

    /// Slots of the flat value vector whose term is tunable and whose name matches one of the
    /// glob patterns (over term names: `pst.*`, `mobility.knight`, `*`), less the term's `fixed`
    /// elements. No patterns = all tunable.
    pub fn select(&self, patterns: &[&str]) -> Result<Vec<usize>, ParamsError> {
        let mut builder = globset::GlobSetBuilder::new();
        for p in patterns {
            let glob = globset::GlobBuilder::new(p)
                .literal_separator(false)
                .build()
                .map_err(|e| ParamsError::BadGlob { pattern: p.to_string(), message: e.to_string() })?;
            builder.add(glob);
        }
        let set = builder
            .build()
            .map_err(|e| ParamsError::BadGlob { pattern: patterns.join(" "), message: e.to_string() })?;
        let mut out = Vec::new();
        let mut slot = 0;
        for t in &self.terms {
            let wanted = t.tunable && (patterns.is_empty() || set.is_match(&t.name));
            if wanted {
                let per_element = t.value_count() / t.len().max(1);
                out.extend(
                    (slot..slot + t.value_count()).filter(|s| !t.fixed.contains(&((s - slot) / per_element))),
                );
            }
            slot += t.value_count();
        }
        Ok(out)
    }
}

impl fmt::Display for ParamSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_toml())
    }
}

#[cfg(test)]
mod tests;
