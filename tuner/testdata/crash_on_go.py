#!/usr/bin/env python3
"""A UCI engine that starts normally and exits on its first `go` (a crash, for the gauntlet test)."""
import sys

for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name crash-on-go\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        sys.exit(3)
    elif word == "quit":
        break
