//! Tests of `report/run_plots.rs`.

use super::*;
use crate::testutil::{png_size, TempDir};

#[test]
fn log_plots_with_gaps_and_without_trajectory() {
    let run = TempDir::new("images-log");
    let out = run.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(
        run.join("log.csv"),
        "generation,train_loss,valid_loss,fitness,elo,entropy,seconds\n\
             0,0.1,,1,NaN,0.5,1\n1,0.09,0.095,,,0.4,2\n2,0.08,NaN,3,12,,3\n3,0.07,0.08,4,15,0.2\n",
    )
    .unwrap();
    let images = log_plots(&run, &out).unwrap();
    let files: Vec<&str> = images.iter().map(|i| i.file.as_str()).collect();
    assert_eq!(files, ["log-loss.png", "log-fitness.png", "log-elo.png", "log-entropy.png"]);
    for f in &files {
        png_size(&out.join(f));
    }
    assert!(images[0].title.contains("generation"));

    // A column with nothing but empty cells gets no chart; trajectories come in charts of 8.
    std::fs::write(run.join("log.csv"), "iteration,elo,k\n0,,1.1\n1,,1.2\n").unwrap();
    let header: Vec<String> = (0..20).map(|i| format!("p{i}")).collect();
    let mut trajectory = format!("iteration,{}\n", header.join(","));
    for step in 0..4 {
        let row: Vec<String> = (0..20).map(|i| (i * step).to_string()).collect();
        trajectory.push_str(&format!("{step},{}\n", row.join(",")));
    }
    std::fs::write(run.join("trajectory.csv"), trajectory).unwrap();
    let files: Vec<String> = log_plots(&run, &out).unwrap().into_iter().map(|i| i.file).collect();
    assert_eq!(files, ["log-k.png", "trajectory-1.png", "trajectory-2.png", "trajectory-3.png"]);
}

#[test]
fn runs_without_games_get_no_games_chart() {
    let run = TempDir::new("images-nogames");
    let out = run.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(
        run.join("log.csv"),
        "generation,best_loss,games,recentred,win_rate,win_rate_low,win_rate_high,seconds\n\
             1,0.12,0,0,0.5,0.4,0.6,1\n2,0.11,0,0,0.52,0.45,0.6,2\n3,0.1,0,0,0.55,0.5,0.6,3\n",
    )
    .unwrap();
    let files: Vec<String> = log_plots(&run, &out).unwrap().into_iter().map(|i| i.file).collect();
    // No all-zero games or recentred chart; a value with its bounds in one chart.
    assert_eq!(files, ["log-loss.png", "log-win-rate.png"]);
    assert!(!worth_a_chart(&[0.0, 0.0, f64::NAN]));
    assert!(!worth_a_chart(&[f64::NAN]));
    assert!(worth_a_chart(&[0.0, 2.0]));
}

#[test]
fn log_axes_say_what_and_in_which_unit() {
    assert_eq!(log_axis("valid_loss"), "mean squared error");
    assert_eq!(log_axis("mean_elo"), "Elo");
    assert_eq!(trajectory_units(["pst_knight_e4_mg", "tempo.eg"].into_iter()), "centipawns");
    assert_eq!(
        trajectory_units(["king_safety_attackers_0", "pst.knight[e4].mg", "lmr_base"].into_iter()),
        "attack units; centipawns; own units"
    );
}

#[test]
fn many_parameters_plot_the_top_movers() {
    let dir = TempDir::new("images-many");
    let names: Vec<String> = (0..100).map(|i| format!("x{i}")).collect();
    let mut text = format!("epoch,{}\n", names.join(","));
    for step in 0..5 {
        let row: Vec<String> = (0..100).map(|i| (100 + i * step).to_string()).collect();
        text.push_str(&format!("{step},{}\n", row.join(",")));
    }
    std::fs::write(dir.join("trajectory.csv"), text).unwrap();
    let table = read_numeric_csv(&dir.join("trajectory.csv")).unwrap();
    let images = trajectory_plots(&table, &dir).unwrap();
    assert_eq!(images.len(), TOP_TRAJECTORIES / LINES_PER_CHART);
    assert!(images[0].title.contains("24 of 100"));
}
