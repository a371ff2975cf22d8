#!/bin/bash
# Keeps a long run resumable on another machine: its run folder (without the report's images,
# which `tune report` regenerates) as one tarball in the repo, to commit as the run goes.
#   scripts/snapshot_run.sh /work/runs/s76/auto-texel reports/runs/test65-auto-texel.tar.gz
# Restore on a fresh machine, then resume with the run's own command and --resume:
#   mkdir -p /work/runs/s76 && tar -xzf reports/runs/test65-auto-texel.tar.gz -C /work/runs/s76
set -euo pipefail
RUN=${1:?run folder}
DEST=${2:?tarball}
mkdir -p "$(dirname "$DEST")"
# Each games.pgn is copied again after the whole folder, so it is at least as long as the
# journal copied before it records (a resume cuts it back to the journal's last whole pair).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a "$RUN" "$tmp/"
name=$(basename "$RUN")
find "$tmp/$name" -name games.pgn | while read -r g; do cp "$RUN/${g#"$tmp/$name/"}" "$g"; done
tar --exclude='report' -czf "$DEST" -C "$tmp" "$name"
ls -l "$DEST"
