//! The text of the xboard protocol (CECP v2) as pure functions, for `xboard_engine.rs`: the
//! engine's lines classified (`feature`, `move`, thinking output, `resign`, result claims,
//! refusals), `feature option` declarations and the `option NAME=VALUE` lines they allow,
//! `level`, the legacy `edit` set-up for engines without `setboard`, and the engine's moves
//! (coordinate notation or SAN) read against our board.

use pgn_reader::shakmaty::san::San;
use whetstone::movegen::legal_moves;
use whetstone::types::{CastleSide, MoveKind};
use whetstone::{Color, Move, PieceType, Position, Square};

use crate::dataset::pgn::find_move;
use crate::play::engines::player::Score;

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
#[path = "xboard_text_tests.rs"]
mod tests;
