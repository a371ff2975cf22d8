#!/usr/bin/env python3
"""Time and depth per move by game phase, for each engine of a PGN whose moves carry
`{score/depth time}` comments (as `tune match` writes them).

Usage: scripts/time_use.py GAMES.pgn

Moves are counted from the end of the opening book (the game's FEN) and grouped by ten; the
last group holds every move from 60 on. Why: to see whether a score gap against an opponent
moves with the clock because one side spends its time differently (docs/strength.md).
"""
import collections
import re
import sys


def main(path):
    text = open(path, encoding="utf-8").read()
    seconds = collections.defaultdict(lambda: collections.defaultdict(list))
    depths = collections.defaultdict(lambda: collections.defaultdict(list))
    for game in text.split("[Event ")[1:]:
        white = re.search(r'\[White "([^"]+)"', game).group(1)
        black = re.search(r'\[Black "([^"]+)"', game).group(1)
        side = re.search(r'\[FEN "[^ ]+ ([wb])', game)
        first = 0 if side is None or side.group(1) == "w" else 1
        body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
        for i, (depth, spent) in enumerate(re.findall(r"\{[+-]?[\d.M#-]+/(\d+) ([\d.]+)s\}", body)):
            engine = (white, black)[(i + first) % 2]
            group = min(i // 2 // 10, 6)
            seconds[engine][group].append(float(spent))
            depths[engine][group].append(int(depth))
    print("engine | " + " | ".join(f"moves {g * 10}-{g * 10 + 9 if g < 6 else ''}" for g in range(7)))
    for engine, groups in seconds.items():
        cells = []
        for g in range(7):
            spent, depth = groups.get(g, []), depths[engine].get(g, [])
            cells.append(f"{sum(spent) / len(spent):.3f} s, depth {sum(depth) / len(depth):.1f}" if spent else "-")
        print(f"{engine} | " + " | ".join(cells))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
