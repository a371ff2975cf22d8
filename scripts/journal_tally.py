#!/usr/bin/env python3
"""A `tune match` or `tune verify` journal so far (journal.jsonl): pentanomial counts, W-L-D, Elo with its
95% interval, nElo, and the LLR of the SPRT in nElo [E0, E1] (default [0, 5]), computed as
tuner/src/play/games/stats.rs does.  Usage: scripts/journal_tally.py JOURNAL [E0 E1]"""
import json, sys, math
NELO = 800 / math.log(10)
def solve_theta(probs, d):
    lo_d, hi_d = min(d), max(d)
    if not (lo_d < 0 < hi_d): return 0.0
    f = lambda t: sum(p * x / (1 + t * x) for p, x in zip(probs, d))
    lo, hi = -1 / hi_d, -1 / lo_d
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid <= lo or mid >= hi: break
        if f(mid) > 0: lo = mid
        else: hi = mid
    return (lo + hi) / 2
def mle_t(scores, probs, t):
    n = len(scores); p = [1 / n] * n
    for _ in range(10):
        mean = sum(a * q for a, q in zip(scores, p))
        sd = math.sqrt(sum(q * (a - mean) ** 2 for a, q in zip(scores, p)))
        phi = [a - 0.5 - 0.5 * t * sd * (1 + ((a - mean) / sd) ** 2) for a in scores]
        th = solve_theta(probs, phi)
        nxt = [pr / (1 + th * f) for pr, f in zip(probs, phi)]
        ch = max(abs(a - b) for a, b in zip(nxt, p)); p = nxt
        if ch < 1e-9: break
    return p
def main(path, e0=0.0, e1=5.0):
    penta = [0] * 5; w = l = d = 0; bad = []
    S = {"win": 2, "draw": 1, "loss": 0}
    for line in open(path):
        r = json.loads(line)
        if "games" not in r: continue
        pts = 0
        for g in r["games"]:
            s = S[g["score"]]; pts += s
            w += s == 2; d += s == 1; l += s == 0
            if g.get("culprit") == 0 and g["termination"] not in ("resign_adjudication", "checkmate", "draw_adjudication", "stalemate", "repetition", "fifty_moves", "insufficient_material"):
                bad.append(g["termination"])
        penta[pts] += 1
    scores = [0, .25, .5, .75, 1]; N = sum(penta)
    mean = sum(a * c for a, c in zip(scores, penta)) / N
    var = sum(c * (a - mean) ** 2 for a, c in zip(scores, penta)) / N
    sp = 1.96 * math.sqrt(var / N)
    elo = lambda s: -400 * math.log10(1 / min(max(s, 1e-3), 1 - 1e-3) - 1)
    reg = [c if c else 1e-3 for c in penta]; tot = sum(reg); probs = [c / tot for c in reg]
    p0 = mle_t(scores, probs, math.sqrt(2) * e0 / NELO); p1 = mle_t(scores, probs, math.sqrt(2) * e1 / NELO)
    llr = tot * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))
    nelo = (mean - .5) / math.sqrt(2 * var) * NELO
    print(f"games {2*N} W-L-D {w}-{l}-{d} penta {penta} Elo {elo(mean):+.1f} ± {(elo(mean+sp)-elo(mean-sp))/2:.1f} nElo {nelo:+.1f} LLR {llr:.2f} [-2.94, 2.94] {'ours-bad:'+str(bad) if bad else ''}")
main(sys.argv[1], *map(float, sys.argv[2:]))
