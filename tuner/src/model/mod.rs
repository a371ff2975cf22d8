//! The tuner's model of the evaluation: every position as its coefficient trace in a compact
//! struct-of-arrays store, and the evaluation, loss and gradient computed from the traces alone
//! (no board), in double precision. `traces.rs` loads labelled positions into the store and holds
//! out a validation set.

pub(crate) mod batch;
mod kernel;
pub mod objective;
pub mod prior;
pub mod recipe;
pub mod store;
pub mod traces;
pub mod validation;
pub mod vmath;

pub use kernel::Kernel;
pub use objective::{Layout, Model};
pub use traces::{blended_targets, load_traces, load_traces_by_file, sample_games, split, Data};

#[cfg(test)]
mod tests;
