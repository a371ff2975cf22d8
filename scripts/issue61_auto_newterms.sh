#!/bin/bash
# Test 54 of reports/tests.md (issue 61): `tune auto` from today's build, one Texel stage of the new
# (zero) terms on the data and recipe params/eval.toml records, verified at 3 s + 0.03 s and baked if
# it passes. The `tune` it ran with is the build of a5c685f, whose auto needed the recipe and the
# terms spelled out (today's builds the same stage by itself). Resume: this script with --resume.
# The cap was 3,000 games until 2026-11-30 01:41 UTC, raised to 4,000 at 2,116 games (1,058 pairs, LLR
# about 1.7): the SPRT stops at its LLR bounds alone, so a larger cap cannot make a pass likelier than
# the untruncated test's 5% under H0 (OpenBench lets a test's game cap be raised the same way).
# TUNE=path/to/tune (default: /work/runs/s68/tune-a5c685f), OUT=run folder.
set -euo pipefail
cd "$(dirname "$0")/.."
TUNE=${TUNE:-/work/runs/s68/tune-a5c685f}
OUT=${OUT:-/work/runs/s68/auto-newterms}
exec flock /tmp/whetstone-machine.lock "$TUNE" auto --params params/eval.toml \
  --stages texel --cycles 1 --hours 8 \
  --data datasets/whetstone-selfplay4-1365k-eth8.epd.gz \
  --texel-args "--score-weight 0.5 --score-k fit --l2 0.0003 --smooth 0.0003 --mirror 0.0003 --prior-terms 'pst.*' 'mobility.*' 'passed.*' king.shield king.storm pawns.connected king.pawn_distance --only threat.weak_pawn threat.overloaded threat.queen_attacked 'space.*' 'closedness.*'" \
  --verify-tc 3+0.03 --verify-games 4000 --concurrency 2 --seed 68 --bake \
  --out "$OUT" "$@"
