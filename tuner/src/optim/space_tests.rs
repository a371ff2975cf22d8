//! Tests of `optim/space.rs`.

use super::*;

#[test]
fn openbench_lines_round_trip_and_bad_lines_name_the_line() {
    let text =
        "# comment\nnmp_base, int, 3, 1, 6, 1, 0.002\n\nLmrScale, float, 0.75, 0.1, 2.5, 0.05, 0.002\n";
    let space = Space::parse_openbench(text, "spsa.txt").unwrap();
    assert_eq!(space.len(), 2);
    assert!(space.dims[0].integer && !space.dims[1].integer);
    assert_eq!(space.dims[1].start, 0.75);
    let spaced = Space::parse_openbench("King Safety, int, 100, 0, 400, 20, 0.002\n", "s").unwrap();
    assert_eq!(spaced.dims[0].name, "King Safety");
    let again = Space::parse_openbench(&space.to_openbench(&space.starts()), "x").unwrap();
    assert_eq!(again, space);
    for (bad, expect) in [
        ("a, int, 3, 1, 6, 1\n", "spsa.txt:1"),
        ("\na, integer, 3, 1, 6, 1, 0.002\n", "spsa.txt:2"),
        ("a, int, 9, 1, 6, 1, 0.002\n", "outside"),
        ("a, int, x, 1, 6, 1, 0.002\n", "not a number"),
        ("a, int, 3, 6, 1, 1, 0.002\n", "not below"),
        ("a, int, 3, 1, 6, 1, 0.002\na, int, 3, 1, 6, 1, 0.002\n", "twice"),
        ("# nothing\n", "no parameters"),
        (" , int, 3, 1, 6, 1, 0.002\n", "name is empty"),
    ] {
        let err = format!("{:#}", Space::parse_openbench(bad, "spsa.txt").unwrap_err());
        assert!(err.contains(expect), "{bad:?}: {err}");
    }
}

#[test]
fn unit_coordinates_and_rounding() {
    let space =
        Space::parse_openbench("a, int, 3, 1, 5, 1, 0.002\nb, float, 0, -2, 2, 0.1, 0.002", "s").unwrap();
    assert_eq!(space.to_unit(&[1.0, 2.0]), vec![-1.0, 1.0]);
    assert_eq!(space.unit_to_values(&[0.0, 0.5]), vec![3.0, 1.0]);
    assert_eq!(space.playable(&[2.6, 3.0]), vec![3.0, 2.0]);
    assert_eq!(space.name_value_args(&[2.4, 0.25]), vec!["a", "2", "b", "0.25"]);
    assert_eq!(default_c_end(3.0, 1.0, 6.0), 1.0);
    assert_eq!(default_c_end(20.0, -300.0, 300.0), 4.0);
}
