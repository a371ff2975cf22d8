//! Tests of `play/limit.rs`.

use super::*;

#[test]
fn time_controls_parse_in_every_form() {
    let tc = |t: &str| t.parse::<TimeControl>().unwrap();
    assert_eq!(tc("10+0.1"), TimeControl { base_ms: 10_000, inc_ms: 100, moves: None });
    assert_eq!(tc("40/60"), TimeControl { base_ms: 60_000, inc_ms: 0, moves: Some(40) });
    assert_eq!(tc("40/1:30+0.5"), TimeControl { base_ms: 90_000, inc_ms: 500, moves: Some(40) });
    assert_eq!(tc("0.5+0.005"), TimeControl { base_ms: 500, inc_ms: 5, moves: None });
    for bad in ["", "abc", "10+x", "0/10", "0+0", "-1+0.1", "40/"] {
        assert!(bad.parse::<TimeControl>().is_err(), "{bad} parsed");
    }
    let err = format!("{:#}", "10+x".parse::<TimeControl>().unwrap_err());
    assert!(err.contains("10+x"), "{err}");
}

#[test]
fn exactly_one_limit() {
    assert_eq!(MoveLimit::from_flags(Some(1000), None, None).unwrap(), MoveLimit::Nodes(1000));
    assert!(MoveLimit::from_flags(None, None, None).is_err());
    assert!(MoveLimit::from_flags(Some(1000), Some(3), None).is_err());
    assert!(MoveLimit::from_flags(Some(0), None, None).is_err());
    assert_eq!(MoveLimit::from_flags(None, None, Some("40/60")).unwrap().pgn_tag(), "40/60");
    assert_eq!(MoveLimit::from_flags(None, None, Some("10+0.1")).unwrap().pgn_tag(), "10+0.1");
}

#[test]
fn clocks_add_increments_and_periods_and_detect_flag_falls() {
    let tc: TimeControl = "2/1+0.1".parse().unwrap();
    let mut clocks = Clocks::new(MoveLimit::Clock(tc));
    let w = Color::White;
    assert_eq!(
        clocks.budget(w),
        MoveBudget::Clock { time_ms: [1000, 1000], inc_ms: [100, 100], movestogo: Some(2) }
    );
    assert!(clocks.charge(w, Duration::from_millis(300), Duration::ZERO));
    assert_eq!(clocks.left_ms(w), 800);
    assert!(matches!(clocks.budget(w), MoveBudget::Clock { movestogo: Some(1), .. }));
    // The second move ends the period: the base comes back.
    assert!(clocks.charge(w, Duration::from_millis(500), Duration::ZERO));
    assert_eq!(clocks.left_ms(w), 800 - 500 + 100 + 1000);
    assert!(matches!(clocks.budget(w), MoveBudget::Clock { movestogo: Some(2), .. }));
    // Over the clock by more than the margin: a forfeit.
    assert!(clocks.charge(w, Duration::from_millis(1400), Duration::from_millis(50)));
    assert!(!clocks.charge(w, Duration::from_millis(2000), Duration::from_millis(50)));
    assert_eq!(clocks.left_ms(w), 0);
    // Black's clock was never touched.
    assert_eq!(clocks.left_ms(Color::Black), 1000);
}
