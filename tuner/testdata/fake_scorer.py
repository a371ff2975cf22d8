#!/usr/bin/env python3
"""A fake UCI engine for the tests of rescore.rs: its score says which position it searched.

Usage: fake_scorer.py [crash-once FLAGFILE | starts LOGFILE]

`go` answers with `score cp` = 100 x (White's pawns - Black's pawns) + the number of the
position's empty squares, from the side to move's view; a position without a Black queen is
`score mate 2` instead. With `crash-once FLAGFILE`, the first `go` of the first process exits
with status 3 (creating FLAGFILE, so a restarted process does not crash again). With `starts
LOGFILE`, each process appends a line to LOGFILE when it starts.
"""
import os
import sys

crash_flag = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "crash-once" else None
if len(sys.argv) > 2 and sys.argv[1] == "starts":
    with open(sys.argv[2], "a") as log:
        log.write("start\n")
fen = None
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name fake-scorer\noption name Hash type spin default 16 min 1 max 1024\nuciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        fen = " ".join(words[2:8]) if words[1] == "fen" else "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    elif words[0] == "go":
        if crash_flag and not os.path.exists(crash_flag):
            open(crash_flag, "w").close()
            sys.exit(3)
        placement = fen.split()[0]
        white_to_move = fen.split()[1] == "w"
        if "q" not in placement:
            print("info depth 3 score mate 2 pv a1a2", flush=True)
        else:
            empty = sum(int(c) for c in placement if c.isdigit())
            cp = 100 * (placement.count("P") - placement.count("p")) + empty
            print(f"info depth 3 score cp {cp if white_to_move else -cp} nodes 10 pv a1a2", flush=True)
        print("bestmove a1a2", flush=True)
    elif words[0] == "quit":
        break
