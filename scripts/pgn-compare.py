#!/usr/bin/env python3
"""Compare the games of matches played with the same seed (chuhe match -pgnout files).

For each file: per engine, the score, mean time per move, mean depth and clock use; then,
for two or more files, the games side by side by opening and colours: which pairs ended
alike, where they part, and after how many plies the moves first differ.

    scripts/pgn-compare.py A.pgn [B.pgn ...] [--engine chuhe] [--tc 5+0.05]

Standard library only; reads the PGN chuhe match writes ({+0.52/11 0.059s} move comments).
"""
import re
import statistics
import sys

COMMENT = re.compile(r"\{([+-]?[\d.]+|[+-]?M\d+|book)?/?(\d+)? ?([\d.]+)s\}")
MOVE = re.compile(r"\b([A-I]\d-[A-I]\d)\b")


def games(path):
    text = open(path, encoding="utf-8").read()
    for block in re.split(r"\n(?=\[Game )", text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        if "Red" not in tags:
            continue
        body = re.sub(r"\[[^\]]*\]", "", block)
        fen = tags.get("FEN", "startpos")
        yield tags, fen, body


def moves_with_stats(body):
    """(move, depth, seconds) for each move; depth/seconds None for opening moves."""
    out = []
    for tok in re.finditer(r"([A-I]\d-[A-I]\d)(\s*\{[^}]*\})?", body):
        mv, comment = tok.group(1), tok.group(2)
        depth = secs = None
        if comment:
            m = re.search(r"/(\d+) ([\d.]+)s", comment)
            if m:
                depth, secs = int(m.group(1)), float(m.group(2))
        out.append((mv, depth, secs))
    return out


def summary(path, engine):
    res = {"w": 0, "l": 0, "d": 0}
    per = {}
    plies = []
    ends = {}
    for tags, fen, body in games(path):
        red, black, result = tags["Red"], tags["Black"], tags["Result"]
        if result not in ("1-0", "0-1", "1/2-1/2"):
            continue
        plies.append(int(tags.get("PlyCount", 0)))
        ours_red = red == engine
        if result == "1/2-1/2":
            res["d"] += 1
        elif (result == "1-0") == ours_red:
            res["w"] += 1
        else:
            res["l"] += 1
        m = re.search(r"\{([^{}]*)\}\s*(1-0|0-1|1/2-1/2)\s*$", body.strip())
        why = re.sub(r"^(Red|Black) (wins|loses)?:? ?", "", m.group(1)) if m else "?"
        ends[why] = ends.get(why, 0) + 1
        seq = moves_with_stats(body)
        first_side = 0 if "w" in fen.split()[1:2] or fen == "startpos" else 1
        for i, (_, depth, secs) in enumerate(seq):
            if depth is None:
                continue
            side = (i + first_side) % 2
            name = red if side == 0 else black
            p = per.setdefault(name, {"depth": [], "secs": [], "game_secs": {}})
            p["depth"].append(depth)
            p["secs"].append(secs)
    n = res["w"] + res["l"] + res["d"]
    print(f"{path}: {engine} {res['w']}-{res['l']}-{res['d']} of {n}, "
          f"{100 * (res['w'] + res['d'] / 2) / max(n, 1):.1f}%; plies mean {statistics.mean(plies or [0]):.0f}")
    for name, p in sorted(per.items()):
        print(f"  {name:18} moves {len(p['secs']):6}  mean time {statistics.mean(p['secs']):.3f}s  "
              f"median {statistics.median(p['secs']):.3f}s  mean depth {statistics.mean(p['depth']):.1f}")
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items(), key=lambda kv: -kv[1])))


def by_opening(path, engine):
    table = {}
    for tags, fen, body in games(path):
        seq = [m for m, d, s in moves_with_stats(body)]
        book = [m for m, d, s in moves_with_stats(body) if d is None]
        key = (fen, tuple(book), tags["Red"])
        result = tags["Result"]
        score = 0.5 if result == "1/2-1/2" else float((result == "1-0") == (tags["Red"] == engine))
        table[key] = (score, seq)
    return table


def main():
    args = sys.argv[1:]
    engine = "chuhe"
    if "--engine" in args:
        i = args.index("--engine")
        engine = args[i + 1]
        del args[i : i + 2]
    if not args:
        sys.exit(__doc__)
    for p in args:
        summary(p, engine)
    if len(args) < 2:
        return
    a, b = by_opening(args[0], engine), by_opening(args[1], engine)
    common = [k for k in a if k in b]
    same = sum(a[k][0] == b[k][0] for k in common)
    diverge = []
    for k in common:
        x, y = a[k][1], b[k][1]
        n = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
        diverge.append(n - len(k[1]))
    print(f"{len(common)} games of {args[0]} also in {args[1]} (same opening, same colours): "
          f"{same} with the same result; moves first differ after a median of "
          f"{statistics.median(diverge or [0]):.0f} engine plies")
    delta = sum(a[k][0] - b[k][0] for k in common)
    print(f"  {engine}'s score on these games: {sum(a[k][0] for k in common)} against "
          f"{sum(b[k][0] for k in common)} ({delta:+})")


if __name__ == "__main__":
    main()
