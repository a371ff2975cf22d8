# Shared by the recovery scripts over UCI (recovery_uci.sh, recovery_glaurung.sh); sourced, not
# run. The caller sets `tune` (the tuner binary), OUT (the folder of the measurements), TC, the
# array `fixed` (options both sides of every match run with) and VS (the name of what the matches
# are against: the folders are $OUT/NAME-vs-$VS).

# Prints the path of DATA's first POSITIONS lines (written once into $OUT), or DATA itself when
# POSITIONS is empty.
sample_data() { # DATA POSITIONS
    local data=$1 positions=${2:-}
    if [[ -z $positions ]]; then
        echo "$data"
        return
    fi
    local sample="$OUT/first-$positions.epd"
    if [[ ! -f $sample ]]; then
        # head closes the pipe once it has its lines: zcat's SIGPIPE is expected, not a failure.
        (set +o pipefail; zcat -f "$data" | head -n "$positions" > "$sample.part")
        mv "$sample.part" "$sample"
    fi
    echo "$sample"
}

# Whether the match in DIR has played all its games (an interrupted one writes its summary too).
played() { # DIR
    [[ -f $1/summary.json ]] &&
        python3 -c 'import json, sys; sys.exit(1 if json.load(open(sys.argv[1])).get("interrupted") else 0)' \
            "$1/summary.json"
}

# A match at the clock of ENGINE with OPTIONS... against ENGINE with only the options in the array
# `fixed` (its own values otherwise), in $OUT/NAME-vs-$VS, unless it has been played.
measure() { # NAME GAMES ENGINE OPTIONS...
    local name=$1 games=$2 engine=$3
    shift 3
    played "$OUT/$name-vs-$VS" && return
    local resume=()
    [[ -d "$OUT/$name-vs-$VS" ]] && resume=(--resume)
    local opponent=()
    for ((i = 1; i < ${#fixed[@]}; i += 2)); do
        opponent+=(--opponent-option "${fixed[i]}")
    done
    "$tune" match --engine "$engine" "${fixed[@]}" "$@" --opponent "$engine" "${opponent[@]}" \
        --tc "$TC" --games "$games" --seed 7 --quiet --out "$OUT/$name-vs-$VS" "${resume[@]}"
}

# The `--engine-option Name=Value` words of a run's options.txt (setoption lines).
tuned_options() { # FILE
    local line
    while read -r line; do
        [[ $line =~ ^setoption\ name\ (.*)\ value\ (.*)$ ]] &&
            printf '%s\n' --engine-option "${BASH_REMATCH[1]}=${BASH_REMATCH[2]}"
    done < "$1"
}

# Whether the run in DIR has ended with its verdict (its result.json's `verdict`): a run killed
# during its verification has its values but must be resumed for the rest of its games.
verified() { # DIR
    [[ -f $1/result.json ]] &&
        python3 -c 'import json, sys; sys.exit(0 if "verdict" in json.load(open(sys.argv[1])) else 1)' \
            "$1/result.json"
}

# Whether the run in DIR moved a value (its run.json's `changed`).
moved() { # DIR
    python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["results"].get("changed") else 1)' \
        "$1/run.json"
}

# The share of the start's loss that the tuned values won back, from the two matches' summaries.
share() { # START_NAME TUNED_NAME
    python3 - "$OUT" "$VS" "$1" "$2" <<'PY'
import json, sys
out, vs, start_name, tuned_name = sys.argv[1:]
def summary(name):
    return json.load(open(f"{out}/{name}-vs-{vs}/summary.json"))
start, tuned = summary(start_name), summary(tuned_name)
lost, lost_err = -start["elo"], start["elo_error"]
if lost - lost_err <= 0:
    sys.exit(f"{start_name} vs {vs}: {start['elo']:+.1f} ± {lost_err:.1f} over {start['games']} games: "
             "no loss measured, so no share of it (play more games or perturb further)")
share = (tuned["elo"] + lost) / lost
err = ((tuned["elo_error"] / lost) ** 2 + ((share - 1) * lost_err / lost) ** 2) ** 0.5
print(f"{start_name} vs {vs}: {start['elo']:+.1f} ± {lost_err:.1f} over {start['games']} games")
print(f"{tuned_name} vs {vs}: {tuned['elo']:+.1f} ± {tuned['elo_error']:.1f} over {tuned['games']} games: "
      f"{100 * share:.0f}% ± {100 * err:.0f}% recovered")
PY
}
