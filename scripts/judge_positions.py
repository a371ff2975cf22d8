#!/usr/bin/env python3
"""Scores the positions of an EPD file with UCI engines at a fixed time each: for each position, each
engine's score from the side to move's view (centipawns; mates as +-100 pawns), and a summary of how
often each engine's score falls to THRESHOLD or below (the side to move is losing).

Used on the positions `scripts/pgn_where_lost.py --positions` writes (a match's losses that the loser
did not see coming): if the loser's engine sees the loss with ten times the game's thinking time, the
horizon hid it (search); if not, while a stronger engine sees it, the evaluation misjudged it.

Usage: scripts/judge_positions.py POSITIONS.epd --engine NAME=COMMAND[@SECONDS] ... [--threshold -0.50]
       [--option NAME:OPTION=VALUE ...] [--out TABLE.tsv]
Needs python-chess (`pip install chess`).
"""
import argparse
import sys

import chess
import chess.engine


def parse_engine(text):
    name, _, rest = text.partition("=")
    command, _, seconds = rest.rpartition("@") if "@" in rest else (rest, "", "1")
    if not name or not command:
        sys.exit(f"--engine {text!r}: expected NAME=COMMAND[@SECONDS]")
    return name, command, float(seconds)


def score_cp(info, turn):
    score = info["score"].pov(turn)
    return score.score(mate_score=10_000)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions")
    parser.add_argument("--engine", action="append", required=True, help="NAME=COMMAND[@SECONDS]")
    parser.add_argument("--option", action="append", default=[], help="NAME:OPTION=VALUE")
    parser.add_argument("--threshold", type=float, default=-0.50, help="losing at or below (pawns)")
    parser.add_argument("--out", help="a table of every score (tab-separated)")
    args = parser.parse_args()

    boards = []
    for number, line in enumerate(open(args.positions), 1):
        fields = line.split()
        if not fields:
            continue
        try:
            boards.append(chess.Board(" ".join(fields[:4]) + " 0 1"))
        except ValueError as error:
            sys.exit(f"{args.positions}:{number}: not a position: {error}")

    engines = [parse_engine(text) for text in args.engine]
    scores = {}
    for name, command, seconds in engines:
        options = {}
        for text in args.option:
            who, _, setting = text.partition(":")
            key, _, value = setting.partition("=")
            if who == name:
                options[key] = value
        with chess.engine.SimpleEngine.popen_uci(command.split()) as engine:
            engine.configure(options)
            scores[name] = []
            for board in boards:
                info = engine.analyse(board, chess.engine.Limit(time=seconds), game=object())
                scores[name].append(score_cp(info, board.turn))
        losing = sum(s <= args.threshold * 100 for s in scores[name])
        mean = sum(max(-1000, min(1000, s)) for s in scores[name]) / len(boards)
        print(f"{name} ({seconds:g} s each): {losing}/{len(boards)} at or below {args.threshold:+.2f}, "
              f"mean {mean / 100:+.2f} (scores clamped to +-10)")

    names = [name for name, _, _ in engines]
    if len(names) >= 2:
        first, last = names[0], names[-1]
        for name in names[1:-1] + [first]:
            both = sum(
                s <= args.threshold * 100 and r <= args.threshold * 100
                for s, r in zip(scores[name], scores[last])
            )
            print(f"losing for {last} and for {name}: {both}")
    if args.out:
        with open(args.out, "w") as out:
            out.write("fen\t" + "\t".join(names) + "\n")
            for k, board in enumerate(boards):
                out.write(board.fen() + "\t" + "\t".join(str(scores[n][k]) for n in names) + "\n")


if __name__ == "__main__":
    main()
