//! Parsing `go` arguments into search limits.

use crate::search::Limits;

/// The limits of a `go` line (the words after `go`), and what was wrong with it. Every `go` must
/// end in a `bestmove`, so a malformed part is reported and skipped rather than failing the line.
pub fn parse_go(args: &[&str]) -> (Limits, Vec<String>) {
    let mut limits = Limits::default();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if let Err(problem) = parse_one(args, &mut i, &mut limits) {
            problems.push(problem);
        }
        i += 1;
    }
    (limits, problems)
}

fn parse_one(args: &[&str], i: &mut usize, limits: &mut Limits) -> Result<(), String> {
    let word = args[*i];
    let mut number = |what: &str| -> Result<u64, String> {
        let text = args.get(*i + 1).ok_or_else(|| format!("'go {what}' needs a value"))?;
        // Some GUIs send negative clock times when flagging; treat them as zero.
        let value = text
            .parse::<i64>()
            .map(|v| v.max(0) as u64)
            .map_err(|_| format!("'go {what} {text}': not a number"))?;
        *i += 1;
        Ok(value)
    };
    {
        match word {
            "wtime" => limits.time[0] = Some(number(word)?),
            "btime" => limits.time[1] = Some(number(word)?),
            "winc" => limits.inc[0] = number(word)?,
            "binc" => limits.inc[1] = number(word)?,
            "movestogo" => limits.movestogo = Some(number(word)?.min(10_000) as u32),
            "depth" => limits.depth = Some(number(word)?.clamp(1, 127) as i32),
            "nodes" => limits.nodes = Some(number(word)?.max(1)),
            "movetime" => limits.movetime = Some(number(word)?),
            "mate" => limits.mate = Some(number(word)?.clamp(1, 63) as i32),
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => return Err("'go searchmoves' is not supported".to_string()),
            other => return Err(format!("unknown 'go' parameter '{other}'")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_clock_and_limits() {
        let (l, problems) =
            parse_go(&["wtime", "1000", "btime", "-5", "winc", "10", "binc", "10", "movestogo", "7"]);
        assert!(problems.is_empty());
        assert_eq!(l.time, [Some(1000), Some(0)]);
        assert_eq!((l.inc, l.movestogo), ([10, 10], Some(7)));
        assert_eq!(parse_go(&["depth", "5"]).0.depth, Some(5));
        assert!(parse_go(&["infinite"]).0.infinite);
        assert!(parse_go(&["ponder", "movetime", "100"]).0.ponder);
    }

    #[test]
    fn malformed_parts_are_reported_and_skipped() {
        assert!(parse_go(&["depth"]).1[0].contains("needs a value"));
        let (l, problems) = parse_go(&["depth", "x", "movetime", "50"]);
        assert!(problems[0].contains("not a number"));
        assert_eq!(l.movetime, Some(50));
        let (l, problems) = parse_go(&["sideways", "depth", "3"]);
        assert!(problems[0].contains("unknown 'go' parameter 'sideways'"));
        assert_eq!(l.depth, Some(3));
    }
}
