//! Results of a run between one engine and one opponent, kept as game pairs arrive: W/L/D from
//! the first side's view, pentanomial counts, how games ended, and each side's failures. Prints
//! and serialises them as fastchess does.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use whetstone::Color;

use crate::play::games::game::{GameRecord, Termination};
use crate::play::games::runner::PairResult;
use crate::play::games::stats::{
    los, los_pentanomial, normalized_elo, pentanomial_elo, trinomial_elo, EloEstimate, GameScore,
    Pentanomial, Sprt, SprtDecision, Wld,
};

/// Crashes (or disconnects), flag falls and illegal moves of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failures {
    pub crashes: u64,
    pub time_losses: u64,
    pub illegal_moves: u64,
}

impl Failures {
    pub fn total(&self) -> u64 {
        self.crashes + self.time_losses + self.illegal_moves
    }

    pub fn add(&mut self, other: &Failures) {
        self.crashes += other.crashes;
        self.time_losses += other.time_losses;
        self.illegal_moves += other.illegal_moves;
    }

    /// Counts a game its side lost by `termination`, if that is a failure (a resignation by
    /// adjudication also has a culprit, and is none); whether it was.
    pub fn count(&mut self, termination: Termination) -> bool {
        match termination {
            Termination::Crash => self.crashes += 1,
            Termination::TimeForfeit => self.time_losses += 1,
            Termination::IllegalMove => self.illegal_moves += 1,
            _ => return false,
        }
        true
    }
}

/// A match's results as its report needs them, from the first side's view: the [`Wld`] count
/// (the plain count every count of games builds on) and the pairs, each side's failures, how the
/// games ended and how long they were. A tuner's fitness counts its games in `fitness::Games`
/// instead, which a checkpoint keeps, with the games that could not be played and without the
/// endings and lengths.
#[derive(Clone, Debug, Default)]
pub struct MatchTally {
    pub wld: Wld,
    pub pairs: Pentanomial,
    pub terminations: BTreeMap<String, u64>,
    /// [first side, second side].
    pub failures: [Failures; 2],
    /// Plies over all games (for the average game length).
    pub plies: u64,
    /// Time the players spent thinking, over all moves (seconds).
    pub think_seconds: f64,
}

/// One game as a tally counts it, from the first side's view: all a resumed run needs to count
/// a game played before (a match's journal keeps one per game).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub score: GameScore,
    pub termination: Termination,
    /// The side whose failure (crash, flag, illegal move) or resignation ended the game: 0 the
    /// first, 1 the second.
    pub culprit: Option<usize>,
    pub plies: u64,
    /// Time both players spent thinking (seconds).
    pub think_seconds: f64,
}

impl GameSummary {
    /// A game in which the first side had `first_color`.
    pub fn of(game: &GameRecord, first_color: Color) -> GameSummary {
        let score = match game.outcome.points_for(first_color) {
            p if p > 0.75 => GameScore::Win,
            p if p < 0.25 => GameScore::Loss,
            _ => GameScore::Draw,
        };
        GameSummary {
            score,
            termination: game.termination,
            culprit: game.culprit.map(|culprit| usize::from(culprit != first_color)),
            plies: game.moves.len() as u64,
            think_seconds: game.moves.iter().map(|m| m.thought.elapsed.as_secs_f64()).sum(),
        }
    }

    /// A pair's two games: the first side has White in `games[0]`, Black in `games[1]`.
    pub fn of_pair(pair: &PairResult) -> [GameSummary; 2] {
        GameSummary::of_games(&pair.games)
    }

    /// A pair's two games, the first side White in `games[0]` and Black in `games[1]`.
    pub fn of_games(games: &[GameRecord; 2]) -> [GameSummary; 2] {
        [GameSummary::of(&games[0], Color::White), GameSummary::of(&games[1], Color::Black)]
    }
}

impl MatchTally {
    /// Counts a pair's two games (as [`GameSummary::of_pair`] gives them).
    pub fn add(&mut self, games: &[GameSummary; 2]) {
        self.pairs.add(games[0].score, games[1].score);
        for game in games {
            self.wld.record(game.score);
            self.plies += game.plies;
            self.think_seconds += game.think_seconds;
            *self.terminations.entry(game.termination.to_string()).or_default() += 1;
            if let Some(side) = game.culprit {
                self.failures[side].count(game.termination);
            }
        }
    }

    pub fn games(&self) -> u64 {
        self.wld.games()
    }

    /// LOS from the pairs (fastchess), or from the games when there are none.
    pub fn los(&self) -> f64 {
        if self.pairs.pairs() > 0 {
            los_pentanomial(&self.pairs)
        } else {
            los(&self.wld)
        }
    }

    /// The SPRT's log-likelihood ratio, over pairs (or games, when there are no pairs).
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        if self.pairs.pairs() > 0 {
            sprt.llr(&self.pairs)
        } else {
            sprt.llr_trinomial(&self.wld)
        }
    }

    pub fn elo(&self) -> EloEstimate {
        if self.pairs.pairs() > 0 {
            pentanomial_elo(&self.pairs)
        } else {
            trinomial_elo(&self.wld)
        }
    }

    /// The live progress line: games, score, Elo ± error, and the LLR when an SPRT runs.
    pub fn progress(&self, sprt: Option<&Sprt>) -> String {
        let elo = self.elo();
        let mut line = format!(
            "W {} L {} D {}  score {:.1}%  Elo {:+.1} ± {:.1}",
            self.wld.wins,
            self.wld.losses,
            self.wld.draws,
            100.0 * self.wld.score(),
            elo.elo,
            elo.error
        );
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            line.push_str(&format!("  LLR {:.2} ({lower:.2}, {upper:.2})", self.llr(sprt)));
        }
        line
    }

    /// The closing report, in fastchess's layout.
    pub fn report(&self, title: &str, sprt: Option<&Sprt>) -> String {
        let elo = self.elo();
        let nelo = normalized_elo(&self.pairs);
        let p = self.pairs.0;
        let pairs_ratio = (p[3] + p[4]) as f64 / (p[0] + p[1]).max(1) as f64;
        let mut out = format!("Results of {title}:\n");
        out.push_str(&format!(
            "Elo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}\n",
            elo.elo, elo.error, nelo.elo, nelo.error
        ));
        out.push_str(&format!(
            "LOS: {:.2} %, DrawRatio: {:.2} %, PairsRatio: {:.2}\n",
            100.0 * self.los(),
            100.0 * self.wld.draw_ratio(),
            pairs_ratio
        ));
        out.push_str(&format!(
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)\n",
            self.games(),
            self.wld.wins,
            self.wld.losses,
            self.wld.draws,
            self.wld.wins as f64 + self.wld.draws as f64 / 2.0,
            100.0 * self.wld.score()
        ));
        out.push_str(&format!("Ptnml(0-2): [{}, {}, {}, {}, {}]\n", p[0], p[1], p[2], p[3], p[4]));
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            let llr = self.llr(sprt);
            out.push_str(&format!(
                "LLR: {llr:.2} ({lower:.2}, {upper:.2}) [{:.2}, {:.2}] {:?} Elo\n",
                sprt.elo0, sprt.elo1, sprt.model
            ));
            if let Some(decision) = sprt.decision(llr) {
                out.push_str(&format!(
                    "SPRT ([{:.2}, {:.2}]) completed - {decision}\n",
                    sprt.elo0, sprt.elo1
                ));
            }
        }
        let endings: Vec<String> = self.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect();
        out.push_str(&format!("Endings: {}\n", endings.join(", ")));
        out
    }

    /// The statistics as summary.json holds them (W/L/D from the first side's view).
    pub fn json(&self, sprt: Option<&Sprt>) -> serde_json::Value {
        let elo = self.elo();
        let nelo = normalized_elo(&self.pairs);
        let mut value = serde_json::json!({
            "games": self.games(),
            "wins": self.wld.wins,
            "losses": self.wld.losses,
            "draws": self.wld.draws,
            "score": self.wld.score(),
            "draw_ratio": self.wld.draw_ratio(),
            "pentanomial": self.pairs.0,
            "elo": elo.elo,
            "elo_error": elo.error,
            "elo_lower": elo.lower,
            "elo_upper": elo.upper,
            "nelo": nelo.elo,
            "nelo_error": nelo.error,
            "los": self.los(),
            "average_plies": self.plies as f64 / self.games().max(1) as f64,
            "think_seconds": self.think_seconds,
            "terminations": self.terminations,
        });
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            let llr = self.llr(sprt);
            let decision = sprt.decision(llr);
            let extra = serde_json::json!({
                "llr": llr,
                "lower": lower,
                "upper": upper,
                "decision": decision.map_or("none".to_string(), |d| match d {
                    SprtDecision::AcceptH0 => "H0".to_string(),
                    SprtDecision::AcceptH1 => "H1".to_string(),
                }),
                "elo0": sprt.elo0,
                "elo1": sprt.elo1,
                "alpha": sprt.alpha,
                "beta": sprt.beta,
                "elo_model": format!("{:?}", sprt.model).to_lowercase(),
            });
            if let (Some(map), serde_json::Value::Object(extra)) = (value.as_object_mut(), extra) {
                map.extend(extra);
            }
        }
        value
    }
}
