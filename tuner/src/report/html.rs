//! The report as one self-contained HTML page (`index.html`): inline CSS, no scripts, no web
//! fonts, pictures by relative file name, so the folder can be zipped, mailed and opened offline;
//! fluid enough to read on a phone.
//!
//! A [`Page`] is metadata and [`Section`]s of [`Block`]s; [`param_sections`] and [`run_sections`]
//! build the sections of a parameter set and of a tuning run, [`write_index`] renders the page.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use whetstone::params::{ParamSet, Shape, Term};

use super::images::{self, Image};

/// The whole report page.
#[derive(Clone, Debug, Default)]
pub struct Page {
    pub title: String,
    /// Shown as a table under the title: command, params file, dataset, dates, ...
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
    Table {
        caption: String,
        header: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// A piece-square table as a board: 64 values, a1 first, coloured on the scale of the PNG
    /// heat maps with `limit` as the value of full colour.
    Board {
        caption: String,
        values: Vec<i32>,
        limit: f64,
    },
    /// A paragraph.
    Text(String),
    /// Preformatted text (a command line, a summary).
    Pre(String),
}

/// Which phase of a term to show.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    Mg,
    Eg,
}

impl Phase {
    fn values(self, term: &Term) -> &[i32] {
        match self {
            Phase::Mg => &term.mg,
            Phase::Eg => &term.eg,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Phase::Mg => "middle game",
            Phase::Eg => "end game",
        }
    }
}

/// A piece-square table's phase as an 8x8 board (rank 8 first) coloured like the heat maps. The
/// scale spans both phases, as in the pictures, so the two boards compare.
pub fn board_table(term: &Term, phase: Phase) -> Block {
    let caption = if term.phased { format!("{}, {}", term.name, phase.name()) } else { term.name.clone() };
    Block::Board {
        caption,
        values: phase.values(term).to_vec(),
        limit: images::scale_limit(term.mg.iter().chain(&term.eg)),
    }
}

/// The sections of a parameter set: the piece-square tables (pictures and boards), the curves
/// (pictures and the values of the list and per-piece terms), and a table of the scalars.
/// `images` are the pictures of [`images::heat_maps`] and [`images::curves`]; those of other
/// groups are left for their own sections.
pub fn param_sections(params: &ParamSet, baseline: Option<&ParamSet>, images: &[Image]) -> Vec<Section> {
    let in_group = |g: &str| images.iter().filter(|i| i.group == g).cloned().collect::<Vec<_>>();
    let mut sections = Vec::new();

    let mut body = Vec::new();
    let pictures = in_group("tables");
    if !pictures.is_empty() {
        body.push(Block::Images(pictures));
    }
    for (_, term) in images::piece_square_terms(params) {
        if !term.doc.is_empty() {
            body.push(Block::Text(format!("{}: {}", term.name, term.doc)));
        }
        body.push(board_table(term, Phase::Mg));
        if term.phased {
            body.push(board_table(term, Phase::Eg));
        }
    }
    if !body.is_empty() {
        sections.push(Section { title: "Piece-square tables".into(), body });
    }

    let mut body = Vec::new();
    let pictures = in_group("curves");
    if !pictures.is_empty() {
        body.push(Block::Images(pictures));
    }
    for term in params.terms.iter().filter(|t| matches!(t.shape, Shape::List | Shape::Piece)) {
        let base = baseline.and_then(|b| b.term(&term.name)).filter(|b| b.len() == term.len());
        body.push(element_table(term, base));
    }
    if !body.is_empty() {
        sections.push(Section { title: "Lists and curves".into(), body });
    }

    let scalars: Vec<&Term> = params.terms.iter().filter(|t| t.shape == Shape::Scalar).collect();
    if !scalars.is_empty() {
        let mut header: Vec<String> = ["term", "mg", "eg"].map(String::from).into();
        if baseline.is_some() {
            header.extend(["baseline mg", "baseline eg"].map(String::from));
        }
        header.extend(["bounds", "tunable", "description"].map(String::from));
        let rows = scalars
            .iter()
            .map(|t| {
                let (mg, eg) = (t.mg.first().copied().unwrap_or(0), t.eg.first().copied().unwrap_or(0));
                let mut row =
                    vec![t.name.clone(), mg.to_string(), if t.phased { eg.to_string() } else { "=".into() }];
                if let Some(b) = baseline {
                    let before = b.term(&t.name);
                    let cell = |v: Option<&i32>| v.map_or_else(|| "-".into(), i32::to_string);
                    row.push(cell(before.and_then(|b| b.mg.first())));
                    row.push(if t.phased { cell(before.and_then(|b| b.eg.first())) } else { "=".into() });
                }
                row.push(format!("[{}, {}]", t.min, t.max));
                row.push(if t.tunable { "yes" } else { "no" }.into());
                row.push(t.doc.clone());
                row
            })
            .collect();
        sections.push(Section {
            title: "Scalar terms".into(),
            body: vec![Block::Table {
                caption: "Scalars (\"=\": one value for both phases)".into(),
                header,
                rows,
            }],
        });
    }
    sections
}

/// A list or per-piece term as a table with its elements across: mg and eg rows (one row if
/// unphased), then the baseline's and the change.
fn element_table(term: &Term, baseline: Option<&Term>) -> Block {
    let mut header = vec![String::new()];
    header.extend((0..term.len()).map(|i| term.element_label(i)));
    let row = |name: &str, values: &[i32]| {
        std::iter::once(name.to_string()).chain(values.iter().map(i32::to_string)).collect::<Vec<_>>()
    };
    let phases: &[(&str, Phase)] =
        if term.phased { &[("mg", Phase::Mg), ("eg", Phase::Eg)] } else { &[("value", Phase::Mg)] };
    let mut rows = Vec::new();
    for &(name, phase) in phases {
        rows.push(row(name, phase.values(term)));
    }
    if let Some(base) = baseline {
        for &(name, phase) in phases {
            rows.push(row(&format!("{name} baseline"), phase.values(base)));
        }
        for &(name, phase) in phases {
            let change: Vec<i32> =
                phase.values(term).iter().zip(phase.values(base)).map(|(a, b)| a - b).collect();
            rows.push(row(&format!("{name} change"), &change));
        }
    }
    let caption =
        if term.doc.is_empty() { term.name.clone() } else { format!("{}: {}", term.name, term.doc) };
    Block::Table { caption, header, rows }
}

/// How many of the last rows of `log.csv` the run section shows.
const LOG_TAIL: usize = 5;

/// The sections of a tuning run: its `run.json` (every key), the first and the last rows of its
/// `log.csv`, and the run's pictures (group "run" of `images`).
pub fn run_sections(run_dir: &Path, images: &[Image]) -> Result<Vec<Section>> {
    if !run_dir.is_dir() {
        bail!("{} is not a run folder", run_dir.display());
    }
    let mut body = Vec::new();
    let meta_path = run_dir.join("run.json");
    if meta_path.exists() {
        let text = std::fs::read_to_string(&meta_path)
            .with_context(|| format!("reading {}", meta_path.display()))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("reading {}", meta_path.display()))?;
        match value {
            serde_json::Value::Object(map) => {
                let rows = map.iter().map(|(k, v)| vec![k.clone(), json_cell(v)]).collect();
                body.push(Block::Table {
                    caption: "run.json".into(),
                    header: vec!["key".into(), "value".into()],
                    rows,
                });
            }
            other => body.push(Block::Pre(serde_json::to_string_pretty(&other)?)),
        }
    } else {
        body.push(Block::Text("This run folder has no run.json.".into()));
    }

    let log_path = run_dir.join("log.csv");
    if log_path.exists() {
        body.push(log_table(&log_path)?);
    } else {
        body.push(Block::Text("This run folder has no log.csv.".into()));
    }
    let pictures: Vec<Image> = images.iter().filter(|i| i.group == "run").cloned().collect();
    if !pictures.is_empty() {
        body.push(Block::Images(pictures));
    }
    Ok(vec![Section { title: format!("Run {}", run_dir.display()), body }])
}

/// A JSON value as table text: strings without quotes, anything else as compact JSON.
fn json_cell(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) if items.iter().all(|i| i.is_string()) => {
            // Command lines are arrays of words; a space-joined line reads better than JSON.
            items.iter().filter_map(|i| i.as_str()).collect::<Vec<_>>().join(" ")
        }
        other => other.to_string(),
    }
}

/// The first row and the last [`LOG_TAIL`] rows of a log, cells as written.
fn log_table(path: &Path) -> Result<Block> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .with_context(|| format!("reading {}", path.display()))?;
    let header: Vec<String> = reader.headers()?.iter().map(String::from).collect();
    let records: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.map(|r| r.iter().map(String::from).collect()))
        .collect::<Result<_, _>>()
        .with_context(|| format!("reading {}", path.display()))?;
    let n = records.len();
    let mut rows = Vec::new();
    if n > LOG_TAIL + 1 {
        rows.push(records[0].clone());
        rows.push(vec!["…".to_string(); header.len().max(1)]);
        rows.extend(records[n - LOG_TAIL..].iter().cloned());
    } else {
        rows = records;
    }
    let caption =
        format!("log.csv: {n} rows{}", if n > LOG_TAIL + 1 { ", the first and the last" } else { "" });
    Ok(Block::Table { caption, header, rows })
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
h1{font-size:1.6em;margin:.8em 0 .4em}
h2{font-size:1.3em;margin:1.6em 0 .5em;border-bottom:1px solid #ddd;padding-bottom:.2em}
nav ol{padding-left:1.4em}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.6em 0 1em;max-width:100%}
table{border-collapse:collapse;font-size:.9em}
caption{text-align:left;font-weight:600;padding:.3em 0;caption-side:top}
th,td{border:1px solid #ddd;padding:.25em .5em;text-align:right;white-space:nowrap}
th{background:#f3f3f3}
td:first-child,th:first-child{text-align:left}
table.meta td{white-space:normal;text-align:left;word-break:break-word}
.boards{display:flex;flex-wrap:wrap;gap:0 24px}
table.board td{width:3.1em;height:2.4em;text-align:center;padding:0;white-space:nowrap}
table.board th{width:1.6em;text-align:center;padding:0;background:none;border:none}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,460px),1fr));gap:16px;margin:1em 0}
figure{margin:0}
img{max-width:100%;height:auto;display:block;border:1px solid #eee}
figcaption{font-size:.85em;color:#555;margin-top:.2em}
pre{overflow-x:auto;background:#f6f6f6;padding:.6em;white-space:pre-wrap;word-break:break-word}
@media (max-width:600px){body{font-size:14px}table.board td{width:2.3em;height:2em;font-size:.85em}}
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
        h.push_str("<div class=\"scroll\"><table class=\"meta\">\n");
        for (k, v) in &page.metadata {
            let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", escape(k), escape(v));
        }
        h.push_str("</table></div>\n");
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

fn render_block(h: &mut String, block: &Block) {
    match block {
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
        Block::Board { caption, values, limit } => {
            h.push_str("<div class=\"scroll\"><table class=\"board\">\n");
            let _ = writeln!(h, "<caption>{}</caption>", escape(caption));
            for row in 0..8 {
                let _ = write!(h, "<tr><th>{}</th>", 8 - row);
                for file in 0..8 {
                    let value = values.get(images::square_at(row, file)).copied().unwrap_or(0);
                    let (r, g, b) = images::diverging_rgb(value as f64, *limit);
                    let ink = if images::needs_light_text(value as f64, *limit) { ";color:#fff" } else { "" };
                    let _ = write!(h, "<td style=\"background:#{r:02x}{g:02x}{b:02x}{ink}\">{value}</td>");
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
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("whetstone-html-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn sample_run(dir: &Path, with_trajectory: bool) {
        std::fs::write(
            dir.join("run.json"),
            r#"{"tool":"texel","command":["tune","texel","--epochs","5"],"started":"2025-01-02T03:04:05Z","options":{"lr":0.5}}"#,
        )
        .unwrap();
        let mut log = String::from("epoch,train_loss,valid_loss,k,learning_rate,seconds\n");
        for e in 0..12 {
            let valid = if e == 3 {
                String::new()
            } else if e == 4 {
                "NaN".into()
            } else {
                format!("{}", 0.1 - e as f64 * 0.002)
            };
            log.push_str(&format!("{e},{},{valid},1.2,0.5,{}\n", 0.09 - e as f64 * 0.002, e * 3));
        }
        std::fs::write(dir.join("log.csv"), log).unwrap();
        if with_trajectory {
            std::fs::write(
                dir.join("trajectory.csv"),
                "epoch,pst.knight[e4].mg,tempo\n0,10,20\n1,12,19\n2,15,18\n",
            )
            .unwrap();
        }
    }

    #[test]
    fn escapes_text() {
        let page = Page {
            title: "a < b & \"c\"".into(),
            metadata: vec![("command".into(), "<script>alert(1)</script>".into())],
            sections: vec![Section { title: "<b>".into(), body: vec![Block::Text("x<y".into())] }],
        };
        let html = render(&page);
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("a &lt; b &amp; &quot;c&quot;"));
        assert!(html.contains("x&lt;y"));
        assert!(!html.contains("<b>"));
    }

    #[test]
    fn board_table_has_64_cells_rank_8_first() {
        let params = ParamSet::baked();
        let term = params.term("pst.knight").unwrap();
        let Block::Board { values, .. } = board_table(term, Phase::Eg) else { panic!("not a board") };
        assert_eq!(values, term.eg);
        let mut h = String::new();
        render_block(&mut h, &board_table(term, Phase::Mg));
        assert_eq!(h.matches("<td style=\"background:#").count(), 64);
        // First cell row is rank 8 (a8 = index 56), the last is rank 1 ending with h1 (index 7).
        let first_row = h.lines().find(|l| l.starts_with("<tr><th>")).unwrap();
        assert!(first_row.starts_with("<tr><th>8</th>"));
        let cells: Vec<&str> = first_row.split("<td").skip(1).collect();
        assert!(cells[0].contains(&format!(">{}</td>", term.mg[56])));
        assert!(cells[7].contains(&format!(">{}</td>", term.mg[63])));
        let rank1 = h.lines().find(|l| l.starts_with("<tr><th>1</th>")).unwrap();
        assert!(rank1.ends_with(&format!(">{}</td></tr>", term.mg[7])));
    }

    #[test]
    fn board_colours_follow_the_scale() {
        assert_eq!(images::diverging_rgb(0.0, 10.0), (255, 255, 255));
        let (r, g, _) = images::diverging_rgb(-10.0, 10.0);
        assert!(r > g);
        let (r, g, _) = images::diverging_rgb(10.0, 10.0);
        assert!(g > r);
        assert_eq!(images::diverging_rgb(50.0, 10.0), images::diverging_rgb(10.0, 10.0));
    }

    #[test]
    fn run_sections_reads_a_run_folder() {
        let dir = temp_dir("run");
        sample_run(&dir, false);
        let images = vec![Image { file: "log-loss.png".into(), title: "loss".into(), group: "run".into() }];
        let sections = run_sections(&dir, &images).unwrap();
        let html = render(&Page { title: "run".into(), metadata: vec![], sections });
        for expected in ["texel", "tune texel --epochs 5", "2025-01-02T03:04:05Z", "{&quot;lr&quot;:0.5}"] {
            assert!(html.contains(expected), "missing {expected}");
        }
        // First row, the gap, and the last five of twelve rows.
        assert!(html.contains("log.csv: 12 rows"));
        assert!(html.contains("<td>0</td>") && html.contains("<td>11</td>") && html.contains("<td>7</td>"));
        assert!(!html.contains("<td>5</td><td>"));
        assert!(html.contains("src=\"log-loss.png\""));
        assert!(run_sections(&dir.join("missing"), &images).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn page_has_every_image_and_no_external_reference() {
        let out = temp_dir("page");
        let run = out.join("run");
        std::fs::create_dir_all(&run).unwrap();
        sample_run(&run, true);
        let params = ParamSet::baked();
        let mut baseline = params.clone();
        baseline.terms.iter_mut().for_each(|t| t.mg.iter_mut().for_each(|v| *v -= 3));
        let mut pictures = images::heat_maps(&params, Some(&baseline), &out).unwrap();
        pictures.extend(images::curves(&params, Some(&baseline), &out).unwrap());
        pictures.extend(images::log_plots(&run, &out).unwrap());
        let mut sections = param_sections(&params, Some(&baseline), &pictures);
        sections.extend(run_sections(&run, &pictures).unwrap());
        let page = Page {
            title: "Whetstone report".into(),
            metadata: vec![("params".into(), "params/eval.toml".into())],
            sections,
        };
        let path = write_index(&out, &page).unwrap();
        assert_eq!(path, out.join("index.html"));
        let html = std::fs::read_to_string(&path).unwrap();
        for img in &pictures {
            assert!(html.contains(&format!("src=\"{}\"", img.file)), "{} not on the page", img.file);
            assert!(out.join(&img.file).exists());
        }
        assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"));
        assert!(!html.contains("<script") && !html.contains("<link"));
        assert!(html.contains("name=\"viewport\""));
        assert!(html.contains("max-width:100%") && html.contains("overflow-x:auto"));
        // Table of contents links every section.
        for i in 1..=page.sections.len() {
            assert!(html.contains(&format!("href=\"#s{i}\"")) && html.contains(&format!("id=\"s{i}\"")));
        }
        let boards = images::piece_square_terms(&params).count();
        assert_eq!(html.matches("<table class=\"board\">").count(), 2 * boards);
        std::fs::remove_dir_all(&out).unwrap();
    }
}
