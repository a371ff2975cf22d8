//! Tests of `fitness/command.rs`.

use super::*;
use crate::testutil::TempDir;

/// `body` as a shell script in a fresh folder, and the command that runs it.
fn script(body: &str) -> (TempDir, String) {
    let dir = TempDir::new("cmd");
    let path = dir.join("game.sh");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    (dir, format!("sh '{}' extra", path.display()))
}

fn space() -> Space {
    Space::parse_openbench("x, int, 0, -10, 10, 1, 0.002\ny, float, 0.5, 0, 1, 0.1, 0.002", "s").unwrap()
}

#[test]
fn results_follow_the_contract_and_the_arguments_arrive() {
    // $1 = extra, $2 = worker, $3 = seed, then x <value> y <value>: wins when x > 0.
    let (dir, command) = script(
        r#"[ "$1" = extra ] || exit 3; [ "$4" = x ] || exit 4; [ "$6" = y ] || exit 5
echo "thinking"; if [ "$5" -gt 0 ]; then echo W; elif [ "$5" -lt 0 ]; then echo L; else echo D; fi"#,
    );
    let fitness = CommandFitness::new(&command, space(), 2, 0).unwrap();
    let trials: Vec<Trial> = [3.0, -2.0, 0.2]
        .iter()
        .map(|&x| Trial { candidate: vec![x, 0.25], opponent: None, games: 3 })
        .collect();
    let mut seen = 0;
    let games = fitness.play(&trials, 1, &AtomicBool::new(false), &mut |n| seen += n).unwrap();
    assert_eq!(seen, 9);
    assert_eq!((games[0].wld.wins, games[1].wld.losses, games[2].wld.draws), (3, 3, 3));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn failing_games_are_retried_counted_and_reported() {
    // Fails unless the seed is even: about half the games fail every attempt.
    let (dir, command) = script(r#"if [ $(( $3 % 2 )) -eq 0 ]; then echo D; else echo oops; exit 1; fi"#);
    let fitness = CommandFitness::new(&command, space(), 2, 1).unwrap();
    let trials = vec![Trial { candidate: vec![0.0, 0.5], opponent: None, games: 20 }];
    let games = fitness.play(&trials, 5, &AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!(games[0].played() + games[0].failed, 20);
    assert!(games[0].failed > 0 && games[0].wld.draws > 0, "{:?}", games[0]);
    let (dir2, silent) = script("echo maybe");
    let fitness = CommandFitness::new(&silent, space(), 1, 0).unwrap();
    let err = fitness.play(&trials[..1], 5, &AtomicBool::new(false), &mut |_| {}).unwrap_err();
    assert!(format!("{err:#}").contains("every game failed"), "{err:#}");
    assert!(CommandFitness::new("'unbalanced", space(), 1, 0).is_err());
    std::fs::remove_dir_all(dir).ok();
    std::fs::remove_dir_all(dir2).ok();
}
