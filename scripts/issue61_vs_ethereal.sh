#!/bin/bash
# Issue 61's strength target against Ethereal 12.00 (Debian's ethereal-chess, Threads=1, Hash=16) at
# 10 s + 0.1 s: the engine built from this checkout against Ethereal, 2 games at a time, nothing else
# running. BOOK=8moves plays Stockfish's 8moves_v3 (from ../shared/data/books) instead of the built-in
# book. The binary is copied into the run folder first, so a later build cannot change a resumed run.
# TC sets another clock (the time-use checks of issue 61: TC=10+0 for sudden death, TC=40/10 for 40 moves
# in 10 s, repeating), GAMES another number of games.
# Usage: scripts/issue61_vs_ethereal.sh OUT [--resume] [other tune match options]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: $0 OUT [--resume] [tune match options]}
shift
GAMES=${GAMES:-400}
mkdir -p "$OUT"
if [ ! -x "$OUT/whetstone" ]; then
  cp target/release/whetstone "$OUT/whetstone"
  git rev-parse --short HEAD > "$OUT/commit"
fi
BOOKARGS=()
if [ "${BOOK:-builtin}" = 8moves ]; then
  BOOKARGS=(--book ../shared/data/books/8moves_v3.pgn --book-plies 16)
fi
exec flock /tmp/whetstone-machine.lock target/release/tune match \
  --engine "$OUT/whetstone" --engine-option Hash=16 \
  --opponent /usr/games/ethereal-chess --opponent-option Hash=16 --opponent-option Threads=1 \
  --tc "${TC:-10+0.1}" --games "$GAMES" --concurrency 2 --seed 30 "${BOOKARGS[@]}" --out "$OUT" "$@"
