#!/bin/bash
# Issue 61: does test 54's bake pay for its cost? Test 54 played its values against the old ones in
# one process that computed the new terms on both sides, while the build before the bake (62494b0)
# skips terms whose weights are all zero: the baked build spends 3.7% more instructions per node
# (docs/measurements.md, "Bench"). This SPRT plays the two builds as UCI binaries, so the cost is in
# the games: the build of NEW (default 1405560, the bake) against OLD (default 62494b0), SPRT [0, 5]
# at 3 s + 0.03 s, pentanomial, 2 games at a time, nothing else running.
# Each commit is built once into OUT (a git worktree and its own target directory), so a later build
# of this checkout cannot change a resumed run.
# Usage: scripts/issue61_bake_cost.sh OUT [--resume] [other tune match options]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: $0 OUT [--resume] [tune match options]}
shift
NEW=${NEW:-1405560}
OLD=${OLD:-62494b0}
GAMES=${GAMES:-4000}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

scripts/build_commit.sh "$NEW" "$OUT"
scripts/build_commit.sh "$OLD" "$OUT"
[ -x target/release/tune ] || flock /tmp/whetstone-machine.lock cargo build --release -p whetstone-tuner

exec flock /tmp/whetstone-machine.lock target/release/tune match \
  --engine "$OUT/ws-$NEW" --engine-option Hash=16 \
  --opponent "$OUT/ws-$OLD" --opponent-option Hash=16 \
  --tc 3+0.03 --sprt 0 5 0.05 0.05 --games "$GAMES" --concurrency 2 --seed 70 --out "$OUT/match" "$@"
