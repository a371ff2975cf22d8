#!/usr/bin/env python3
"""Time and depth per move by game phase, for each engine of a PGN whose moves carry
`{score/depth time}` comments (as `tune match` writes them, wrapped across lines or not).

Usage: scripts/time_use.py GAMES.pgn

Moves are counted from the end of the opening book (the game's FEN) and grouped by ten; the
last group holds every move from 60 on. Why: to see whether a score gap against an opponent
moves with the clock because one side spends its time differently (docs/strength.md).

Where the games carry a `TimeControl` tag (`10`, `10+0.1`, `40/10`: moves per period, seconds,
increment), it also gives each engine's clock before its moves, rebuilt from the times spent: the
least over all games and the median of each game's least, which show how close to a time loss the
engine plays at sudden death or at the end of a moves-to-go period.

The games are read with python-chess (`pip install chess`), so each comment belongs to the side
that made its move: a move without a timing comment (a book move, a final note) shifts nothing.
"""
import collections
import re
import sys

import chess.pgn

TIMING = re.compile(r"[+-]?[\d.M#-]+/(\d+)\s+([\d.]+)s")


def parse_time_control(tag):
    """(moves per period or None, base seconds, increment seconds) from a PGN TimeControl tag."""
    match = re.fullmatch(r"(?:(\d+)/)?([\d.]+)(?:\+([\d.]+))?", tag or "")
    if match is None:
        return None
    moves, base, inc = match.groups()
    return (int(moves) if moves else None, float(base), float(inc or 0))


def least_clock(spent, control):
    """The least time on the clock before any of one engine's moves, given its times spent in order."""
    moves, base, inc = control
    clock, least = base, base
    for j, used in enumerate(spent):
        if j > 0 and moves and j % moves == 0:
            clock += base
        least = min(least, clock)
        clock += inc - used
    return min(least, clock)


def main(path):
    seconds = collections.defaultdict(lambda: collections.defaultdict(list))
    depths = collections.defaultdict(lambda: collections.defaultdict(list))
    least = collections.defaultdict(list)
    with open(path, encoding="utf-8") as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            names = {chess.WHITE: game.headers.get("White", "?"), chess.BLACK: game.headers.get("Black", "?")}
            control = parse_time_control(game.headers.get("TimeControl"))
            spent_by = {name: [] for name in names.values()}
            moves_made = collections.Counter()
            for node in game.mainline():
                mover = not node.turn()
                engine = names[mover]
                group = min(moves_made[mover] // 10, 6)
                moves_made[mover] += 1
                timing = TIMING.search(node.comment)
                if timing is None:
                    continue
                depth, spent = int(timing.group(1)), float(timing.group(2))
                seconds[engine][group].append(spent)
                depths[engine][group].append(depth)
                spent_by[engine].append(spent)
            if control is not None:
                for engine, spent in spent_by.items():
                    if spent:
                        least[engine].append(least_clock(spent, control))
    print("engine | " + " | ".join(f"moves {g * 10}-{g * 10 + 9 if g < 6 else ''}" for g in range(7)))
    for engine, groups in seconds.items():
        cells = []
        for g in range(7):
            spent, depth = groups.get(g, []), depths[engine].get(g, [])
            cells.append(f"{sum(spent) / len(spent):.3f} s, depth {sum(depth) / len(depth):.1f}" if spent else "-")
        print(f"{engine} | " + " | ".join(cells))
    for engine, values in least.items():
        values.sort()
        print(f"{engine}: least clock before a move {values[0]:.3f} s over {len(values)} games, "
              f"median of each game's least {values[len(values) // 2]:.3f} s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
