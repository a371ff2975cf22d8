#!/usr/bin/env python3
"""Where a match against another engine is lost, from a `tune match` PGN's `{score/depth time}` comments.

Prints, for each engine, the time per move and mean depth in 20-ply buckets after the book, and for
ENGINE's losses the move after which the winner's score stays at +1.00 or more: its ply bucket and how
often ENGINE's own score was still above -0.30 there (a loss it did not see coming).

With --positions OUT.epd, also writes the positions of those unseen losses (ENGINE to move, its last
move before the turn; needs python-chess), for deeper searches or other engines to judge whether the
loss was beyond the horizon or misjudged.

Usage: scripts/pgn_where_lost.py GAMES.pgn [ENGINE] [--positions OUT.epd]   (ENGINE defaults to "whetstone")
"""
import argparse
import collections
import io
import re

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
        yield headers, moves, chunk


def position_before(chunk, ply):
    """The FEN before the move at `ply` of a game's PGN text (python-chess replays it)."""
    import chess.pgn

    game = chess.pgn.read_game(io.StringIO(chunk))
    board = game.board()
    for move in list(game.mainline_moves())[:ply]:
        board.push(move)
    return board.fen()


def main():
    parser = argparse.ArgumentParser(description="Where a match is lost, from a tune match PGN.")
    parser.add_argument("pgn")
    parser.add_argument("engine", nargs="?", default="whetstone")
    parser.add_argument("--positions", help="write the unseen losses' positions here (EPD)")
    args = parser.parse_args()
    path, engine = args.pgn, args.engine
    written = []
    time, depth, per_game = (collections.defaultdict(lambda: collections.defaultdict(list)) for _ in range(3))
    buckets, unseen, losses = collections.Counter(), 0, 0
    for headers, moves, chunk in games(path):
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
        ours = [(ply, s) for ply, (m, s, _, _) in enumerate(moves) if m == engine and ply < turn]
        if ours and ours[-1][1] > -0.30:
            unseen += 1
            if args.positions:
                ply, ours_then = ours[-1]
                their_score = dict(theirs)[turn]
                written.append(f'{position_before(chunk, ply)} c0 "{engine} {ours_then:+.2f} at ply {ply}, '
                               f'winner {their_score:+.2f} at ply {turn}";')
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
    if args.positions:
        with open(args.positions, "w") as out:
            out.writelines(line + "\n" for line in written)
        print(f"{len(written)} positions written to {args.positions}")


if __name__ == "__main__":
    main()
