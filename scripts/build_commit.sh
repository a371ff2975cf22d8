#!/bin/bash
# Builds the engine of one commit into DIR/ws-COMMIT, once: a git worktree of the commit and a target
# directory of its own (both removed afterwards), the build holding the machine lock. A run folder that
# keeps its binaries this way is not changed by later builds of the checkout.
# Usage: scripts/build_commit.sh COMMIT DIR
set -euo pipefail
cd "$(dirname "$0")/.."
COMMIT=${1:?usage: $0 COMMIT DIR}
DIR=${2:?usage: $0 COMMIT DIR}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
BIN="$DIR/ws-$COMMIT"
[ -x "$BIN" ] && exit 0
rm -rf "$DIR/src-$COMMIT"
git worktree add --detach "$DIR/src-$COMMIT" "$COMMIT" >/dev/null
(cd "$DIR/src-$COMMIT" && flock /tmp/whetstone-machine.lock \
  cargo build --release -p whetstone --target-dir "$DIR/target-$COMMIT")
cp "$DIR/target-$COMMIT/release/whetstone" "$BIN"
git worktree remove --force "$DIR/src-$COMMIT"
rm -rf "$DIR/target-$COMMIT"
