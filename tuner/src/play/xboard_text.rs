//! The text of the xboard protocol (CECP v2) as pure functions, for `xboard_engine.rs`: the
//! engine's lines classified (`feature`, `move`, thinking output, `resign`, result claims,
//! refusals), `feature option` declarations and the `option NAME=VALUE` lines they allow,
//! `level`, the legacy `edit` set-up for engines without `setboard`, and the engine's moves
//! (coordinate notation or SAN) read against our board.

use pgn_reader::shakmaty::san::San;
use whetstone::movegen::legal_moves;
use whetstone::types::{CastleSide, MoveKind};
use whetstone::{Color, Move, PieceType, Position, Square};

use super::player::Score;
use crate::dataset::pgn::find_move;

/// What a line from the engine is.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineLine<'a> {
    /// `feature NAME=VALUE ...`: the pairs, quotes removed.
    Feature(Vec<(&'a str, &'a str)>),
    /// `pong N`.
    Pong(u64),
    /// `move MOVE`: the move as written.
    Move(&'a str),
    /// `ply score time nodes pv`.
    Thinking(Thinking),
    /// `resign`.
    Resign,
    /// `1-0 {...}`, `0-1 {...}`, `1/2-1/2 {...}`: the engine claims this result.
    Claim(&'a str),
    /// `Illegal move: MOVE` or `Illegal move (reason): MOVE`: the engine refused what we sent
    /// (the text after the colon).
    Refused(&'a str),
    /// `Error (reason): COMMAND`: the engine did not understand a command (the text after the
    /// colon).
    Error(&'a str),
    /// Anything else (`tellics`, `telluser`, debug output, `#` comments).
    Other,
}

/// One line of thinking output: `ply score time nodes [more fields] pv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    pub depth: u32,
    /// Centipawns from the engine's (side to move's) view; mates as the engine prints them.
    pub score: i32,
    /// Centiseconds.
    pub time_cs: u64,
    pub nodes: u64,
}

/// Classifies one line of the engine's output.
pub fn classify(line: &str) -> EngineLine<'_> {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    match first {
        "move" => words.next().map_or(EngineLine::Other, EngineLine::Move),
        "pong" => words.next().and_then(|n| n.parse().ok()).map_or(EngineLine::Other, EngineLine::Pong),
        "feature" => EngineLine::Feature(parse_features(line.trim_start()["feature".len()..].trim())),
        "resign" => EngineLine::Resign,
        "1-0" | "0-1" | "1/2-1/2" => EngineLine::Claim(first),
        "Illegal" if line.trim_start().starts_with("Illegal move") => EngineLine::Refused(after_colon(line)),
        "Error" => EngineLine::Error(after_colon(line)),
        _ => parse_thinking(line).map_or(EngineLine::Other, EngineLine::Thinking),
    }
}

/// The text after a line's first colon (`Error (unknown command): sd 3` gives `sd 3`).
fn after_colon(line: &str) -> &str {
    line.split_once(':').map_or("", |(_, rest)| rest.trim())
}

/// `ply score time nodes ...`: four numbers, the ply perhaps followed by a mark (`12.`, `12&`).
fn parse_thinking(line: &str) -> Option<Thinking> {
    let mut words = line.split_whitespace();
    let ply = words.next()?;
    if !ply.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let depth = ply.trim_end_matches(|c: char| !c.is_ascii_digit()).parse().ok()?;
    let score = words.next()?.parse().ok()?;
    let time_cs = words.next()?.parse().ok()?;
    let nodes = words.next()?.parse().ok()?;
    Some(Thinking { depth, score, time_cs, nodes })
}

/// The pairs of a `feature` line's arguments: `a=1 b="x y" c=word`. A quoted value runs to the
/// next quote (the protocol has no escapes); text that is not `NAME=VALUE` is skipped.
fn parse_features(mut text: &str) -> Vec<(&str, &str)> {
    let mut pairs = Vec::new();
    loop {
        text = text.trim_start();
        let Some(eq) = text.find('=') else { break };
        let name = text[..eq].trim();
        let rest = &text[eq + 1..];
        let (value, after) = match rest.strip_prefix('"') {
            Some(quoted) => match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            },
            None => {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                (&rest[..end], &rest[end..])
            }
        };
        // A name is one word: text before it (a stray word) is dropped.
        let name = name.rsplit(char::is_whitespace).next().unwrap_or(name);
        if !name.is_empty() {
            pairs.push((name, value));
        }
        text = after;
    }
    pairs
}

/// A thinking score as our score type: the protocol writes a mate in N moves as 100000 + N and
/// being mated in N as -100000 - N; other large values are engines' own mate scales and stay
/// centipawns (large enough for adjudication either way).
pub fn score(raw: i32) -> Score {
    const MATE: i32 = 100_000;
    match raw {
        s if s >= MATE => Score::Mate(s - MATE),
        s if s <= -MATE => Score::Mate(s + MATE),
        s => Score::Cp(s),
    }
}

/// The kinds of `feature option` controls.
#[derive(Clone, Debug, PartialEq, Eq)]
enum OptionKind {
    /// `-check DEFAULT`: 0 or 1.
    Check,
    /// `-spin DEFAULT MIN MAX` or `-slider DEFAULT MIN MAX`.
    Spin { min: i64, max: i64 },
    /// `-combo A /// *B /// C` (the star marks the default).
    Combo(Vec<String>),
    /// `-string`, `-file`, `-path`: any text.
    Text,
    /// `-button`, `-save`, `-reset`: no value.
    Button,
}

/// One `feature option="NAME -TYPE ..."` declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredOption {
    pub name: String,
    kind: OptionKind,
}

/// Parses the value of a `feature option=` pair; `None` if it names no known type.
pub fn parse_option(text: &str) -> Option<DeclaredOption> {
    const TYPES: [&str; 10] =
        ["check", "spin", "slider", "combo", "string", "file", "path", "button", "save", "reset"];
    // The name ends at the first ` -TYPE` (names may hold dashes, not that).
    let (at, kind) = text.match_indices(" -").find_map(|(at, _)| {
        let word = text[at + 2..].split_whitespace().next()?;
        TYPES.contains(&word).then_some((at, word))
    })?;
    let name = text[..at].trim().to_string();
    let args = text[at + 2 + kind.len()..].trim();
    let numbers: Vec<i64> = args.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    let kind = match kind {
        "check" => OptionKind::Check,
        "spin" | "slider" => match numbers[..] {
            [_, min, max, ..] => OptionKind::Spin { min, max },
            _ => OptionKind::Spin { min: i64::MIN, max: i64::MAX },
        },
        "combo" => OptionKind::Combo(
            args.split("///")
                .map(|choice| choice.trim().trim_start_matches('*').trim().to_string())
                .filter(|choice| !choice.is_empty())
                .collect(),
        ),
        "string" | "file" | "path" => OptionKind::Text,
        _ => OptionKind::Button,
    };
    (!name.is_empty()).then_some(DeclaredOption { name, kind })
}

/// The `option` line (with its newline) setting `name` to `value`, or why not: the engine did
/// not declare it, or the value does not fit. Names match ignoring case; the engine's spelling is
/// sent. Check boxes take `true`/`false` (or 1/0), sent as 1/0.
pub fn option_command(declared: &[DeclaredOption], name: &str, value: &str) -> Result<String, String> {
    let wanted = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let Some(option) = declared.iter().find(|option| option.name.eq_ignore_ascii_case(&wanted)) else {
        let names: Vec<&str> = declared.iter().map(|option| option.name.as_str()).collect();
        return Err(format!(
            "option '{name}' is not declared by the engine's `feature option` (it has: {})",
            names.join(", ")
        ));
    };
    let value = value.trim();
    let bad_value = |why: &str| format!("option '{}': value '{value}' {why}", option.name);
    let value = match &option.kind {
        OptionKind::Button => return Ok(format!("option {}\n", option.name)),
        OptionKind::Check => match value.to_ascii_lowercase().as_str() {
            "true" | "1" => "1".to_string(),
            "false" | "0" => "0".to_string(),
            _ => return Err(bad_value("is not true or false")),
        },
        OptionKind::Spin { min, max } => {
            let number: i64 = value.parse().map_err(|_| bad_value("is not an integer"))?;
            if number < *min || number > *max {
                return Err(bad_value(&format!("is outside {min}..={max}")));
            }
            number.to_string()
        }
        OptionKind::Combo(choices) => match choices.iter().find(|c| c.eq_ignore_ascii_case(value)) {
            Some(choice) => choice.clone(),
            None => return Err(bad_value(&format!("is not one of: {}", choices.join(", ")))),
        },
        OptionKind::Text if value.contains(['\n', '\r']) => return Err(bad_value("holds a line break")),
        OptionKind::Text => value.to_string(),
    };
    Ok(format!("option {}={value}\n", option.name))
}

/// `level MPS BASE INC`: moves per period (0: the whole game), the base as minutes or
/// `minutes:seconds` (whole seconds, at least 1: the protocol has no finer unit; the engine
/// reads its real clock from `time` before every move), the increment in seconds (a fraction
/// where needed: engines that read an integer take its whole part).
pub fn level_command(movestogo: Option<u32>, base_ms: u64, inc_ms: u64) -> String {
    let seconds = (base_ms + 500) / 1000;
    let seconds = if base_ms > 0 { seconds.max(1) } else { 0 };
    let base = if seconds % 60 == 0 {
        format!("{}", seconds / 60)
    } else {
        format!("{}:{:02}", seconds / 60, seconds % 60)
    };
    let inc = format!("{:.3}", inc_ms as f64 / 1000.0);
    let inc = inc.trim_end_matches('0').trim_end_matches('.');
    format!("level {} {base} {inc}\n", movestogo.unwrap_or(0))
}

/// The legacy `edit` set-up of `pos` for an engine without `setboard`, to be sent after `new`
/// and `force`: `a2a3` first when Black is to move (edit mode keeps the side to move, so the
/// protocol's way to get Black on move is a move from the start position), then `edit`, `#`
/// (clear), White's pieces, `c`, Black's pieces, `.`.
pub fn edit_commands(pos: &Position) -> String {
    let mut text = String::new();
    if pos.side_to_move() == Color::Black {
        text.push_str("a2a3\n");
    }
    text.push_str("edit\n#\n");
    for color in [Color::White, Color::Black] {
        if color == Color::Black {
            text.push_str("c\n");
        }
        for sq in Square::all() {
            if let Some(piece) = pos.piece_on(sq).filter(|p| p.color() == color) {
                text.push(piece.piece_type().letter().to_ascii_uppercase());
                text.push_str(&format!("{sq}\n"));
            }
        }
    }
    text.push_str(".\n");
    text
}

/// Why the `edit` set-up would tell the engine another castling position than `pos`'s: edit
/// mode has no castling rights, so engines allow castling wherever king and rook stand on their
/// original squares. `None` when the rights agree.
pub fn edit_castling_problem(pos: &Position) -> Option<String> {
    let rights = pos.castling_rights();
    for color in [Color::White, Color::Black] {
        for (side, rook_file, words) in
            [(CastleSide::King, 7, "king side"), (CastleSide::Queen, 0, "queen side")]
        {
            let rank = if color == Color::White { 0 } else { 7 };
            let on = |file: u8, pt: PieceType| {
                pos.piece_on(Square::from_file_rank(file, rank))
                    .is_some_and(|p| p.color() == color && p.piece_type() == pt)
            };
            let at_home = on(4, PieceType::King) && on(rook_file, PieceType::Rook);
            if at_home != rights.has(color, side) {
                let who = if color == Color::White { "White" } else { "Black" };
                let may = if at_home { "may not" } else { "may" };
                return Some(format!(
                    "{who} {may} castle {words} with king and rook {}on their squares, which the \
                     legacy `edit` set-up cannot say (the engine has no `setboard`)",
                    if at_home { "" } else { "not " }
                ));
            }
        }
    }
    None
}

/// Whether the side to move has a legal en-passant capture (which the `edit` set-up cannot
/// tell the engine about).
pub fn has_en_passant(pos: &Position) -> bool {
    legal_moves(pos).iter().any(|m| m.kind() == MoveKind::EnPassant)
}

/// The engine's move read against `pos`: coordinate notation (`e2e4`, `e7e8q`, `e7e8Q`,
/// castling as the king's move or king-takes-rook) or SAN (`Nf3`, `exd5`, `e8=Q+`, `O-O`,
/// `0-0`). An error says whether it was unreadable or illegal.
pub fn parse_engine_move(pos: &Position, text: &str) -> Result<Move, String> {
    let bare = text.trim_end_matches(['+', '#', '!', '?']);
    let castle = match bare {
        "0-0" | "o-o" => Some("O-O"),
        "0-0-0" | "o-o-o" => Some("O-O-O"),
        _ => None,
    };
    let bytes = bare.as_bytes();
    let coordinate = castle.is_none()
        && (4..=5).contains(&bytes.len())
        && bare.is_ascii()
        && bare[0..2].parse::<Square>().is_ok()
        && bare[2..4].parse::<Square>().is_ok();
    if coordinate {
        return pos.parse_uci_move(&bare.to_ascii_lowercase()).map_err(|e| e.to_string());
    }
    let san = San::from_ascii(castle.unwrap_or(bare).as_bytes())
        .map_err(|_| format!("'{text}' is neither a coordinate move (e2e4) nor SAN (Nf3)"))?;
    find_move(pos, &san).map_err(|why| format!("'{text}' is {why} in this position ({})", pos.to_fen()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn lines_are_classified() {
        assert_eq!(classify("move e2e4"), EngineLine::Move("e2e4"));
        assert_eq!(classify("  move   Nf3 "), EngineLine::Move("Nf3"));
        assert_eq!(classify("pong 12"), EngineLine::Pong(12));
        assert_eq!(classify("resign"), EngineLine::Resign);
        assert_eq!(classify("1-0 {White mates}"), EngineLine::Claim("1-0"));
        assert_eq!(classify("1/2-1/2 {Draw by repetition}"), EngineLine::Claim("1/2-1/2"));
        assert_eq!(classify("Illegal move: e2e5"), EngineLine::Refused("e2e5"));
        assert_eq!(classify("Illegal move (no piece there): e3e4"), EngineLine::Refused("e3e4"));
        assert_eq!(classify("Error (unknown command): result"), EngineLine::Error("result"));
        assert_eq!(
            classify("  6     -4     1    13003  Nb1-c3  e5xf4"),
            EngineLine::Thinking(Thinking { depth: 6, score: -4, time_cs: 1, nodes: 13003 })
        );
        assert_eq!(
            classify("12. 100003 250 9000000 Qh5 Nf6 Qxf7#"),
            EngineLine::Thinking(Thinking { depth: 12, score: 100_003, time_cs: 250, nodes: 9_000_000 })
        );
        for other in ["tellics say hi", "# debug", "", "1 2 3", "Illegality", "move", "pong x", "1/2 0 0 0"] {
            assert_eq!(classify(other), EngineLine::Other, "{other}");
        }
    }

    #[test]
    fn features_split_into_pairs_with_quotes_removed() {
        let EngineLine::Feature(pairs) = classify(
            r#"feature myname="Phalanx XXV" setboard=1 option="Randomizer (0-50) -slider 0 0 50" done=1"#,
        ) else {
            panic!("a feature line")
        };
        assert_eq!(
            pairs,
            [
                ("myname", "Phalanx XXV"),
                ("setboard", "1"),
                ("option", "Randomizer (0-50) -slider 0 0 50"),
                ("done", "1")
            ]
        );
        assert_eq!(parse_features("a=1  junk b=\"x=y\" c="), [("a", "1"), ("b", "x=y"), ("c", "")]);
        assert_eq!(parse_features("x=\"unterminated"), [("x", "unterminated")]);
        assert!(parse_features("no pairs here").is_empty());
    }

    #[test]
    fn mate_scores_follow_the_protocol() {
        assert_eq!(score(35), Score::Cp(35));
        assert_eq!(score(-7990), Score::Cp(-7990));
        assert_eq!(score(100_005), Score::Mate(5));
        assert_eq!(score(-100_003), Score::Mate(-3));
    }

    #[test]
    fn options_are_declared_and_checked() {
        let declared: Vec<DeclaredOption> = [
            "Resign -check 0",
            "Resign Threshold -spin 800 200 1200",
            "Randomizer (0-50) -slider 0 0 50",
            "Makruk rules -combo makruk /// *Cambodian /// Ai-wok",
            "Ini File -file /usr/share/games/fairymax/fmax.ini",
            "Dummy String Example -string happy birthday!",
            "Clear Hash -button",
        ]
        .iter()
        .filter_map(|text| parse_option(text))
        .collect();
        assert_eq!(declared.len(), 7);
        assert_eq!(declared[2].name, "Randomizer (0-50)");
        assert_eq!(parse_option("No type here"), None);
        let set = |name: &str, value: &str| option_command(&declared, name, value);
        assert_eq!(set("resign", "true"), Ok("option Resign=1\n".to_string()));
        assert_eq!(set("Resign", "0"), Ok("option Resign=0\n".to_string()));
        assert_eq!(set("resign threshold", " 900"), Ok("option Resign Threshold=900\n".to_string()));
        assert_eq!(set("Randomizer (0-50)", "10"), Ok("option Randomizer (0-50)=10\n".to_string()));
        assert_eq!(set("makruk rules", "cambodian"), Ok("option Makruk rules=Cambodian\n".to_string()));
        assert_eq!(set("Ini File", "/tmp/a b.ini"), Ok("option Ini File=/tmp/a b.ini\n".to_string()));
        assert_eq!(set("clear hash", ""), Ok("option Clear Hash\n".to_string()));
        for (name, value, needle) in [
            ("Hash", "16", "'Hash' is not declared"),
            ("Resign Threshold", "100", "outside 200..=1200"),
            ("Resign Threshold", "big", "not an integer"),
            ("Resign", "yes", "not true or false"),
            ("Makruk rules", "chess", "not one of: makruk, Cambodian, Ai-wok"),
        ] {
            match set(name, value) {
                Err(message) => assert!(message.contains(needle), "{message}"),
                Ok(line) => panic!("{name}={value} accepted: {line}"),
            }
        }
    }

    #[test]
    fn level_writes_minutes_seconds_and_increment() {
        assert_eq!(level_command(None, 5_000, 50), "level 0 0:05 0.05\n");
        assert_eq!(level_command(None, 120_000, 0), "level 0 2 0\n");
        assert_eq!(level_command(Some(40), 90_000, 2_000), "level 40 1:30 2\n");
        assert_eq!(level_command(None, 300, 5), "level 0 0:01 0.005\n");
        assert_eq!(level_command(None, 0, 100), "level 0 0 0.1\n");
    }

    #[test]
    fn edit_sets_up_pieces_and_black_to_move() {
        let text = edit_commands(&pos("4k3/8/8/8/8/8/4P3/4K2R b K - 0 1"));
        assert_eq!(text, "a2a3\nedit\n#\nKe1\nRh1\nPe2\nc\nKe8\n.\n");
        assert!(!edit_commands(&Position::startpos()).starts_with("a2a3"));
    }

    #[test]
    fn edit_cannot_say_everything_about_castling_and_en_passant() {
        assert_eq!(edit_castling_problem(&Position::startpos()), None);
        assert_eq!(edit_castling_problem(&pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")), None);
        // The king went away and back: rights lost, pieces at home.
        let lost = edit_castling_problem(&pos("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1"));
        assert!(
            lost.as_deref().is_some_and(|why| why.contains("White may not castle king side")),
            "{lost:?}"
        );
        assert_eq!(edit_castling_problem(&pos("4k3/8/8/8/8/8/8/4K1R1 w - - 0 1")), None);
        assert!(has_en_passant(&pos("rnbqkbnr/pp1ppppp/8/1Pp5/3P4/8/P1P1PPPP/RNBQKBNR w KQkq c6 0 4")));
        assert!(!has_en_passant(&pos("rnbqkbnr/pp1ppppp/8/2p5/3P4/8/P1P1PPPP/RNBQKBNR w KQkq c6 0 4")));
    }

    #[test]
    fn engine_moves_in_coordinates_or_san() {
        let start = Position::startpos();
        let uci = |p: &Position, text: &str| parse_engine_move(p, text).map(|m| p.move_to_uci(m));
        assert_eq!(uci(&start, "e2e4"), Ok("e2e4".to_string()));
        assert_eq!(uci(&start, "Nf3"), Ok("g1f3".to_string()));
        assert_eq!(uci(&start, "e4"), Ok("e2e4".to_string()));
        let castle = pos("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for text in ["O-O", "0-0", "o-o", "e1g1", "e1h1", "O-O+"] {
            assert_eq!(uci(&castle, text), Ok("e1g1".to_string()), "{text}");
        }
        assert_eq!(uci(&castle, "0-0-0"), Ok("e1c1".to_string()));
        assert_eq!(uci(&castle, "b7a8Q"), Ok("b7a8q".to_string()));
        assert_eq!(uci(&castle, "bxa8=N+"), Ok("b7a8n".to_string()));
        let illegal = parse_engine_move(&start, "e2e5").unwrap_err();
        assert!(illegal.contains("e2e5"), "{illegal}");
        let san_illegal = parse_engine_move(&start, "Nf6").unwrap_err();
        assert!(san_illegal.contains("'Nf6' is illegal"), "{san_illegal}");
        let junk = parse_engine_move(&start, "zz99").unwrap_err();
        assert!(junk.contains("neither a coordinate move"), "{junk}");
    }
}
