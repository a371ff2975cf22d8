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
#[path = "uci_option_tests.rs"]
mod tests;
