#!/usr/bin/env python3
"""Perft speed, Whetstone against Stockfish, side by side on this machine.

Both engines are driven over UCI with `go perft N`; the time is measured from sending the command
to reading `Nodes searched`, so start-up and (Stockfish's) network loading are not counted. Each
measurement is repeated and the best run is kept. Prints leaf nodes per second and the ratio.

Usage: scripts/perft_vs_stockfish.py [--whetstone target/release/whetstone]
                                     [--stockfish /usr/games/stockfish] [--repeat 3]
"""

import argparse
import subprocess
import sys
import time

CASES = [
    ("kiwipete perft 5", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690),
    ("startpos perft 6", "startpos", 6, 119060324),
]


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line.strip()
        sys.exit(f"engine exited before printing '{prefix}'")

    def perft(self, position, depth):
        self.send(f"position {position}")
        self.send("isready")
        self.wait_for("readyok")
        start = time.perf_counter()
        self.send(f"go perft {depth}")
        line = self.wait_for("Nodes searched")
        elapsed = time.perf_counter() - start
        return int(line.split(":")[1]), elapsed

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--whetstone", default="target/release/whetstone")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    engines = {"whetstone": Engine(args.whetstone), "stockfish": Engine(args.stockfish)}
    print(f"{'case':<18} {'engine':<10} {'nodes':>11} {'best s':>8} {'M nodes/s':>10}")
    for name, position, depth, expected in CASES:
        rates = {}
        for label, engine in engines.items():
            best = None
            for _ in range(args.repeat):
                nodes, elapsed = engine.perft(position, depth)
                if nodes != expected:
                    sys.exit(f"{label} counted {nodes} nodes for {name}, expected {expected}")
                best = elapsed if best is None else min(best, elapsed)
            rates[label] = expected / best
            print(f"{name:<18} {label:<10} {expected:>11} {best:>8.3f} {rates[label] / 1e6:>10.1f}")
        print(f"{name:<18} ratio whetstone/stockfish = {rates['whetstone'] / rates['stockfish']:.2f}")
    for engine in engines.values():
        engine.close()


if __name__ == "__main__":
    main()
