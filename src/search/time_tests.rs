use super::*;

#[test]
fn limits_stay_inside_the_clock() {
    let plans = [
        TimePlan::default(),
        TimePlan { moves_left: 10, start_percent: 100, inc_percent: 200 },
        TimePlan { moves_left: 60, start_percent: 20, inc_percent: 0 },
    ];
    for plan in plans {
        for (left, inc, mtg) in
            [(1000, 10, None), (100, 0, None), (1000, 0, Some(10)), (50, 0, Some(1)), (60_000, 600, None)]
        {
            let limits =
                Limits { time: [Some(left), None], inc: [inc, 0], movestogo: mtg, ..Limits::default() };
            let tm = TimeManager::new(&limits, Color::White, 10, plan);
            let (soft, hard) = (tm.soft.unwrap().as_millis() as u64, tm.hard.unwrap().as_millis() as u64);
            assert!(soft <= hard, "{plan:?} {left} {inc} {mtg:?}: {soft} > {hard}");
            assert!(hard <= left.saturating_sub(10).max(1), "{plan:?} {left} {inc} {mtg:?}: hard {hard}");
        }
    }
    let movetime = Limits { movetime: Some(500), ..Limits::default() };
    assert_eq!(
        TimeManager::new(&movetime, Color::Black, 20, TimePlan::default()).hard,
        Some(Duration::from_millis(480))
    );
}

#[test]
fn the_plan_spreads_the_clock() {
    let limits = Limits { time: [Some(10_000), None], inc: [100, 0], ..Limits::default() };
    let soft = |plan| TimeManager::new(&limits, Color::White, 10, plan).soft.unwrap().as_millis();
    // 9,790 ms usable over 30 moves, plus 3/4 of the increment.
    assert_eq!(soft(TimePlan { moves_left: 30, start_percent: 50, inc_percent: 75 }), 9_790 / 30 + 75);
    assert_eq!(soft(TimePlan { moves_left: 20, start_percent: 50, inc_percent: 75 }), 9_790 / 20 + 75);
    // `time.inc_bonus` moves the increment's share: the full increment, or a quarter more.
    assert_eq!(soft(TimePlan { moves_left: 20, start_percent: 50, inc_percent: 100 }), 9_790 / 20 + 100);
    assert_eq!(soft(TimePlan { moves_left: 20, start_percent: 50, inc_percent: 125 }), 9_790 / 20 + 125);
    // movestogo from the GUI wins over the plan's guess.
    let mtg = Limits { movestogo: Some(10), ..limits.clone() };
    let tm = TimeManager::new(
        &mtg,
        Color::White,
        10,
        TimePlan { moves_left: 20, start_percent: 50, inc_percent: 75 },
    );
    assert_eq!(tm.soft.unwrap().as_millis(), 9_790 / 10 + 75);
    // An iteration may start until start_percent of the (stretched) budget is gone.
    let early = TimeManager {
        start: Instant::now() - Duration::from_millis(300),
        soft: Some(Duration::from_millis(1000)),
        hard: Some(Duration::from_millis(4000)),
        start_percent: 50,
    };
    assert!(early.may_start_iteration(100));
    assert!(!TimeManager { start_percent: 20, ..early.clone() }.may_start_iteration(100));
    assert!(TimeManager { start_percent: 20, ..early.clone() }.may_start_iteration(200));
}

#[test]
fn sudden_death_keeps_a_reserve_of_one_overhead_a_move() {
    let plan = TimePlan { moves_left: 20, start_percent: 60, inc_percent: 75 };
    let soft = |left: u64, inc: u64, mtg: Option<u32>| {
        let limits = Limits { time: [Some(left), None], inc: [inc, 0], movestogo: mtg, ..Limits::default() };
        TimeManager::new(&limits, Color::White, 25, plan).soft.unwrap().as_millis() as u64
    };
    // 10 s + 0: 25 ms for each of 20 moves (500 ms) kept back besides the overhead.
    assert_eq!(soft(10_000, 0, None), (10_000 - 25 - 500) / 20);
    // Once the clock is down to the reserve the engine plays at once.
    assert_eq!(soft(500, 0, None), 1);
    // With an increment or moves to go the reserve stays a fiftieth of the clock.
    assert_eq!(soft(10_000, 100, None), (10_000 - 25 - 200) / 20 + 75);
    assert_eq!(soft(10_000, 0, Some(40)), (10_000 - 25 - 200) / 40);
}
