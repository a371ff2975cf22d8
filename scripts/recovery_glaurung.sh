#!/usr/bin/env bash
# Recovery of a real engine that nobody here wrote (issue 59, docs/external-engines.md): Glaurung
# 2.2 (Debian's `glaurung`; evaluation weights as UCI options, no static-evaluation command, so
# its depth-1 search's score stands for the evaluation), four evaluation options perturbed
# (mobility at 25% and passed pawns at 180% of their weight, each middle game and end game), won back through its
# binary, and measured at a clock against Glaurung's own values:
#   probe  `tune texel --engine --probe` on DATA (labelled positions of any games)
#   auto   `tune auto --engine` for HOURS unattended: Glaurung's own games (datagen), then Texel
#          by probing on them and on DATA, each stage kept only when its SPRT passes
# The share of the lost Elo won back is (Elo(tuned vs defaults) - Elo(start vs defaults)) /
# -Elo(start vs defaults). Both sides of every game run Threads=1, Hash=16, OwnBook=false,
# Ponder=false (Glaurung's defaults are two threads and its own book).
#
# Usage: scripts/recovery_glaurung.sh [probe|auto]
# Environment: ENGINE (/usr/games/glaurung), DATA (default the set today's build was tuned on),
# POSITIONS (fit on DATA's first POSITIONS lines, 300000), TC (3+0.03), CHECK_GAMES (the
# verification's cap and the tuned values' match, 600), START_GAMES (the start's match, 300),
# HOURS (auto's budget, 1), DATAGEN_GAMES (auto's games per datagen stage, 1000), FIT (more
# options of the fit, in both modes: default `--l2 0`, so that the values go where the data says
# rather than being held near the perturbed start), LOOP_TC and LOOP_GAMES (auto's verification
# of each stage: clock and cap, default TC and CHECK_GAMES; at 3+0.03 a cap that lets an SPRT
# [0, 5] decide does not fit an hour's budget on 2 cores), OUT (reports/recovery-glaurung).
# Reruns reuse finished runs and measurements; an interrupted run or match resumes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/recovery_lib.sh

MODE=${1:-probe}
ENGINE=${ENGINE:-/usr/games/glaurung}
TC=${TC:-3+0.03}
CHECK_GAMES=${CHECK_GAMES:-600}
START_GAMES=${START_GAMES:-300}
HOURS=${HOURS:-1}
LOOP_TC=${LOOP_TC:-$TC}
LOOP_GAMES=${LOOP_GAMES:-$CHECK_GAMES}
DATAGEN_GAMES=${DATAGEN_GAMES:-1000}
OUT=${OUT:-reports/recovery-glaurung}
VS=defaults
FIT=${FIT---l2 0}
read -r -a fit <<< "$FIT"
NAMES=("Mobility (Middle Game)" "Mobility (Endgame)" "Passed Pawns (Middle Game)" "Passed Pawns (Endgame)")
START=(25 25 180 180)
fixed=(--engine-option Threads=1 --engine-option Hash=16 --engine-option OwnBook=false
    --engine-option Ponder=false)
# Glaurung prints no static evaluation: a depth-1 search after `ucinewgame` stands for it.
EVAL=(--eval-command "go depth 1" --eval-pattern "score cp (-?[0-9]+)"
    --eval-perspective side-to-move --fresh new-game)

[[ -x $ENGINE ]] || { echo "no engine at $ENGINE (apt-get install glaurung)" >&2; exit 2; }
cargo build --release -p whetstone-tuner
tune=target/release/tune
mkdir -p "$OUT"
DATA=$(sample_data "${DATA:-datasets/whetstone-selfplay4-1365k-eth8.epd.gz}" "${POSITIONS-300000}")

perturbed=()
for i in "${!NAMES[@]}"; do
    perturbed+=(--engine-option "${NAMES[i]}=${START[i]}")
done

# The tuning run through the binary, resumed if it was interrupted; a finished probe run is
# skipped, a finished auto run ends at once (its budget is spent).
if [[ $MODE == auto ]] || ! verified "$OUT/$MODE"; then
    resume=()
    [[ -d "$OUT/$MODE" ]] && resume=(--resume)
    case $MODE in
        probe)
            "$tune" texel --engine "$ENGINE" "${fixed[@]}" "${perturbed[@]}" --probe "${NAMES[@]}" \
                "${EVAL[@]}" --data "$DATA" "${fit[@]}" --verify-tc "$TC" --verify-games "$CHECK_GAMES" --quiet \
                --out "$OUT/$MODE" "${resume[@]}"
            ;;
        auto)
            "$tune" auto --engine "$ENGINE" "${fixed[@]}" "${perturbed[@]}" --probe "${NAMES[@]}" \
                --stages datagen,texel --hours "$HOURS" --datagen-games "$DATAGEN_GAMES" --data "$DATA" \
                --texel-args "--eval-command 'go depth 1' --eval-pattern 'score cp (-?[0-9]+)' \
                --eval-perspective side-to-move --fresh new-game $FIT" --verify-tc "$LOOP_TC" \
                --verify-games "$LOOP_GAMES" --quiet --out "$OUT/$MODE" "${resume[@]}"
            ;;
        *) echo "unknown mode '$MODE' (probe, auto)" >&2; exit 2 ;;
    esac
fi

measure start "$START_GAMES" "$ENGINE" "${perturbed[@]}"
mapfile -t tuned < <(tuned_options "$OUT/$MODE/options.txt")
if ((${#tuned[@]} == 0)) || { [[ $MODE == probe ]] && ! moved "$OUT/$MODE"; }; then
    echo "$MODE moved no value (see $OUT/$MODE/result.json): nothing won back"
    exit 0
fi
measure "$MODE" "$CHECK_GAMES" "$ENGINE" "${perturbed[@]}" "${tuned[@]}"
share start "$MODE"
