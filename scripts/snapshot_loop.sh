#!/bin/bash
# Commits a long run's folder into the repo every 20 minutes while its process lives, so that a
# sitting that ends with its machine loses at most 20 minutes of games (scripts/snapshot_run.sh
# makes the tarball; only that path is committed, so work in progress elsewhere is untouched).
# Usage: scripts/snapshot_loop.sh RUN TARBALL PATTERN [MINUTES]
#   e.g. nohup scripts/snapshot_loop.sh /work/runs/spsa-clock reports/runs/spsa-clock.tar.gz \
#          "auto --params params/eval.toml --stages spsa" &
# PATTERN is matched against running commands (pgrep -f); the loop ends when none matches.
set -uo pipefail
cd "$(dirname "$0")/.."
RUN=${1:?usage: $0 RUN TARBALL PATTERN [MINUTES]}
DEST=${2:?tarball}
PATTERN=${3:?pattern}
MINUTES=${4:-20}
# This loop's own command line (and its subshells') holds the pattern too: leave it out.
running() { pgrep -af -- "$PATTERN" | grep -v snapshot_loop | grep -q .; }
while running; do
  sleep $((MINUTES * 60))
  scripts/snapshot_run.sh "$RUN" "$DEST" >/dev/null || continue
  # The newest line of an SPSA's log or a match's journal, to say how far the snapshot goes.
  last=$(tail -qn1 "$RUN"/cycle-*/spsa/log.csv "$RUN"/journal.jsonl 2>/dev/null | tail -n1 | cut -c1-60)
  git add -f "$DEST" && git commit -q -m "$(basename "$DEST" .tar.gz) run folder snapshot (${last:-no log yet})" -- "$DEST"
done
