#!/usr/bin/env python3
"""A CLOP connection script for tests: one "game" whose win probability peaks at x = 30.

Called as `peak_game.py <worker> <seed> x <value> [...]`; prints W or L, drawn from the seed.
"""
import math
import random
import sys

seed = int(sys.argv[2])
params = dict(zip(sys.argv[3::2], map(float, sys.argv[4::2])))
x = params["x"]
p = 1 / (1 + math.exp(-(1.0 - 4 * ((x - 30) / 60) ** 2)))
print("W" if random.Random(seed).random() < p else "L")
