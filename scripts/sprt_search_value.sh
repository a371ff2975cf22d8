#!/bin/bash
# A clock SPRT (or a fixed-node screen) of search constants set against their baked values, in
# process, as the rows of reports/tests.md run them: the build's values with TERM = VALUE (written to
# OUT/search.toml) against params/search.toml, 3 s + 0.03 s, 2 games at a time, nothing else running
# (the machine lock waits for any other run that holds it).
# Usage: scripts/sprt_search_value.sh TERM VALUE SEED OUT [--resume] [other tune match options]
#   e.g. scripts/sprt_search_value.sh prune.reduced_depth 1 78 /work/runs/t69-reduced
#   several at once: scripts/sprt_search_value.sh see.quiet_linear,iir.min_depth 58,0 83 OUT
# TUNE=path/to/tune (default: target/release/tune); GAMES (default 4000) caps the SPRT; BOUNDS its Elo
# bounds (default "0 5" for a gainer; "-5 0" for a simplification). NODES=N plays a screen instead: GAMES
# (default 600) games at N nodes a move, no SPRT (as rows 60s-73s), for the pairs the clock should see.
# BASE_TERMS and BASE_VALUES (lists as TERM and VALUE) set constants on both sides first, to judge a
# change on top of another that is not baked yet (the opponent then plays OUT/base-search.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
NAME=${1:?usage: $0 TERM VALUE SEED OUT [--resume] [tune match options]}
VALUE=${2:?value}
SEED=${3:?seed}
OUT=${4:?run folder}
shift 4
TUNE=${TUNE:-target/release/tune}
mkdir -p "$OUT"
# Writes IN with the constants NAMES (comma-separated) set to VALUES to OUT. Each term's
# `value = ...` line is the first one after its `name = "TERM"` line.
set_values() {
  awk -v names="$1" -v values="$2" '
    BEGIN {
      n = split(names, name, ","); if (split(values, value, ",") != n) { bad = "TERM and VALUE differ in length"; exit 1 }
      for (i = 1; i <= n; i++) { line = "name = \"" name[i] "\""; want[line] = value[i]; term[line] = name[i] }
    }
    $0 in want { pending = want[$0]; found[$0] = 1 }
    pending != "" && /^value = / { $0 = "value = " pending; pending = "" }
    { print }
    END {
      if (bad) { print bad > "/dev/stderr"; exit 1 }
      for (line in want) if (!(line in found)) { print "no search constant named " term[line] " in params/search.toml" > "/dev/stderr"; exit 1 }
    }
  ' "$3" > "$4.part"
  mv "$4.part" "$4"
}
base=params/search.toml
opponent=()
if [ -n "${BASE_TERMS:-}" ]; then
  # Both sides start from the baked values with BASE_TERMS = BASE_VALUES (a change judged on top
  # of another that has not been baked yet).
  [ -f "$OUT/base-search.toml" ] || set_values "$BASE_TERMS" "${BASE_VALUES:?BASE_VALUES with BASE_TERMS}" params/search.toml "$OUT/base-search.toml"
  base="$OUT/base-search.toml"
  opponent=(--opponent-search "$base")
fi
[ -f "$OUT/search.toml" ] || set_values "$NAME" "$VALUE" "$base" "$OUT/search.toml"
if [ -n "${NODES:-}" ]; then
  how=(--nodes "$NODES" --games "${GAMES:-600}")
else
  how=(--tc 3+0.03 --sprt ${BOUNDS:-0 5} 0.05 0.05 --games "${GAMES:-4000}")
fi
exec flock /tmp/whetstone-machine.lock "$TUNE" match \
  --engine params/eval.toml --engine-search "$OUT/search.toml" --opponent params/eval.toml "${opponent[@]}" \
  "${how[@]}" --concurrency 2 --seed "$SEED" --out "$OUT" "$@"
