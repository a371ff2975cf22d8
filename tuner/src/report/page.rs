//! The report as one self-contained HTML page (`index.html`): the page's model ([`Page`]:
//! metadata and [`Section`]s of [`Block`]s) and its renderer ([`render`], [`write_index`]).
//! Inline CSS, no scripts, no web fonts, pictures by relative file name, so the folder can be
//! zipped, mailed and opened offline; fluid enough to read on a phone.
//!
//! What the sections say is built elsewhere: `param_sections.rs` for a parameter set (its
//! tables, largest changes and frozen values), `run_sections.rs` for a tuning run's folder.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::charts::{self, Image};

/// The whole report page.
#[derive(Clone, Debug, Default)]
pub struct Page {
    pub title: String,
    /// Shown as key/value rows under the title: the file shown, the baseline, dates, ...
    pub metadata: Vec<(String, String)>,
    pub sections: Vec<Section>,
}

#[derive(Clone, Debug)]
pub struct Section {
    pub title: String,
    pub body: Vec<Block>,
}

#[derive(Clone, Debug)]
pub enum Block {
    /// Pictures in a grid, each with its title as caption.
    Images(Vec<Image>),
    /// A table of numbers: right-aligned cells that do not wrap (scrolls sideways on a phone).
    Table { caption: String, header: Vec<String>, rows: Vec<Vec<String>> },
    /// Key/value rows of text that wraps anywhere (a run's command, options and results), the
    /// page's full width; a value may be a nested table or preformatted text.
    KeyValue { caption: String, rows: Vec<(String, Entry)> },
    /// A piece-square table as a board: 64 values, a1 first, coloured on the scale of the PNG
    /// heat maps with `limit` as the value of full colour; `marks` (64, or empty for none) hatch
    /// frozen squares and blank unused ones.
    Board { caption: String, values: Vec<i32>, limit: f64, marks: Vec<Mark> },
    /// A paragraph.
    Text(String),
    /// Preformatted text (a command line, a summary).
    Pre(String),
    /// A run's verdict as the terminal says it, in words and rounded figures, with what to do
    /// next: the first thing a tuning run's report says.
    Verdict { headline: String, passed: bool, advice: String },
    /// Blocks folded away behind a disclosure (`<details>`), shown on a click.
    Details { summary: String, blocks: Vec<Block> },
}

/// The value of a key/value row.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    Text(String),
    /// Preformatted, wrapped at the page's width.
    Pre(String),
    /// A nested key/value table.
    Rows(Vec<(String, Entry)>),
}

/// How a square of a board is marked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    Plain,
    /// Kept at its start by the run (`--min-coverage`): hatched, value with `*`.
    Frozen,
    /// No position can use it (pawns on ranks 1 and 8): blank and grey.
    Unused,
}

/// Escapes text for HTML content and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const CSS: &str = "
*{box-sizing:border-box}
body{margin:0 auto;max-width:1200px;padding:0 12px 40px;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;background:#fff}
h1{font-size:1.6em;margin:.8em 0 .4em;overflow-wrap:anywhere}
h2{font-size:1.3em;margin:1.6em 0 .5em;border-bottom:1px solid #ddd;padding-bottom:.2em;overflow-wrap:anywhere}
nav ol{padding-left:1.4em}
p{overflow-wrap:anywhere}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.6em 0 1em;max-width:100%}
table{border-collapse:collapse;font-size:.9em}
caption{text-align:left;font-weight:600;padding:.3em 0;caption-side:top}
th,td{border:1px solid #ddd;padding:.25em .5em;text-align:right;white-space:nowrap}
th{background:#f3f3f3}
td:first-child,th:first-child{text-align:left}
table.kv{width:100%;table-layout:fixed;margin:.6em 0 1em}
table.kv th,table.kv td{text-align:left;white-space:normal;overflow-wrap:anywhere;vertical-align:top}
table.kv th{width:10em;font-weight:600}
table.kv table.kv{margin:0;font-size:1em}
table.kv pre{margin:0;padding:.3em}
div.verdict{border:2px solid #b33;border-radius:6px;padding:.2em 1em;margin:.6em 0 1em;background:#fdf3f3}
div.verdict.passed{border-color:#393;background:#f2faf2}
details{margin:.4em 0 1em}summary{cursor:pointer}
.boards{display:flex;flex-wrap:wrap;gap:0 24px}
table.board td{width:3.1em;height:2.4em;text-align:center;padding:0;white-space:nowrap}
table.board th{width:1.6em;text-align:center;padding:0;background:none;border:none}
table.board td.unused{background-color:#f4f4f4;color:#aaa}
table.board td.frozen{background-image:repeating-linear-gradient(45deg,rgba(0,0,0,.16) 0 2px,transparent 2px 7px);font-style:italic}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,460px),1fr));gap:16px;margin:1em 0}
figure{margin:0}
img{max-width:100%;height:auto;display:block;border:1px solid #eee}
figcaption{font-size:.85em;color:#555;margin-top:.2em}
pre{overflow-x:auto;background:#f6f6f6;padding:.6em;white-space:pre-wrap;overflow-wrap:anywhere}
@media (max-width:600px){body{font-size:14px}table.board td{width:2.3em;height:2em;font-size:.85em}table.kv th{width:7em}}
";

/// Writes the page as `dir/index.html` and returns its path.
pub fn write_index(dir: &Path, page: &Page) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join("index.html");
    std::fs::write(&path, render(page)).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// The page as HTML text.
pub fn render(page: &Page) -> String {
    let mut h = String::new();
    let title = escape(&page.title);
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(h, "<title>{title}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{title}</h1>");
    if !page.metadata.is_empty() {
        h.push_str("<table class=\"meta kv\">\n");
        for (k, v) in &page.metadata {
            let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", escape(k), escape(v));
        }
        h.push_str("</table>\n");
    }
    if page.sections.len() > 1 {
        h.push_str("<nav><h2>Contents</h2>\n<ol>\n");
        for (i, s) in page.sections.iter().enumerate() {
            let _ = writeln!(h, "<li><a href=\"#s{}\">{}</a></li>", i + 1, escape(&s.title));
        }
        h.push_str("</ol></nav>\n");
    }
    for (i, s) in page.sections.iter().enumerate() {
        let _ = writeln!(h, "<section id=\"s{}\">\n<h2>{}</h2>", i + 1, escape(&s.title));
        let mut in_boards = false;
        for block in &s.body {
            // Consecutive boards share one wrapping row: side by side when there is room.
            let is_board = matches!(block, Block::Board { .. });
            if is_board != in_boards {
                h.push_str(if is_board { "<div class=\"boards\">\n" } else { "</div>\n" });
                in_boards = is_board;
            }
            render_block(&mut h, block);
        }
        if in_boards {
            h.push_str("</div>\n");
        }
        h.push_str("</section>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}

/// Key/value rows as a wrapping table (nested for nested entries).
fn render_key_values(h: &mut String, caption: &str, rows: &[(String, Entry)]) {
    h.push_str("<table class=\"kv\">\n");
    if !caption.is_empty() {
        let _ = writeln!(h, "<caption>{}</caption>", escape(caption));
    }
    for (key, value) in rows {
        let _ = write!(h, "<tr><th>{}</th><td>", escape(key));
        match value {
            Entry::Text(text) => h.push_str(&escape(text)),
            Entry::Pre(text) => {
                let _ = write!(h, "<pre>{}</pre>", escape(text));
            }
            Entry::Rows(inner) => render_key_values(h, "", inner),
        }
        h.push_str("</td></tr>\n");
    }
    h.push_str("</table>\n");
}

/// One block as HTML, appended to `h`.
pub(super) fn render_block(h: &mut String, block: &Block) {
    match block {
        Block::Verdict { headline, passed, advice } => {
            let class = if *passed { "verdict passed" } else { "verdict" };
            let _ = writeln!(h, "<div class=\"{class}\"><p><strong>{}</strong></p>", escape(headline));
            let _ = writeln!(h, "<p>{}</p></div>", escape(advice).replace('\n', "<br>"));
        }
        Block::Details { summary, blocks } => {
            let _ = writeln!(h, "<details><summary>{}</summary>", escape(summary));
            for inner in blocks {
                render_block(h, inner);
            }
            h.push_str("</details>\n");
        }
        Block::Text(text) => {
            let _ = writeln!(h, "<p>{}</p>", escape(text));
        }
        Block::Pre(text) => {
            let _ = writeln!(h, "<pre>{}</pre>", escape(text));
        }
        Block::Images(list) => {
            h.push_str("<div class=\"grid\">\n");
            for img in list {
                let (file, title) = (escape(&img.file), escape(&img.title));
                let _ = writeln!(
                    h,
                    "<figure><a href=\"{file}\"><img src=\"{file}\" alt=\"{title}\" loading=\"lazy\"></a>\
                     <figcaption>{title}</figcaption></figure>"
                );
            }
            h.push_str("</div>\n");
        }
        Block::KeyValue { caption, rows } => render_key_values(h, caption, rows),
        Block::Table { caption, header, rows } => {
            h.push_str("<div class=\"scroll\"><table>\n");
            if !caption.is_empty() {
                let _ = writeln!(h, "<caption>{}</caption>", escape(caption));
            }
            if !header.is_empty() {
                h.push_str("<thead><tr>");
                for cell in header {
                    let _ = write!(h, "<th>{}</th>", escape(cell));
                }
                h.push_str("</tr></thead>\n");
            }
            h.push_str("<tbody>\n");
            for row in rows {
                h.push_str("<tr>");
                for cell in row {
                    let _ = write!(h, "<td>{}</td>", escape(cell));
                }
                h.push_str("</tr>\n");
            }
            h.push_str("</tbody></table></div>\n");
        }
        Block::Board { caption, values, limit, marks } => {
            h.push_str("<div class=\"scroll\"><table class=\"board\">\n");
            let _ = writeln!(h, "<caption>{}</caption>", escape(caption));
            for row in 0..8 {
                let _ = write!(h, "<tr><th>{}</th>", 8 - row);
                for file in 0..8 {
                    let sq = charts::square_at(row, file);
                    let value = values.get(sq).copied().unwrap_or(0);
                    let mark = marks.get(sq).copied().unwrap_or(Mark::Plain);
                    if mark == Mark::Unused {
                        h.push_str("<td class=\"unused\" title=\"unused\"></td>");
                        continue;
                    }
                    let (r, g, b) = charts::diverging_rgb(value as f64, *limit);
                    let ink = if charts::needs_light_text(value as f64, *limit) { ";color:#fff" } else { "" };
                    let (class, star) = if mark == Mark::Frozen {
                        (" class=\"frozen\" title=\"frozen (--min-coverage)\"", "*")
                    } else {
                        ("", "")
                    };
                    let _ = write!(
                        h,
                        "<td{class} style=\"background-color:#{r:02x}{g:02x}{b:02x}{ink}\">{value}{star}</td>"
                    );
                }
                h.push_str("</tr>\n");
            }
            h.push_str("<tr><th></th>");
            for f in 'a'..='h' {
                let _ = write!(h, "<th>{f}</th>");
            }
            h.push_str("</tr>\n</table></div>\n");
        }
    }
}

#[cfg(test)]
#[path = "page_tests.rs"]
mod tests;
