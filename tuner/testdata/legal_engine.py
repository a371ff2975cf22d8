#!/usr/bin/env python3
"""A fake UCI engine that plays legal chess from any position, for the tests of external
datagen and verification (no python-chess: CI machines have a bare Python 3).

Usage: legal_engine.py [MODE ARG]

It knows the rules (castling, en passant, promotion, check) and picks, deterministically from the
position and its `Greed` option, a capture of the most valuable piece if `Greed` says so, else a
move drawn from a hash of the position; it reports the material balance from the side to move's
view as `info ... score cp N`, except on every seventh ply, where it reports `score mate 3` (a
mate score, which datagen must leave unscored). The same position and options give the same
move, so games at any limit repeat exactly.

Options: Hash (spin, ignored), Greed (spin 0..100: the percentage of positions where it takes
the most valuable piece it can; higher is stronger), Threads (spin, ignored).

MODE:
  crash-once FILE   on its first `go` at ply 12 or later of a game, if FILE does not exist,
                    creates it and exits with status 3 (a crash mid-game, once per FILE)
  ignore-nodes      answers `go nodes N` only on `stop` (an engine that ignores node limits);
                    other limits at once
"""
import os
import sys
import zlib

MODE = sys.argv[1] if len(sys.argv) > 1 else "play"
ARG = sys.argv[2] if len(sys.argv) > 2 else None
options = {"greed": "50"}
VALUE = {"p": 100, "n": 300, "b": 300, "r": 500, "q": 900, "k": 0}
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ROOK = [(1, 0), (0, 1), (-1, 0), (0, -1)]
BISHOP = [(1, 1), (-1, 1), (-1, -1), (1, -1)]


def say(text):
    os.write(1, (text + "\n").encode())


def sq(name):
    return (ord(name[0]) - 97) + 8 * (int(name[1]) - 1)


def name(s):
    return chr(97 + s % 8) + str(s // 8 + 1)


class Board:
    def __init__(self, fen):
        parts = fen.split()
        self.b = ["."] * 64
        for r, row in enumerate(parts[0].split("/")):
            f = 0
            for c in row:
                if c.isdigit():
                    f += int(c)
                else:
                    self.b[(7 - r) * 8 + f] = c
                    f += 1
        self.white = parts[1] == "w"
        self.castling = "" if parts[2] == "-" else parts[2]
        self.ep = None if parts[3] == "-" else sq(parts[3])

    def own(self, p, white):
        return p != "." and p.isupper() == white

    def attacked(self, s, by_white):
        """Whether square s is attacked by the side by_white."""
        f, r = s % 8, s // 8
        pawn = "P" if by_white else "p"
        dr = -1 if by_white else 1
        for df in (-1, 1):
            if 0 <= f + df < 8 and 0 <= r + dr < 8 and self.b[(r + dr) * 8 + f + df] == pawn:
                return True
        for steps, pieces, slide in ((KNIGHT, "n", False), (KING, "k", False), (ROOK, "rq", True), (BISHOP, "bq", True)):
            for df, dr2 in steps:
                nf, nr = f + df, r + dr2
                while 0 <= nf < 8 and 0 <= nr < 8:
                    p = self.b[nr * 8 + nf]
                    if p != ".":
                        if p.lower() in pieces and p.isupper() == by_white:
                            return True
                        break
                    if not slide:
                        break
                    nf, nr = nf + df, nr + dr2
        return False

    def pseudo(self):
        w = self.white
        out = []
        for s, p in enumerate(self.b):
            if not self.own(p, w):
                continue
            f, r = s % 8, s // 8
            kind = p.lower()
            if kind == "p":
                d = 1 if w else -1
                last = 7 if w else 0
                t = s + 8 * d
                if 0 <= t < 64 and self.b[t] == ".":
                    out += self.promos(s, t, last)
                    home = 1 if w else 6
                    if r == home and self.b[t + 8 * d] == ".":
                        out.append((s, t + 8 * d, ""))
                for df in (-1, 1):
                    if 0 <= f + df < 8 and 0 <= r + d < 8:
                        t = (r + d) * 8 + f + df
                        if self.own(self.b[t], not w) or t == self.ep:
                            out += self.promos(s, t, last)
                continue
            steps = {"n": KNIGHT, "k": KING, "r": ROOK, "b": BISHOP, "q": ROOK + BISHOP}[kind]
            slide = kind in "rbq"
            for df, dr in steps:
                nf, nr = f + df, r + dr
                while 0 <= nf < 8 and 0 <= nr < 8:
                    t = nr * 8 + nf
                    if self.own(self.b[t], w):
                        break
                    out.append((s, t, ""))
                    if self.b[t] != "." or not slide:
                        break
                    nf, nr = nf + df, nr + dr
            if kind == "k":
                out += self.castles(s)
        return out

    def promos(self, s, t, last):
        if t // 8 == last:
            return [(s, t, q) for q in "qrbn"]
        return [(s, t, "")]

    def castles(self, s):
        w = self.white
        home = 4 if w else 60
        if s != home or self.attacked(s, not w):
            return []
        out = []
        for right, rook, empty, safe in (("K", 7, (5, 6), (5, 6)), ("Q", 0, (1, 2, 3), (3, 2))):
            right = right if w else right.lower()
            base = 0 if w else 56
            if right not in self.castling or self.b[base + rook] != ("R" if w else "r"):
                continue
            if all(self.b[base + e] == "." for e in empty) and not any(self.attacked(base + x, not w) for x in safe):
                out.append((s, base + safe[1], ""))
        return out

    def make(self, move):
        s, t, promo = move
        p = self.b[s]
        w = self.white
        kind = p.lower()
        if kind == "p" and t == self.ep:
            self.b[t - 8 if w else t + 8] = "."
        self.b[t] = p
        self.b[s] = "."
        if promo:
            self.b[t] = promo.upper() if w else promo
        if kind == "k" and abs(t - s) == 2:
            rook_from, rook_to = (s + 3, s + 1) if t > s else (s - 4, s - 1)
            self.b[rook_to] = self.b[rook_from]
            self.b[rook_from] = "."
        self.ep = (s + t) // 2 if kind == "p" and abs(t - s) == 16 else None
        for square, right in ((4, "KQ"), (60, "kq"), (0, "Q"), (7, "K"), (56, "q"), (63, "k")):
            if s == square or t == square:
                self.castling = "".join(c for c in self.castling if c not in right)
        self.white = not w

    def legal(self):
        out = []
        for m in self.pseudo():
            saved = (self.b[:], self.white, self.castling, self.ep)
            self.make(m)
            king = self.b.index("K" if not self.white else "k")
            if not self.attacked(king, self.white):
                out.append(m)
            self.b, self.white, self.castling, self.ep = saved
        return out

    def material(self):
        score = sum(VALUE[p.lower()] * (1 if p.isupper() else -1) for p in self.b if p != ".")
        return score if self.white else -score


def uci(m):
    return name(m[0]) + name(m[1]) + m[2]


def parse_move(text):
    return (sq(text[0:2]), sq(text[2:4]), text[4:5])


def choose(board, key):
    moves = board.legal()
    if not moves:
        return None
    h = zlib.crc32(key.encode())
    captures = [m for m in moves if board.b[m[1]] != "."]
    if captures and h % 100 < int(options["greed"]):
        return max(captures, key=lambda m: (VALUE[board.b[m[1]].lower()], -m[0], -m[1]))
    return sorted(moves)[h // 100 % len(moves)]


def main():
    position = "position startpos"
    gos_in_game = 0
    for line in sys.stdin:
        words = line.split()
        command = words[0] if words else ""
        if command == "uci":
            say("id name LegalEngine")
            say("option name Hash type spin default 16 min 1 max 1024")
            say("option name Threads type spin default 1 min 1 max 8")
            say("option name Greed type spin default 50 min 0 max 100")
            say("uciok")
        elif command == "isready":
            say("readyok")
        elif command == "ucinewgame":
            gos_in_game = 0
        elif command == "setoption" and "name" in words and "value" in words:
            key = " ".join(words[words.index("name") + 1 : words.index("value")]).lower()
            options[key] = " ".join(words[words.index("value") + 1 :])
        elif command == "position":
            position = line.strip()
        elif command == "go":
            gos_in_game += 1
            head, _, moves = position.partition(" moves ")
            fen = head.split(" fen ", 1)[1] if " fen " in head else "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            board = Board(fen)
            played = moves.split()
            for text in played:
                board.make(parse_move(text))
            if MODE == "crash-once" and len(played) >= 12 and not os.path.exists(ARG):
                open(ARG, "w").close()
                sys.exit(3)
            if MODE == "ignore-nodes" and "nodes" in words:
                for waiting in sys.stdin:
                    if waiting.strip() == "stop":
                        break
            best = choose(board, position + "|" + options["greed"])
            if best is None:
                say("bestmove 0000")
                continue
            score = "mate 3" if len(played) % 7 == 6 else f"cp {board.material() + len(played) % 5}"
            say(f"info depth 1 score {score} nodes 1 pv {uci(best)}")
            say(f"bestmove {uci(best)}")
        elif command == "quit":
            return


main()
