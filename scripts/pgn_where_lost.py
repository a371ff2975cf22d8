#!/usr/bin/env python3
"""Where a match against another engine is lost, from a `tune match` PGN's `{score/depth time}` comments.

Prints, for each engine, the time per move and mean depth in 20-ply buckets after the book, and for
ENGINE's losses the move after which the winner's score stays at +1.00 or more: its ply bucket and how
often ENGINE's own score was still above -0.30 there (a loss it did not see coming).

Usage: scripts/pgn_where_lost.py GAMES.pgn [ENGINE]   (ENGINE defaults to "whetstone")
"""
import collections
import re
import sys

COMMENT = re.compile(r"\{([+-]?[\d.M#-]+)/(\d+) ([\d.]+)s\}")


def score(text):
    if "M" in text or "#" in text:
        return -100.0 if text.startswith("-") else 100.0
    return float(text)


def games(path):
    """(headers, [(mover, score, depth, seconds)]) per game, the comments' whitespace normalised."""
    for chunk in re.split(r"\n(?=\[Event )", open(path).read()):
        headers = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        if "White" not in headers or "\n\n" not in chunk:
            continue
        body = " ".join(chunk.split("\n\n", 1)[1].split())
        fen = headers.get("FEN", "")
        white_first = (" w " in fen) if fen else True
        first, second = (headers["White"], headers["Black"]) if white_first else (headers["Black"], headers["White"])
        moves = [((first, second)[i % 2], score(s), int(d), float(t)) for i, (s, d, t) in enumerate(COMMENT.findall(body))]
        yield headers, moves


def main():
    path, engine = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "whetstone")
    time, depth, per_game = (collections.defaultdict(lambda: collections.defaultdict(list)) for _ in range(3))
    buckets, unseen, losses = collections.Counter(), 0, 0
    for headers, moves in games(path):
        totals = collections.Counter()
        for ply, (mover, _, d, t) in enumerate(moves):
            time[mover][min(ply // 20, 5)].append(t)
            depth[mover][min(ply // 20, 5)].append(d)
            totals[mover] += t
        for mover, total in totals.items():
            per_game[mover]["all"].append(total)
        we_white = headers["White"] == engine
        if headers["Result"] != ("0-1" if we_white else "1-0"):
            continue
        losses += 1
        theirs = [(ply, s) for ply, (m, s, _, _) in enumerate(moves) if m != engine]
        turn = next((ply for k, (ply, _) in enumerate(theirs) if all(s >= 1.0 for _, s in theirs[k:])), None)
        if turn is None:
            continue
        buckets[min(turn // 20, 5)] += 1
        ours = [s for ply, (m, s, _, _) in enumerate(moves) if m == engine and ply < turn]
        unseen += bool(ours) and ours[-1] > -0.30
    for mover in time:
        games_played = per_game[mover]["all"]
        print(f"{mover}: {len(games_played)} games, {sum(games_played) / len(games_played):.1f} s thinking per game")
        for b in sorted(time[mover]):
            t, d = time[mover][b], depth[mover][b]
            span = f"{b * 20}-{b * 20 + 19}" if b < 5 else "100+"
            print(f"  plies {span:>7}: {len(t):5} moves, {sum(t) / len(t):.3f} s, depth {sum(d) / len(d):.1f}")
    print(f"{engine} lost {losses}; the winner's score stays >= +1.00 from a move in plies (20-ply buckets): "
          + ", ".join(f"{b * 20}+: {n}" for b, n in sorted(buckets.items())))
    print(f"{engine}'s own score above -0.30 at that move: {unseen}")


if __name__ == "__main__":
    main()
