#!/bin/bash
# Issue 61's final targets at 10 s + 0.1 s, one per call, each a resumable `tune match` of the engine
# built from this checkout (copied into the run folder first, so a later build cannot change a resumed
# run), 2 games at a time, nothing else running (the machine lock is held throughout):
#   ethereal          Ethereal 12 (Threads=1, Hash=16), built-in book, 400 games: at least 50%
#   ethereal-8moves   the same with Stockfish's 8moves_v3 openings
#   base              the issue's base build 68aee9c (built once into the run folder), 600 games: +90 Elo
#   sf2265            Stockfish 15.1 at UCI_Elo 2265 (Threads=1, Hash=16), 200 games: at least 72%
# Usage: scripts/issue61_final.sh TARGET OUT [--resume] [other tune match options]
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${1:?usage: $0 ethereal|ethereal-8moves|base|sf2265 OUT [--resume] [tune match options]}
OUT=${2:?usage: $0 TARGET OUT [--resume] [tune match options]}
shift 2
BASE=${BASE:-68aee9c}

case "$TARGET" in
  ethereal) exec scripts/issue61_vs_ethereal.sh "$OUT" "$@" ;;
  ethereal-8moves) BOOK=8moves exec scripts/issue61_vs_ethereal.sh "$OUT" "$@" ;;
  base | sf2265) ;;
  *) echo "unknown target '$TARGET': ethereal, ethereal-8moves, base or sf2265" >&2; exit 2 ;;
esac

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ ! -x "$OUT/whetstone" ]; then
  cp target/release/whetstone "$OUT/whetstone"
  git rev-parse --short HEAD > "$OUT/commit"
fi

if [ "$TARGET" = base ]; then
  scripts/build_commit.sh "$BASE" "$OUT"
  OPPONENT=(--opponent "$OUT/ws-$BASE" --opponent-option Hash=16)
  GAMES=${GAMES:-600}
else
  OPPONENT=(--opponent /usr/games/stockfish --opponent-option Hash=16 --opponent-option Threads=1
    --opponent-option UCI_LimitStrength=true --opponent-option UCI_Elo=2265)
  GAMES=${GAMES:-200}
fi

exec flock /tmp/whetstone-machine.lock target/release/tune match \
  --engine "$OUT/whetstone" --engine-option Hash=16 "${OPPONENT[@]}" \
  --tc 10+0.1 --games "$GAMES" --concurrency 2 --seed 61 --out "$OUT" "$@"
