#!/usr/bin/env python3
"""SPSA tuning of Chuhe's search parameters, with `chuhe match` as the game runner.

Each iteration perturbs every tuned parameter by +c or -c at random, plays a few game pairs
between the two perturbed engines (same binary, `option.NAME=V` on each side), and moves
the parameters along the measured gradient. Standard SPSA gains (Spall): a_k = a / (A + k + 1)^0.602,
c_k = c / (k + 1)^0.101, with the fishtest convention that a parameter moves by
r_k * c_k * (wins - losses) * delta, r_k = a_k / c_k^2.

    scripts/spsa.py --engine target/release/chuhe --params rfp_margin,fp_base,lmr_div_pct \
        --iterations 200 --pairs 8 --tc 5+0.05 --openings ../shared/openings/balanced.txt

The parameters' ranges, defaults and steps come from `chuhe params` (c ends at each one's
declared step). Every iteration is appended to the log (first the run's settings, then CSV:
iteration, W, L, D, each value), which is also the run's state: started again with the same
settings, a run resumes after its last whole iteration and goes on exactly as it would have.
The last line printed is the result as `option.NAME=V` words for `chuhe match`, to be proven
by an SPRT against the defaults.
Standard library only.
"""

import argparse
import random
import re
import subprocess
import sys


def read_params(engine):
    """name -> (default, min, max, step) for every integer parameter `chuhe params` lists
    (OpenBench's SPSA input: name, int, default, min, max, step, rate)."""
    out = subprocess.run([engine, "params"], capture_output=True, text=True, check=True).stdout
    specs = {}
    for line in out.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) == 7 and fields[1] == "int":
            specs[fields[0]] = tuple(int(v) for v in fields[2:6])
    return specs


SCORE = re.compile(r"Score of A vs B: (\d+) - (\d+) - (\d+)")


def play(args, plus, minus, seed):
    """Plays `args.pairs` game pairs, A with `plus`, B with `minus`; returns (W, L, D) for A."""
    cmd = [args.engine, "match", "-engine", f"cmd={args.engine}", "name=A"]
    cmd += [f"option.{n}={v}" for n, v in plus.items()]
    cmd += ["-engine", f"cmd={args.engine}", "name=B"]
    cmd += [f"option.{n}={v}" for n, v in minus.items()]
    limit = f"nodes={args.nodes}" if args.nodes else f"tc={args.tc}"
    cmd += ["-each", "proto=ucci", limit, "timemargin=300", f"option.hashsize={args.hash}"]
    cmd += ["-games", "2", "-rounds", str(args.pairs), "-repeat", "-concurrency", str(args.concurrency)]
    cmd += ["-srand", str(seed)]
    if args.openings:
        cmd += ["-openings", f"file={args.openings}", "order=random"]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    found = SCORE.findall(out)
    if not found:
        sys.exit(f"spsa: no result from chuhe match:\n{out[-2000:]}")
    return tuple(int(v) for v in found[-1])


def config_line(args, names):
    """The run's identity, the log's first line: a resumed run must match it."""
    limit = f"nodes={args.nodes}" if args.nodes else f"tc={args.tc}"
    return (f"# spsa params={','.join(names)} iterations={args.iterations} pairs={args.pairs} "
            f"{limit} seed={args.seed} c-scale={args.c_scale} r-end={args.r_end} a-ratio={args.a_ratio}")


def resume(path, config, names):
    """(iterations done, theta) from an earlier run's log at `path`, or (0, None) if none."""
    try:
        with open(path) as f:
            lines = [line.rstrip("\n") for line in f if line.strip()]
    except FileNotFoundError:
        return 0, None
    if not lines:
        return 0, None
    if lines[0] != config:
        sys.exit(f"spsa: {path} holds another run ({lines[0]!r}); give a new --log or the same settings")
    rows = [r.split(",") for r in lines[2:]]
    if not rows:
        return 0, None
    last = rows[-1]
    if len(last) != 4 + len(names) or int(last[0]) != len(rows):
        sys.exit(f"spsa: {path}: the last line is not a whole iteration: {','.join(last)!r}")
    return len(rows), {n: float(v) for n, v in zip(names, last[4:])}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/chuhe")
    ap.add_argument("--params", required=True, help="comma-separated names from `chuhe params`")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=8, help="game pairs per iteration")
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--nodes", type=int, default=0, help="a node budget per move instead of a clock")
    ap.add_argument("--openings", default="")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--c-scale", type=float, default=1.0,
                    help="c at the last iteration, in units of each parameter's declared step")
    ap.add_argument("--a-ratio", type=float, default=0.1, help="A as a share of the iterations")
    # fishtest uses 0.002 over tens of thousands of games; a few thousand need bigger steps.
    ap.add_argument("--r-end", type=float, default=0.02, help="r_k at the last iteration")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log", default="spsa.csv", help="the run's state: an existing log is resumed")
    args = ap.parse_args()

    specs = read_params(args.engine)
    names = [n.strip() for n in args.params.split(",") if n.strip()]
    unknown = [n for n in names if n not in specs]
    if unknown:
        sys.exit(f"spsa: not a search parameter: {', '.join(unknown)} (see `chuhe params`)")

    config = config_line(args, names)
    done, theta = resume(args.log, config, names)
    if theta is None:
        theta = {n: float(specs[n][0]) for n in names}
    if done:
        print(f"spsa: resuming {args.log} after iteration {done}", flush=True)
    c_end = {n: max(1.0, args.c_scale * specs[n][3]) for n in names}
    big_a = args.a_ratio * args.iterations
    alpha, gamma = 0.602, 0.101
    n_iter = args.iterations
    # Choose c and a so that c_k and r_k end at the values asked for (the fishtest way).
    c0 = {n: c_end[n] * n_iter**gamma for n in names}
    a_end = {n: args.r_end * c_end[n] ** 2 for n in names}
    a0 = {n: a_end[n] * (big_a + n_iter) ** alpha for n in names}

    with open(args.log, "a") as log:
        if log.tell() == 0:
            log.write(config + "\n")
            log.write("iteration,W,L,D," + ",".join(names) + "\n")
        for k in range(done, n_iter):
            # Each iteration's draws have their own seed, so a resumed run goes on as it would have.
            rng = random.Random(args.seed * 1_000_003 + k)
            plus, minus, delta, ck = {}, {}, {}, {}
            for n in names:
                lo, hi = specs[n][1], specs[n][2]
                ck[n] = c0[n] / (k + 1) ** gamma
                delta[n] = rng.choice((-1, 1))
                plus[n] = int(round(min(hi, max(lo, theta[n] + ck[n] * delta[n]))))
                minus[n] = int(round(min(hi, max(lo, theta[n] - ck[n] * delta[n]))))
            w, l, d = play(args, plus, minus, args.seed * 100003 + k)
            for n in names:
                ak = a0[n] / (big_a + k + 1) ** alpha
                rk = ak / ck[n] ** 2
                theta[n] += rk * ck[n] * (w - l) * delta[n]
                # Kept at the log's precision, so a resumed run starts from exactly this state.
                theta[n] = float(f"{min(specs[n][2], max(specs[n][1], theta[n])):.4f}")
            log.write(f"{k + 1},{w},{l},{d}," + ",".join(f"{theta[n]:.4f}" for n in names) + "\n")
            log.flush()
            print(f"iteration {k + 1}/{n_iter}: {w}-{l}-{d}  " + " ".join(f"{n}={theta[n]:.1f}" for n in names),
                  flush=True)
    print(" ".join(f"option.{n}={int(round(theta[n]))}" for n in names))


if __name__ == "__main__":
    main()
