//! The tuner's side of the trace protocol (docs/trace-protocol.md, version 1): the engine's
//! declaration of its elements (`trace weights`), each position's trace (`trace`), the
//! evaluation they rebuild (checked against the engine's `eval` line), and their translation
//! into the Texel model's own store and layout, so that a traced engine is fitted by the same
//! objective as Whetstone's in-process traces.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use whetstone::eval::baked::idx::COUNT as ELEMENTS;
use whetstone::eval::endgame::Verdict;
use whetstone::eval::terms::complexity::FEATURES as COMPLEXITY_FEATURES;
use whetstone::eval::{EvalContext, MAX_PHASE};
use whetstone::types::Color;

use super::space::Column;
use crate::dataset::Label;
use crate::model::store::Compact;
use crate::model::Layout;

/// The protocol version this client reads.
pub const VERSION: u32 = 1;

/// One weight of an element: the option holding it (`None`: fixed) and its value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weight {
    pub option: Option<String>,
    pub value: i32,
}

/// One declared element.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Element {
    pub name: String,
    /// Two weights (middle game, end game), or one for both.
    pub phased: bool,
    pub mg: Weight,
    /// Equal to `mg` for a single weight.
    pub eg: Weight,
}

/// The king-danger curve's elements.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurveElements {
    pub scale: usize,
    pub power: usize,
    pub max_units: i32,
}

/// The answer to `trace weights`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Declaration {
    pub elements: Vec<Element>,
    pub curve: Option<CurveElements>,
    pub complexity: Vec<usize>,
    #[serde(skip)]
    index: HashMap<String, usize>,
}

/// One position's trace, elements by their declaration index.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PositionTrace {
    pub phase: i32,
    pub max_phase: i32,
    /// End-game factors out of 128 when White / Black is better.
    pub scale: Option<[i32; 2]>,
    pub exact: Option<i32>,
    pub linear: Vec<(u32, i32)>,
    /// Features against White's king, Black's king.
    pub king: [Vec<(u32, i32)>; 2],
    pub complexity: Vec<(u32, i32)>,
    /// The engine's own evaluation, White's view.
    pub eval: Option<i32>,
}

/// `line N 'text': message`, for errors inside an answer.
fn at(n: usize, line: &str, message: impl std::fmt::Display) -> String {
    format!("trace line {} '{line}': {message}", n + 1)
}

fn number<T: std::str::FromStr>(word: &str, n: usize, line: &str) -> Result<T, String> {
    word.parse().map_err(|_| at(n, line, format!("'{word}' is not an integer")))
}

/// The first line of an answer must be `trace <what> <version>` (or an error line).
fn check_header(lines: &[String], what: &str) -> Result<(), String> {
    let first = lines.first().map(String::as_str).unwrap_or("");
    if let Some(message) = first.strip_prefix("trace error") {
        return Err(format!("the engine answered: {}", message.trim()));
    }
    let words: Vec<&str> = first.split_whitespace().collect();
    match words[..] {
        ["trace", w, v] if w == what => match v.parse::<u32>() {
            Ok(VERSION) => Ok(()),
            _ => Err(at(0, first, format!("protocol version {v}; this tuner reads version {VERSION}"))),
        },
        _ if lines.is_empty() => Err("no answer (is the trace command implemented?)".to_string()),
        _ => Err(at(0, first, format!("expected 'trace {what} {VERSION}'"))),
    }
}

/// The lines of an answer between its header and `trace end` (blank and `info` lines skipped),
/// with their line numbers; an answer without the end marker is an error.
fn body(lines: &[String]) -> Result<Vec<(usize, &str)>, String> {
    let end = lines.iter().position(|l| l.trim() == "trace end").ok_or_else(|| {
        format!("no 'trace end' after {} lines (last: '{}')", lines.len(), lines.last().map_or("", |s| s))
    })?;
    if let Some((n, extra)) = lines.iter().enumerate().skip(end + 1).find(|(_, l)| !l.starts_with("info")) {
        return Err(at(n, extra, "after 'trace end'"));
    }
    Ok(lines[1..end]
        .iter()
        .enumerate()
        .map(|(n, l)| (n + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with("info"))
        .collect())
}

impl Declaration {
    /// Parses the answer to `trace weights`.
    pub fn parse(lines: &[String]) -> Result<Declaration, String> {
        check_header(lines, "weights")?;
        let mut d =
            Declaration { elements: Vec::new(), curve: None, complexity: Vec::new(), index: HashMap::new() };
        let option = |w: &str| (w != "-").then(|| w.to_string());
        let mut pending = Vec::new();
        for (n, line) in body(lines)? {
            let words: Vec<&str> = line.split_whitespace().collect();
            let element = match words[..] {
                ["weight", name, "phased", mg, mv, eg, ev] => Element {
                    name: name.to_string(),
                    phased: true,
                    mg: Weight { option: option(mg), value: number(mv, n, line)? },
                    eg: Weight { option: option(eg), value: number(ev, n, line)? },
                },
                ["weight", name, "single", o, v] => {
                    let w = Weight { option: option(o), value: number(v, n, line)? };
                    Element { name: name.to_string(), phased: false, mg: w.clone(), eg: w }
                }
                ["curve", ..] | ["complexity", ..] => {
                    pending.push((n, line));
                    continue;
                }
                _ => return Err(at(n, line, "not a 'weight', 'curve' or 'complexity' line of version 1")),
            };
            if d.index.insert(element.name.clone(), d.elements.len()).is_some() {
                return Err(at(n, line, format!("element '{}' is declared twice", element.name)));
            }
            d.elements.push(element);
        }
        for (n, line) in pending {
            let words: Vec<&str> = line.split_whitespace().collect();
            let find =
                |name: &str| d.element(name).ok_or_else(|| at(n, line, format!("unknown element '{name}'")));
            match words[..] {
                ["curve", scale, power, max] => {
                    d.curve = Some(CurveElements {
                        scale: find(scale)?,
                        power: find(power)?,
                        max_units: number(max, n, line)?,
                    })
                }
                ["complexity", ref names @ ..] => {
                    d.complexity = names.iter().map(|name| find(name)).collect::<Result<_, _>>()?
                }
                _ => return Err(at(n, line, "malformed")),
            }
        }
        if d.complexity.len() > COMPLEXITY_FEATURES {
            return Err(format!(
                "{} complexity elements; the Texel model has {COMPLEXITY_FEATURES}",
                d.complexity.len()
            ));
        }
        Ok(d)
    }

    /// The index of the element named `name`.
    pub fn element(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The columns of the fit, one per weight (middle game then end game of each element, in
    /// declaration order: for Whetstone the order of its flat value vector), and the Texel
    /// model's layout over them. An engine without a curve or with fewer complexity counts gets
    /// one fixed column of value 0 for the missing parts (they have no inputs, so no effect).
    /// Bounds are left open here: the trace run takes them from the options' declarations.
    pub fn columns(&self) -> (Vec<Column>, Layout) {
        let mut columns = Vec::new();
        let (mut mg_slot, mut eg_slot) = (Vec::new(), Vec::new());
        let column = |w: &Weight, name: String| Column {
            name: w.option.clone().unwrap_or(name),
            option: w.option.clone(),
            start: w.value,
            min: i32::MIN,
            max: i32::MAX,
        };
        for e in &self.elements {
            mg_slot.push(columns.len() as u32);
            if e.phased {
                columns.push(column(&e.mg, format!("{}:mg", e.name)));
                eg_slot.push(columns.len() as u32);
                columns.push(column(&e.eg, format!("{}:eg", e.name)));
            } else {
                eg_slot.push(columns.len() as u32);
                columns.push(column(&e.mg, e.name.clone()));
            }
        }
        let mut none = None;
        let mut unused = |columns: &mut Vec<Column>| {
            *none.get_or_insert_with(|| {
                columns.push(Column { name: "(none)".into(), option: None, start: 0, min: 0, max: 0 });
                columns.len() - 1
            })
        };
        let (curve_scale, curve_power) = match self.curve {
            Some(c) => ((mg_slot[c.scale] as usize, eg_slot[c.scale] as usize), mg_slot[c.power] as usize),
            None => {
                let u = unused(&mut columns);
                ((u, u), u)
            }
        };
        let mut complexity = [0; COMPLEXITY_FEATURES];
        for (k, slot) in complexity.iter_mut().enumerate() {
            *slot = match self.complexity.get(k) {
                Some(&e) => mg_slot[e] as usize,
                None => unused(&mut columns),
            };
        }
        let values = columns.len();
        (columns, Layout { mg_slot, eg_slot, curve_scale, curve_power, complexity, values })
    }

    /// The evaluation a trace gives at the declared values (White's view), as the protocol's
    /// model has it (each danger value rounded, as a tabulated curve is).
    pub fn evaluate(&self, t: &PositionTrace) -> f64 {
        if let Some(v) = t.exact {
            return v as f64;
        }
        let w = |e: u32, eg: bool| {
            let e = &self.elements[e as usize];
            (if eg { e.eg.value } else { e.mg.value }) as f64
        };
        let mut mg: f64 = t.linear.iter().map(|&(e, c)| c as f64 * w(e, false)).sum();
        let mut eg: f64 = t.linear.iter().map(|&(e, c)| c as f64 * w(e, true)).sum();
        if let Some(curve) = self.curve {
            let power = w(curve.power as u32, false) / 100.0;
            for (side, sign) in [(0, -1.0), (1, 1.0)] {
                let units: f64 = t.king[side].iter().map(|&(e, n)| n as f64 * w(e, false)).sum();
                let units = units.clamp(0.0, curve.max_units as f64);
                let shape = if units > 0.0 { (units / 100.0).powf(power) } else { 0.0 };
                mg += sign * (w(curve.scale as u32, false) * shape).round();
                eg += sign * (w(curve.scale as u32, true) * shape).round();
            }
        }
        let c: f64 = t.complexity.iter().map(|&(e, n)| n as f64 * w(e, false)).sum();
        // The engine's sign: 0 at a level end game, which gets no complexity.
        eg += crate::model::vmath::sign(eg) * c.max(-eg.abs());
        let factor = match t.scale {
            Some([white, black]) => (if eg > 0.0 { white } else { black }) as f64 / 128.0,
            None => 1.0,
        };
        let phase = t.phase as f64 / t.max_phase as f64;
        mg * phase + eg * factor * (1.0 - phase)
    }
}

impl PositionTrace {
    /// Parses the answer to `trace` against the engine's declaration.
    pub fn parse(lines: &[String], d: &Declaration) -> Result<PositionTrace, String> {
        check_header(lines, "begin")?;
        let mut t = PositionTrace { max_phase: 0, ..PositionTrace::default() };
        for (n, line) in body(lines)? {
            let words: Vec<&str> = line.split_whitespace().collect();
            let element = |name: &str| {
                d.element(name).map(|e| e as u32).ok_or_else(|| {
                    at(n, line, format!("unknown element '{name}' (not in the engine's 'trace weights')"))
                })
            };
            match words[..] {
                ["phase", p, max] => (t.phase, t.max_phase) = (number(p, n, line)?, number(max, n, line)?),
                ["scale", w, b] => t.scale = Some([number(w, n, line)?, number(b, n, line)?]),
                ["exact", v] => t.exact = Some(number(v, n, line)?),
                ["eval", v] => t.eval = Some(number(v, n, line)?),
                ["c", e, c] => t.linear.push((element(e)?, number(c, n, line)?)),
                ["king", side @ ("white" | "black"), e, c] => {
                    t.king[(side == "black") as usize].push((element(e)?, number(c, n, line)?))
                }
                ["complexity", e, c] => {
                    let e = element(e)?;
                    if !d.complexity.contains(&(e as usize)) {
                        return Err(at(n, line, "not one of the declared complexity elements"));
                    }
                    t.complexity.push((e, number(c, n, line)?))
                }
                _ => return Err(at(n, line, "not a line of protocol version 1")),
            }
        }
        if t.max_phase <= 0 || !(0..=t.max_phase).contains(&t.phase) {
            return Err(format!("no valid 'phase <p> <max>' line (phase {} of {})", t.phase, t.max_phase));
        }
        if t.exact.is_some() && !(t.linear.is_empty() && t.king.iter().all(Vec::is_empty)) {
            return Err("an 'exact' score with coefficients: an exact score replaces them".to_string());
        }
        if (t.king.iter().any(|k| !k.is_empty())) && d.curve.is_none() {
            return Err("'king' lines, but the declaration has no 'curve'".to_string());
        }
        Ok(t)
    }

    /// The trace as the Texel model's compact position, with its labels. Elements beyond the
    /// model's index space or counts beyond 16 bits are an error; a phase out of another
    /// maximum than 24 is rounded to 24ths (the model's phase steps).
    pub fn compact(&self, d: &Declaration, label: Label) -> Result<Compact, String> {
        if d.elements.len() > ELEMENTS {
            return Err(format!("{} elements; the Texel store holds at most {ELEMENTS}", d.elements.len()));
        }
        let small = |(e, c): &(u32, i32)| -> Result<(u16, i16), String> {
            i16::try_from(*c)
                .map(|c| (*e as u16, c))
                .map_err(|_| format!("count {c} of element {e} is too large"))
        };
        let mut linear: Vec<(u16, i16)> = self.linear.iter().map(small).collect::<Result<_, _>>()?;
        linear.sort_unstable();
        // An element on several lines: one entry with the sum.
        linear.dedup_by(|a, b| {
            let same = a.0 == b.0;
            if same {
                b.1 = b.1.saturating_add(a.1);
            }
            same
        });
        linear.retain(|e| e.1 != 0);
        let king = [
            self.king[0].iter().map(small).collect::<Result<Vec<_>, _>>()?,
            self.king[1].iter().map(small).collect::<Result<Vec<_>, _>>()?,
        ];
        let mut complexity = [0i16; COMPLEXITY_FEATURES];
        for &(e, c) in &self.complexity {
            let k = d.complexity.iter().position(|&x| x == e as usize).expect("checked when parsed");
            complexity[k] = complexity[k].saturating_add(c.clamp(i16::MIN as i32, i16::MAX as i32) as i16);
        }
        let verdict = match (self.exact, self.scale) {
            (Some(v), _) => Some(Verdict::Exact(v)),
            (None, Some([w, b])) => {
                Some(Verdict::Scale { white: w.clamp(0, 255) as u8, black: b.clamp(0, 255) as u8 })
            }
            (None, None) => None,
        };
        let phase = (self.phase as f64 * MAX_PHASE as f64 / self.max_phase as f64).round() as i32;
        let context = EvalContext { phase, verdict, side_to_move: Color::White };
        Ok(Compact::from_parts(&linear, &king, complexity, &context, label))
    }
}
