#!/bin/bash
# Issue 61, "the workbench finds Elo on today's build": one `tune auto` cycle of the whole data loop
# from the baked values, with the stronger teacher test 57 measured (+13.4 ± 7.4 at the clock):
#   datagen  today's engine playing itself at 6,000 nodes per move (twice the 3,000 of the data the
#            baked values were fitted to) from Stockfish's noob_3moves book, 16,000 games;
#   rescore  every new position scored by Stockfish 15.1 at depth 8 (about 530 positions a second);
#   texel    every value re-tuned from the baked ones with the recipe params/eval.toml records (its
#            1,365,243 Stockfish-scored positions beside the run's new ones, half result, half score);
#   verify   SPRT [0, 5] against the baked values at 3 s + 0.03 s, up to 6,000 games; --bake bakes
#            the values if it passes (since 2026-12-06 only when the fit lowered the loss on the
#            held-out games: otherwise the stage ends unplayed and keeps nothing).
# Hours of work: datagen about 30 minutes, rescore about 15, Texel a few, the SPRT up to 8 hours at
# about 12 games a minute. Resume any sitting: this script with --resume (the same OUT).
# TUNE=path/to/tune (default: target/release/tune), OUT=run folder, BOOK=opening book,
# STAGES=the stages (default datagen,rescore,texel). A machine that lost the run folder after the
# rescore restarts at the Texel stage on the committed copy of the rescored positions:
#   STAGES=texel scripts/issue61_auto_rescore.sh --data datasets/whetstone-selfplay5-813k-sf8.epd.gz
set -euo pipefail
cd "$(dirname "$0")/.."
TUNE=${TUNE:-target/release/tune}
OUT=${OUT:-reports/auto-rescore}
BOOK=${BOOK:-../shared/data/books/noob_3moves.epd}
STAGES=${STAGES:-datagen,rescore,texel}
STAGE_ARGS=()
case ",$STAGES," in *,datagen,*) STAGE_ARGS+=(--datagen-games 16000 --datagen-nodes 6000 --datagen-args "--book $BOOK") ;; esac
case ",$STAGES," in *,rescore,*) STAGE_ARGS+=(--rescore-engine /usr/games/stockfish --rescore-depth 8) ;; esac
exec flock /tmp/whetstone-machine.lock "$TUNE" auto --params params/eval.toml \
  --stages "$STAGES" --cycles 1 --hours 12 \
  "${STAGE_ARGS[@]}" \
  --verify-tc 3+0.03 --verify-games 6000 --concurrency 2 --seed 75 --bake \
  --out "$OUT" "$@"
