//! Tests of `model/store.rs`.

use super::*;

#[test]
fn keys_round_trip_every_index_and_count() {
    for index in [0, 1, ELEMENTS - 1, REGION[1], REGION[2] + 7, INDICES - 1] {
        for count in COUNT_MIN..=COUNT_MAX {
            let e = pack(index, count);
            assert_eq!((key_index(e), key_count(e)), (index, count));
        }
    }
}

#[test]
fn large_counts_split_into_keys_that_add_up() {
    for count in [-100, -17, COUNT_MIN - 1, COUNT_MAX + 1, 40, 127] {
        let mut out = Vec::new();
        push_keys(&mut out, 5, count);
        assert!(out.len() > 1);
        assert!(out.iter().all(|&e| key_index(e) == 5));
        assert_eq!(out.iter().map(|&e| key_count(e)).sum::<i32>(), count);
    }
}

fn compact(keys: &[(usize, i32)]) -> Compact {
    let mut packed = Vec::new();
    for &(index, count) in keys {
        push_keys(&mut packed, index, count);
    }
    let complexity = [0, 0, 0, 1];
    let info = PositionInfo {
        phase: 12,
        scale: [128, 128],
        exact: i32::MIN,
        result: 127,
        score: NO_SCORE,
        complexity,
        game: u32::MAX,
    };
    Compact { keys: packed, info }
}

#[test]
fn equal_keys_share_a_slot_and_every_entry_has_one() {
    let a = [(3, 1), (REGION[1] + 2, 4), (7, -1)];
    let b = [(7, -1), (3, 2), (3, 1)];
    // (5, 2 * COUNT_MAX + 1) splits into three keys, two of them (5, COUNT_MAX): they need two
    // slots (how large a count fits one key depends on how many elements the evaluation has).
    let split = 2 * COUNT_MAX + 1;
    let c = [(5, split), (3, 1)];
    let store = TraceStore::from_compacts(&[compact(&a), compact(&b), compact(&c)]);
    // Distinct keys: (3, 1), (king 2, 4), (7, -1), (3, 2), (5, COUNT_MAX) twice, (5, 1).
    assert_eq!(store.slot_count(), 7);
    for p in 0..store.len() {
        let mut slots = store.entries(p).to_vec();
        slots.sort();
        slots.dedup();
        assert_eq!(slots.len(), store.entries(p).len(), "position {p} names a slot twice");
    }
    assert_eq!(store.coefficients(2).filter(|&(i, _)| i == 5).map(|(_, c)| c).sum::<i32>(), split);
    assert!(store.entries.iter().all(|&e| (e as usize) < store.slot_count()));
    assert_eq!(store.coefficients(0).collect::<Vec<_>>(), a);
    assert_eq!(store.coefficients(1).collect::<Vec<_>>(), b);
    assert_eq!(store.entries(1)[0], store.entries(0)[2]);
    assert_eq!(store.king_feature_count(), 1);
}

#[test]
fn a_subset_keeps_the_slots_and_the_positions() {
    // Positions of 1 to 5 coefficients.
    let lists: Vec<Vec<(usize, i32)>> =
        (0..20).map(|p| (0..1 + (p * 7) % 5).map(|j| (p % 7 + 10 * j, 1 + j as i32)).collect()).collect();
    let store = TraceStore::from_compacts(&lists.iter().map(|l| compact(l)).collect::<Vec<_>>());
    let picked = [13, 2, 19, 2];
    let subset = store.subset(picked.into_iter());
    assert_eq!(subset.len(), picked.len());
    for (q, &p) in picked.iter().enumerate() {
        assert_eq!(subset.coefficients(q).collect::<Vec<_>>(), lists[p]);
    }
    let grouped = store.grouped_by_length(8);
    for (start, end) in [(0, 8), (8, 16), (16, 20)] {
        let lengths: Vec<usize> = (start..end).map(|p| grouped.entries(p).len()).collect();
        assert!(lengths.is_sorted(), "{lengths:?}");
        let mut same: Vec<Vec<(usize, i32)>> =
            (start..end).map(|p| grouped.coefficients(p).collect()).collect();
        let mut expected: Vec<Vec<(usize, i32)>> = lists[start..end].to_vec();
        same.sort();
        expected.sort();
        assert_eq!(same, expected, "block {start}..{end} keeps its positions");
    }
    let shuffled = store.shuffled(5);
    let mut seen: Vec<Vec<(usize, i32)>> =
        (0..shuffled.len()).map(|p| shuffled.coefficients(p).collect()).collect();
    seen.sort();
    let mut expected = lists.clone();
    expected.sort();
    assert_eq!(seen, expected);
}

#[test]
fn blending_moves_scored_targets_toward_the_score_and_leaves_the_rest() {
    let mut store = TraceStore::default();
    for (outcome, score) in [(1.0, Some(0)), (0.0, Some(0)), (0.5, Some(400)), (1.0, None)] {
        let label = Label { outcome, score };
        let result = (outcome * 254.0).round() as u8;
        let score = label.score.map_or(NO_SCORE, |s| s as i16);
        let plain = compact(&[(3, 1)]);
        store.push(&Compact { info: PositionInfo { result, score, ..plain.info }, ..plain });
    }
    assert_eq!(store.scored(), 3);
    // At K = 1, 400 cp is a 10:1 favourite: sigma = 10/11.
    let blended = store.blended(0.25, 1.0);
    let targets: Vec<f64> = (0..4).map(|p| blended.result_score(p)).collect();
    let expected = [0.75 + 0.25 * 0.5, 0.25 * 0.5, 0.75 * 0.5 + 0.25 * 10.0 / 11.0, 1.0];
    for (t, e) in targets.iter().zip(expected) {
        assert!((t - e).abs() <= 0.5 / 254.0, "{targets:?} against {expected:?}");
    }
    // Weight 0 changes nothing; weight 1 is the score alone.
    assert_eq!(store.blended(0.0, 1.0).result, store.result);
    assert_eq!(store.blended(1.0, 1.0).result[..2], [127, 127]);
    // The scores survive a subset (the training split).
    assert_eq!(store.subset([2, 3].into_iter()).score, [400, NO_SCORE]);
}
