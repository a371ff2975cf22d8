//! What a run tells its user to do next, which follows its verdict: a result that passed at a
//! clock is shown how to bake; one that passed a screen is shown how to confirm it at a clock;
//! a failed or undecided one is told what that means and what to try; an unverified one is told
//! that nothing has shown it to be a gain. Nothing but a pass at a clock is advised for baking.

use std::path::Path;

use super::verdict::{Standing, VerdictOutcome, CLOCK};

/// The files a run wrote that `tune export` would bake, and whether `--bake` already did.
pub struct Baking<'a> {
    /// `tuned.toml` (evaluation) and `search.toml` (search constants), where the run tuned them.
    pub eval: Option<&'a Path>,
    pub search: Option<&'a Path>,
    pub baked: bool,
}

impl Baking<'_> {
    fn export_command(&self) -> String {
        let mut words = vec!["tune export".to_string()];
        if let Some(eval) = self.eval {
            words.push(format!("--params {}", eval.display()));
        }
        if let Some(search) = self.search {
            words.push(format!("--search-params {}", search.display()));
        }
        words.join(" ")
    }
}

/// The closing advice for a run in folder `run` whose result stands as `standing`.
pub fn advice(standing: &Standing, run: &Path, baking: &Baking) -> String {
    let confirm = format!("tune verify {} --verify-tc {CLOCK}", run.display());
    match standing {
        Standing::Unchanged => {
            "the run moved no value: there is nothing to verify, export or bake".to_string()
        }
        Standing::NoHeldOutGain { start, end } => format!(
            "NOT PLAYED: the tuned values fit the held-out positions no better than the start (validation \
             loss {start:.6} -> {end:.6}), so nothing is advised for baking and no games were spent looking \
             for a gain the data does not show. What to try: data of another kind (a stronger engine's \
             scores: tune dataset rescore), new terms alone (--only), another pull toward the start \
             (--l2); or play these values anyway:\n  {confirm}\n(or rerun with --verify-flat)"
        ),
        Standing::Unverified(reason) => format!(
            "UNVERIFIED ({reason}): no games have shown this result to be a gain, and a lower loss alone \
             has made weaker engines before. Verify it before baking:\n  tune verify {} (a screen at fixed \
             nodes, minutes), then {confirm} (the SPRT at a clock)",
            run.display()
        ),
        Standing::Verified(v) => match (v.outcome, v.screen) {
            (VerdictOutcome::Passed, false) if baking.baked => {
                "baked into the engine build; rebuild it (cargo build --release) to play these values".to_string()
            }
            (VerdictOutcome::Passed, false) => format!(
                "passed at a clock: bake it into the engine build with\n  {}\n  cargo build --release",
                baking.export_command()
            ),
            (VerdictOutcome::Passed, true) => format!(
                "passed a screen at fixed nodes. A screen is not a verdict at a clock (tune auto's +30 at \
                 5,000 nodes was -12 at 3 s + 0.03 s), so it is not advised for baking yet. Confirm it with \
                 the SPRT at a clock (about 12 games a minute on 2 cores):\n  {confirm}"
            ),
            (VerdictOutcome::Failed, _) => format!(
                "FAILED: the tuned values play worse than the start ({:+.1} ± {:.1} Elo), so do not bake them. \
                 The loss the tuner lowered does not track games on this data. What to try: positions of \
                 today's build's own games (tune datagen, scored with tune dataset rescore), a stronger pull \
                 toward the start (--l2), fewer values (--only), a prior over the tables (--smooth, \
                 --mirror); docs/tuning.md has the recipes that won games",
                v.elo, v.elo_error
            ),
            (VerdictOutcome::Undecided, _) => format!(
                "UNDECIDED after {} games ({:+.1} ± {:.1} Elo): {}, so do not bake it. More games decide \
                 it:\n  tune verify {} --verify-games {}{}",
                v.games,
                v.elo,
                v.elo_error,
                if v.elo + v.elo_error < 0.0 {
                    "the SPRT has not reached its bound, but the whole 95% interval lies below 0: so far \
                     the tuned values play worse than the start"
                } else if v.elo - v.elo_error > 0.0 {
                    "the whole 95% interval lies above 0, but the SPRT has not reached its bound"
                } else {
                    "the games have not shown a gain or a loss"
                },
                run.display(),
                (v.games * 2).max(2),
                if v.screen { String::new() } else { format!(" --verify-tc {}", v.control) }
            ),
        },
    }
}

/// The closing advice for a run that tuned another program's values (an engine's options):
/// nothing of ours to bake; a pass at a clock says where the values are.
pub fn engine_advice(standing: &Standing, run: &Path) -> String {
    let files = if run.join("options.txt").is_file() {
        format!(
            "{0}/options.txt (setoption lines), {0}/openbench.txt (OpenBench SPSA input), {0}/options.json",
            run.display()
        )
    } else {
        format!("the values of {0}/result.json (and {0}/openbench.txt)", run.display())
    };
    match standing {
        Standing::Unchanged => "the run moved no value: there is nothing to load".to_string(),
        Standing::NoHeldOutGain { start, end } => format!(
            "NOT PLAYED: the tuned values fit the held-out positions no better than the start (validation \
             loss {start:.6} -> {end:.6}): nothing to load. To play them anyway:\n  tune verify {} --verify-tc \
             {CLOCK}; the values are in {files}",
            run.display()
        ),
        Standing::Unverified(reason) => format!(
            "UNVERIFIED ({reason}): no games have shown these values to be a gain. Verify them before using \
             them:\n  tune verify {} (a screen at fixed nodes), then tune verify {} --verify-tc {CLOCK} (the SPRT \
             at a clock); the values are in {files}",
            run.display(),
            run.display()
        ),
        Standing::Verified(v) => match (v.outcome, v.screen) {
            (VerdictOutcome::Passed, false) => {
                format!("passed at a clock: set these values in the engine (its defaults or its configuration): {files}")
            }
            (VerdictOutcome::Passed, true) => format!(
                "passed a screen at fixed nodes, which is not a verdict at a clock: confirm it before using \
                 {files}:\n  tune verify {} --verify-tc {CLOCK}",
                run.display()
            ),
            (VerdictOutcome::Failed, _) => format!(
                "FAILED: the tuned values play worse than the start ({:+.1} ± {:.1} Elo): do not use them. What to \
                 try: positions of the engine's own games (tune datagen --engine), a stronger pull toward the start \
                 (--l2), fewer options (--probe, or a smaller --space)",
                v.elo, v.elo_error
            ),
            (VerdictOutcome::Undecided, _) => format!(
                "UNDECIDED after {} games ({:+.1} ± {:.1} Elo): do not use the values yet. More games decide \
                 it:\n  tune verify {} --verify-games {}{}",
                v.games,
                v.elo,
                v.elo_error,
                run.display(),
                (v.games * 2).max(2),
                if v.screen { String::new() } else { format!(" --verify-tc {}", v.control) }
            ),
        },
    }
}

#[cfg(test)]
#[path = "advice_tests.rs"]
mod tests;
