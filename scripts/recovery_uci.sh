#!/usr/bin/env bash
# Recovery over UCI (issue 59, docs/external-engines.md): our engine as a stranger's engine would
# come, a build whose weights are UCI options (--features uci-tunables), with the recovery
# benchmark's four terms perturbed as options (bishop_pair, rook.open_file, rook.semi_open_file,
# knight.outpost: all -100, as params/perturbed.toml), tuned through its binary by
# `tune texel --engine` (probe or trace), and measured at a clock against the build's own values.
# The share of the lost Elo won back is (Elo(tuned vs baked) - Elo(start vs baked)) /
# -Elo(start vs baked).
#
# Usage: scripts/recovery_uci.sh [probe|trace]
# Environment: DATA (positions to fit on; default the set today's build was tuned on), POSITIONS
# (fit on the file's first POSITIONS lines only, whole games, to shorten the probing; default all),
# TC (3+0.03), CHECK_GAMES (the verification's cap and the tuned values' match, 1000), START_GAMES
# (the perturbed start's match against the build: its loss is large, so fewer games measure it well
# enough; default CHECK_GAMES), OUT (reports/recovery-uci). Reruns reuse finished runs and
# measurements (delete a folder to redo it).
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=${1:-probe}
TC=${TC:-3+0.03}
CHECK_GAMES=${CHECK_GAMES:-1000}
START_GAMES=${START_GAMES:-$CHECK_GAMES}
OUT=${OUT:-reports/recovery-uci}
DATA=${DATA:-datasets/whetstone-selfplay4-1365k-eth8.epd.gz}
NAMES=(bishop_pair_mg bishop_pair_eg rook_open_file_mg rook_open_file_eg
    rook_semi_open_file_mg rook_semi_open_file_eg knight_outpost_mg knight_outpost_eg)

cargo build --release -p whetstone-tuner
CARGO_TARGET_DIR=target/tunables cargo build --release -p whetstone --features uci-tunables
tune=target/release/tune
engine=target/tunables/release/whetstone
mkdir -p "$OUT"
if [[ -n ${POSITIONS:-} ]]; then
    sample="$OUT/first-$POSITIONS.epd"
    [[ -f $sample ]] || { zcat -f "$DATA" | head -n "$POSITIONS" > "$sample"; }
    DATA=$sample
fi

perturbed=()
for name in "${NAMES[@]}"; do
    perturbed+=(--engine-option "$name=-100")
done

# The tuning run through the binary, resumed if it was interrupted, skipped if it finished.
if [[ ! -f "$OUT/$MODE/options.txt" ]]; then
    resume=()
    [[ -d "$OUT/$MODE" ]] && resume=(--resume)
    case $MODE in
        probe) what=(--probe "${NAMES[@]}" --fresh new-game) ;;
        trace) what=(--trace) ;;
        *) echo "unknown mode '$MODE' (probe, trace)" >&2; exit 2 ;;
    esac
    "$tune" texel --engine "$engine" "${perturbed[@]}" "${what[@]}" --data "$DATA" \
        --verify-tc "$TC" --verify-games "$CHECK_GAMES" --quiet --out "$OUT/$MODE" "${resume[@]}"
fi

# A match against the build's own values at the clock, unless it has been played.
measure() { # NAME GAMES OPTIONS...
    local name=$1 games=$2
    shift 2
    [[ -f "$OUT/$name-vs-baked/summary.json" ]] && return
    "$tune" match --engine "$engine" "$@" --opponent "$engine" --tc "$TC" --games "$games" \
        --seed 7 --quiet --out "$OUT/$name-vs-baked"
}

measure start "$START_GAMES" "${perturbed[@]}"
tuned=()
while read -r line; do
    [[ $line =~ ^setoption\ name\ (.*)\ value\ (.*)$ ]] && tuned+=(--engine-option "${BASH_REMATCH[1]}=${BASH_REMATCH[2]}")
done < "$OUT/$MODE/options.txt"
measure "$MODE" "$CHECK_GAMES" "${perturbed[@]}" "${tuned[@]}"

python3 - "$OUT" "$MODE" <<'EOF'
import json, sys
out, mode = sys.argv[1], sys.argv[2]
def summary(name):
    return json.load(open(f"{out}/{name}-vs-baked/summary.json"))
start, tuned = summary("start"), summary(mode)
lost, lost_err = -start["elo"], start["elo_error"]
share = (tuned["elo"] + lost) / lost
err = ((tuned["elo_error"] / lost) ** 2 + ((share - 1) * lost_err / lost) ** 2) ** 0.5
print(f"start vs baked: {start['elo']:+.1f} ± {lost_err:.1f} over {start['games']} games")
print(f"{mode} vs baked: {tuned['elo']:+.1f} ± {tuned['elo_error']:.1f}: {100 * share:.0f}% ± {100 * err:.0f}% recovered")
EOF
