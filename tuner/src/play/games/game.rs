//! One game between two players: the rules (mate, stalemate, repetition, fifty moves, dead
//! positions), the clocks, adjudication as fastchess offers it, and the record the PGN is written
//! from.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use whetstone::eval::endgame::{self, Verdict, KNOWN_WIN};
use whetstone::movegen::{legal_moves, noisy_moves, MoveList};
use whetstone::{Color, Move, PieceType, Position};

use crate::play::engines::player::{FailureKind, GameView, Player, Score, Thought};
use crate::play::limit::{Clocks, MoveLimit};
pub use crate::play::outcome::Outcome;

/// When a game is ended early by the players' scores or by known endgames.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Adjudication {
    /// Resign: a side's score stays at or below -score for `moves` consecutive moves of its own
    /// (with `two_sided`, the opponent's score agrees, at or above +score, over the same moves).
    pub resign: Option<ResignRule>,
    /// Draw: past full move `after_move`, both sides' scores have stayed within ±score for `moves`
    /// consecutive moves each, with no pawn move or capture among them.
    pub draw: Option<DrawRule>,
    /// End the game when a known endgame's result is certain (KPK by bitbase; KQK, KRK, KBNK
    /// won unless the weak side can capture; dead draws).
    pub known_endgames: bool,
    /// A draw after this many full moves.
    pub max_moves: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    pub moves: u32,
    pub score: i32,
    pub two_sided: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    pub after_move: u32,
    pub moves: u32,
    pub score: i32,
}

impl Adjudication {
    /// No adjudication: every game is played to its end by the rules.
    pub fn none() -> Adjudication {
        Adjudication { resign: None, draw: None, known_endgames: false, max_moves: None }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    ResignAdjudication,
    DrawAdjudication,
    KnownEndgame,
    MaxMoves,
    TimeForfeit,
    IllegalMove,
    Crash,
    Resignation,
}

impl Termination {
    /// The PGN `Termination` tag's value (the standard's vocabulary, as cutechess writes it).
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::Checkmate
            | Termination::Stalemate
            | Termination::Repetition
            | Termination::FiftyMoves
            | Termination::InsufficientMaterial
            | Termination::Resignation => "normal",
            Termination::ResignAdjudication
            | Termination::DrawAdjudication
            | Termination::KnownEndgame
            | Termination::MaxMoves => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "abandoned",
        }
    }

    fn from_failure(kind: FailureKind) -> Termination {
        match kind {
            FailureKind::Crash => Termination::Crash,
            FailureKind::TimeLoss => Termination::TimeForfeit,
            FailureKind::IllegalMove => Termination::IllegalMove,
            FailureKind::Resignation => Termination::Resignation,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "threefold repetition",
            Termination::FiftyMoves => "fifty-move rule",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::ResignAdjudication => "resign adjudication",
            Termination::DrawAdjudication => "draw adjudication",
            Termination::KnownEndgame => "known endgame adjudication",
            Termination::MaxMoves => "maximum game length",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "engine crash or disconnect",
            Termination::Resignation => "resignation",
        };
        f.write_str(text)
    }
}

/// One move of a game record.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    pub mv: Move,
    pub san: String,
    pub thought: Thought,
}

/// Everything the PGN and the statistics need of a finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub white: String,
    pub black: String,
    pub start_fen: String,
    pub moves: Vec<PlayedMove>,
    pub outcome: Outcome,
    pub termination: Termination,
    /// The side whose failure (crash, flag, illegal move) or resignation ended the game.
    pub culprit: Option<Color>,
    /// The ending in words, for the PGN's final comment: "Black mates", "White loses on time".
    pub reason: String,
}

/// What a game needs besides its players and opening.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub limit: MoveLimit,
    pub adjudication: Adjudication,
    /// How far past its clock a move may end before it is a time forfeit (fastchess's timemargin).
    pub time_margin: Duration,
    /// Without a clock: how long a move may take before the player is taken to have hung.
    pub hang_timeout: Duration,
}

/// Plays one game from `start_fen`, and tells both players how it ended; None when `stop` was
/// raised before it ended.
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    start_fen: &str,
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let record = play_moves(white, black, start_fen, settings, stop)?;
    white.game_over(record.outcome, &record.reason);
    black.game_over(record.outcome, &record.reason);
    Some(record)
}

fn play_moves(
    white: &mut dyn Player,
    black: &mut dyn Player,
    start_fen: &str,
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let mut pos = Position::from_fen(start_fen).ok()?;
    let mut record = GameRecord {
        white: white.name().to_string(),
        black: black.name().to_string(),
        start_fen: start_fen.to_string(),
        moves: Vec::new(),
        outcome: Outcome::Draw,
        termination: Termination::Stalemate,
        culprit: None,
        reason: String::new(),
    };
    for side in Color::ALL {
        let started = if side == Color::White { white.new_game() } else { black.new_game() };
        if let Err(failure) = started {
            return Some(forfeit(record, side, Termination::from_failure(failure.kind), &failure.message));
        }
    }
    let mut clocks = Clocks::new(settings.limit);
    let mut uci_moves: Vec<String> = Vec::new();
    let mut tracker = ScoreTracker::default();
    if let Some((outcome, termination, reason)) = rules_verdict(&pos, &settings.adjudication) {
        return Some(GameRecord { outcome, termination, reason, ..record });
    }
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = pos.side_to_move();
        let allowance = clocks.allowance(side);
        let view = GameView { pos: &pos, start_fen, moves: &uci_moves };
        let (budget, limit) = (clocks.budget(side), allowance.or(Some(settings.hang_timeout)));
        let answer = if side == Color::White {
            white.think(&view, budget, limit)
        } else {
            black.think(&view, budget, limit)
        };
        let thought = match answer {
            Ok(thought) => thought,
            Err(failure) => {
                let kind = Termination::from_failure(failure.kind);
                return Some(forfeit_or_draw(record, &pos, side, kind, &failure.message));
            }
        };
        if !clocks.charge(side, thought.elapsed, settings.time_margin) {
            let message =
                format!("{} ms used with {} ms left", thought.elapsed.as_millis(), clocks_left(allowance));
            return Some(forfeit_or_draw(record, &pos, side, Termination::TimeForfeit, &message));
        }
        if !pos.is_legal(thought.best) {
            let message = format!("{} is not legal in {}", pos.move_to_uci(thought.best), pos.to_fen());
            return Some(forfeit(record, side, Termination::IllegalMove, &message));
        }
        let san = pos.move_to_san(thought.best);
        uci_moves.push(pos.move_to_uci(thought.best));
        let score = thought.score;
        record.moves.push(PlayedMove { mv: thought.best, san, thought });
        pos.make_move(record.moves.last().expect("just pushed").mv);
        // The rules come before adjudication: a mate is a mate whatever the scores said.
        if let Some((outcome, termination, reason)) = rules_verdict(&pos, &settings.adjudication) {
            return Some(GameRecord { outcome, termination, reason, ..record });
        }
        if let Some(score) = score {
            if let Some((outcome, termination, reason)) =
                tracker.record(side, score, &pos, &settings.adjudication)
            {
                let culprit = match outcome {
                    Outcome::WhiteWins => Some(Color::Black),
                    Outcome::BlackWins => Some(Color::White),
                    Outcome::Draw => None,
                };
                return Some(GameRecord { outcome, termination, reason, culprit, ..record });
            }
        }
    }
}

fn clocks_left(allowance: Option<Duration>) -> u128 {
    allowance.map_or(0, |d| d.as_millis())
}

/// `side` lost by failing: the game goes to the other side.
fn forfeit(record: GameRecord, side: Color, termination: Termination, message: &str) -> GameRecord {
    let what = match termination {
        Termination::TimeForfeit => "loses on time",
        Termination::IllegalMove => "makes an illegal move",
        Termination::Resignation => "resigns",
        _ => "disconnects",
    };
    GameRecord {
        outcome: Outcome::win_for(!side),
        termination,
        culprit: Some(side),
        reason: format!("{} {what}: {message}", side_name(side)),
        ..record
    }
}

/// As [`forfeit`], except that a side who cannot possibly mate does not win on the opponent's
/// flag or crash (the FIDE rule cutechess applies): the game is drawn. An illegal move or a
/// resignation loses whatever the opponent has.
fn forfeit_or_draw(
    record: GameRecord,
    pos: &Position,
    side: Color,
    termination: Termination,
    message: &str,
) -> GameRecord {
    let record = forfeit(record, side, termination, message);
    let always_lost = matches!(termination, Termination::IllegalMove | Termination::Resignation);
    if !always_lost && cannot_mate(pos, !side) {
        return GameRecord { outcome: Outcome::Draw, ..record };
    }
    record
}

fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The game's end by the rules or by a known endgame, checked before every move.
fn rules_verdict(pos: &Position, adjudication: &Adjudication) -> Option<(Outcome, Termination, String)> {
    let side = pos.side_to_move();
    let moves = legal_moves(pos);
    if moves.is_empty() {
        return Some(if pos.in_check() {
            (Outcome::win_for(!side), Termination::Checkmate, format!("{} mates", side_name(!side)))
        } else {
            (Outcome::Draw, Termination::Stalemate, "Draw by stalemate".to_string())
        });
    }
    if is_dead_position(pos) {
        return Some((
            Outcome::Draw,
            Termination::InsufficientMaterial,
            "Draw by insufficient mating material".into(),
        ));
    }
    if pos.halfmove_clock() >= 100 {
        return Some((Outcome::Draw, Termination::FiftyMoves, "Draw by fifty moves rule".to_string()));
    }
    if is_threefold(pos) {
        return Some((Outcome::Draw, Termination::Repetition, "Draw by 3-fold repetition".to_string()));
    }
    if adjudication.known_endgames {
        if let Some(outcome) = known_endgame(pos) {
            let reason = match outcome {
                Outcome::Draw => "Draw by known endgame".to_string(),
                won => format!(
                    "{} wins a known endgame",
                    side_name(if won == Outcome::WhiteWins { Color::White } else { Color::Black })
                ),
            };
            return Some((outcome, Termination::KnownEndgame, reason));
        }
    }
    if let Some(max) = adjudication.max_moves {
        if pos.plies_played() as u32 >= 2 * max {
            return Some((
                Outcome::Draw,
                Termination::MaxMoves,
                format!("Draw by maximum game length ({max} moves)"),
            ));
        }
    }
    None
}

/// The current position has occurred twice before (same side to move, castling and en passant
/// rights: the Zobrist key), within the reversible stretch since the last pawn move or capture.
fn is_threefold(pos: &Position) -> bool {
    let history = pos.history();
    let key = pos.key();
    let back = (pos.halfmove_clock() as usize).min(history.len());
    (4..=back).step_by(2).filter(|&i| history[history.len() - i].key == key).count() >= 2
}

/// Neither side can ever mate: kings alone, or one minor piece, or bishops all on one colour.
fn is_dead_position(pos: &Position) -> bool {
    let heavy = pos.pieces_of_type(PieceType::Pawn)
        | pos.pieces_of_type(PieceType::Rook)
        | pos.pieces_of_type(PieceType::Queen);
    if !heavy.is_empty() {
        return false;
    }
    let knights = pos.pieces_of_type(PieceType::Knight).count();
    let bishops = pos.pieces_of_type(PieceType::Bishop);
    if knights + bishops.count() <= 1 {
        return true;
    }
    const DARK: u64 = 0xAA55_AA55_AA55_AA55;
    knights == 0 && (bishops.0 & DARK == 0 || bishops.0 & !DARK == 0)
}

/// `side` has too little material to mate whatever the opponent does: a lone king, or a king and
/// one minor piece.
fn cannot_mate(pos: &Position, side: Color) -> bool {
    let heavy = pos.pieces(side, PieceType::Pawn)
        | pos.pieces(side, PieceType::Rook)
        | pos.pieces(side, PieceType::Queen);
    heavy.is_empty()
        && (pos.pieces(side, PieceType::Knight) | pos.pieces(side, PieceType::Bishop)).count() <= 1
}

/// A known endgame whose result is certain: the engine's exact verdicts (the KPK bitbase, KQK,
/// KRK, KBNK, dead draws), trusted only when the side to move cannot capture or promote (the
/// mating evaluations call a hanging rook a draw, which a capture may or may not make true).
fn known_endgame(pos: &Position) -> Option<Outcome> {
    let Some(Verdict::Exact(score)) = endgame::probe(pos) else { return None };
    if score != 0 && score.abs() < KNOWN_WIN {
        return None;
    }
    let mut noisy = MoveList::new();
    noisy_moves(pos, &mut noisy);
    if !noisy.is_empty() {
        return None;
    }
    Some(match score {
        0 => Outcome::Draw,
        s if s > 0 => Outcome::WhiteWins,
        _ => Outcome::BlackWins,
    })
}

/// The players' recent scores, for the resign and draw rules.
#[derive(Default)]
struct ScoreTracker {
    /// Consecutive plies whose mover's score says White wins (index 0) or Black wins (1).
    winning: [u32; 2],
    /// Consecutive own moves each side has scored itself lost.
    lost: [u32; 2],
    /// Consecutive plies with a score near zero.
    drawish: u32,
}

impl ScoreTracker {
    /// Records `side`'s score after its move (`pos` is the position after it); a verdict when an
    /// adjudication rule fires.
    fn record(
        &mut self,
        side: Color,
        score: Score,
        pos: &Position,
        adjudication: &Adjudication,
    ) -> Option<(Outcome, Termination, String)> {
        let cp = score.as_cp();
        let white_view = cp * side.sign();
        if let Some(rule) = adjudication.resign {
            let lost = &mut self.lost[side.index()];
            *lost = if cp <= -rule.score { *lost + 1 } else { 0 };
            for winner in Color::ALL {
                let count = &mut self.winning[winner.index()];
                *count = if white_view * winner.sign() >= rule.score { *count + 1 } else { 0 };
            }
            let loser = if rule.two_sided {
                Color::ALL.into_iter().find(|&w| self.winning[w.index()] >= 2 * rule.moves).map(|w| !w)
            } else {
                Color::ALL.into_iter().find(|&s| self.lost[s.index()] >= rule.moves)
            };
            if let Some(loser) = loser {
                let reason = format!("{} wins by adjudication", side_name(!loser));
                return Some((Outcome::win_for(!loser), Termination::ResignAdjudication, reason));
            }
        }
        if let Some(rule) = adjudication.draw {
            // As fastchess: a pawn move or capture starts the count again, mates never count, and
            // the rule applies once the game (by the position's move number) is past `after_move`.
            let near_zero = matches!(score, Score::Cp(cp) if cp.abs() <= rule.score);
            self.drawish = if near_zero && pos.halfmove_clock() > 0 { self.drawish + 1 } else { 0 };
            if pos.fullmove_number().saturating_sub(1) >= rule.after_move && self.drawish >= 2 * rule.moves {
                return Some((
                    Outcome::Draw,
                    Termination::DrawAdjudication,
                    "Draw by adjudication".to_string(),
                ));
            }
        }
        None
    }
}

#[cfg(test)]
#[path = "game_tests.rs"]
mod tests;
