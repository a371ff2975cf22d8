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
# enough; default CHECK_GAMES), FIT (more options of the fit: `FIT='--l2 0'` lets the values
# go where the data says rather than holding them near the perturbed start), OUT
# (reports/recovery-uci). Reruns reuse finished runs and measurements (delete a folder to redo
# it); an interrupted run or match resumes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/recovery_lib.sh

MODE=${1:-probe}
TC=${TC:-3+0.03}
CHECK_GAMES=${CHECK_GAMES:-1000}
START_GAMES=${START_GAMES:-$CHECK_GAMES}
OUT=${OUT:-reports/recovery-uci}
VS=baked
fixed=()
read -r -a fit <<< "${FIT:-}"
NAMES=(bishop_pair_mg bishop_pair_eg rook_open_file_mg rook_open_file_eg
    rook_semi_open_file_mg rook_semi_open_file_eg knight_outpost_mg knight_outpost_eg)

cargo build --release -p whetstone-tuner
CARGO_TARGET_DIR=target/tunables cargo build --release -p whetstone --features uci-tunables
tune=target/release/tune
engine=target/tunables/release/whetstone
mkdir -p "$OUT"
DATA=$(sample_data "${DATA:-datasets/whetstone-selfplay4-1365k-eth8.epd.gz}" "${POSITIONS:-}")

perturbed=()
for name in "${NAMES[@]}"; do
    perturbed+=(--engine-option "$name=-100")
done

# The tuning run through the binary, resumed if it was interrupted, skipped if it finished.
if ! verified "$OUT/$MODE"; then
    resume=()
    [[ -d "$OUT/$MODE" ]] && resume=(--resume)
    case $MODE in
        probe) what=(--probe "${NAMES[@]}" --fresh new-game) ;;
        trace) what=(--trace) ;;
        *) echo "unknown mode '$MODE' (probe, trace)" >&2; exit 2 ;;
    esac
    "$tune" texel --engine "$engine" "${perturbed[@]}" "${what[@]}" --data "$DATA" "${fit[@]}" \
        --verify-tc "$TC" --verify-games "$CHECK_GAMES" --quiet --out "$OUT/$MODE" "${resume[@]}"
fi

measure start "$START_GAMES" "$engine" "${perturbed[@]}"
mapfile -t tuned < <(tuned_options "$OUT/$MODE/options.txt")
measure "$MODE" "$CHECK_GAMES" "$engine" "${perturbed[@]}" "${tuned[@]}"
share start "$MODE"
