#!/usr/bin/env python3
# Usage: scripts/find_level_end_game.py ENGINE PARAMS.toml DATASET.epd[.gz]
# Prints positions (phase <= 4) whose end-game sum is exactly 0 and whose complexity is positive under
# PARAMS (the engine's EvalFile), from the engine's trace answers: the anchor of the tuner test
# a_level_end_game_gets_no_complexity_in_the_rebuilt_evaluation, re-chosen after a bake moves it.
"""Find positions whose end-game sum is exactly 0 under an EvalFile (for the own_engine tuner test)."""
import gzip, subprocess, sys, math
binary, evalfile, data = sys.argv[1], sys.argv[2], sys.argv[3]
p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def until(end):
    out = []
    while True:
        l = p.stdout.readline().rstrip("\n")
        out.append(l)
        if l.startswith(end): return out
send("uci"); until("uciok")
send(f"setoption name EvalFile value {evalfile}"); send("isready"); until("readyok")
send("trace weights"); lines = until("trace end")
mg, eg = {}, {}; curve = None
for l in lines:
    w = l.split()
    if w[0] == "weight":
        if w[2] == "phased": mg[w[1]] = int(w[4]); eg[w[1]] = int(w[6])
        else: mg[w[1]] = eg[w[1]] = int(w[4])
    elif w[0] == "curve": curve = (w[1], w[2], int(w[3]))
op = gzip.open if data.endswith(".gz") else open
n = 0
for line in op(data, "rt"):
    fen = " ".join(line.split()[:4]) + " 0 1"
    send(f"position fen {fen}"); send("trace"); t = until("trace end")
    phase = None; lin = []; king = {"white": [], "black": []}; cx = []; special = False
    for l in t:
        w = l.split()
        if w[0] == "phase": phase = int(w[1])
        elif w[0] in ("exact", "scale"): special = True
        elif w[0] == "c": lin.append((w[1], int(w[2])))
        elif w[0] == "king": king[w[1]].append((w[2], int(w[3])))
        elif w[0] == "complexity": cx.append((w[1], int(w[2])))
        elif w[0] == "eval": ev = int(w[1])
    if special or phase is None or phase > 4 or not cx: continue
    m = sum(c * mg[e] for e, c in lin); g = sum(c * eg[e] for e, c in lin)
    power = mg[curve[1]] / 100
    for side, sign in (("white", -1), ("black", 1)):
        u = max(0, min(curve[2], sum(c * mg[e] for e, c in king[side])))
        shape = (u / 100) ** power if u > 0 else 0
        m += sign * round(mg[curve[0]] * shape); g += sign * round(eg[curve[0]] * shape)
    c = sum(n_ * mg[e] for e, n_ in cx)
    if g == 0 and c >= 5 and m != 0:
        print(fen, "phase", phase, "mg", m, "complexity", c, "eval", ev, flush=True)
        n += 1
        if n >= 5: break
send("quit")
