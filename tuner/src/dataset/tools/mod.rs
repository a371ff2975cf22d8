//! Dataset tools.
