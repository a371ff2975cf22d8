//! Checks on the documentation (`README.md` and `docs/*.md`): every `tune` command line in their
//! `sh` code blocks parses with today's command-line interface, and every relative link leads to
//! an existing file (and, with `#anchor`, to an existing heading).
//!
//! Command lines are found in ```` ```sh ```` (or `bash`, `shell`) blocks, written as `tune <sub> ...`,
//! `target/release/tune <sub> ...` or `cargo run [--release] -p whetstone-tuner -- <sub> ...`.
//! Trailing `# comments` are dropped and `\` continuations joined; a line with shell syntax this
//! check cannot follow (`$`, backquotes, pipes, redirections, `;`, `&`) is skipped and listed.

use std::path::{Path, PathBuf};

use clap::Parser;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `README.md`, then `docs/*.md` in name order.
fn documents() -> Vec<PathBuf> {
    let root = repo();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("reading docs/")
        .map(|entry| entry.expect("reading docs/").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    let mut all = vec![root.join("README.md")];
    all.extend(docs);
    all
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The path as the messages show it: relative to the repository root.
fn shown(path: &Path) -> String {
    let root = repo();
    path.strip_prefix(&root).unwrap_or(path).display().to_string()
}

/// A fence line's opening or closing: `Some(info string)` for a line starting with three backquotes.
fn fence(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix("```").map(str::trim)
}

/// The line without its shell comment: a `#` at the start of a word, outside quotes.
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && previous.is_whitespace() => return &line[..i],
            None => {}
        }
        previous = c;
    }
    line
}

/// Whether the line uses shell syntax outside quotes that a plain word split cannot follow.
fn has_shell_syntax(line: &str) -> bool {
    let mut quote = None;
    for c in line.chars() {
        match quote {
            // Inside single quotes nothing is special; inside double quotes `$` and backquotes are.
            Some('\'') if c == '\'' => quote = None,
            Some('\'') => {}
            Some(_) if c == '"' => quote = None,
            Some(_) if c == '$' || c == '`' => return true,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if "$`|<>;&".contains(c) => return true,
            None => {}
        }
    }
    false
}

/// The logical lines of a document's shell blocks: (first line number, text without comments,
/// continuations joined).
fn shell_lines(text: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut in_block = false;
    let mut in_shell = false;
    let mut pending: Option<(usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if let Some(info) = fence(line) {
            if in_block {
                in_block = false;
                if let Some((start, joined)) = pending.take() {
                    lines.push((start, joined.trim().to_string()));
                }
            } else {
                in_block = true;
                let language = info.split_whitespace().next().unwrap_or("");
                in_shell = matches!(language, "sh" | "bash" | "shell");
            }
            continue;
        }
        if !(in_block && in_shell) {
            continue;
        }
        let code = strip_comment(line).trim_end();
        let (code, continued) = match code.strip_suffix('\\') {
            Some(rest) => (rest, true),
            None => (code, false),
        };
        let (start, mut joined) = pending.take().unwrap_or((number, String::new()));
        joined.push(' ');
        joined.push_str(code.trim());
        if continued {
            pending = Some((start, joined));
        } else {
            lines.push((start, joined.trim().to_string()));
        }
    }
    if let Some((start, joined)) = pending {
        lines.push((start, joined.trim().to_string()));
    }
    lines
}

/// The arguments after the program name when `words` run the tuner, or `None` for any other
/// command.
fn tune_arguments(words: &[String]) -> Option<Vec<String>> {
    let first = words.first()?.as_str();
    if matches!(first, "tune" | "target/release/tune" | "./target/release/tune") {
        return Some(words[1..].to_vec());
    }
    if first != "cargo" || words.get(1).map(String::as_str) != Some("run") {
        return None;
    }
    let separator = words.iter().position(|w| w == "--").unwrap_or(words.len());
    let cargo_flags = &words[2..separator];
    let names_tuner = |pair: &[String]| match pair[0].as_str() {
        "-p" | "--package" => pair[1] == "whetstone-tuner",
        "--bin" => pair[1] == "tune",
        _ => false,
    };
    let runs_tuner = cargo_flags.windows(2).any(names_tuner)
        || cargo_flags.iter().any(|w| w == "--package=whetstone-tuner" || w == "--bin=tune");
    runs_tuner.then(|| words.get(separator + 1..).unwrap_or_default().to_vec())
}

/// One command line found in a document.
struct Found {
    file: String,
    line: usize,
    text: String,
    arguments: Vec<String>,
}

/// Every tuner command line of the documents, and the lines skipped for their shell syntax.
fn tune_commands() -> (Vec<Found>, Vec<String>) {
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    for path in documents() {
        let text = read(&path);
        for (line, code) in shell_lines(&text) {
            let mentions_tuner = code.starts_with("tune ")
                || code.contains("release/tune ")
                || code.contains("whetstone-tuner");
            if has_shell_syntax(&code) {
                if mentions_tuner {
                    skipped.push(format!("{}:{line}: {code}", shown(&path)));
                }
                continue;
            }
            let Some(words) = shlex::split(&code) else {
                if mentions_tuner {
                    skipped.push(format!("{}:{line}: unbalanced quotes: {code}", shown(&path)));
                }
                continue;
            };
            if let Some(arguments) = tune_arguments(&words) {
                found.push(Found { file: shown(&path), line, text: code, arguments });
            }
        }
    }
    (found, skipped)
}

#[test]
fn every_tune_command_line_in_the_docs_parses() {
    let (found, skipped) = tune_commands();
    for line in &skipped {
        eprintln!("skipped (shell syntax): {line}");
    }
    let in_readme = found.iter().filter(|f| f.file == "README.md").count();
    assert!(in_readme >= 5, "only {in_readme} tune command lines found in README.md");
    assert!(found.len() >= 20, "only {} tune command lines found in README.md and docs/", found.len());
    let failures: Vec<String> = found
        .iter()
        .filter_map(|f| {
            let argv = std::iter::once("tune".to_string()).chain(f.arguments.iter().cloned());
            whetstone_tuner::cmd::Cli::try_parse_from(argv).err().map(|e| {
                let message = e.to_string();
                let first = message.lines().next().unwrap_or("").to_string();
                format!("{}:{}: `{}`\n    {first}", f.file, f.line, f.text)
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} documented tune command lines do not parse:\n{}",
        failures.len(),
        found.len(),
        failures.join("\n")
    );
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, spaces
/// to `-`; links in the heading count by their text.
fn slug(heading: &str) -> String {
    let text = without_link_targets(heading);
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// `[text](target)` becomes `text`.
fn without_link_targets(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("](") {
        let Some(close) = rest[open..].find(')') else { break };
        out.push_str(&rest[..open]);
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out.replace('[', "")
}

/// The lines outside fenced code blocks, with their numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut in_block = false;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if fence(line).is_some() {
            in_block = !in_block;
        } else if !in_block {
            lines.push((index + 1, line));
        }
    }
    lines
}

/// The anchors of a document's headings, duplicates numbered as GitHub numbers them.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut anchors = Vec::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line[hashes..].trim().trim_end_matches('#'));
        let repeats = seen.iter().filter(|s| **s == base).count();
        anchors.push(if repeats == 0 { base.clone() } else { format!("{base}-{repeats}") });
        seen.push(base);
    }
    anchors
}

/// The prose lines without their inline code spans (which may hold a `](` that is not a link); a
/// span may go on over the next lines of its paragraph.
fn prose_without_code(text: &str) -> Vec<(usize, String)> {
    let mut in_span = false;
    let mut lines = Vec::new();
    for (number, line) in prose_lines(text) {
        if line.trim().is_empty() {
            in_span = false;
        }
        let mut kept = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i > 0 {
                in_span = !in_span;
            }
            if !in_span {
                kept.push_str(part);
            }
        }
        lines.push((number, kept));
    }
    lines
}

/// The targets of the inline links `[text](target)` on a line (without code spans).
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(open) = rest.find("](") {
        let after = &rest[open + 2..];
        let end = after.find(|c: char| c == ')' || c.is_whitespace()).unwrap_or(after.len());
        targets.push(after[..end].trim_matches(['<', '>']).to_string());
        rest = &after[end..];
    }
    targets
}

#[test]
fn every_relative_link_in_the_docs_resolves() {
    let mut checked = 0;
    let mut broken = Vec::new();
    for path in documents() {
        let text = read(&path);
        let dir = path.parent().expect("a document's folder");
        for (line, content) in prose_without_code(&text) {
            for target in link_targets(&content) {
                if target.is_empty()
                    || target.starts_with("http://")
                    || target.starts_with("https://")
                    || target.starts_with("mailto:")
                {
                    continue;
                }
                checked += 1;
                let (file, anchor) = match target.split_once('#') {
                    Some((file, anchor)) => (file, Some(anchor)),
                    None => (target.as_str(), None),
                };
                let resolved = if file.is_empty() { path.clone() } else { dir.join(file) };
                let here = format!("{}:{line}: ({target})", shown(&path));
                if !resolved.exists() {
                    broken.push(format!("{here}: no file {}", shown(&resolved)));
                    continue;
                }
                let Some(anchor) = anchor else { continue };
                if resolved.extension().is_some_and(|e| e == "md") {
                    let headings = anchors(&read(&resolved));
                    if !headings.iter().any(|h| h == anchor) {
                        broken.push(format!(
                            "{here}: no heading #{anchor} in {} (it has: {})",
                            shown(&resolved),
                            headings.join(", ")
                        ));
                    }
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} relative links found in README.md and docs/");
    assert!(broken.is_empty(), "{} broken links:\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn the_extraction_follows_comments_continuations_and_quotes() {
    let text = "intro\n```sh\n# a comment\ntune match --opponent a.toml \\\n    --games 2   # two\n\
                tune pbil --only 'pst.*' 'a # b'\ncargo run --release -p whetstone-tuner -- export\n\
                cargo build --release\ntune dataset stats x | head\n```\n```text\ntune nope [--x]\n```\n";
    let lines = shell_lines(text);
    let codes: Vec<&str> = lines.iter().map(|(_, code)| code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "",
            "tune match --opponent a.toml --games 2",
            "tune pbil --only 'pst.*' 'a # b'",
            "cargo run --release -p whetstone-tuner -- export",
            "cargo build --release",
            "tune dataset stats x | head",
        ]
    );
    assert_eq!(lines[1].0, 4);
    assert!(has_shell_syntax(codes[5]) && !has_shell_syntax(codes[2]));
    let words = |s: &str| shlex::split(s).unwrap();
    assert_eq!(tune_arguments(&words(codes[2])).unwrap(), ["pbil", "--only", "pst.*", "a # b"]);
    assert_eq!(tune_arguments(&words(codes[3])).unwrap(), ["export"]);
    assert_eq!(tune_arguments(&words(codes[4])), None);
    assert!(whetstone_tuner::cmd::Cli::try_parse_from(["tune", "match", "--opponent", "a.toml", "--bogus"])
        .is_err());
}

#[test]
fn anchors_and_links_follow_github() {
    let text = "# Games: match, gauntlet, datagen\n## CLOP's test problems\n```sh\n# not a heading\n```\n\
                ## Notes\n## Notes\n### [The engine](engine.md) and `tune`\n";
    assert_eq!(
        anchors(text),
        ["games-match-gauntlet-datagen", "clops-test-problems", "notes", "notes-1", "the-engine-and-tune"]
    );
    let text = "see [a](docs/x.md#y), `[no](code)` and [b](#z) or `a span\nover [two](lines)` and\n\
                [c](https://e.org) `unclosed\n\n[d](after-a-blank-line.md)\n";
    let targets: Vec<String> =
        prose_without_code(text).iter().flat_map(|(_, line)| link_targets(line)).collect();
    assert_eq!(targets, ["docs/x.md#y", "#z", "https://e.org", "after-a-blank-line.md"]);
}
