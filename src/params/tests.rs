use super::*;
use crate::eval::{EvalLayout, EvalParamSet};
use crate::search::SearchParamSet;

const SMALL: &str = r#"
[[term]]
name = "material"
doc = "values"
shape = "piece"
min = 0
max = 2000
mg = [100, 300, 300, 500, 900]
eg = [100, 300, 300, 500, 900]

[[term]]
name = "pst.knight"
shape = "square"
min = -100
max = 100
mg = [
  [ 1, 2, 3, 4, 5, 6, 7, 8],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [-1, 0, 0, 0, 0, 0, 0, 0],
]
eg = [
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
  [ 0, 0, 0, 0, 0, 0, 0, 0],
]

[[term]]
name = "king_safety.curve_power"
shape = "scalar"
phased = false
tunable = false
min = 100
max = 300
value = 200
"#;

fn load(text: &str) -> Result<ParamSet, ParamsError> {
    ParamSet::from_toml_str(text, "test.toml")
}

#[test]
fn boards_are_read_rank_8_first_and_stored_a1_first() {
    let set = load(SMALL).unwrap();
    let pst = set.term("pst.knight").unwrap();
    assert_eq!(pst.mg[0], -1); // a1
    assert_eq!(pst.mg[56], 1); // a8
    assert_eq!(pst.mg[63], 8); // h8
    assert_eq!(set.element_count(), 5 + 64 + 1);
    assert_eq!(set.value_count(), 10 + 128 + 1);
}

#[test]
fn toml_round_trip_and_flat_vector_round_trip() {
    let set = load(SMALL).unwrap();
    assert_eq!(load(&set.to_toml()).unwrap(), set);
    let mut copy = set.clone();
    let mut values = set.values();
    values[0] = 111;
    copy.set_values(&values);
    assert_eq!(copy.term("material").unwrap().mg[0], 111);
    assert_eq!(copy.values(), values);
    let names = set.value_names();
    assert_eq!(names.len(), values.len());
    assert_eq!(names[0], "material_pawn_mg");
    assert_eq!(names[1], "material_pawn_eg");
    assert_eq!(names[10 + 2 * 63], "pst_knight_h8_mg");
    assert_eq!(names.last().unwrap(), "king_safety_curve_power");
}

/// Every value name of the shipped files is one UCI-safe word, and no two are the same.
#[test]
fn value_names_are_uci_safe_and_distinct() {
    for set in [EvalParamSet::baked().into_set(), SearchParamSet::baked().into_set()] {
        let names = set.value_names();
        assert_eq!(names.len(), set.value_count());
        for name in &names {
            assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{name}");
        }
        let distinct: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
    }
    let eval = EvalParamSet::baked();
    let names = eval.value_names();
    assert!(names.iter().any(|n| n == "pst_knight_e4_mg"));
    assert!(names.iter().any(|n| n == "king_safety_attackers_0"));
    assert!(names.iter().any(|n| n == "mobility_queen_27_eg"));
    assert!(SearchParamSet::baked().value_names().contains(&"nmp_base".to_string()));
}

#[test]
fn selection_by_glob_skips_frozen_terms() {
    let set = load(SMALL).unwrap();
    assert_eq!(set.select(&["pst.*"]).unwrap(), (10..138).collect::<Vec<_>>());
    assert_eq!(set.select(&["material"]).unwrap().len(), 10);
    assert_eq!(set.select(&[]).unwrap().len(), 138); // the frozen power is left out
    assert!(set.select(&["king_safety.*"]).unwrap().is_empty());
    assert!(matches!(set.select(&["[bad"]), Err(ParamsError::BadGlob { .. })));
}

#[test]
fn fixed_elements_are_never_selected_and_survive_a_round_trip() {
    // The knight table with rank 8, e4 and h1 fixed: 10 squares, 20 values out of 128.
    let text =
        SMALL.replacen("shape = \"square\"", "shape = \"square\"\nfixed = [\"rank 8\", \"e4\", \"h1\"]", 1);
    let set = load(&text).unwrap();
    let knight = set.term("pst.knight").unwrap();
    assert_eq!(knight.fixed, [7, 28, 56, 57, 58, 59, 60, 61, 62, 63]);
    let selected = set.select(&["pst.*"]).unwrap();
    assert_eq!(selected.len(), 128 - 20);
    let names = set.value_names();
    assert!(!selected.iter().any(|&i| names[i] == "pst_knight_e4_mg" || names[i] == "pst_knight_h1_eg"));
    assert!(selected.iter().any(|&i| names[i] == "pst_knight_d4_mg"));
    let written = set.to_toml();
    assert!(written.contains("fixed = [\"rank 8\", \"h1\", \"e4\"]"), "{written}");
    assert_eq!(load(&written).unwrap(), set);
    let bad = |fixed: &str| {
        load(&SMALL.replacen("shape = \"square\"", &format!("shape = \"square\"\nfixed = {fixed}"), 1))
            .unwrap_err()
            .to_string()
    };
    assert!(
        bad("[\"z9\"]").contains("term 'pst.knight': 'fixed': `z9` names no element"),
        "{}",
        bad("[\"z9\"]")
    );
    assert!(bad("[\"rank 9\"]").contains("`rank 9` names no element"));
    assert!(bad("[3]").contains("expected an element label"));
}

#[test]
fn errors_name_the_term_and_the_problem() {
    let err = |text: &str| load(text).unwrap_err().to_string();
    assert!(err("[[term]\nname=").contains("not valid TOML"));
    let dup = format!(
        "{SMALL}\n[[term]]\nname = \"material\"\nshape = \"scalar\"\nmin = 0\nmax = 1\nmg = 0\neg = 0\n"
    );
    assert_eq!(err(&dup), "test.toml: term 'material' is declared twice");
    let out = SMALL.replace("mg = [100, 300", "mg = [100, 3000");
    assert_eq!(err(&out), "test.toml: term 'material' [knight] mg: 3000 is outside its bounds [0, 2000]");
    let short = SMALL.replace("mg = [100, 300, 300, 500, 900]", "mg = [100, 300]");
    assert!(err(&short).contains("term 'material': 'mg': a piece table has 5 elements"), "{}", err(&short));
    let row = SMALL.replace("[ 1, 2, 3, 4, 5, 6, 7, 8],", "[ 1, 2, 3],");
    assert!(err(&row).contains("term 'pst.knight': 'mg': rank 8 has 3 values"), "{}", err(&row));
    let key = SMALL.replace("doc = \"values\"", "colour = \"blue\"");
    assert!(err(&key).contains("term 'material': unknown key 'colour'"));
    let bounds = SMALL.replace("min = 100\nmax = 300", "min = 300\nmax = 100");
    assert!(err(&bounds).contains("min 300 is above max 100"));
    let mixed = SMALL.replace("value = 200", "mg = 200\neg = 200");
    assert!(err(&mixed).contains("has 'value', not 'mg'/'eg'"));
    let float = SMALL.replace("value = 200", "value = 2.5");
    assert!(err(&float).contains("expected an integer, found float"));
}

const EVALUATION: Reader = EvalLayout::READER;

#[test]
fn layout_check_finds_unknown_missing_and_wrong_length_terms() {
    let layout = load(SMALL).unwrap();
    let mut extra = layout.clone();
    extra.terms.push(Term { name: "mystery".into(), ..layout.terms[2].clone() });
    assert!(
        matches!(extra.check_layout(&layout, "f", &EVALUATION), Err(ParamsError::Unknown { term, .. }) if term == "mystery")
    );
    let named =
        |set: &ParamSet| set.check_layout(&layout, "dir/f.toml", &EVALUATION).unwrap_err().to_string();
    assert_eq!(named(&extra), "dir/f.toml: term 'mystery' is not one the evaluation knows");
    let mut missing = layout.clone();
    missing.terms.remove(1);
    assert!(
        matches!(missing.check_layout(&layout, "f", &EVALUATION), Err(ParamsError::Missing { term, .. }) if term == "pst.knight")
    );
    assert_eq!(named(&missing), "dir/f.toml: term 'pst.knight' is missing (the evaluation needs it; a file older than the term can take its [[term]] block from params/eval.toml)");
    let mut short = layout.clone();
    short.terms[0].shape = Shape::List;
    short.terms[0].mg.pop();
    short.terms[0].eg.pop();
    assert!(short.check_layout(&layout, "f", &EVALUATION).is_err());
    assert!(layout.check_layout(&layout, "f", &EVALUATION).is_ok());
    let mut swapped = layout.clone();
    swapped.terms.swap(0, 1);
    assert_eq!(
        named(&swapped),
        "dir/f.toml: term 'pst.knight': terms must be declared in the order the evaluation reads them \
         (see params/eval.toml)"
    );
}

/// A typed set is made only through the layout check, names the file and the term when it
/// fails, and keeps its layout when its values change.
#[test]
fn typed_sets_are_checked_against_their_own_layout() {
    let eval = EvalParamSet::baked();
    assert_eq!(*eval, EvalParamSet::baked().into_set());
    let search = SearchParamSet::baked();
    // Each set only fits its own layout; the message says who reads it.
    let e = EvalParamSet::from_set(search.set().clone(), "search.toml").unwrap_err().to_string();
    assert!(e.starts_with("search.toml: term 'aspiration.window' is not one the evaluation knows"), "{e}");
    let e = SearchParamSet::from_set(eval.set().clone(), "eval.toml").unwrap_err().to_string();
    assert_eq!(e, "eval.toml: term 'material' is not one the search knows");
    // A constant the build gives a value to (one at 0 would be taken from the build).
    let mut short = search.set().clone();
    let first = short.terms.remove(0).name;
    let e = SearchParamSet::from_set(short, "s.toml").unwrap_err().to_string();
    assert_eq!(e, format!("s.toml: term '{first}' is missing (the search needs it; a file older than the term can take its [[term]] block from params/search.toml)"));
    // A file on disk names its path.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("params/search.toml");
    let e = EvalParamSet::load(&path).unwrap_err().to_string();
    assert!(e.starts_with(&path.display().to_string()), "{e}");
    // Values change, the layout stays.
    let mut values = eval.values();
    values[0] += 1;
    let changed = eval.with_values(&values);
    assert_eq!(changed.values(), values);
    assert_eq!(changed.value_names(), eval.value_names());
    assert_ne!(changed, eval);
}

/// A file older than a term the build holds at 0 loads with that term at 0, in its place; a
/// term the build gives values to is still missing.
#[test]
fn a_file_older_than_an_inert_term_loads_and_one_older_than_a_tuned_term_does_not() {
    let mut layout = EvalParamSet::baked().into_set();
    for i in [0, 5, 6] {
        let term = &mut layout.terms[i];
        term.mg.iter_mut().chain(term.eg.iter_mut()).for_each(|v| *v = 0);
    }
    let mut old = layout.clone();
    old.terms.remove(6);
    old.terms.remove(5);
    old.terms.remove(0);
    super::typed::add_inert_terms(&mut old, &layout);
    assert_eq!(old, layout, "the first term and two in a row back in their places");
    // Through the build's own layout: its first term has values, so a file without it fails.
    let mut older = EvalParamSet::baked().into_set();
    older.terms.remove(0);
    let e = EvalParamSet::from_set(older, "older.toml").unwrap_err().to_string();
    assert!(e.starts_with("older.toml: term 'material' is missing"), "{e}");
}

#[test]
fn known_terms_are_checked_and_new_ones_listed() {
    let mut grown = EvalParamSet::baked().into_set();
    grown.terms.push(Term { name: "new.term".into(), ..grown.terms[0].clone() });
    assert_eq!(EvalParamSet::check_known_terms(&mut grown, "g.toml").unwrap(), ["new.term"]);
    grown.terms.remove(0);
    let e = EvalParamSet::check_known_terms(&mut grown, "g.toml").unwrap_err().to_string();
    assert_eq!(e, "g.toml: term 'material' is missing (the evaluation needs it; a file older than the term can take its [[term]] block from params/eval.toml)");
}

/// The shipped params file loads, matches the baked layout, and equals the baked values.
#[test]
fn shipped_params_file_is_the_baked_one() {
    let config = crate::config::EngineConfig::built_in();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&config.build.params);
    let set = EvalParamSet::load(&path).unwrap();
    assert_eq!(set, EvalParamSet::baked());
}

/// The shipped search constants file loads, fits the search's layout, and equals the baked values.
#[test]
fn shipped_search_params_file_is_the_baked_one() {
    let config = crate::config::EngineConfig::built_in();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&config.build.search_params);
    assert_eq!(SearchParamSet::load(&path).unwrap(), SearchParamSet::baked());
}

/// The committed generated module is what the params file named in engine.toml generates.
#[test]
fn baked_module_is_up_to_date() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = crate::config::EngineConfig::built_in();
    let set = ParamSet::load(&root.join(&config.build.params)).unwrap();
    let generated = to_rust_module(&set, &config.build.params, ModuleKind::Eval).unwrap();
    let committed = std::fs::read_to_string(root.join(&config.build.module)).unwrap();
    assert!(
        generated == committed,
        "{} is stale: run `cargo run -p whetstone-tuner -- export`",
        config.build.module
    );
}

/// The committed search module is what the search constants file named in engine.toml generates.
#[test]
fn baked_search_module_is_up_to_date() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = crate::config::EngineConfig::built_in();
    let set = ParamSet::load(&root.join(&config.build.search_params)).unwrap();
    let generated = to_rust_module(&set, &config.build.search_params, ModuleKind::Search).unwrap();
    let committed = std::fs::read_to_string(root.join(&config.build.search_module)).unwrap();
    assert!(
        generated == committed,
        "{} is stale: run `cargo run -p whetstone-tuner -- export --search-params {}`",
        config.build.search_module,
        config.build.search_params
    );
}

/// A search module has one value per element, so it refuses a phased term.
#[test]
fn search_modules_hold_unphased_terms_only() {
    let set = load(SMALL).unwrap();
    let e = to_rust_module(&set, "s.toml", ModuleKind::Search).unwrap_err().to_string();
    assert!(e.starts_with("s.toml: term 'material': search constants are unphased"), "{e}");
    let power = ParamSet { terms: vec![set.terms[2].clone()] };
    let module = to_rust_module(&power, "s.toml", ModuleKind::Search).unwrap();
    assert!(module.contains("pub const KING_SAFETY_CURVE_POWER: [i32; 1] = [\n    200,\n];"), "{module}");
    assert!(!module.contains("S("), "{module}");
}

/// The hand-set starting values (the reference of the tuning matches) still fit the evaluation
/// and differ from the tuned ones.
#[test]
fn hand_set_params_file_fits_the_baked_layout() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("params/handset.toml");
    let set = EvalParamSet::load(&path).unwrap();
    assert_ne!(set.values(), EvalParamSet::baked().into_set().values());
}

/// A TOML syntax error keeps the parser's whole message: where, the line with a caret, and what
/// was expected, after the file's name.
#[test]
fn toml_syntax_errors_keep_the_whole_message() {
    let e = load("[[term]\nname = 1\n").unwrap_err().to_string();
    assert!(e.starts_with("test.toml: not valid TOML: TOML parse error at line 1, column "), "{e}");
    assert!(e.contains("\n1 | [[term]\n"), "{e}");
    assert!(e.ends_with("invalid table header\nexpected `.`, `]]`"), "{e}");
    let path = std::env::temp_dir().join(format!("whetstone-syntax-{}.toml", std::process::id()));
    std::fs::write(&path, "[[term]]\nname = \"material\"\nmin = = 1\n").unwrap();
    let e = ParamSet::load(&path).unwrap_err().to_string();
    std::fs::remove_file(&path).ok();
    assert!(
        e.starts_with(&format!("{}: not valid TOML: TOML parse error at line 3, column", path.display())),
        "{e}"
    );
    assert!(e.contains("min = = 1"), "{e}");
}
