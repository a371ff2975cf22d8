use super::*;
use crate::optim::space::Space;

/// A sample in `tuner/testdata/` (see `openbench-samples.md` for where each comes from).
fn sample(name: &str) -> (String, String) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/").to_string() + name;
    (std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")), name.to_string())
}

fn baked() -> (EvalParamSet, SearchParamSet) {
    (EvalParamSet::baked(), SearchParamSet::baked())
}

/// The search constants of `search` by name.
fn search_value(search: &SearchParamSet, name: &str) -> i32 {
    let i = search.value_names().iter().position(|n| n == name).unwrap_or_else(|| panic!("{name}"));
    search.values()[i]
}

#[test]
fn the_outputs_and_the_digest_of_one_tune_import_the_same_values() {
    let (outputs, outputs_file) = sample("openbench-outputs.txt");
    let (digest, digest_file) = sample("openbench-digest.csv");
    let (inputs, _) = sample("openbench-inputs.txt");

    let (format, reported) = read_reported(&outputs, &outputs_file).unwrap();
    assert_eq!(format, Format::Outputs);
    assert_eq!(reported.len(), 10);
    assert_eq!(reported[2], Reported { name: "nmp_eval_divisor".into(), value: 187.0, line: 3 });
    let (format, rows) = read_reported(&digest, &digest_file).unwrap();
    assert_eq!(format, Format::Digest);
    assert_eq!(rows[2], Reported { name: "nmp_eval_divisor".into(), value: 187.3342, line: 4 });
    // Both name the parameters the tune was started with (`--export-openbench`'s lines).
    let started = Space::parse_openbench(&inputs, "inputs").unwrap();
    let names = |r: &[Reported]| r.iter().map(|r| r.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&reported), started.names());
    assert_eq!(names(&rows), started.names());

    let (e0, s0) = baked();
    let (mut e1, mut s1) = baked();
    let a = import_openbench(&outputs, &outputs_file, &mut e1, &mut s1).unwrap();
    let (mut e2, mut s2) = baked();
    let b = import_openbench(&digest, &digest_file, &mut e2, &mut s2).unwrap();
    assert_eq!((a.values.len(), b.values.len()), (10, 10));
    assert_eq!((a.format, b.format), (Format::Outputs, Format::Digest));
    assert!(a.search && !a.eval);
    assert_eq!(b.values[6], ("rfp_margin".to_string(), 74.0));
    // Curr 74.5000 and 2.4999 round as OpenBench's outputs do (74, 2), so both files agree.
    assert_eq!(s1.values(), s2.values());
    assert_eq!(search_value(&s1, "rfp_margin"), 74);
    assert_eq!(search_value(&s1, "lmr_cut_node"), 2);
    assert_eq!(search_value(&s1, "lmr_divisor"), 215);
    assert_ne!(s1.values(), s0.values());
    // Only search constants were tuned: the evaluation is untouched.
    assert_eq!((e1.values(), e2.values()), (e0.values(), e0.values()));
}

#[test]
fn the_digest_copied_from_the_page_table_is_read_with_or_without_its_header() {
    let (digest, _) = sample("openbench-digest.csv");
    let table = digest.replace(',', "\t");
    let (format, rows) = read_reported(&table, "table.tsv").unwrap();
    assert_eq!((format, rows.len(), rows[0].value), (Format::Digest, 10, 3.6184));
    let body: String = table.lines().skip(1).map(|l| format!("{l}\r\n")).collect();
    let (format, rows) = read_reported(&body, "rows.tsv").unwrap();
    assert_eq!((format, rows[9].name.as_str(), rows[9].line), (Format::Digest, "futility_max_depth", 10));
}

#[test]
fn input_lines_still_import_and_floats_are_read() {
    // What a local run leaves in openbench.txt: the value is the third field.
    let (mut e, mut s) = baked();
    let text = "nmp_base, int, 5, 1, 6, 1, 0.002\n";
    let done = import_openbench(text, "openbench.txt", &mut e, &mut s).unwrap();
    assert_eq!((done.values.len(), done.format), (1, Format::Inputs));
    assert_eq!(search_value(&s, "nmp_base"), 5);
    // A float parameter's output, as Python prints it.
    let (_, r) = read_reported("LmrScale, 0.7391304347826086\nTiny, 1e-05", "o.txt").unwrap();
    assert_eq!((r[0].value, r[1].value), (0.7391304347826086, 1e-05));
}

#[test]
fn bad_files_name_the_file_and_line() {
    let (mut e, mut s) = baked();
    for (text, expect) in [
        ("nmp_base, 4\n\nlmr_base, 80, 3\n", "o.txt:3: `lmr_base, 80, 3` has 3 fields, but line 1 made this"),
        ("nmp_base, 4, 5\n", "o.txt:1: `nmp_base, 4, 5` has 3 fields; expected"),
        ("nmp_base, four\n", "o.txt:1: `nmp_base, four`: value `four` is not a number"),
        ("nmp_base, 4\nnmp_base, 5\n", "o.txt:2: `nmp_base` is given twice (first on line 1)"),
        ("Name,Curr,Start,Min,Max,C,C_end,R,R_end\nnmp_base,9.0,3,1,6,1,1,0.002,0.002\n", "o.txt:2"),
        ("\n# nothing\n", "o.txt: no values"),
        ("{\"error\" : \"API requires authentication for this server\"}", "API requires authentication"),
        ("nmp_base, 4\nnope, 3\n", "o.txt:2: `nope` is neither"),
        ("nmp_base, 4\nlmr_base, 900\n", "o.txt:2: `lmr_base` = 900 is outside its declared bounds [0, 300]"),
        ("nmp_base, int, 9, 1, 6, 1, 0.002\n", "o.txt:1"),
    ] {
        let err = format!("{:#}", import_openbench(text, "o.txt", &mut e, &mut s).unwrap_err());
        assert!(err.contains(expect), "{text:?}: {err}");
    }
    // A failed import changes nothing.
    assert_eq!(s.values(), SearchParamSet::baked().values());
}

#[test]
fn exported_lines_pass_openbench_s_input_check() {
    // OpenBench's create form splits the pasted text on '\n' and wants 7 comma fields on every
    // line, min <= value <= max and r > 0 (`verify_spsa_inputs`): our export, its final newline
    // trimmed as docs/openbench.md says, must pass.
    let (inputs, _) = sample("openbench-inputs.txt");
    for line in inputs.trim_end().split('\n') {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 7, "{line}");
        assert!(["int", "float"].contains(&f[1].trim()), "{line}");
        let n = |i: usize| f[i].trim().parse::<f64>().unwrap();
        assert!(n(3) <= n(2) && n(2) <= n(4) && n(6) > 0.0, "{line}");
    }
}
