#!/usr/bin/env bash
# The recovery benchmark (docs/tuning.md, "Recovery benchmark"): start from params/perturbed.toml
# (the baked evaluation with bishop_pair, rook.open_file, rook.semi_open_file and knight.outpost
# all at -100), let each game-based tuner tune those four terms (8 values) for a budget of games,
# and measure each result against the baked values. The share of the lost Elo won back is
# (Elo(result vs baked) - Elo(start vs baked)) / -Elo(start vs baked).
#
# Usage: scripts/recovery.sh [TUNER ...]      TUNER: spsa clop bayes pbil-selfplay pbil-tournament pbil-natural
#                                              (default: spsa clop pbil-natural pbil-tournament pbil-selfplay)
#        scripts/recovery.sh --regenerate     rewrite params/perturbed.toml from params/eval.toml
# Environment: GAMES (tuning budget, 10000), NODES (per move, 2000), CHECK_GAMES (each
# measurement, 1000), SEED (1), OUT (reports/recovery), PBIL_RATE (pbil-natural's learning rate,
# 0.15). Reruns reuse finished runs and measurements (delete a folder to redo it); an interrupted
# run resumes.
set -euo pipefail
cd "$(dirname "$0")/.."

TERMS=(bishop_pair rook.open_file rook.semi_open_file knight.outpost)

if [[ "${1:-}" == --regenerate ]]; then
    python3 - "${TERMS[@]}" <<'EOF'
import re, sys
terms = set(sys.argv[1:])
src = open("params/eval.toml").read()
blocks = src.split("[[term]]")
for i, block in enumerate(blocks):
    name = re.search(r'^name = "([^"]+)"', block, re.M)
    if name and name.group(1) in terms:
        block = re.sub(r"^mg = .*$", "mg = -100", block, flags=re.M)
        blocks[i] = re.sub(r"^eg = .*$", "eg = -100", block, flags=re.M)
        terms.discard(name.group(1))
if terms:
    sys.exit(f"params/eval.toml has no term {sorted(terms)}")
head = """# The baked evaluation (params/eval.toml) with four terms pushed well away from their values,
# the start of the black-box tuners' recovery benchmark (scripts/recovery.sh, docs/tuning.md):
# bishop_pair, rook.open_file, rook.semi_open_file and knight.outpost are all -100 (mg and eg).
# Regenerate after a bake: scripts/recovery.sh --regenerate.
"""
open("params/perturbed.toml", "w").write(head + "[[term]]".join(blocks))
EOF
    echo "params/perturbed.toml rewritten from params/eval.toml"
    exit 0
fi

GAMES=${GAMES:-10000}
NODES=${NODES:-2000}
CHECK_GAMES=${CHECK_GAMES:-1000}
SEED=${SEED:-1}
OUT=${OUT:-reports/recovery}
TUNERS=("$@")
[[ ${#TUNERS[@]} -gt 0 ]] || TUNERS=(spsa clop pbil-natural pbil-tournament pbil-selfplay)

cargo build --release -p whetstone-tuner
tune=target/release/tune
mkdir -p "$OUT"

# A match against the baked values, unless it has been played.
measure() { # NAME PARAMS
    [[ -f "$OUT/$1-vs-baked/summary.json" ]] && return
    "$tune" match --engine "$2" --opponent params/eval.toml --nodes "$NODES" --games "$CHECK_GAMES" \
        --seed 7 --quiet --out "$OUT/$1-vs-baked"
}

# A tuning run, resumed if it was interrupted, skipped if it finished.
tuning() { # NAME COMMAND ARGS...
    local name=$1 dir="$OUT/$1"
    shift
    [[ -f "$dir/tuned.toml" ]] && return
    local resume=()
    [[ -f "$dir/checkpoint.json" ]] && resume=(--resume)
    "$tune" "$@" --params params/perturbed.toml --only "${TERMS[@]}" --nodes "$NODES" --games "$GAMES" \
        --seed "$SEED" --quiet --out "$dir" "${resume[@]}"
}

measure start params/perturbed.toml
for t in "${TUNERS[@]}"; do
    case $t in
        spsa) tuning spsa spsa ;;
        clop) tuning clop clop ;;
        bayes) tuning bayes bayes ;;
        pbil-selfplay) tuning pbil-selfplay pbil --fitness selfplay --window 64 --update baluja --elite 8 ;;
        pbil-tournament) tuning pbil-tournament pbil --fitness tournament --window 64 --update baluja --elite 8 ;;
        pbil-natural) tuning pbil-natural pbil --fitness tournament --window 64 --update natural --learning-rate "${PBIL_RATE:-0.15}" ;;
        *) echo "unknown tuner '$t' (spsa, clop, bayes, pbil-selfplay, pbil-tournament, pbil-natural)" >&2; exit 2 ;;
    esac
    measure "$t" "$OUT/$t/tuned.toml"
done

python3 - "$OUT" "${TUNERS[@]}" <<'EOF'
import json, sys
out, tuners = sys.argv[1], sys.argv[2:]
def summary(name):
    return json.load(open(f"{out}/{name}-vs-baked/summary.json"))
start = summary("start")
lost, lost_err = -start["elo"], start["elo_error"]
print(f"\nstart vs baked: {start['elo']:+.1f} ± {lost_err:.1f} over {start['games']} games")
print(f"{'tuner':<16} {'games':>6} {'vs baked':>16} {'recovered':>18}")
for t in tuners:
    s = summary(t)
    games = json.load(open(f"{out}/{t}/result.json")).get("games", "?")
    share = (s["elo"] + lost) / lost
    # Both Elo figures are uncertain; their errors combine as independent.
    err = ((s["elo_error"] / lost) ** 2 + ((share - 1) * lost_err / lost) ** 2) ** 0.5
    print(f"{t:<16} {games:>6} {s['elo']:+8.1f} ± {s['elo_error']:5.1f} {100 * share:9.0f}% ± {100 * err:3.0f}%")
EOF
