#!/usr/bin/env bash
# Dataset read/write throughput on one core (docs/datasets.md#measured): ours against the crates'
# own readers, on 1,000,000 positions of random games in text, EPD, viriformat, bulletformat and
# binpack (written by sfbinpack).
# Takes the machine lock so nothing else heavy runs meanwhile, and prints the load first: a figure
# taken with a load average near 0 is the one to write down.
#
# Usage: scripts/dataset_throughput.sh   (from the repository root)
set -euo pipefail
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
flock /tmp/whetstone-build.lock cargo test --release -p whetstone-tuner --no-run
flock /tmp/whetstone-machine.lock bash -c '
  date -u; uptime
  env WHETSTONE_MEASURE=1 cargo test --release -p whetstone-tuner -- --ignored read_throughput --nocapture 2>&1 | grep -E "^(write|read|load|binpack) "
  uptime'
