//! The tuner's model of the evaluation: every position as its coefficient trace in a compact
//! struct-of-arrays store, and the evaluation, loss and gradient computed from the traces alone
//! (no board), in double precision.

mod batch;
mod kernel;
pub mod objective;
pub mod store;
mod vmath;

pub use kernel::Kernel;
pub use objective::{Layout, Model};

#[cfg(test)]
pub(crate) mod tests;
