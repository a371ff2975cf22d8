#!/usr/bin/env python3
"""A toy UCI engine whose evaluation the workbench tunes through the engine itself, and the
example for engine authors of docs/trace-protocol.md.

Its evaluation is small but has what a real one has: phased material, a one-weight table of pawn
advancement, a phased bonus for central minor pieces, a tempo bonus, and one non-linear part,
a king-danger curve (scale * (units/100)^(power/100) of the attacks near each king), and an
option that changes nothing. Every
weight is a UCI spin option. It answers `eval` (the static evaluation, White's view), `trace`
and `trace weights` (protocol version 1), and plays legal moves (one ply, best static score).

Usage: toy_engine.py [--side-to-move] [--no-number] [--none-in-check] [--bad-trace WORD] [--crash-every N]
                     [--hang-every N] [--crash-on FEN] [--cache]

  --side-to-move   `eval` prints the side to move's view (a perspective a tuner must be told)
  --no-number      `eval` prints a line without a number
  --none-in-check  `eval` prints `Final evaluation: none (in check)` in check, as Stockfish's does
  --bad-trace W    `trace` names an element W the declaration lacks
  --crash-every N  the process exits at its N-th evaluation (eval or trace)
  --hang-every N   the process stops answering at its N-th evaluation
  --crash-on FEN   the process exits when asked to evaluate this position (placement field)
  --cache          keeps evaluations in a cache that a change of option does not clear
"""
import sys

import chess

PIECES = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]
PIECE_NAMES = ["pawn", "knight", "bishop", "rook", "queen"]
PHASE = {chess.KNIGHT: 1, chess.BISHOP: 1, chess.ROOK: 2, chess.QUEEN: 4}
MAX_PHASE = 24
CENTRE = [chess.C3, chess.D4, chess.E4, chess.D5, chess.E5, chess.F6, chess.C6, chess.F3]
MAX_UNITS = 400

# Every weight: (element, phased, default values, bounds). Options are named after the element.
WEIGHTS = (
    [(f"material[{i}]", True, mg_eg, (0, 2000))
     for i, mg_eg in enumerate([(90, 110), (320, 300), (330, 310), (480, 520), (950, 980)])]
    + [(f"advance[{r}]", False, (v, v), (-100, 200)) for r, v in enumerate([0, 5, 10, 20, 40, 70])]
    + [("centre", True, (15, 5), (-100, 100)), ("tempo", True, (10, 5), (-50, 50))]
    + [("danger.attack", False, (40, 40), (0, 200)), ("danger.scale", True, (60, 20), (0, 300)),
       ("danger.power", False, (200, 200), (50, 300))]
    # A weight no term reads (a leftover of an old evaluation): a tuner must find it does nothing.
    + [("spare", False, (0, 0), (-100, 100))]
)


def option_names(element, phased):
    base = element.replace(".", "_").replace("[", "_").replace("]", "")
    return (f"{base}_mg", f"{base}_eg") if phased else (base, base)


values = {}
for element, phased, (mg, eg), _ in WEIGHTS:
    mg_name, eg_name = option_names(element, phased)
    values[mg_name], values[eg_name] = mg, eg

ARGS = sys.argv[1:]


def flag(name):
    return name in ARGS


def arg(name):
    return ARGS[ARGS.index(name) + 1] if name in ARGS else None


evaluations = 0
cache = {}


def trace(board):
    """The position's terms: linear coefficients (element -> White minus Black), king features
    per defender, and the phase."""
    coef, king = {}, {chess.WHITE: 0, chess.BLACK: 0}

    def add(element, n):
        coef[element] = coef.get(element, 0) + n

    phase = 0
    for square, piece in board.piece_map().items():
        sign = 1 if piece.color == chess.WHITE else -1
        if piece.piece_type != chess.KING:
            add(f"material[{PIECES.index(piece.piece_type)}]", sign)
            phase += PHASE.get(piece.piece_type, 0)
        if piece.piece_type == chess.PAWN:
            rank = chess.square_rank(square) if piece.color == chess.WHITE else 7 - chess.square_rank(square)
            add(f"advance[{rank - 1}]", sign)
        if piece.piece_type in (chess.KNIGHT, chess.BISHOP) and square in CENTRE:
            add("centre", sign)
    add("tempo", 1 if board.turn == chess.WHITE else -1)
    for defender in (chess.WHITE, chess.BLACK):
        k = board.king(defender)
        if k is not None:
            ring = chess.SquareSet(chess.BB_KING_ATTACKS[k])
            king[defender] = sum(len(board.attackers(not defender, sq)) for sq in ring)
    return {e: n for e, n in coef.items() if n}, king, min(phase, MAX_PHASE)


def weight(element, eg=False):
    phased = next(p for e, p, _, _ in WEIGHTS if e == element)
    return values[option_names(element, phased)[1 if eg else 0]]


def evaluate(board):
    """White's view, centipawns, integer arithmetic as an engine would do it."""
    coef, king, phase = trace(board)
    mg = sum(n * weight(e) for e, n in coef.items())
    eg = sum(n * weight(e, True) for e, n in coef.items())
    for defender, sign in ((chess.WHITE, -1), (chess.BLACK, 1)):
        units = min(max(king[defender] * weight("danger.attack"), 0), MAX_UNITS)
        shape = (units / 100) ** (weight("danger.power") / 100)
        mg += sign * round(weight("danger.scale") * shape)
        eg += sign * round(weight("danger.scale", True) * shape)
    return (mg * phase + eg * (MAX_PHASE - phase)) // MAX_PHASE


def counted(board):
    """Counts an evaluation and plays the faults the command line asked for."""
    global evaluations
    evaluations += 1
    n_crash, n_hang = arg("--crash-every"), arg("--hang-every")
    if (n_crash and evaluations % int(n_crash) == 0) or arg("--crash-on") == board.board_fen():
        sys.exit(3)
    if n_hang and evaluations % int(n_hang) == 0:
        sys.stdin.read()  # answers nothing until its input is closed


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def eval_command(board):
    counted(board)
    if flag("--cache"):
        score = cache.setdefault(board.fen(), evaluate(board))
    else:
        score = evaluate(board)
    if flag("--no-number"):
        say("Final evaluation: unknown")
        return
    if flag("--none-in-check") and board.is_check():
        say("Final evaluation: none (in check)")
        return
    if flag("--side-to-move") and board.turn == chess.BLACK:
        score = -score
    say(f"Final evaluation: {score} cp ({'side to move' if flag('--side-to-move') else 'white side'})")


def trace_command(board):
    counted(board)
    coef, king, phase = trace(board)
    lines = ["trace begin 1", f"phase {phase} {MAX_PHASE}"]
    lines += [f"c {e} {n}" for e, n in sorted(coef.items())]
    if arg("--bad-trace"):
        lines.append(f"c {arg('--bad-trace')} 1")
    lines += [f"king {side} danger.attack {king[c]}"
              for c, side in ((chess.WHITE, "white"), (chess.BLACK, "black")) if king[c]]
    lines += [f"eval {evaluate(board)}", "trace end"]
    say("\n".join(lines))


def trace_weights():
    lines = ["trace weights 1"]
    for element, phased, _, _ in WEIGHTS:
        mg, eg = option_names(element, phased)
        if phased:
            lines.append(f"weight {element} phased {mg} {values[mg]} {eg} {values[eg]}")
        else:
            lines.append(f"weight {element} single {mg} {values[mg]}")
    lines += [f"curve danger.scale danger.power {MAX_UNITS}", "trace end"]
    say("\n".join(lines))


def best_move(board):
    """One ply: the legal move after which the side to move stands best (first of equals)."""
    sign = 1 if board.turn == chess.WHITE else -1
    best, best_score = None, None
    for move in board.legal_moves:
        board.push(move)
        score = sign * evaluate(board)
        board.pop()
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best.uci() if best else "0000"


def set_position(words):
    board = chess.Board()
    moves_at = words.index("moves") if "moves" in words else len(words)
    if words[1:2] == ["fen"]:
        board = chess.Board(" ".join(words[2:moves_at]))
    for m in words[moves_at + 1:]:
        board.push_uci(m)
    return board


def main():
    board = chess.Board()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            say("id name Toy 1\nid author the Whetstone developers")
            for element, phased, _, (lo, hi) in WEIGHTS:
                for name in dict.fromkeys(option_names(element, phased)):
                    say(f"option name {name} type spin default {values[name]} min {lo} max {hi}")
            say("uciok")
        elif command == "isready":
            say("readyok")
        elif command == "setoption" and "value" in words:
            name, value = words[2], int(words[words.index("value") + 1])
            if name in values:
                values[name] = value
        elif command == "position":
            board = set_position(words)
        elif command == "eval":
            eval_command(board)
        elif command == "trace" and words[1:] == ["weights"]:
            trace_weights()
        elif command == "trace":
            trace_command(board)
        elif command == "go":
            say(f"info depth 1 score cp {evaluate(board) * (1 if board.turn else -1)}")
            say(f"bestmove {best_move(board)}")
        elif command == "quit":
            break


if __name__ == "__main__":
    main()
