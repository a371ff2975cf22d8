//! The verification options every tuner shares (`--no-verify`, `--verify-tc`, `--verify-nodes`,
//! `--verify-games`, `--verify-bounds`, `--verify-error`, `--bake`), and `tune verify`'s, turned
//! into the library's plain [`VerifySettings`].

use anyhow::{bail, Result};
use serde::Serialize;

use crate::play::limit::MoveLimit;
use crate::verify::{
    SprtPlan, VerifySettings, BAKE_NEEDS_VERIFY, CLOCK, CLOCK_GAMES, SCREEN_GAMES, SCREEN_NODES,
};

/// Every tuning run ends with a verdict: the tuned values play the start as an SPRT.
#[derive(clap::Args, Debug, Clone, Serialize)]
pub struct VerifyArgs {
    /// Verify the result (the default; kept so that older command lines still parse).
    #[arg(long, hide = true)]
    pub verify: bool,
    /// Skip the verification: the run ends unverified, nothing advises baking its result, and
    /// `tune export` refuses it without --force (`tune verify RUN` verifies it later).
    #[arg(long, conflicts_with = "verify")]
    pub no_verify: bool,
    #[command(flatten)]
    #[serde(flatten)]
    pub games: VerifyGames,
    /// Bake the result into the engine build (src/eval/baked.rs, src/search/baked.rs,
    /// engine.toml) when, and only when, it passed an SPRT at a clock: after a passed screen at
    /// fixed nodes the SPRT at 3+0.03 is played first.
    #[arg(long)]
    pub bake: bool,
}

/// How a verification plays and decides: shared by every tuner and `tune verify`, and by the
/// stages of `tune auto`.
#[derive(clap::Args, Debug, Clone, Serialize)]
pub struct VerifyGames {
    /// The full SPRT at this clock (seconds + increment per move, e.g. 3+0.03: about 12 games a
    /// minute on 2 cores) instead of the screen at fixed nodes.
    #[arg(long, value_name = "TC")]
    pub verify_tc: Option<String>,
    /// Nodes per move of the screen [default: 5000]; gains at fixed nodes did not always hold
    /// at a clock, so a screen's pass is not advised for baking.
    #[arg(long, value_name = "N")]
    pub verify_nodes: Option<u64>,
    /// Games after which an SPRT that has not decided stops: the verdict is "undecided"
    /// [default: 1000 for the screen, 4000 at a clock].
    #[arg(long, value_name = "N")]
    pub verify_games: Option<u64>,
    /// SPRT bounds in normalized Elo: H0 elo0, H1 elo1 (a gainer by default).
    #[arg(long, num_args = 2, default_values_t = [0.0, 5.0], value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    pub verify_bounds: Vec<f64>,
    /// False-positive and false-negative rates of the SPRT (alpha = beta).
    #[arg(long, default_value_t = 0.05, value_name = "P")]
    pub verify_error: f64,
    /// The clock of the SPRT that confirms a passed screen before --bake bakes it [default:
    /// 3+0.03]; a longer one (10+0.1) for a result that must hold at longer games.
    #[arg(long, value_name = "TC")]
    pub confirm_tc: Option<String>,
}

impl VerifyGames {
    /// The options as a tuner's command line takes them.
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        if let Some(games) = self.verify_games {
            words.extend(["--verify-games".to_string(), games.to_string()]);
        }
        if let Some(tc) = &self.verify_tc {
            words.extend(["--verify-tc".into(), tc.clone()]);
        } else if let Some(n) = self.verify_nodes {
            words.extend(["--verify-nodes".into(), n.to_string()]);
        }
        words.push("--verify-bounds".into());
        words.extend(self.verify_bounds.iter().map(|b| b.to_string()));
        words.extend(["--verify-error".into(), self.verify_error.to_string()]);
        if let Some(tc) = &self.confirm_tc {
            words.extend(["--confirm-tc".into(), tc.clone()]);
        }
        words
    }

    fn bounds(&self) -> Result<[f64; 2]> {
        let [elo0, elo1] = self.verify_bounds[..] else { bail!("--verify-bounds takes ELO0 ELO1") };
        Ok([elo0, elo1])
    }

    /// The first SPRT: at the clock given, else the screen at fixed nodes (a clock given wins
    /// over nodes: `tune auto` defaults to nodes).
    pub fn first(&self) -> Result<SprtPlan> {
        let (limit, cap) = match &self.verify_tc {
            Some(tc) => (MoveLimit::from_flags(None, None, Some(tc))?, CLOCK_GAMES),
            None => (
                MoveLimit::from_flags(Some(self.verify_nodes.unwrap_or(SCREEN_NODES)), None, None)?,
                SCREEN_GAMES,
            ),
        };
        Ok(SprtPlan {
            limit,
            games: self.verify_games.unwrap_or(cap),
            bounds: self.bounds()?,
            error: self.verify_error,
        })
    }

    /// The SPRT at a clock that confirms a passed screen before anything is baked.
    pub fn confirmation(&self) -> Result<SprtPlan> {
        Ok(SprtPlan {
            limit: MoveLimit::from_flags(None, None, Some(self.confirm_tc.as_deref().unwrap_or(CLOCK)))?,
            games: CLOCK_GAMES,
            bounds: self.bounds()?,
            error: self.verify_error,
        })
    }
}

impl VerifyArgs {
    /// The library's settings, checked (bad bounds, a bad clock, `--bake` with `--no-verify`).
    pub fn settings(&self) -> Result<VerifySettings> {
        if self.no_verify && self.bake {
            // Said here rather than by clap, so the refusal says why.
            bail!(BAKE_NEEDS_VERIFY);
        }
        if self.no_verify {
            return Ok(VerifySettings::skipped());
        }
        let first = self.games.first()?;
        let confirm = (self.bake && first.is_screen()).then(|| self.games.confirmation()).transpose()?;
        let settings = VerifySettings { first: Some(first), confirm, bake: self.bake };
        settings.check()?;
        Ok(settings)
    }
}

#[cfg(test)]
#[path = "verify_tests.rs"]
mod tests;
