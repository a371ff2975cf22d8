//! The search constants' parameter layout: what a search params file must declare for this
//! search to read it (the terms of `src/search/baked.rs`, generated from `params/search.toml`),
//! and the checked set [`super::SearchParams`] is made from.

use crate::params::{CheckedSet, Layout, ModuleKind, ParamSet, Reader};

/// The search constants' layout: `src/search/baked.rs`, from `params/search.toml`.
pub enum SearchLayout {}

impl Layout for SearchLayout {
    const READER: Reader = Reader { name: "the search", declared_in: "params/search.toml" };
    const MODULE: ModuleKind = ModuleKind::Search;
    fn baked() -> ParamSet {
        super::baked::param_set()
    }
}

/// Search constants that fit the build's search (`src/search/baked.rs`).
pub type SearchParamSet = CheckedSet<SearchLayout>;
