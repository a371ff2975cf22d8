//! Settings for tests as the command line's defaults give them (`cmd/`'s tests check that they
//! are). A tuner's command line for a test is `cmd::args::tuner_args`: the library never imports
//! the commands.

use std::path::Path;
use std::time::Duration;

use crate::fitness::engine::EngineFitnessSettings;
use crate::fitness::setup::TuneSettings;
use crate::model::recipe::RecipeChoice;
use crate::play::games::book::BookOrder;
use crate::play::games::game::{Adjudication, DrawRule, ResignRule};
use crate::play::limit::LimitChoice;
use crate::play::runs::settings::MatchSettings;

/// `tune match`'s defaults at `limit`, one thread, quiet: what the library's tests play with
/// (`cmd/`'s tests check that the command line's defaults are these).
pub fn test_settings(limit: LimitChoice) -> MatchSettings {
    MatchSettings {
        limit,
        adjudication: Adjudication {
            resign: Some(ResignRule { moves: 3, score: 600, two_sided: true }),
            draw: Some(DrawRule { after_move: 40, moves: 8, score: 10 }),
            known_endgames: true,
            max_moves: None,
        },
        time_margin: Duration::ZERO,
        book: None,
        book_plies: None,
        book_order: BookOrder::Random,
        book_start: 1,
        seed: 1,
        concurrency: 1,
        hash_mb: None,
        quiet: true,
    }
}

/// A black-box tuner's settings when only `--params params/eval.toml --out OUT --quiet` is
/// given, on one thread (`cmd/`'s tests check that the command line's defaults are these).
pub fn test_tune_settings(out: &Path) -> TuneSettings {
    TuneSettings {
        params: super::repo_file("params/eval.toml"),
        search_params: None,
        only: vec![],
        fitness: None,
        recipe: RecipeChoice::default(),
        valid_fraction: 0.1,
        radius: None,
        command: None,
        space: None,
        retries: 2,
        out: Some(out.to_path_buf()),
        resume: false,
        engine: EngineFitnessSettings::default(),
        play: test_settings(LimitChoice::default()),
        game_options: serde_json::Value::Null,
    }
}
