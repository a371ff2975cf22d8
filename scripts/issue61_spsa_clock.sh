#!/bin/bash
# Issue 61: the clock SPSA of the search constants, run by the loop so that it is verified at the
# clock and baked by `tune auto --bake` if it passes. The SPSA is OpenBench's on one two-core
# worker: the 24 search constants the build uses (every one whose baked value is not an off switch
# at 0), its schedule (alpha 0.602, gamma 0.101, A = a tenth of the iterations), its Pairs-Per of
# 8 game pairs per perturbation, its usual r_end 0.002 and c_end about a tenth of each value,
# integers rounded stochastically; two iterations (16 pairs) at a time from the same values, as a
# worker's two runners play them. 20,000 games are 1,250 iterations at 2 s + 0.02 s (about 20
# games a minute here: some 17 hours, resumed across sittings), then the SPRT [0, 5] at
# 3 s + 0.03 s against the values before (up to 6,000 games).
# The run folder is kept in the repo as it goes (scripts/snapshot_run.sh), so a sitting that ends
# with its machine loses nothing that was committed:
#   fresh machine: mkdir -p /work/runs && tar -xzf reports/runs/spsa-clock.tar.gz -C /work/runs
#   the run's tune: git worktree add /work/spsa-build 8238fc0 && (cd /work/spsa-build && cargo build --release)
#   then:          TUNE=/work/spsa-build/target/release/tune scripts/issue61_spsa_clock.sh --resume
#   and its snapshots: nohup scripts/snapshot_loop.sh /work/runs/spsa-clock reports/runs/spsa-clock.tar.gz \
#                        "auto --params params/eval.toml --stages spsa" &
# The run keeps the engine of `8238fc0` (the same as `bfe0aea`, which started it) whatever main
# becomes: search constants added later would be missing from the run's search file.
# TUNE=path/to/tune (default: target/release/tune), OUT=run folder (default /work/runs/spsa-clock).
set -euo pipefail
cd "$(dirname "$0")/.."
TUNE=${TUNE:-target/release/tune}
OUT=${OUT:-/work/runs/spsa-clock}
exec flock /tmp/whetstone-machine.lock "$TUNE" auto --params params/eval.toml \
  --stages spsa --cycles 1 --hours 40 \
  --tune-tc 2+0.02 --tune-games 20000 \
  --spsa-only aspiration.window nmp.base nmp.depth_divisor nmp.eval_divisor lmr.base lmr.divisor \
  lmr.cut_node see.quiet_margin rfp.margin rfp.max_depth futility.base futility.per_depth \
  futility.max_depth lmp.base lmp.max_depth see.capture_margin qsearch.delta time.panic_percent \
  time.moves_left time.start_percent singular.min_depth singular.margin corr.pawn corr.non_pawn \
  --spsa-args '--pairs-per 8 --batch 16 --r-end 0.002' \
  --verify-tc 3+0.03 --verify-games 6000 --concurrency 2 --seed 76 --bake \
  --out "$OUT" "$@"
