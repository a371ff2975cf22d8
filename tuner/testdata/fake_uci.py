#!/usr/bin/env python3
"""A fake UCI engine for the tests of uci_engine.rs.

Usage: fake_uci.py MODE [LOGFILE]

Every line received is appended to LOGFILE (when given), so tests can check what was sent.
The bestmove answers a position with N moves played is MOVES[N % len(MOVES)], so a stale
answer to an earlier position is told apart from the right one.

MODE:
  good                 answers everything; `go movetime N` thinks N ms (or until `stop`), `go infinite`
                       until `stop`, other limits answer at once
  hang-once            the first `go` is answered only on `stop`; later ones at once
  hang-once-slow-stop  as hang-once, but answers the `stop` 0.5 s late
  ignore-stop          never answers `go`, ignores `stop`
  ignore-quit          as good, but ignores `quit` and the end of its input (it must be killed)
  crash-on-go          exits with status 3 on `go`
  crash-on-uci         exits with status 5 on `uci`
  no-uciok             sends `id name` but never `uciok`
  garbage              sends junk (invalid UTF-8, long lines, CRLF) and `bestmove zz99`
"""
import os
import select
import sys
import time

MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
LOG = open(sys.argv[2], "a") if len(sys.argv) > 2 else None
pending = b""


def say(text, end="\n"):
    # os.write is unbuffered: nothing waits in a buffer for a flush.
    os.write(1, (text + end).encode() if isinstance(text, str) else text + end.encode())


def read_line(timeout=None):
    """The next input line; None on time-out, "" at the end of input. Reads raw bytes so that
    select() sees lines that arrive together (position and go come in one write)."""
    global pending
    deadline = None if timeout is None else time.monotonic() + timeout
    while b"\n" not in pending:
        if deadline is not None:
            ready, _, _ = select.select([0], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return None
        chunk = os.read(0, 65536)
        if not chunk:
            return ""
        pending += chunk
    line, pending = pending.split(b"\n", 1)
    text = line.decode(errors="replace").strip()
    if LOG:
        LOG.write(text + "\n")
        LOG.flush()
    return text or " "


def answer(position):
    played = position.split(" moves ", 1)[1].split() if " moves " in position else []
    best = MOVES[len(played) % len(MOVES)]
    say("info string position " + position)
    say("info depth 1 seldepth 1 multipv 1 score cp 13 nodes 20 nps 2000 time 1 pv " + best)
    say("info depth 2 seldepth 4 score mate -3 nodes 150 time 2 pv " + best, end="\r\n")
    say("info  depth 3  seldepth 5 score cp 40 lowerbound nodes 300 time 3 pv " + best)
    say("info depth 3 currmove " + best + " currmovenumber 1")
    say("bestmove " + best + " ponder a7a6")


def think(limit_ms, position, hang):
    """Waits for `stop` (or the time limit), then answers; True if `quit` came meanwhile."""
    deadline = None if limit_ms is None else time.monotonic() + limit_ms / 1000
    while True:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        line = read_line(left)
        if line is None:
            break
        if line == "" or line == "quit":
            sys.exit(0)
        if line == "stop":
            if MODE == "ignore-stop":
                continue
            if MODE == "hang-once-slow-stop":
                time.sleep(0.5)
            break
        if line == "isready" and not hang:
            say("readyok")
    answer(position)


def junk():
    say(b"\xff\xfe not utf-8 \x80")
    say("x" * 100000)
    say("info depth nonsense score cp x nodes -5 pv")
    say("   ", end="\r\n")


def main():
    position = "position startpos"
    gos = 0
    while True:
        line = read_line()
        if line == "":
            if MODE == "ignore-quit":
                time.sleep(60)
            return
        words = line.split()
        command = words[0] if words else ""
        if command == "uci":
            if MODE == "crash-on-uci":
                sys.exit(5)
            if MODE == "garbage":
                junk()
            say("Fake UCI by the tests")
            say("  id   name   FakeUCI 1.0  ", end="\r\n")
            say("id author Nobody")
            if MODE == "no-uciok":
                continue
            say("option name Hash type spin default 16 min 1 max 1024")
            say("option name Skill Level type spin default 20 min 0 max 20")
            say("option name UCI_LimitStrength type check default false")
            say("option name Style type combo default Normal var Solid var Normal var Risky")
            say("option name Clear Hash type button")
            say("option name Debug Log File type string default")
            say("uciok", end="\r\n")
        elif command == "isready":
            if MODE != "no-uciok":
                say("readyok")
        elif command == "setoption":
            say("info string set " + line)
        elif command == "position":
            position = line
        elif command == "go":
            gos += 1
            if MODE == "crash-on-go":
                sys.exit(3)
            if MODE == "garbage":
                junk()
                say("bestmove zz99")
                continue
            hang = MODE == "ignore-stop" or (MODE.startswith("hang-once") and gos == 1)
            if hang or "infinite" in words:
                think(None, position, hang)
            elif "movetime" in words:
                think(int(words[words.index("movetime") + 1]), position, False)
            else:
                answer(position)
        elif command == "quit" and MODE != "ignore-quit":
            return


main()
