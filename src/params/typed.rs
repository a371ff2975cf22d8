//! Parameter sets the engine can use: a [`CheckedSet`] wraps a [`ParamSet`] whose terms, shapes,
//! lengths and order were checked against a [`Layout`], one of the build's baked modules, when
//! the value was made, and the only way to change it afterwards keeps that layout. The layouts
//! are declared where their readers live (`eval::EvalParamSet`, `search::SearchParamSet`), so
//! this module never reaches up into the code it serves. So `Weights` and `SearchParams`, which
//! read values by the baked modules' `idx` offsets, take these and never check again, and no
//! caller can forget the check or check against the wrong layout.

use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;
use std::path::Path;

use super::{to_rust_module, ModuleKind, ParamSet, ParamsError};

/// Who reads a set's values, as error messages name it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reader {
    /// "the evaluation", "the search".
    pub name: &'static str,
    /// The file that declares the build's terms.
    pub declared_in: &'static str,
}

/// The layout a [`CheckedSet`] is checked against: one of the engine's baked modules.
pub trait Layout {
    /// Who reads the values (for error messages).
    const READER: Reader;
    /// How `tune export` writes such a set into the build.
    const MODULE: ModuleKind;
    /// The set the build was made from (its generated `param_set()`).
    fn baked() -> ParamSet;
}

/// A [`ParamSet`] with the layout of `L`'s baked module. Read it through `Deref` (or
/// [`CheckedSet::set`]); change its values with [`CheckedSet::set_values`] or
/// [`CheckedSet::with_values`], which keep the layout.
pub struct CheckedSet<L: Layout> {
    set: ParamSet,
    layout: PhantomData<L>,
}

impl<L: Layout> CheckedSet<L> {
    /// The values the engine was built with.
    pub fn baked() -> CheckedSet<L> {
        CheckedSet { set: L::baked(), layout: PhantomData }
    }

    /// Reads and validates a params file, then checks its layout; errors name the file and the
    /// term.
    pub fn load(path: &Path) -> Result<CheckedSet<L>, ParamsError> {
        let set = ParamSet::load(path)?;
        Self::from_set(set, &path.display().to_string())
    }

    /// Checks a set against the build's layout; `file` names its source in error messages.
    /// A term the file lacks but the build holds at 0 throughout (a new term, inert until it is
    /// tuned) is taken from the build: a file written before the term existed means exactly
    /// that, so old params files and run folders keep working while a new term is tried.
    pub fn from_set(mut set: ParamSet, file: &str) -> Result<CheckedSet<L>, ParamsError> {
        let baked = L::baked();
        add_inert_terms(&mut set, &baked);
        set.check_layout(&baked, file, &L::READER)?;
        Ok(CheckedSet { set, layout: PhantomData })
    }

    /// Checks a set that may also declare terms the build does not read yet (how the evaluation
    /// grows: `tune export` gives new terms their index constants for the code that will read
    /// them): the terms the build knows must have its layout (those it holds at 0 are added, as
    /// [`CheckedSet::from_set`] adds them). Returns the new terms' names.
    pub fn check_known_terms(set: &mut ParamSet, file: &str) -> Result<Vec<String>, ParamsError> {
        let baked = L::baked();
        add_inert_terms(set, &baked);
        let (known, new): (Vec<_>, Vec<_>) =
            set.terms.iter().cloned().partition(|t| baked.term(&t.name).is_some());
        ParamSet { terms: known }.check_layout(&baked, file, &L::READER)?;
        Ok(new.into_iter().map(|t| t.name).collect())
    }

    /// The set, read-only.
    pub fn set(&self) -> &ParamSet {
        &self.set
    }

    /// The set, given up (for code that edits terms directly and checks again with `from_set`).
    pub fn into_set(self) -> ParamSet {
        self.set
    }

    /// Replaces every value from a flat vector (see [`ParamSet::values`]); the layout stays.
    /// Panics when `values` is not as long as the flat vector (a caller's bug, not bad input).
    pub fn set_values(&mut self, values: &[i32]) {
        self.set.set_values(values);
    }

    /// A copy with every value replaced from a flat vector, as [`CheckedSet::set_values`].
    pub fn with_values(&self, values: &[i32]) -> CheckedSet<L> {
        let mut copy = self.clone();
        copy.set_values(values);
        copy
    }

    /// The set as the build's generated module (`src/eval/baked.rs` or `src/search/baked.rs`);
    /// `source` names the TOML it came from.
    pub fn to_rust_module(&self, source: &str) -> Result<String, ParamsError> {
        to_rust_module(&self.set, source, L::MODULE)
    }
}

/// Inserts into `set` each term of `layout` that it lacks and that is 0 in every element,
/// after the layout's term before it (when `set` has that one; otherwise the layout check names
/// what is missing).
pub(super) fn add_inert_terms(set: &mut ParamSet, layout: &ParamSet) {
    for (i, term) in layout.terms.iter().enumerate() {
        let inert = term.mg.iter().chain(&term.eg).all(|&v| v == 0);
        if !inert || set.term(&term.name).is_some() {
            continue;
        }
        let at = match i {
            0 => Some(0),
            _ => set.terms.iter().position(|t| t.name == layout.terms[i - 1].name).map(|p| p + 1),
        };
        if let Some(at) = at {
            set.terms.insert(at, term.clone());
        }
    }
}

impl<L: Layout> Deref for CheckedSet<L> {
    type Target = ParamSet;

    fn deref(&self) -> &ParamSet {
        &self.set
    }
}

// By hand: derived impls would ask the same of `L`, which is only a marker.
impl<L: Layout> Clone for CheckedSet<L> {
    fn clone(&self) -> CheckedSet<L> {
        CheckedSet { set: self.set.clone(), layout: PhantomData }
    }
}

impl<L: Layout> PartialEq for CheckedSet<L> {
    fn eq(&self, other: &CheckedSet<L>) -> bool {
        self.set == other.set
    }
}

impl<L: Layout> fmt::Debug for CheckedSet<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CheckedSet").field("reader", &L::READER.name).field("set", &self.set).finish()
    }
}

impl<L: Layout> fmt::Display for CheckedSet<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.set.fmt(f)
    }
}
