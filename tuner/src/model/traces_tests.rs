//! Tests of `model/traces.rs`.

use super::*;
use crate::testutil::random_trace_store;

#[test]
fn split_partitions_by_the_hold_out_rule() {
    let store = random_trace_store();
    let d = split(&store, 0.2, 1);
    assert_eq!(d.train.len() + d.valid.len(), 3000);
    assert!(d.valid.len() > 450 && d.valid.len() < 750, "{}", d.valid.len());
    // The held-out positions are the ones the rule names, in order; the rest train.
    // Random positions are each a game of their own: the held-out ones are those the rule names.
    let rule = HoldOut { fraction: 0.2, seed: 1 };
    assert_eq!(d.valid, store.subset((0..3000).filter(|&i| rule.holds_out(i as u64))));
    assert_eq!(d.train, store.subset((0..3000).filter(|&i| !rule.holds_out(i as u64))));
    // The same seed the same split; another seed another.
    assert_eq!(split(&store, 0.2, 1).valid, d.valid);
    assert_ne!(split(&store, 0.2, 2).valid, d.valid);
}
