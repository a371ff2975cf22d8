//! Log rows that more than one layer reads: what a run writes to `log.csv`/`log.json` and the
//! report draws. (Each tuner's own row type sits with its command; this one is read by the
//! report's loss curve and summary too.)

use serde::{Deserialize, Serialize};

/// One epoch of `tune texel`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EpochLog {
    pub epoch: usize,
    #[serde(deserialize_with = "super::nan_if_null")]
    pub train_loss: f64,
    #[serde(deserialize_with = "super::nan_if_null")]
    pub valid_loss: f64,
    #[serde(deserialize_with = "super::nan_if_null")]
    pub k: f64,
    #[serde(deserialize_with = "super::nan_if_null")]
    pub learning_rate: f64,
    #[serde(deserialize_with = "super::nan_if_null")]
    pub seconds: f64,
}
