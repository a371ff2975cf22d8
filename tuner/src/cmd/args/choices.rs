//! The library's enums as clap parses them: each value is the enum's name (its `Display` and
//! `FromStr`), with the line `--help` shows for it. The help is command-line text, so it lives
//! here; the library keeps its own doc comments.

use std::str::FromStr;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use crate::dataset::files::FileFormat;
use crate::fitness::setup::FitnessKind;
use crate::play::games::book::BookOrder;
use crate::play::runs::datagen::PositionFormat;

/// A parser that takes one of `values` (name, help line) and reads it with `T::from_str`.
fn one_of<T>(
    values: impl IntoIterator<Item = (&'static str, Option<&'static str>)>,
) -> impl TypedValueParser<Value = T>
where
    T: FromStr<Err = String> + Clone + Send + Sync + 'static,
{
    let possible = values.into_iter().map(|(name, help)| match help {
        Some(help) => PossibleValue::new(name).help(help),
        None => PossibleValue::new(name),
    });
    PossibleValuesParser::new(possible).try_map(|name| name.parse::<T>())
}

pub fn book_order() -> impl TypedValueParser<Value = BookOrder> {
    one_of(BookOrder::ALL.map(|o| (o.name(), None)))
}

pub fn position_format() -> impl TypedValueParser<Value = PositionFormat> {
    one_of(PositionFormat::ALL.map(|f| {
        let help = match f {
            PositionFormat::Epd => {
                "positions.epd: `<FEN> ce <score>; c9 \"1-0\";` (the search score from the side to move's view)"
            }
            PositionFormat::Text => {
                "positions.txt: `<FEN> | <score> | <result>` (bullet's text format, White's view)"
            }
            PositionFormat::Viriformat => {
                "positions.vf: viriformat game chains, for NNUE trainers (bullet, Viridithas's tools)"
            }
        };
        (f.name(), Some(help))
    }))
}

pub fn file_format() -> impl TypedValueParser<Value = FileFormat> {
    one_of(FileFormat::ALL.map(|f| {
        let help = match f {
            FileFormat::Epd => {
                "`<4-field FEN> [ce <score>;] c9 \"1-0\";` (.epd; reading accepts every text line format)"
            }
            FileFormat::Ethereal => "`<FEN> [1.0]` (Ethereal's; no extension of its own)",
            FileFormat::Csv => "`fen,result` with a header line (.csv)",
            FileFormat::Text => "`<FEN> | <score> | <result>`, bullet's text format (.txt, .text)",
            FileFormat::Viriformat => "Viridithas's game chains (.vf, .viri, .viriformat)",
            FileFormat::Bulletformat => "bullet's 32-byte boards (.bullet, .bf, .data)",
            FileFormat::Binpack => "Stockfish's compressed training data, read only (.binpack)",
            FileFormat::Pgn => "PGN games, plain, gzip or bzip2 (.pgn, .pgn.gz, .pgn.bz2), read only",
            FileFormat::Archive => {
                "OpenBench's datagen archive, a tar of bzip2-compressed PGNs (.tar), read only"
            }
        };
        (f.name(), Some(help))
    }))
}

pub fn fitness_kind() -> impl TypedValueParser<Value = FitnessKind> {
    one_of(FitnessKind::ALL.map(|k| {
        let help = match k {
            FitnessKind::Texel => {
                "The Texel loss over --data (evaluation weights only; milliseconds per candidate)"
            }
            FitnessKind::Selfplay => {
                "Games of our engine in this process against the starting values, at --nodes/--tc"
            }
            FitnessKind::Command => "Any program by CLOP's connection-script contract (--command, --space)",
            FitnessKind::Tournament => {
                "PBIL only: each generation's individuals play each other in a small tournament (random \
                 pairings, a game pair each, as iCE and Maverick tuned), self-play at --nodes/--tc"
            }
            FitnessKind::Engine => {
                "Games of a UCI engine (--engine) with the options named by --space set to the \
                 candidate's values, against itself at the space's defaults or --opponent, at --tc, \
                 --nodes or --depth"
            }
        };
        (k.name(), Some(help))
    }))
}
