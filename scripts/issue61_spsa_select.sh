#!/bin/bash
# Issue 61, after test 67: the clock SPSA's values with the evidence to move (|z| >= Z, default 2)
# alone, verified as the loop verified all 24 (the SPRT [0, 5] at 3 s + 0.03 s, up to 6,000 games,
# seed 76), so that the two SPRTs say whether `--min-evidence` should be the loop's default.
# The finished SPSA stage is copied (without the loop's own verification) and finished again by
# `tune spsa --resume --min-evidence Z`, which plays no SPSA games: it rebuilds the walk from the
# run's trajectory.csv (test 67 started before the tuner kept it), returns the values with less
# evidence to their start and verifies the rest.
# TUNE must be a build whose engine is test 67's (`8238fc0`; main's engine is the same until the
# search branches merge: bench 1,010,715) and which has --min-evidence (main from `73f0345`).
# Run it again to resume a killed verification. Env: TUNE (default target/release/tune),
# RUN (default /work/runs/spsa-clock), Z (default 2), OUT (default RUN-z$Z).
set -euo pipefail
cd "$(dirname "$0")/.."
TUNE=${TUNE:-target/release/tune}
RUN=${RUN:-/work/runs/spsa-clock}
Z=${Z:-2}
OUT=${OUT:-$RUN-z$Z}
if [ ! -d "$OUT" ]; then
  mkdir -p "$OUT"
  cp -r "$RUN/cycle-1/spsa/." "$OUT/"
  rm -rf "$OUT/verify" "$OUT/verify-clock"
fi
exec flock /tmp/whetstone-machine.lock "$TUNE" spsa --out "$OUT" --seed 76 --concurrency 2 --resume \
  --params "$RUN/start-eval.toml" --search-params "$RUN/start-search.toml" --fitness selfplay \
  --only aspiration.window nmp.base nmp.depth_divisor nmp.eval_divisor lmr.base lmr.divisor \
  lmr.cut_node see.quiet_margin rfp.margin rfp.max_depth futility.base futility.per_depth \
  futility.max_depth lmp.base lmp.max_depth see.capture_margin qsearch.delta time.panic_percent \
  time.moves_left time.start_percent singular.min_depth singular.margin corr.pawn corr.non_pawn \
  --games 20000 --tc 2+0.02 --pairs-per 8 --batch 16 --r-end 0.002 \
  --verify-games 6000 --verify-tc 3+0.03 --verify-bounds 0 5 --verify-error 0.05 \
  --min-evidence "$Z"
