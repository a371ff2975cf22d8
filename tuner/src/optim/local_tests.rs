//! Tests of `optim/local.rs`.

use super::*;

#[test]
fn local_search_walks_downhill() {
    let mut w = vec![0.0, 0.0];
    let f = |w: &[f64]| (w[0] - 3.0).powi(2) + (w[1] + 2.0).powi(2);
    let mut best = f(&w);
    for _ in 0..10 {
        let (loss, _) = local_search_pass(&mut w, &[0, 1], &[(-9, 9), (-9, 9)], 1.0, f, best);
        best = loss;
    }
    assert_eq!(w, vec![3.0, -2.0]);
}
