//! Tests of `run/provenance.rs`.

use super::*;

fn example() -> Provenance {
    Provenance {
        tool: "texel".into(),
        command: "tune texel --data a.epd".into(),
        date: "2026-11-29T04:00:00Z".into(),
        run: Some("reports/texel".into()),
        start: Some("params/eval.toml".into()),
        recipe: Some(Recipe {
            data: vec!["datasets/a.epd.gz".into()],
            regenerate: Some("tune datagen ...".into()),
            score_weight: 0.5,
            score_k: "fit".into(),
            l2: 0.0003,
            smooth: 0.0003,
            mirror: 0.0003,
            prior_terms: vec!["pst.*".into()],
            min_coverage: 1000.0,
            held_out: Vec::new(),
        }),
        verdict: None,
        note: None,
    }
}

#[test]
fn a_provenance_round_trips_through_a_params_file_and_replaces_the_old_one() {
    let terms = "[[term]]\nname = \"tempo\"\nshape = \"scalar\"\nmin = 0\nmax = 50\nmg = 10\neg = 10\n";
    let mut provenance = example();
    provenance.set_verdict(&serde_json::json!({"outcome": "passed", "elo": 9.8, "games": 3000})).unwrap();
    let text = provenance.append_to(terms).unwrap();
    assert_eq!(Provenance::parse(&text).unwrap(), Some(provenance.clone()));
    assert_eq!(provenance.verdict_json().unwrap()["games"], 3000);
    assert_eq!(strip(&text).trim_end(), terms.trim_end());
    let again = example().append_to(&strip(&text)).unwrap();
    assert_eq!(Provenance::parse(&again).unwrap(), Some(example()));
    assert_eq!(Provenance::parse(terms).unwrap(), None);
}
