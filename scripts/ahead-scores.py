#!/usr/bin/env python3
"""What a net scores in positions where one side is ahead (docs/history/training.md, "Result weight").

    scripts/ahead-scores.py CHUHE NET|- FILE.fen [DEPTH=10]

Searches every position of FILE.fen to DEPTH over UCCI with CHUHE (NET as `evalfile`, or the
embedded net for `-`) and prints the side ahead's score for each, then the median and the
mean without mate scores. FILE.sign beside it holds one letter per position, R or B: the side
ahead (the files of `~/chuhe-data/unconverted-a.*` are made that way).
"""
import re
import statistics
import subprocess
import sys


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    chuhe, net, fens = sys.argv[1], sys.argv[2], sys.argv[3]
    depth = int(sys.argv[4]) if len(sys.argv) == 5 else 10
    positions = [line.strip() for line in open(fens) if line.strip()]
    ahead = open(re.sub(r"\.fen$", "", fens) + ".sign").read().split()
    if len(ahead) != len(positions):
        sys.exit(f"{fens}: {len(positions)} positions but {len(ahead)} signs")
    engine = subprocess.Popen([chuhe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def read_until(word):
        """The last `info ... score` line before a line starting with `word`."""
        last = None
        for line in engine.stdout:
            if line.startswith("info") and " score " in line:
                last = line
            if line.startswith(word):
                return last
        sys.exit("the engine stopped")

    send("ucci")
    if net != "-":
        send("setoption evalfile " + net)
    read_until("ucciok")
    scores = []
    for fen, side in zip(positions, ahead):
        send("position fen " + fen)
        send(f"go depth {depth}")
        score = int(re.search(r" score (-?\d+)", read_until("bestmove")).group(1))
        red_to_move = fen.split()[1] in ("w", "r")
        scores.append(score if red_to_move == (side == "R") else -score)
    send("quit")
    plain = [s for s in scores if abs(s) < 5000]
    print(" ".join(map(str, scores)))
    print(f"positions {len(scores)}  median {statistics.median(scores)}  "
          f"mean without mates {round(sum(plain) / len(plain)) if plain else '-'} ({len(plain)})")


if __name__ == "__main__":
    main()
