#!/usr/bin/env python3
# Differential check: chuhe's legal moves (perft --divide 1) vs pyffish, over random games.
# Usage: pip install pyffish; python3 scripts/diff_pyffish.py target/release/chuhe GAMES [SEED]
import pyffish, random, subprocess, sys
BIN = sys.argv[1]; N = int(sys.argv[2]); random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
def ours(fen):
    out = subprocess.run([BIN, "perft", "--fen", fen, "--depth", "1", "--divide"], capture_output=True, text=True).stdout
    return sorted(l.split(":")[0] for l in out.splitlines() if ":" in l)
def to_ff(m):  # ICCS ranks 0-9 -> fairy 1-10
    return m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)
def from_ff(m):
    import re
    a = re.match(r"([a-i])(\d+)([a-i])(\d+)", m).groups()
    return a[0] + str(int(a[1]) - 1) + a[2] + str(int(a[3]) - 1)
start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
checked = 0
for g in range(N):
    fen = start
    for ply in range(random.randint(20, 160)):
        theirs = sorted(from_ff(m) for m in pyffish.legal_moves("xiangqi", fen, []))
        mine = ours(fen)
        checked += 1
        if mine != theirs:
            print("MISMATCH", fen, "only ours:", set(mine) - set(theirs), "only pyffish:", set(theirs) - set(mine)); sys.exit(1)
        if not mine: break
        m = random.choice(mine)
        fen = pyffish.get_fen("xiangqi", fen, [to_ff(m)])
print("positions checked:", checked)
