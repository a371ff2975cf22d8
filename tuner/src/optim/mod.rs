//! Optimisers over the flat value vector, one file each: Adam and Texel's local search use the
//! Texel loss's gradient or values directly; PBIL, CLOP and SPSA are black-box tuners over a
//! [`space::Space`] scored by a fitness (`crate::fitness`). Every optimiser keeps values inside
//! their declared bounds and serialises its whole state for checkpoints.

pub mod acquisition;
pub mod adam;
pub mod bayes;
pub mod clop;
pub mod clop_problems;
pub mod gp;
pub mod lbfgs;
pub mod local;
pub mod openbench;
pub mod pbil;
pub mod space;
pub mod spsa;

pub use adam::Adam;
pub use local::local_search_pass;
