//! A UCI engine's options as it declares them after `uci` (`option name ... type ...`), and the
//! `setoption` lines checked against those declarations: what `uci_engine.rs` sends at start-up
//! and between games, and what a tuner of an engine's options checks its space against.

/// The type of a declared option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check,
    Spin,
    Combo,
    Button,
    /// `string`, or a type this code does not know: any value is passed through.
    Text,
}

impl OptionKind {
    /// The word UCI uses for it (`string` for anything not otherwise known).
    pub fn word(self) -> &'static str {
        match self {
            OptionKind::Check => "check",
            OptionKind::Spin => "spin",
            OptionKind::Combo => "combo",
            OptionKind::Button => "button",
            OptionKind::Text => "string",
        }
    }
}

/// An `option name ... type ...` declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    /// As the engine spells it.
    pub name: String,
    pub kind: OptionKind,
    /// The `default` value as declared (words joined by single spaces; `None` without one).
    pub default: Option<String>,
    /// A spin's bounds (`None` when not declared or not an integer).
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// A combo's choices.
    pub vars: Vec<String>,
}

/// Parses `option name <name> type <t> [default <x>] [min <x>] [max <x>] [var <x>]*`. Multi-word
/// names and values are kept with single spaces. `None` for a line without a name.
pub fn parse_option(line: &str) -> Option<UciOption> {
    #[derive(PartialEq)]
    enum Field {
        None,
        Name,
        Type,
        Default,
        Min,
        Max,
        Var,
    }
    let mut words = line.split_whitespace();
    if words.next() != Some("option") {
        return None;
    }
    let (mut name, mut kind, mut min, mut max) = (Vec::new(), "", "", "");
    let mut default: Option<Vec<&str>> = None;
    let mut vars: Vec<Vec<&str>> = Vec::new();
    let mut field = Field::None;
    for word in words {
        // Inside the name only `type` ends it: names may contain other keywords' words.
        let keyword = match (word, &field) {
            ("name", Field::None) => Some(Field::Name),
            ("type", _) if kind.is_empty() => Some(Field::Type),
            (_, Field::Name) => None,
            ("default", _) if default.is_none() => Some(Field::Default),
            ("min", _) => Some(Field::Min),
            ("max", _) => Some(Field::Max),
            ("var", _) => Some(Field::Var),
            _ => None,
        };
        match keyword {
            Some(Field::Var) => {
                vars.push(Vec::new());
                field = Field::Var;
            }
            Some(Field::Default) => {
                default = Some(Vec::new());
                field = Field::Default;
            }
            Some(next) => field = next,
            None => match field {
                Field::Name => name.push(word),
                Field::Type if kind.is_empty() => kind = word,
                Field::Default => default.get_or_insert_with(Vec::new).push(word),
                Field::Min if min.is_empty() => min = word,
                Field::Max if max.is_empty() => max = word,
                Field::Var => {
                    if let Some(var) = vars.last_mut() {
                        var.push(word);
                    }
                }
                _ => {}
            },
        }
    }
    if name.is_empty() {
        return None;
    }
    let kind = match kind {
        "check" => OptionKind::Check,
        "spin" => OptionKind::Spin,
        "combo" => OptionKind::Combo,
        "button" => OptionKind::Button,
        _ => OptionKind::Text,
    };
    Some(UciOption {
        name: name.join(" "),
        kind,
        default: default.map(|words| words.join(" ")),
        min: min.parse().ok(),
        max: max.parse().ok(),
        vars: vars.into_iter().map(|var| var.join(" ")).filter(|var| !var.is_empty()).collect(),
    })
}

/// The declaration of `name` among `declared`: names match ignoring case and inner spacing, as
/// UCI asks.
pub fn find_option<'a>(declared: &'a [UciOption], name: &str) -> Option<&'a UciOption> {
    declared.iter().find(|option| same_name(&option.name, name))
}

/// Whether two option names are one, ignoring case and inner spacing.
pub fn same_name(a: &str, b: &str) -> bool {
    let (mut a, mut b) = (a.split_whitespace(), b.split_whitespace());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x.eq_ignore_ascii_case(y) => {}
            _ => return false,
        }
    }
}

/// "option 'X' is not declared by the engine (it has: ...)", the list cut short for an engine
/// with hundreds of options (a build exposing every evaluation weight).
pub fn undeclared(declared: &[UciOption], name: &str) -> String {
    const SHOWN: usize = 30;
    let mut names: Vec<&str> = declared.iter().take(SHOWN).map(|option| option.name.as_str()).collect();
    let more = declared.len().saturating_sub(SHOWN);
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    if names.is_empty() {
        names.push("no options");
    }
    format!("option '{name}' is not declared by the engine (it has: {}{more})", names.join(", "))
}

/// The `setoption` line (with its newline) for `name` = `value`, or why not: the option is not
/// declared, or the value does not fit its type. The engine's own spelling of the name is sent.
pub fn setoption_command(declared: &[UciOption], name: &str, value: &str) -> Result<String, String> {
    let Some(option) = find_option(declared, name) else {
        return Err(undeclared(declared, name));
    };
    let value = value.trim();
    let bad_value = |why: &str| format!("option '{}': value '{value}' {why}", option.name);
    let value = match option.kind {
        OptionKind::Button => return Ok(format!("setoption name {}\n", option.name)),
        OptionKind::Check => match value.to_ascii_lowercase().as_str() {
            "true" => "true".to_string(),
            "false" => "false".to_string(),
            _ => return Err(bad_value("is not true or false")),
        },
        OptionKind::Spin => {
            let number: i64 = value.parse().map_err(|_| bad_value("is not an integer"))?;
            let (min, max) = (option.min.unwrap_or(i64::MIN), option.max.unwrap_or(i64::MAX));
            if number < min || number > max {
                return Err(bad_value(&format!("is outside {min}..={max}")));
            }
            number.to_string()
        }
        OptionKind::Combo if !option.vars.is_empty() => {
            match option.vars.iter().find(|var| var.eq_ignore_ascii_case(value)) {
                Some(var) => var.clone(),
                None => return Err(bad_value(&format!("is not one of: {}", option.vars.join(", ")))),
            }
        }
        OptionKind::Combo | OptionKind::Text => value.to_string(),
    };
    Ok(format!("setoption name {} value {value}\n", option.name))
}

#[cfg(test)]
mod tests {
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
}
