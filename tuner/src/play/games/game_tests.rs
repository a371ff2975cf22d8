use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::*;
use crate::play::engines::inprocess::{EngineSetup, InProcess};
use crate::play::engines::player::PlayerFailure;
use crate::play::limit::MoveBudget;

/// Plays the moves it is given (UCI text, in order) with a fixed score, or fails as told.
struct Scripted {
    name: String,
    moves: Vec<&'static str>,
    next: usize,
    score: Score,
    fail_at: Option<(usize, FailureKind)>,
    elapsed: Duration,
}

impl Scripted {
    fn new(name: &str, moves: &[&'static str], score: Score) -> Scripted {
        Scripted {
            name: name.to_string(),
            moves: moves.to_vec(),
            next: 0,
            score,
            fail_at: None,
            elapsed: Duration::from_millis(1),
        }
    }
}

impl Player for Scripted {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), PlayerFailure> {
        self.next = 0;
        Ok(())
    }

    fn think(
        &mut self,
        game: &GameView,
        _: MoveBudget,
        _: Option<Duration>,
    ) -> Result<Thought, PlayerFailure> {
        if let Some((at, kind)) = self.fail_at {
            if at == self.next {
                return Err(PlayerFailure::new(kind, "scripted failure"));
            }
        }
        let text = self.moves[self.next % self.moves.len()];
        self.next += 1;
        let best = game.pos.parse_uci_move(text).unwrap_or(Move::NULL);
        Ok(Thought { best, score: Some(self.score), depth: 1, nodes: 1, elapsed: self.elapsed })
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn settings(adjudication: Adjudication) -> GameSettings {
    GameSettings {
        limit: MoveLimit::Nodes(1000),
        adjudication,
        time_margin: Duration::ZERO,
        hang_timeout: Duration::from_secs(5),
    }
}

fn play(white: &mut dyn Player, black: &mut dyn Player, fen: &str, adjudication: Adjudication) -> GameRecord {
    play_game(white, black, fen, &settings(adjudication), &AtomicBool::new(false)).expect("not stopped")
}

#[test]
fn fools_mate_is_checkmate_for_black() {
    let mut white = Scripted::new("w", &["f2f3", "g2g4"], Score::Cp(0));
    let mut black = Scripted::new("b", &["e7e5", "d8h4"], Score::Cp(0));
    let game = play(&mut white, &mut black, START, Adjudication::none());
    assert_eq!((game.outcome, game.termination), (Outcome::BlackWins, Termination::Checkmate));
    let sans: Vec<&str> = game.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(game.reason, "Black mates");
}

#[test]
fn knights_shuffling_is_a_threefold_repetition() {
    let mut white = Scripted::new("w", &["g1f3", "f3g1"], Score::Cp(0));
    let mut black = Scripted::new("b", &["g8f6", "f6g8"], Score::Cp(0));
    let game = play(&mut white, &mut black, START, Adjudication::none());
    assert_eq!((game.outcome, game.termination), (Outcome::Draw, Termination::Repetition));
    // The start position occurs for the third time after eight plies.
    assert_eq!(game.moves.len(), 8);
}

#[test]
fn failures_lose_for_the_failing_side() {
    for (kind, termination) in [
        (FailureKind::Crash, Termination::Crash),
        (FailureKind::TimeLoss, Termination::TimeForfeit),
        (FailureKind::IllegalMove, Termination::IllegalMove),
        (FailureKind::Resignation, Termination::Resignation),
    ] {
        let mut white = Scripted::new("w", &["g1f3", "f3g1"], Score::Cp(0));
        let mut black = Scripted::new("b", &["g8f6", "f6g8"], Score::Cp(0));
        black.fail_at = Some((1, kind));
        let game = play(&mut white, &mut black, START, Adjudication::none());
        assert_eq!(
            (game.outcome, game.termination, game.culprit),
            (Outcome::WhiteWins, termination, Some(Color::Black))
        );
        assert_eq!(game.moves.len(), 3);
    }
    // A move that is not legal is caught by the game loop itself.
    let mut white = Scripted::new("w", &["e2e4"], Score::Cp(0));
    let mut black = Scripted::new("b", &["e7e5", "e5e4"], Score::Cp(0));
    let game = play(&mut white, &mut black, START, Adjudication::none());
    assert_eq!((game.termination, game.culprit), (Termination::IllegalMove, Some(Color::White)));
}

#[test]
fn a_flag_falls_when_a_move_takes_longer_than_the_clock() {
    let mut white = Scripted::new("w", &["g1f3", "f3g1"], Score::Cp(0));
    let mut black = Scripted::new("b", &["g8f6", "f6g8"], Score::Cp(0));
    black.elapsed = Duration::from_millis(400);
    let mut s = settings(Adjudication::none());
    s.limit = MoveLimit::Clock("1+0".parse().unwrap());
    let game = play_game(&mut white, &mut black, START, &s, &AtomicBool::new(false)).unwrap();
    // Black's clock: 1000 - 400 - 400 = 200 left, so the third move (400 ms) oversteps it.
    assert_eq!(
        (game.termination, game.culprit, game.outcome),
        (Termination::TimeForfeit, Some(Color::Black), Outcome::WhiteWins)
    );
    assert_eq!(game.moves.len(), 5);
}

#[test]
fn a_flag_fall_against_a_lone_king_is_a_draw() {
    let fen = "8/8/8/4k3/8/8/8/R3K3 b - - 0 1";
    let mut white = Scripted::new("w", &["a1a2"], Score::Cp(0));
    let mut black = Scripted::new("b", &["e5e4"], Score::Cp(0));
    black.fail_at = Some((0, FailureKind::TimeLoss));
    let game = play(&mut white, &mut black, fen, Adjudication::none());
    // White has a rook: it can mate, so it wins on Black's flag.
    assert_eq!(game.outcome, Outcome::WhiteWins);
    let mut white = Scripted::new("w", &["e1e2"], Score::Cp(0));
    white.fail_at = Some((0, FailureKind::TimeLoss));
    let mut black = Scripted::new("b", &["e5e4"], Score::Cp(0));
    let game = play(&mut white, &mut black, "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", Adjudication::none());
    // Black has a lone king: White's flag fall is a draw.
    assert_eq!((game.outcome, game.termination), (Outcome::Draw, Termination::TimeForfeit));
    // A resignation loses whatever the opponent has.
    let mut white = Scripted::new("w", &["e1e2"], Score::Cp(0));
    white.fail_at = Some((0, FailureKind::Resignation));
    let mut black = Scripted::new("b", &["e5e4"], Score::Cp(0));
    let game = play(&mut white, &mut black, "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", Adjudication::none());
    assert_eq!((game.outcome, game.termination), (Outcome::BlackWins, Termination::Resignation));
    assert!(game.reason.starts_with("White resigns"), "{}", game.reason);
}

#[test]
fn resign_adjudication_needs_both_sides_to_agree_for_its_move_count() {
    let rule = ResignRule { moves: 3, score: 600, two_sided: true };
    let adjudication = Adjudication { resign: Some(rule), ..Adjudication::none() };
    // White thinks it wins by 7 pawns, Black agrees it loses: three moves each, then adjudication.
    let mut white = Scripted::new("w", &["g1f3", "f3g1"], Score::Cp(700));
    let mut black = Scripted::new("b", &["b8c6", "c6b8", "g8f6", "f6g8"], Score::Cp(-700));
    let game = play(&mut white, &mut black, START, adjudication.clone());
    assert_eq!((game.outcome, game.termination), (Outcome::WhiteWins, Termination::ResignAdjudication));
    assert_eq!(game.moves.len(), 6);
    // Black disagrees: no resignation (the game ends by repetition instead).
    let mut white = Scripted::new("w", &["g1f3", "f3g1"], Score::Cp(700));
    let mut black = Scripted::new("b", &["g8f6", "f6g8"], Score::Cp(0));
    let game = play(&mut white, &mut black, START, adjudication);
    assert_eq!(game.termination, Termination::Repetition);
    // One-sided: the losing side's own score suffices.
    let one_sided =
        Adjudication { resign: Some(ResignRule { two_sided: false, ..rule }), ..Adjudication::none() };
    let mut white = Scripted::new("w", &["b1c3", "c3b1", "g1f3", "f3g1"], Score::Cp(-700));
    let mut black = Scripted::new("b", &["b8c6", "c6b8", "g8f6", "f6g8"], Score::Cp(0));
    let game = play(&mut white, &mut black, START, one_sided);
    assert_eq!((game.outcome, game.culprit, game.moves.len()), (Outcome::BlackWins, Some(Color::White), 5));
}

#[test]
fn draw_adjudication_waits_for_its_move_number() {
    let rule = DrawRule { after_move: 3, moves: 3, score: 10 };
    let adjudication = Adjudication { draw: Some(rule), ..Adjudication::none() };
    let mut white = Scripted::new("w", &["b1c3", "c3b1", "g1f3", "f3g1"], Score::Cp(5));
    let mut black = Scripted::new("b", &["b8c6", "g8f6", "c6b8", "f6g8"], Score::Cp(-5));
    let game = play(&mut white, &mut black, START, adjudication.clone());
    assert_eq!((game.outcome, game.termination), (Outcome::Draw, Termination::DrawAdjudication));
    // Six quiet plies near zero, and the game is past move 3 after ply 6.
    assert_eq!(game.moves.len(), 6);
    // A pawn move starts the count again: plies 2-7 count.
    let mut white = Scripted::new("w", &["e2e4", "b1c3", "c3b1", "g1f3", "f3g1"], Score::Cp(5));
    let game = play(&mut white, &mut black, START, adjudication);
    assert_eq!((game.termination, game.moves.len()), (Termination::DrawAdjudication, 7));
}

#[test]
fn dead_positions_fifty_moves_and_known_endgames_end_the_game() {
    let mut white = Scripted::new("w", &["e1e2"], Score::Cp(0));
    let mut black = Scripted::new("b", &["e8e7"], Score::Cp(0));
    let game = play(&mut white, &mut black, "4k3/8/8/8/8/8/3B4/2B1K3 w - - 0 1", Adjudication::none());
    assert_eq!(game.termination, Termination::InsufficientMaterial, "same-coloured bishops");
    let game = play(&mut white, &mut black, "4k3/8/8/8/8/8/8/R3K3 w - - 100 80", Adjudication::none());
    assert_eq!((game.termination, game.moves.len()), (Termination::FiftyMoves, 0));
    let known = Adjudication { known_endgames: true, ..Adjudication::none() };
    let game = play(&mut white, &mut black, "4k3/8/8/8/8/8/8/R3K3 b - - 0 1", known.clone());
    assert_eq!((game.outcome, game.termination), (Outcome::WhiteWins, Termination::KnownEndgame));
    // The rook hangs to the king: not adjudicated until that is resolved.
    let mut black = Scripted::new("b", &["d8d7"], Score::Cp(0));
    let game = play(&mut white, &mut black, "3k4/3R4/8/8/8/8/8/4K3 b - - 0 1", known);
    assert_eq!((game.outcome, game.termination), (Outcome::Draw, Termination::InsufficientMaterial));
}

#[test]
fn in_process_engines_play_legal_games_to_a_rules_ending() {
    let mut setup = EngineSetup::built_in("a");
    setup.hash_mb = 1;
    let mut white = InProcess::new(setup.clone());
    let mut black = InProcess::new(EngineSetup { name: "b".into(), ..setup });
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let first = play(&mut white, &mut black, fen, Adjudication::none());
    assert!(first.moves.len() > 10, "{first:?}");
    // Replaying the record from the start gives a legal game ending as the record says.
    let mut pos = Position::from_fen(fen).unwrap();
    for m in &first.moves {
        assert!(pos.is_legal(m.mv));
        pos.make_move(m.mv);
    }
    assert!(rules_verdict(&pos, &Adjudication::none()).is_some());
    // Fixed nodes and cleared tables: the same game again.
    let second = play(&mut white, &mut black, fen, Adjudication::none());
    let moves = |g: &GameRecord| g.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(moves(&first), moves(&second));
}

#[test]
fn a_raised_stop_abandons_the_game() {
    let mut white = Scripted::new("w", &["g1f3", "f3g1"], Score::Cp(0));
    let mut black = Scripted::new("b", &["g8f6", "f6g8"], Score::Cp(0));
    let stop = AtomicBool::new(true);
    assert!(play_game(&mut white, &mut black, START, &settings(Adjudication::none()), &stop).is_none());
}
