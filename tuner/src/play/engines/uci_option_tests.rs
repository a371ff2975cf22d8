//! Tests of `play/engines/uci_option.rs`.

use super::*;

#[test]
fn option_declarations_parse() {
    let option = parse_option("option name Skill Level type spin default 20 min 0 max 20");
    assert_eq!(
        option,
        Some(UciOption {
            name: "Skill Level".to_string(),
            kind: OptionKind::Spin,
            default: Some("20".to_string()),
            min: Some(0),
            max: Some(20),
            vars: vec![]
        })
    );
    let combo = parse_option("option  name Style type combo default Normal var Solid var Very Risky");
    assert_eq!(combo.map(|o| o.vars), Some(vec!["Solid".to_string(), "Very Risky".to_string()]));
    let string = parse_option("option name Debug Log File type string default");
    assert_eq!(
        string.map(|o| (o.name, o.kind, o.default)),
        Some(("Debug Log File".to_string(), OptionKind::Text, Some(String::new())))
    );
    let path = parse_option("option name SyzygyPath type string default <empty> path");
    assert_eq!(path.and_then(|o| o.default), Some("<empty> path".to_string()));
    let button = parse_option("option name Clear Hash type button");
    assert_eq!(button.map(|o| (o.kind.word(), o.default)), Some(("button", None)));
    assert_eq!(parse_option("option type spin"), None);
}

#[test]
fn setoption_checks_names_and_values() {
    let declared: Vec<UciOption> = [
        "option name Hash type spin default 16 min 1 max 1024",
        "option name UCI_LimitStrength type check default false",
        "option name Style type combo default Normal var Solid var Normal",
        "option name Clear Hash type button",
        "option name SyzygyPath type string default <empty>",
    ]
    .iter()
    .filter_map(|line| parse_option(line))
    .collect();
    let set = |name: &str, value: &str| setoption_command(&declared, name, value);
    assert_eq!(set("hash", " 64"), Ok("setoption name Hash value 64\n".to_string()));
    assert_eq!(
        set("UCI_LimitStrength", "TRUE"),
        Ok("setoption name UCI_LimitStrength value true\n".to_string())
    );
    assert_eq!(set("style", "solid"), Ok("setoption name Style value Solid\n".to_string()));
    assert_eq!(set("clear  hash", ""), Ok("setoption name Clear Hash\n".to_string()));
    assert_eq!(set("SyzygyPath", "/tb/a b"), Ok("setoption name SyzygyPath value /tb/a b\n".to_string()));
    for (name, value, needle) in [
        ("Threads", "2", "'Threads' is not declared"),
        ("Hash", "2048", "outside 1..=1024"),
        ("Hash", "big", "not an integer"),
        ("UCI_LimitStrength", "yes", "not true or false"),
        ("Style", "Wild", "not one of: Solid, Normal"),
    ] {
        match set(name, value) {
            Err(message) => assert!(message.contains(needle), "{message}"),
            Ok(line) => panic!("{name}={value} accepted: {line}"),
        }
    }
}

#[test]
fn an_undeclared_name_lists_a_few_of_many_options() {
    let many: Vec<UciOption> = (0..100)
        .filter_map(|i| parse_option(&format!("option name w{i} type spin default 0 min 0 max 9")))
        .collect();
    let message = undeclared(&many, "nope");
    assert!(message.contains("w29") && !message.contains("w30,") && message.ends_with("and 70 more)"));
    assert!(undeclared(&[], "x").contains("it has: no options"));
}
