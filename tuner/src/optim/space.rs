//! The space the black-box tuners search: named dimensions, each an integer or real value within
//! bounds, with a starting value and SPSA's end-of-run perturbation `c_end` and learning rate
//! `r_end`. It comes from the selected slots of a params file (and of a search.toml), or from an
//! OpenBench SPSA input file (`name, int|float, default, min, max, c_end, r_end` per line), and
//! writes that format so a tuning can move to OpenBench's workers; `openbench.rs` reads the values
//! OpenBench reports back.

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use whetstone::eval::EvalParamSet;
use whetstone::params::ParamSet;
use whetstone::search::SearchParamSet;

/// Which set a dimension's value belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Slot {
    /// Slot of the evaluation's flat value vector.
    Eval(usize),
    /// Slot of the search constants' vector.
    Search(usize),
    /// Only a name: the value is passed to an external command.
    Free,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dim {
    /// The value's name (`pst_knight_e4_mg`, `nmp_base`: see `ParamSet::value_names`), which is
    /// also its UCI option name; OpenBench and the command fitness use it.
    pub name: String,
    pub integer: bool,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
    pub slot: Slot,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Space {
    pub dims: Vec<Dim>,
}

/// The final learning rate of values taken from a params file. OpenBench's usual 0.002 is made for
/// fine-tuning over tens of thousands of games; in a 3,000-game recovery of four perturbed terms it
/// left them where they were (+1 Elo), while 0.02 gained 120 Elo (docs/tuning.md). Lower it (`--r-end`, or
/// in the OpenBench lines) for long runs near the optimum.
pub const DEFAULT_R_END: f64 = 0.02;

/// A default final perturbation: about a tenth of the value plus two units, at most a twentieth of
/// the range (OpenBench's rule of thumb for search constants), at least one unit, so an integer
/// perturbation always moves the value.
pub fn default_c_end(start: f64, min: f64, max: f64) -> f64 {
    let range = max - min;
    (2.0 + start.abs() / 10.0).min(range / 20.0).max(1.0).min(range.max(1e-9))
}

impl Space {
    /// The selected slots of the evaluation set and, optionally, of a search-constants set.
    pub fn from_sets(
        eval: &EvalParamSet,
        eval_slots: &[usize],
        search: Option<(&SearchParamSet, &[usize])>,
    ) -> Space {
        let mut dims = Vec::new();
        let mut add = |set: &ParamSet, slots: &[usize], slot: fn(usize) -> Slot| {
            let (names, values, bounds) = (set.value_names(), set.values(), set.value_bounds());
            for &i in slots {
                let (start, min, max) = (values[i] as f64, bounds[i].0 as f64, bounds[i].1 as f64);
                dims.push(Dim {
                    name: names[i].clone(),
                    integer: true,
                    start,
                    min,
                    max,
                    c_end: default_c_end(start, min, max),
                    r_end: DEFAULT_R_END,
                    slot: slot(i),
                });
            }
        };
        add(eval, eval_slots, Slot::Eval);
        if let Some((set, slots)) = search {
            add(set, slots, Slot::Search);
        }
        Space { dims }
    }

    /// Parses OpenBench SPSA input: one `name, int|float, default, min, max, c_end, r_end` per
    /// line; blank lines and `#` comments are skipped. Errors name the file and line.
    pub fn parse_openbench(text: &str, file: &str) -> Result<Space> {
        let mut dims: Vec<Dim> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let dim = parse_line(line).with_context(|| format!("{file}:{}: `{line}`", n + 1))?;
            if dims.iter().any(|d| d.name == dim.name) {
                bail!("{file}:{}: `{}` is declared twice", n + 1, dim.name);
            }
            dims.push(dim);
        }
        if dims.is_empty() {
            bail!("{file}: no parameters (expected lines `name, int, default, min, max, c_end, r_end`)");
        }
        Ok(Space { dims })
    }

    /// The space as OpenBench SPSA input lines, with `values` as the defaults.
    pub fn to_openbench(&self, values: &[f64]) -> String {
        let mut out = String::new();
        for (d, &v) in self.dims.iter().zip(values) {
            let kind = if d.integer { "int" } else { "float" };
            let v = if d.integer { v.round() } else { v };
            out.push_str(&format!(
                "{}, {kind}, {}, {}, {}, {}, {}\n",
                d.name,
                crate::run::format_value(v),
                crate::run::format_value(d.min),
                crate::run::format_value(d.max),
                crate::run::format_value(d.c_end),
                crate::run::format_value(d.r_end)
            ));
        }
        out
    }

    pub fn len(&self) -> usize {
        self.dims.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dims.is_empty()
    }

    pub fn names(&self) -> Vec<String> {
        self.dims.iter().map(|d| d.name.clone()).collect()
    }

    pub fn starts(&self) -> Vec<f64> {
        self.dims.iter().map(|d| d.start).collect()
    }

    /// Values mapped to [-1, 1] (CLOP's and the Bayesian optimiser's coordinates).
    pub fn to_unit(&self, x: &[f64]) -> Vec<f64> {
        x.iter().zip(&self.dims).map(|(v, d)| 2.0 * (v - d.min) / (d.max - d.min).max(1e-12) - 1.0).collect()
    }

    pub fn unit_to_values(&self, u: &[f64]) -> Vec<f64> {
        u.iter()
            .zip(&self.dims)
            .map(|(u, d)| d.min + (u.clamp(-1.0, 1.0) + 1.0) / 2.0 * (d.max - d.min))
            .collect()
    }

    /// Values as they are played: integers rounded, all within bounds.
    pub fn playable(&self, x: &[f64]) -> Vec<f64> {
        x.iter()
            .zip(&self.dims)
            .map(|(v, d)| {
                let v = v.clamp(d.min, d.max);
                if d.integer {
                    v.round()
                } else {
                    v
                }
            })
            .collect()
    }

    /// Writes `x` (rounded) into the sets its dimensions came from.
    pub fn apply(&self, x: &[f64], eval: &mut EvalParamSet, search: &mut SearchParamSet) {
        let (mut ev, mut sv) = (eval.values(), search.values());
        for (v, d) in self.playable(x).into_iter().zip(&self.dims) {
            match d.slot {
                Slot::Eval(i) => ev[i] = v as i32,
                Slot::Search(i) => sv[i] = v as i32,
                Slot::Free => {}
            }
        }
        eval.set_values(&ev);
        search.set_values(&sv);
    }

    /// `name value` pairs as the command fitness passes them: integers without a fraction.
    pub fn name_value_args(&self, x: &[f64]) -> Vec<String> {
        self.playable(x)
            .into_iter()
            .zip(&self.dims)
            .flat_map(|(v, d)| [d.name.clone(), crate::run::format_value(v)])
            .collect()
    }

    /// The values that moved most, relative to their range.
    pub fn largest_changes(&self, values: &[f64], n: usize) -> String {
        let mut moved: Vec<(usize, f64)> = self
            .dims
            .iter()
            .zip(values)
            .enumerate()
            .map(|(i, (d, v))| (i, (v - d.start) / (d.max - d.min).max(1e-12)))
            .filter(|(_, r)| *r != 0.0)
            .collect();
        moved.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
        moved
            .iter()
            .take(n)
            .map(|&(i, _)| {
                let d = &self.dims[i];
                format!(
                    "  {:<36} {:>8} -> {:>8}\n",
                    d.name,
                    crate::run::format_value(d.start),
                    crate::run::format_value(values[i])
                )
            })
            .collect()
    }
}

/// One OpenBench SPSA input line (`name, int|float, default, min, max, c_end, r_end`), checked as
/// OpenBench's create form checks it and more (the default within bounds, positive c_end and r_end).
pub fn parse_line(line: &str) -> Result<Dim> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    if fields.len() != 7 {
        bail!(
            "expected 7 comma-separated fields (name, int|float, default, min, max, c_end, r_end), found {}",
            fields.len()
        );
    }
    // Inner spaces are kept: a UCI option's name may have them (`King Safety`), and the name is
    // passed as one word to a command and as the option's name to an engine.
    let name = fields[0];
    if name.is_empty() {
        bail!("the name is empty");
    }
    let integer = match fields[1].to_ascii_lowercase().as_str() {
        "int" => true,
        "float" => false,
        other => bail!("type `{other}`: expected int or float"),
    };
    let number = |i: usize, what: &str| -> Result<f64> {
        let v: f64 =
            fields[i].parse().map_err(|_| anyhow::anyhow!("{what} `{}` is not a number", fields[i]))?;
        if !v.is_finite() {
            bail!("{what} `{}` is not finite", fields[i]);
        }
        Ok(v)
    };
    let (start, min, max) = (number(2, "default")?, number(3, "min")?, number(4, "max")?);
    let (c_end, r_end) = (number(5, "c_end")?, number(6, "r_end")?);
    if min >= max {
        bail!("min {min} is not below max {max}");
    }
    if start < min || start > max {
        bail!("default {start} is outside [{min}, {max}]");
    }
    if c_end <= 0.0 || r_end <= 0.0 {
        bail!("c_end and r_end must be positive");
    }
    Ok(Dim { name: name.to_string(), integer, start, min, max, c_end, r_end, slot: Slot::Free })
}

#[cfg(test)]
#[path = "space_tests.rs"]
mod tests;
