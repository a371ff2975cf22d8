//! The evaluation's parameter layout: what a params file must declare for this evaluation to read
//! it (the terms of `src/eval/baked.rs`, generated from `params/eval.toml`), and the checked set
//! the engine and the tuner hand to [`super::Weights`].

use crate::params::{CheckedSet, Layout, ModuleKind, ParamSet, Reader};

/// The evaluation's layout: `src/eval/baked.rs`, from `params/eval.toml`.
pub enum EvalLayout {}

impl Layout for EvalLayout {
    const READER: Reader = Reader { name: "the evaluation", declared_in: "params/eval.toml" };
    const MODULE: ModuleKind = ModuleKind::Eval;
    fn baked() -> ParamSet {
        super::baked::param_set()
    }
}

/// Evaluation weights that fit the build's evaluation (`src/eval/baked.rs`).
pub type EvalParamSet = CheckedSet<EvalLayout>;
