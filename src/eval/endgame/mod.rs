//! Known endgames (placeholder: being written).
