#!/usr/bin/env python3
"""Plays a match between two UCI engines with python-chess, as a GUI would, and checks what a
GUI checks: legal moves only, clocks kept (a flag fall loses), no crash, no hang.

With --nodes N every move searches N nodes and clocks are ignored.

Openings come from an EPD file (one position per line, played from both sides). Results are
printed as W/D/L from the first engine's point of view with an Elo estimate and its 95% error,
plus time losses, illegal moves and crashes; games are written to a PGN file.

Example:
  scripts/match.py --engine target/release/whetstone --opponent /usr/games/stockfish \
      --opponent-option UCI_LimitStrength=true --opponent-option UCI_Elo=1955 \
      --games 200 --tc 10+0.1 --concurrency 2 --pgn reports/match.pgn
"""

import argparse
import concurrent.futures
import math
import random
import sys
import time

import chess
import chess.engine
import chess.pgn


def parse_tc(text):
    """'10+0.1' (base + increment, seconds) or '10/1' (10 moves in 1 s, repeating)."""
    if "/" in text:
        moves, base = text.split("/")
        return {"moves": int(moves), "base": float(base), "inc": 0.0}
    base, _, inc = text.partition("+")
    return {"moves": None, "base": float(base), "inc": float(inc or 0)}


def open_engine(command, options, protocol="uci"):
    if protocol == "xboard":
        engine = chess.engine.SimpleEngine.popen_xboard(command.split())
    else:
        engine = chess.engine.SimpleEngine.popen_uci(command.split())
    for key, value in options.items():
        engine.configure({key: value})
    return engine


def play_game(args, fen, engine_white, tc, game_id):
    """Returns (result from White's view '1-0'/'0-1'/'1/2-1/2', reason, pgn game)."""
    names = [args.engine, args.opponent] if engine_white else [args.opponent, args.engine]
    options = [dict(args.engine_option), dict(args.opponent_option)]
    protocols = ["uci", args.opponent_protocol]
    if not engine_white:
        options.reverse()
        protocols.reverse()
    engines = [open_engine(names[i], options[i], protocols[i]) for i in range(2)]
    board = chess.Board(fen)
    clocks = [tc["base"], tc["base"]]
    moves_played = [0, 0]
    game = chess.pgn.Game()
    game.setup(board)
    game.headers.update({"White": names[0], "Black": names[1], "Round": str(game_id)})
    node = game
    result, reason = None, ""
    try:
        while result is None:
            if board.is_game_over(claim_draw=True):
                outcome = board.outcome(claim_draw=True)
                result, reason = outcome.result(), outcome.termination.name.lower()
                break
            side = 0 if board.turn == chess.WHITE else 1
            if args.nodes:
                limit = chess.engine.Limit(nodes=args.nodes)
            else:
                limit = chess.engine.Limit(
                    white_clock=clocks[0], black_clock=clocks[1],
                    white_inc=tc["inc"], black_inc=tc["inc"],
                    remaining_moves=(tc["moves"] - moves_played[side] % tc["moves"]) if tc["moves"] else None,
                )
            start = time.perf_counter()
            try:
                played = engines[side].play(board, limit)
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
                result, reason = ("0-1" if side == 0 else "1-0"), f"crash or protocol error of {names[side]}: {e}"
                break
            elapsed = time.perf_counter() - start
            clocks[side] -= elapsed
            if clocks[side] < 0 and not args.nodes:
                result, reason = ("0-1" if side == 0 else "1-0"), f"time forfeit of {names[side]}"
                break
            clocks[side] += tc["inc"]
            moves_played[side] += 1
            if tc["moves"] and moves_played[side] % tc["moves"] == 0:
                clocks[side] += tc["base"]
            if played.move is None or played.move not in board.legal_moves:
                result, reason = ("0-1" if side == 0 else "1-0"), f"illegal move {played.move} by {names[side]}"
                break
            node = node.add_variation(played.move)
            board.push(played.move)
    finally:
        for e in engines:
            try:
                e.quit()
            except Exception:
                pass
    game.headers["Result"] = result
    game.headers["Termination"] = reason
    return result, reason, game


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/whetstone")
    ap.add_argument("--engine-option", action="append", default=[], type=lambda s: tuple(s.split("=", 1)))
    ap.add_argument("--opponent", default="/usr/games/stockfish")
    ap.add_argument("--opponent-option", action="append", default=[], type=lambda s: tuple(s.split("=", 1)))
    ap.add_argument("--opponent-protocol", choices=["uci", "xboard"], default="uci")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tc", default="1+0.01")
    ap.add_argument("--nodes", type=int, default=None,
                    help="search a fixed number of nodes per move instead of using the clock (as cutechess's "
                         "nodes=N): the result no longer depends on machine load, so it can run beside a build")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--book", default="../shared/data/books/noob_3moves.epd")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pgn", default="reports/match.pgn")
    args = ap.parse_args()
    tc = parse_tc(args.tc)
    with open(args.book) as f:
        openings = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()]
    rng = random.Random(args.seed)
    jobs = []
    for i in range(args.games):
        fen = openings[rng.randrange(len(openings))] if i % 2 == 0 else jobs[-1][0]
        jobs.append((fen, i % 2 == 0))
    wins = draws = losses = 0
    problems = []
    games = []
    with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
        futures = [pool.submit(play_game, args, fen, white, tc, i + 1) for i, (fen, white) in enumerate(jobs)]
        for i, future in enumerate(futures):
            result, reason, game = future.result()
            white = jobs[i][1]
            games.append(game)
            if result == "1/2-1/2":
                draws += 1
            elif (result == "1-0") == white:
                wins += 1
            else:
                losses += 1
            if "forfeit" in reason or "illegal" in reason or "crash" in reason:
                problems.append(f"game {i + 1}: {reason}")
            n = wins + draws + losses
            print(f"\rgames {n}/{args.games}  +{wins} ={draws} -{losses}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    n = wins + draws + losses
    score = (wins + draws / 2) / n
    # Per-game variance of the score, for the 95% interval of the Elo difference.
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    se = math.sqrt(var / n)
    def to_elo(s):
        s = min(max(s, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / s - 1)
    lo, hi = to_elo(score - 1.96 * se), to_elo(score + 1.96 * se)
    print(f"Score of {args.engine} vs {args.opponent}: {wins} - {losses} - {draws}  [{score:.3f}] {n}")
    print(f"Elo difference: {to_elo(score):.1f} (95% interval {lo:.1f} .. {hi:.1f})")
    print(f"Time forfeits, illegal moves, crashes: {len(problems)}")
    for p in problems:
        print("  " + p)
    if args.pgn:
        import os
        os.makedirs(os.path.dirname(args.pgn) or ".", exist_ok=True)
        with open(args.pgn, "w") as f:
            for g in games:
                print(g, file=f, end="\n\n")


if __name__ == "__main__":
    main()
