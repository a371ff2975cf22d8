//! Tests of `optim/clop_problems.rs`.

use super::*;

#[test]
fn names_parse_and_dims() {
    for name in Problem::names() {
        let p = Problem::parse(name).unwrap();
        assert_eq!(p.optimum_x().len(), p.dims(), "{name}");
    }
    assert!(Problem::parse("nope").is_err());
    assert_eq!(Problem::parse("log5").unwrap().dims(), 5);
    assert_eq!(Problem::parse("correlated2").unwrap().dims(), 4);
}

#[test]
fn optimum_is_the_maximum() {
    // Grid search (1-D, 2-D) never beats the stated optimum.
    for name in Problem::names() {
        let p = Problem::parse(name).unwrap();
        let best = p.optimum();
        assert!(best > 0.0 && best < 1.0);
        let n = 400;
        match p.dims() {
            1 => {
                for i in 0..=n {
                    let x = -1.0 + 2.0 * i as f64 / n as f64;
                    assert!(p.win_probability(&[x]) <= best + 1e-12, "{name} at {x}");
                }
            }
            2 => {
                for i in 0..=n {
                    for j in 0..=n {
                        let x = [-1.0 + 2.0 * i as f64 / n as f64, -1.0 + 2.0 * j as f64 / n as f64];
                        assert!(p.win_probability(&x) <= best + 1e-12, "{name} at {x:?}");
                    }
                }
            }
            _ => {}
        }
    }
    let log = Problem::parse("log").unwrap();
    assert!((log.optimum() - sigmoid(2.0 * 2f64.ln() - 0.9)).abs() < 1e-12);
}

#[test]
#[ignore = "slow: cargo test -p whetstone-tuner -- --ignored"]
fn regret_shrinks_with_games_on_log() {
    let p = Problem::parse("log").unwrap();
    let settings = ClopSettings::default();
    let short = simple_regret(&p, &settings, 1_000, 24, 11).unwrap();
    let long = simple_regret(&p, &settings, 10_000, 24, 11).unwrap();
    assert!(long.mean_regret < 0.5 * short.mean_regret, "{short:?} {long:?}");
    assert!(long.mean_regret < 0.005, "{long:?}");
}

#[test]
fn regret_runs_are_reproducible() {
    let p = Problem::parse("correlated").unwrap();
    let s = ClopSettings { mcmc_steps_per_dim: 100, ..Default::default() };
    let a = simple_regret(&p, &s, 500, 4, 3).unwrap();
    let b = simple_regret(&p, &s, 500, 4, 3).unwrap();
    assert_eq!(a, b);
    assert!(a.mean_regret >= 0.0 && a.median_regret >= 0.0);
}
