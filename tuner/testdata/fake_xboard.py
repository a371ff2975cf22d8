#!/usr/bin/env python3
"""A fake xboard (CECP) engine for the tests of xboard_engine.rs and xboard.rs.

Usage: fake_xboard.py MODE [LOGFILE]

Every line received is appended to LOGFILE (when given), so tests can check what was sent.
It knows no chess: it answers the move of the ply it counts, MOVES[plies % len(MOVES)], where
plies counts the moves since `new`, `setboard` or `edit` (plus one when that position has Black
to move) and its own moves. The script is Fool's mate (1. f3 e5 2. g4 Qh4#), so a game from the
start position ends by mate whichever side it plays.

MODE:
  good          protover 2 with done=1: ping, setboard, usermove, time, options; moves as `move e2e4`
  san           as good, with san=1 (it is sent SAN) and without usermove; moves in SAN
  done0         sends `feature done=0`, then the rest after 2.5 s (past the 2 s default wait)
  done0-never   sends `feature done=0` and never `done=1`
  v1            no protover 2 (answers `Error (unknown command): protover`): no ping, no setboard
  no-sd         as good, but does not understand `sd` (answers `Illegal move: sd N`, as Phalanx)
  crash-on-go   exits with status 3 on `go`
  hang          never answers `go`, ignores `?`
  hang-once     the first `go` is answered only on `?`; later ones at once
  illegal       answers `move a1a5`
  garbage       answers `move zz99`
  refuse        answers the first move of each game with `Illegal move: MOVE`
  resign        answers `go` with `resign`
  resign-after  plays its move, then sends `resign`
  claim         claims `1/2-1/2 {fake claim}` before each move
"""
import os
import select
import sys
import time

MOVES = ["f2f3", "e7e5", "g2g4", "d8h4"]
SAN = ["f3", "e5", "g4", "Qh4#"]
MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
LOG = open(sys.argv[2], "a") if len(sys.argv) > 2 else None
pending = b""


def say(text):
    # os.write is unbuffered: nothing waits in a buffer for a flush.
    os.write(1, (text + "\n").encode())


def read_line(timeout=None):
    """The next input line; None on time-out, "" at the end of input."""
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


def features():
    if MODE == "v1":
        say("Error (unknown command): protover")
        return
    if MODE.startswith("done0"):
        say("feature done=0")
        if MODE == "done0-never":
            return
        time.sleep(2.5)
    if MODE == "san":
        say('feature ping=1 setboard=1 san=1 time=1 myname="FakeXB SAN"')
    else:
        say('feature ping=1 setboard=1 usermove=1 time=1 myname="FakeXB 1.0" sigint=0 memory=1')
    say('feature option="Skill -spin 5 0 10" option="Book -check 1" option="Style -combo *Solid /// Risky"')
    say('feature option="Clear Hash -button" variants="normal,suicide" done=1')


def answer(plies, hang):
    """The move for this ply, after `?` when hanging; True if `quit` came while hanging."""
    if hang:
        while True:
            line = read_line()
            if line == "" or line == "quit":
                sys.exit(0)
            if line == "?" and MODE != "hang":
                break
    say(" 1 13 0 20 " + MOVES[plies % 4])
    say(" 2 -35 1 150 " + MOVES[plies % 4] + " a7a6")
    if MODE == "claim":
        say("1/2-1/2 {fake claim}")
    if MODE == "illegal":
        say("move a1a5")
    elif MODE == "garbage":
        say("move zz99")
    elif MODE == "san":
        say("move " + SAN[plies % 4])
    else:
        say("move " + MOVES[plies % 4])
    if MODE == "resign-after":
        say("resign")


def main():
    plies = 0
    gos = 0
    refused = False
    while True:
        line = read_line()
        if line == "":
            return
        words = line.split()
        command = words[0] if words else ""
        if command == "protover":
            features()
        elif command == "ping":
            if MODE != "v1":
                say("pong " + words[1])
        elif command == "new":
            plies = 0
            refused = False
        elif command == "setboard":
            plies = 1 if words[2] == "b" else 0
        elif command == "a2a3":
            plies = 1
        elif command == "edit":
            while read_line() not in (".", "", None):
                pass
        elif command == "sd" and MODE == "no-sd":
            say("Illegal move: " + line)
        elif command == "go":
            gos += 1
            if MODE == "crash-on-go":
                sys.exit(3)
            if MODE == "resign":
                say("resign")
                continue
            answer(plies, MODE == "hang" or (MODE == "hang-once" and gos == 1))
            plies += 1
        elif command == "quit":
            return
        elif command in ("xboard", "accepted", "rejected", "force", "post", "easy", "level", "st", "sd",
                         "time", "otim", "result", "option", "?"):
            pass
        elif command == "usermove" or (len(command) in (2, 3, 4, 5) and command[0] in "abcdefghKQRBNO"):
            if MODE == "refuse" and not refused:
                refused = True
                say("Illegal move: " + words[-1])
            plies += 1
        else:
            say("Error (unknown command): " + command)


main()
