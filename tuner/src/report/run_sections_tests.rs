//! Tests of `report/run_sections.rs`.

use super::*;
use crate::report::page::{render, write_index, Page};
use crate::report::param_sections::param_sections;
use crate::report::{run_plots, term_pictures, Frozen};
use crate::testutil::TempDir;

fn sample_run(dir: &Path, with_trajectory: bool) {
    std::fs::write(
            dir.join("run.json"),
            r#"{"tool":"texel","command":["tune","texel","--epochs","5"],"started":"2025-01-02T03:04:05Z","options":{"lr":0.5}}"#,
        )
        .unwrap();
    let mut log = String::from("epoch,train_loss,valid_loss,k,learning_rate,seconds\n");
    for e in 0..12 {
        let valid = if e == 3 {
            String::new()
        } else if e == 4 {
            "NaN".into()
        } else {
            format!("{}", 0.1 - e as f64 * 0.002)
        };
        log.push_str(&format!("{e},{},{valid},1.2,0.5,{}\n", 0.09 - e as f64 * 0.002, e * 3));
    }
    std::fs::write(dir.join("log.csv"), log).unwrap();
    if with_trajectory {
        std::fs::write(
            dir.join("trajectory.csv"),
            "epoch,pst_knight_e4_mg,tempo\n0,10,20\n1,12,19\n2,15,18\n",
        )
        .unwrap();
    }
}

#[test]
fn run_sections_reads_a_run_folder() {
    let dir = TempDir::new("html-run");
    sample_run(&dir, false);
    let images = vec![Image { file: "log-loss.png".into(), title: "loss".into(), group: "run".into() }];
    let sections = run_sections(&dir, &images).unwrap();
    let html = render(&Page { title: "run".into(), metadata: vec![], sections });
    for expected in [
        "<th>tool</th><td>texel</td>",
        "tune texel --epochs 5",
        "2025-01-02T03:04:05Z",
        "<th>lr</th><td>0.5</td>",
    ] {
        assert!(html.contains(expected), "missing {expected}");
    }
    // First row, the gap, and the last five of twelve rows.
    assert!(html.contains("log.csv: 12 rows"));
    assert!(html.contains("<td>0</td>") && html.contains("<td>11</td>") && html.contains("<td>7</td>"));
    assert!(!html.contains("<td>5</td><td>"));
    assert!(html.contains("src=\"log-loss.png\""));
    assert!(run_sections(&dir.join("missing"), &images).is_err());
}

#[test]
fn a_verdict_is_the_first_thing_a_run_section_shows_in_words_and_the_options_fold_away() {
    let dir = TempDir::new("html-verdict");
    sample_run(&dir, false);
    std::fs::write(
            dir.join("run.json"),
            r#"{"tool":"pbil","command":["tune","pbil","--l2","0.01"],"options":{"l2":0.01,"seed":1,"play":{"nodes":null}}}"#,
        )
        .unwrap();
    let verdict =
        serde_json::to_value(crate::run::verdict::example(crate::run::verdict::VerdictOutcome::Passed, true))
            .unwrap();
    std::fs::write(dir.join("result.json"), serde_json::json!({"games": 0, "verdict": verdict}).to_string())
        .unwrap();
    let sections = run_sections(&dir, &[]).unwrap();
    let html = render(&Page { title: "run".into(), metadata: vec![], sections });
    let headline = "Verdict: PASSED: +92.0 ± 23.1 Elo over 788 games, SPRT [0, 5], LLR 2.95 of ±2.94";
    let at = html.find(headline).unwrap_or_else(|| panic!("the verdict in words: {html}"));
    assert!(at < html.find("run.json").unwrap(), "the verdict comes before run.json");
    assert!(html.contains("Confirm it with"), "the advice follows the verdict: {html}");
    assert!(!html.contains("92.0395300167117") && !html.contains("2.9444389791664403"), "no raw figures");
    // Only the option the command line set is in the open; all of them behind a disclosure.
    let open = &html[..html.find("<details>").expect("the options folded away")];
    assert!(open.contains("<th>l2</th><td>0.01</td>") && !open.contains("<th>seed</th>"), "{open}");
    assert!(html.contains("<summary>every option of the run (3, defaults included)</summary>"), "{html}");
}

#[test]
fn page_has_every_image_and_no_external_reference() {
    let out = TempDir::new("html-page");
    let run = out.join("run");
    std::fs::create_dir_all(&run).unwrap();
    sample_run(&run, true);
    let params = whetstone::eval::EvalParamSet::baked().into_set();
    let mut baseline = params.clone();
    baseline.terms.iter_mut().for_each(|t| t.mg.iter_mut().for_each(|v| *v -= 3));
    let mut pictures = term_pictures::heat_maps(&params, Some(&baseline), &Frozen::default(), &out).unwrap();
    pictures.extend(term_pictures::curves(&params, Some(&baseline), &Frozen::default(), &out).unwrap());
    pictures.extend(run_plots::log_plots(&run, &out).unwrap());
    let mut sections = param_sections(&params, Some(&baseline), &Frozen::default(), &pictures);
    sections.extend(run_sections(&run, &pictures).unwrap());
    let page = Page {
        title: "Whetstone report".into(),
        metadata: vec![("params".into(), "params/eval.toml".into())],
        sections,
    };
    let path = write_index(&out, &page).unwrap();
    assert_eq!(path, out.join("index.html"));
    let html = std::fs::read_to_string(&path).unwrap();
    for img in &pictures {
        assert!(html.contains(&format!("src=\"{}\"", img.file)), "{} not on the page", img.file);
        assert!(out.join(&img.file).exists());
    }
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"));
    assert!(!html.contains("<script") && !html.contains("<link"));
    assert!(html.contains("name=\"viewport\""));
    assert!(html.contains("max-width:100%") && html.contains("overflow-x:auto"));
    // Table of contents links every section.
    for i in 1..=page.sections.len() {
        assert!(html.contains(&format!("href=\"#s{i}\"")) && html.contains(&format!("id=\"s{i}\"")));
    }
    let boards = term_pictures::piece_square_terms(&params).count();
    assert_eq!(html.matches("<table class=\"board\">").count(), 2 * boards);
}

/// The body of the first `<table class="kv">` captioned `caption`.
fn kv_table<'a>(html: &'a str, caption: &str) -> &'a str {
    let start = html.find(&format!("<caption>{caption}</caption>")).unwrap_or_else(|| panic!("no {caption}"));
    let rest = &html[start + 1..];
    let end = [rest.find("<caption>"), rest.find("</section>")].into_iter().flatten().min();
    let end = end.map_or(html.len(), |e| start + 1 + e);
    &html[start..end]
}

#[test]
fn run_json_is_key_value_rows_that_wrap() {
    let dir = TempDir::new("html-kv");
    std::fs::write(
            dir.join("run.json"),
            r#"{"started":"2025-01-02T03:04:05Z","options":{"params":"params/eval.toml","data":["a.epd","b.epd"],"threads":null,"play":{"nodes":5000}},"command":"tune texel --epochs 5 --data a.epd b.epd","tool":"texel","finished":"2025-01-02T04:00:00Z","results":{"loss":0.1,"epochs":5}}"#,
        )
        .unwrap();
    let sections = run_sections(&dir, &[]).unwrap();
    let html = render(&Page { title: "run".into(), metadata: vec![], sections });
    let table = kv_table(&html, "run.json");
    // Every key a row, in reading order: what ran, when, with what, what it found.
    let keys: Vec<&str> = table.split("<tr><th>").skip(1).map(|r| r.split("</th>").next().unwrap()).collect();
    assert_eq!(&keys[..5], ["tool", "command", "started", "finished", "options set"], "{keys:?}");
    for row in [
        "<tr><th>command</th><td>tune texel --epochs 5 --data a.epd b.epd</td></tr>",
        "<tr><th>finished</th><td>2025-01-02T04:00:00Z</td></tr>",
        "<tr><th>data</th><td>a.epd b.epd</td></tr>",
        "<tr><th>loss</th><td>0.1</td></tr>",
        "<tr><th>epochs</th><td>5</td></tr>",
    ] {
        assert!(table.contains(row), "missing {row} in {table}");
    }
    // Options the command line did not set are folded away, every option there.
    let folded = &html[html.find("<details>").expect("a disclosure")..];
    for row in [
        "<tr><th>params</th><td>params/eval.toml</td></tr>",
        "<tr><th>threads</th><td>none</td></tr>",
        "<tr><th>nodes</th><td>5000</td></tr>",
    ] {
        assert!(folded.contains(row) && !table.contains(row), "{row} folded away: {html}");
    }
    // Options and results are nested tables, not one long cell.
    assert!(table.contains("<tr><th>options set</th><td><table class=\"kv\">"));
    assert!(table.contains("<tr><th>results</th><td><table class=\"kv\">"));
    // Key/value tables are not in a sideways-scrolling box (their cells wrap: see page.rs).
    assert!(!html.contains("<div class=\"scroll\"><table class=\"kv\">"));
}

#[test]
fn options_an_old_run_json_stored_as_text_are_shown_as_that_text() {
    let dir = TempDir::new("html-text");
    let options = r#"PbilArgs { common: TuneArgs { params: \"params/eval.toml\", only: [] }, window: 16 }"#;
    std::fs::write(dir.join("run.json"), format!(r#"{{"tool":"pbil","options":"{options}"}}"#)).unwrap();
    std::fs::write(dir.join("result.json"), r#"{"games":0,"values":{"a":1,"b":2},"frozen":["x","y","z"]}"#)
        .unwrap();
    let html =
        render(&Page { title: "run".into(), metadata: vec![], sections: run_sections(&dir, &[]).unwrap() });
    let table = kv_table(&html, "run.json");
    let row = "<tr><th>options</th><td>PbilArgs { common: TuneArgs { params: &quot;params/eval.toml&quot;, \
                   only: [] }, window: 16 }</td></tr>";
    assert!(table.contains(row), "{table}");
    assert!(!html.contains("<details>"), "no options object, nothing to fold away");
    let result = kv_table(&html, "result.json");
    assert!(result.contains("<tr><th>games</th><td>0</td></tr>"));
    assert!(result.contains("2 tuned values"));
    assert!(result.contains("3 values (see Frozen values)"));
}

#[test]
fn a_json_string_of_options_becomes_rows() {
    let value = serde_json::json!("{\"params\": \"p.toml\", \"epochs\": 3}");
    assert_eq!(
        entry(&value),
        Entry::Rows(vec![
            ("epochs".into(), Entry::Text("3".into())),
            ("params".into(), Entry::Text("p.toml".into()))
        ])
    );
    assert_eq!(entry(&serde_json::json!([1, 2.5])), Entry::Text("1, 2.5".into()));
    assert_eq!(entry(&serde_json::json!([])), Entry::Text("none".into()));
}
