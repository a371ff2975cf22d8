#!/usr/bin/env python3
"""A UCI engine for the tests of fitness/engine.rs, whose strength depends on its options.

Usage: knob_engine.py [MODE]   MODE: play (default), crash-on-uci, no-uciok

It plays a knight shuffle (Ng1-f3-g1..., Ng8-f6-g8...), legal from any position with both king's
knights at home and f3/f6 empty, such as those of knight_book.epd; the shuffle repeats the start
position a third time on ply 8, a draw.

In each game it is strong with probability
    p = clamp(1 - |Knob - 30| / 150 - |Blend - 0.25|, 0, 1),
drawn from the start position, the colour it plays and its option values, so the same game with
the same values is the same game. A strong side reports `score cp 1000`, a weak one `cp -1000`:
a weak side against a strong one is adjudicated lost by resignation after three moves each; two
strong or two weak sides draw. With Failure=crash a weak side exits (status 3) on its first `go`
instead; with Failure=hang it answers `go` only on `stop` (a time forfeit).
"""
import os
import random
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "play"
options = {"knob": "0", "blend": "0.25", "failure": "none", "hash": "16", "toggle": "false"}


def say(text):
    os.write(1, (text + "\n").encode())


def strong(start, colour):
    knob, blend = int(options["knob"]), float(options["blend"])
    p = min(1.0, max(0.0, 1 - abs(knob - 30) / 150 - abs(blend - 0.25)))
    return random.Random(f"{start}|{colour}|{knob}|{blend}").random() < p


def move(ply):
    """The shuffle's move at `ply` from a position with White to move."""
    n = ply // 2
    if ply % 2 == 0:
        return "g1f3" if n % 2 == 0 else "f3g1"
    return "g8f6" if n % 2 == 0 else "f6g8"


def main():
    position = "position startpos"
    for line in sys.stdin:
        words = line.split()
        command = words[0] if words else ""
        if command == "uci":
            if MODE == "crash-on-uci":
                sys.exit(5)
            say("id name KnobEngine")
            if MODE == "no-uciok":
                continue
            say("option name Hash type spin default 16 min 1 max 1024")
            say("option name Knob type spin default 0 min -100 max 100")
            say("option name Blend type string default 0.25")
            say("option name Failure type combo default none var none var crash var hang")
            say("option name Toggle type check default false")
            say("uciok")
        elif command == "isready":
            if MODE != "no-uciok":
                say("readyok")
        elif command == "setoption" and "name" in words and "value" in words:
            name = " ".join(words[words.index("name") + 1 : words.index("value")]).lower()
            options[name] = " ".join(words[words.index("value") + 1 :])
        elif command == "position":
            position = line.strip()
        elif command == "go":
            start, _, moves = position.partition(" moves ")
            ply = len(moves.split())
            colour = "white" if ply % 2 == 0 else "black"
            best = move(ply)
            if not strong(start, colour):
                if options["failure"] == "crash":
                    sys.exit(3)
                if options["failure"] == "hang":
                    for waiting in sys.stdin:
                        if waiting.strip() == "stop":
                            break
            score = 1000 if strong(start, colour) else -1000
            say(f"info depth 1 score cp {score} nodes 1 pv {best}")
            say(f"bestmove {best}")
        elif command == "quit":
            return


main()
