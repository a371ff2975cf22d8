#!/usr/bin/env python3
"""The course of a `tune spsa` run against OpenBench's schedule, from its run folder.

Usage: scripts/spsa_course.py RUN/cycle-1/spsa [--every N]

Reads `checkpoint.json` (the schedule's a and c, A, alpha, gamma, the planned iterations, the
bounds), `trajectory.csv` (theta after each batch) and `log.csv` (games and the plus side's
results), and prints:
  * each value's start, its value now, how far it moved in units of its perturbation c_k now and of
    its c at the start, and its bounds;
  * OpenBench's c_k and r_k (= a_k / c_k^2) at the run's iteration, computed by OpenBench's
    formulas (`OpenBench/spsa_utils.py`: c_k = c / (k + 1)^gamma, a_k = a / (A + k + 1)^alpha),
    which are the tuner's: both give the same numbers from c_end, r_end and the planned iterations;
  * the size of one batch's step against c_k: a batch plays its iterations from the same theta,
    so the later iterations of a batch start that many perturbations away from where OpenBench,
    which updates after every iteration on a one-worker instance, would start them;
  * z: how far the value moved against how far its steps would have carried it with random signs
    (the square root of the sum of its squared batch steps). Each step is r_k·c_k·(wins - losses)
    times the value's own random sign, so a value the games do not care about moves like a random
    walk of that size (z about ±1); |z| well above 2 is evidence that the games pushed it.
    (With bounds or integer rounding in the way, the steps are not quite that walk; as a guide.)
"""
import csv
import json
import math
import statistics
import sys
from pathlib import Path


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    run = Path(sys.argv[1])
    every = int(sys.argv[sys.argv.index("--every") + 1]) if "--every" in sys.argv else 0
    state = json.loads((run / "checkpoint.json").read_text())
    spsa = state["spsa"]
    k = spsa["iteration"]
    alpha, gamma, big_a, n = spsa["alpha"], spsa["gamma"], spsa["big_a"], spsa["iterations"]
    a, c = spsa["a"]["data"], spsa["c"]["data"]
    lo, hi = spsa["min"]["data"], spsa["max"]["data"]
    with open(run / "trajectory.csv") as f:
        rows = list(csv.reader(f))
    names, rows = rows[0][1:], [[float(x) for x in r] for r in rows[1:]]
    with open(run / "log.csv") as f:
        log = list(csv.DictReader(f))
    games = int(log[-1]["games"]) if log else 0
    wins = int(log[-1]["plus_wins"]) if log else 0
    losses = int(log[-1]["plus_losses"]) if log else 0
    start, now = rows[0][1:], rows[-1][1:]

    c_k = [ci / (k + 1) ** gamma for ci in c]
    a_k = [ai / (big_a + k + 1) ** alpha for ai in a]
    print(f"iteration {k} of {n} ({games} games; plus side {wins}-{losses}-{games - wins - losses}); "
          f"alpha {alpha}, gamma {gamma}, A {big_a:g}")
    c_first = [ci / 1 ** gamma for ci in c]
    print(f"{'value':22} {'start':>8} {'now':>8} {'moved/c_k':>9} {'moved/c_1':>9} {'c_k':>7} {'r_k':>9} "
          f"{'step/c_k':>8} {'z':>6}  bounds")
    for i, name in enumerate(names):
        moved = now[i] - start[i]
        r_k = a_k[i] / c_k[i] ** 2
        # One batch's steps in the last hundred batches, as a share of the perturbation now: how
        # far the later iterations of a batch start from where a one-worker OpenBench would.
        steps = [abs(b[i + 1] - p[i + 1]) for p, b in zip(rows[-101:-1], rows[-100:])]
        step = statistics.fmean(steps) / c_k[i] if steps else math.nan
        walk = math.sqrt(sum((b[i + 1] - p[i + 1]) ** 2 for p, b in zip(rows, rows[1:])))
        z = moved / walk if walk > 0 else math.nan
        print(f"{name:22} {start[i]:8.2f} {now[i]:8.2f} {moved / c_k[i]:9.2f} {moved / c_first[i]:9.2f} "
              f"{c_k[i]:7.3f} {r_k:9.5f} {step:8.4f} {z:6.2f}  [{lo[i]:g}, {hi[i]:g}]")
    if every:
        print()
        print("iteration," + ",".join(names))
        for r in rows[:: max(1, every // 2)]:
            print(",".join(f"{x:g}" for x in r))


if __name__ == "__main__":
    main()
