//! Game records as PGN, as cutechess-cli and fastchess write them: the seven-tag roster, the
//! start position (`SetUp`/`FEN`), time control, termination, and each move's score, depth and
//! time as a comment.

use std::fmt::Write;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::play::games::game::GameRecord;

/// Tags shared by every game of a run.
#[derive(Clone, Debug)]
pub struct PgnContext {
    pub event: String,
    /// `YYYY.MM.DD`, the day the run started.
    pub date: String,
    /// The `TimeControl` tag.
    pub time_control: String,
}

impl PgnContext {
    pub fn new(event: &str, time_control: String) -> PgnContext {
        PgnContext { event: event.to_string(), date: today(), time_control }
    }
}

/// One game as PGN text, ending with a blank line. `round` is the game's number in the run;
/// `opening` names the book entry (file:line) in an `Opening`-style tag of our own.
pub fn write_game(game: &GameRecord, context: &PgnContext, round: usize, opening: &str) -> String {
    let mut out = String::with_capacity(1024 + game.moves.len() * 24);
    let tags = [
        ("Event", context.event.as_str()),
        ("Site", "?"),
        ("Date", context.date.as_str()),
        ("Round", &round.to_string()),
        ("White", game.white.as_str()),
        ("Black", game.black.as_str()),
        ("Result", game.outcome.pgn()),
        ("SetUp", "1"),
        ("FEN", game.start_fen.as_str()),
        ("PlyCount", &game.moves.len().to_string()),
        ("TimeControl", context.time_control.as_str()),
        ("Termination", game.termination.pgn_tag()),
        ("BookEntry", opening),
    ];
    for (name, value) in tags {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    out.push('\n');
    let mut tokens = Vec::with_capacity(game.moves.len() * 3 + 2);
    let (mut number, mut white_to_move) = start_move(&game.start_fen);
    for (i, played) in game.moves.iter().enumerate() {
        if white_to_move {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(played.san.clone());
        let t = &played.thought;
        let score = t.score.map_or_else(|| "?".to_string(), |s| s.to_string());
        tokens.push(format!("{{{score}/{} {:.3}s}}", t.depth, t.elapsed.as_secs_f64()));
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens.push(game.outcome.pgn().to_string());
    tokens.push(format!("{{{}}}", game.reason.replace(['{', '}'], "")));
    wrap(&mut out, &tokens, 79);
    out.push_str("\n\n");
    out
}

/// The full-move number and side to move of a FEN (1 and White if it cannot be read).
fn start_move(fen: &str) -> (u32, bool) {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let white = fields.get(1).is_none_or(|s| *s != "b");
    let number = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    (number, white)
}

/// Movetext lines of at most `width` characters (a comment may be split only at its spaces).
fn wrap(out: &mut String, tokens: &[String], width: usize) {
    let mut line_len = 0;
    for word in tokens.iter().flat_map(|t| t.split(' ')) {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Today's date (UTC) as PGN writes it.
pub fn today() -> String {
    let days = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
#[path = "pgn_out_tests.rs"]
mod tests;
