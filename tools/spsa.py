#!/usr/bin/env python3
"""SPSA tuning of the search's parameters through the tuning build and `xq match`.

Each iteration draws a random sign for every parameter, plays the tuning build with the
parameters moved one step up against itself with them moved one step down (the same
openings, both colours), and moves every parameter towards the side that won. This is
the SPSA of Fishtest's tuner (Spall's gains, `c_end` and `r_end` per parameter):

    c_k = c_end * N^0.101 / k^0.101            step of iteration k (1-based) of N
    a_k = r_end * c_end^2 * (A + N)^0.602 / (A + k)^0.602,   A = N / 10
    theta += a_k / c_k * (wins - losses of theta + c_k * delta) * delta

Usage (from the repository's root; the tuning build plays and referees its own games
with `xq match`):

    cargo build --release -p xq-cli --features tune
    cp target/release/xq /tmp/xq-tune
    tools/spsa.py --xq /tmp/xq-tune \\
        --param rfp_margin,95,40,200,10,0.002 --param futility_base,100,20,250,12,0.002 \\
        --iterations 500 --nodes 20000 --log tuning/spsa.jsonl

A parameter is `NAME,START,MIN,MAX,C_END,R_END`; NAME is an option of the tuning build
(`xq-search/src/params.rs`). The log has one JSON line per iteration (its parameters,
result and the values after it); a run started again with the same log goes on from its
last line (keep --iterations as it was: the gains follow from it). The values are rounded to integers when played and when printed; the run
only suggests values: prove them with a match against the defaults.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

GAMMA = 0.101
ALPHA = 0.602


class Param:
    def __init__(self, spec):
        parts = spec.split(",")
        if len(parts) != 6:
            raise SystemExit(f"--param {spec!r}: expected NAME,START,MIN,MAX,C_END,R_END")
        self.name = parts[0]
        try:
            self.value = float(parts[1])
            self.min = float(parts[2])
            self.max = float(parts[3])
            self.c_end = float(parts[4])
            self.r_end = float(parts[5])
        except ValueError:
            raise SystemExit(f"--param {spec!r}: START..R_END must be numbers")
        if not self.min <= self.value <= self.max:
            raise SystemExit(f"--param {spec!r}: START is outside MIN..MAX")
        if self.c_end <= 0 or self.r_end <= 0:
            raise SystemExit(f"--param {spec!r}: C_END and R_END must be positive")

    def clamp(self, v):
        return min(self.max, max(self.min, v))


def gains(p, k, n):
    """The step c_k and the gain a_k of parameter p at iteration k (1-based) of n."""
    big_a = n / 10
    c = p.c_end * n**GAMMA / k**GAMMA
    a_end = p.r_end * p.c_end**2
    a = a_end * (big_a + n) ** ALPHA / (big_a + k) ** ALPHA
    return c, a


def check_options(xq, params):
    """Refuses a parameter the tuning build does not announce, or a range outside its own."""
    try:
        out = subprocess.run([xq, "uci"], input="uci\nquit\n", capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SystemExit(f"{xq}: {e}")
    announced = {}
    for line in out.splitlines():
        words = line.split()
        if words[:2] == ["option", "name"] and "spin" in words and "min" in words and "max" in words:
            announced[words[2]] = (int(words[words.index("min") + 1]), int(words[words.index("max") + 1]))
    for p in params:
        if p.name not in announced:
            raise SystemExit(f"{xq} has no option {p.name!r} (a tuning build, cargo build"
                             " --release -p xq-cli --features tune, has every name of"
                             " xq-search/src/params.rs)")
        lo, hi = announced[p.name]
        if p.min < lo or p.max > hi:
            raise SystemExit(f"--param {p.name}: MIN..MAX must lie within {lo}..{hi}")


def engine_args(xq, name, values):
    """`xq match`'s words for one engine: the tuning build with these values."""
    return ["-engine", f"cmd={xq}", "arg=uci", f"name={name}"] + [
        f"option.{n}={int(round(v))}" for n, v in values.items()]


def play(args, plus, minus, openings):
    """Plays the openings with both colours; returns wins - losses of `plus`."""
    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, "openings.txt")
        with open(book, "w") as f:
            f.write("\n".join(openings) + "\n")
        summary = os.path.join(tmp, "summary.json")
        cmd = ([args.xq, "match"] + engine_args(args.xq, "plus", plus)
               + engine_args(args.xq, "minus", minus)
               + ["-each", f"nodes={args.nodes}", "-games", str(2 * len(openings)),
                  "-concurrency", str(args.concurrency), "-openings", f"file={book}",
                  "-json", summary])
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise SystemExit(f"xq match failed ({done.returncode}): {done.stderr.strip()}")
        with open(summary) as f:
            s = json.load(f)
    if any(s["forfeits"].values()):
        raise SystemExit(f"a forfeit: {s}")
    return s["wins"] - s["losses"], s


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xq", required=True, help="a tuning build: cargo build --release -p xq-cli --features tune")
    ap.add_argument("--param", action="append", required=True, help="NAME,START,MIN,MAX,C_END,R_END")
    ap.add_argument("--iterations", type=int, required=True)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--pairs", type=int, default=1, help="openings an iteration (each with both colours)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--openings", default=os.path.join(os.path.dirname(__file__), "openings-wide.txt"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log", required=True, help="one JSON line per iteration; a run resumes from it")
    args = ap.parse_args()

    params = [Param(s) for s in args.param]
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise SystemExit("a parameter is named twice")
    check_options(args.xq, params)
    with open(args.openings) as f:
        openings = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    if not openings:
        raise SystemExit(f"{args.openings}: no openings")

    start = 1
    if os.path.exists(args.log):
        with open(args.log) as f:
            lines = [json.loads(l) for l in f if l.strip()]
        if lines:
            last = lines[-1]
            if sorted(last["theta"]) != sorted(names):
                raise SystemExit(f"{args.log} tunes other parameters: {sorted(last['theta'])}")
            for p in params:
                p.value = last["theta"][p.name]
            start = last["iteration"] + 1

    for k in range(start, args.iterations + 1):
        # Each iteration's signs and openings follow from the seed and k alone, so a
        # resumed run plays what an unbroken one would have.
        rng = random.Random(args.seed * 1_000_003 + k)
        delta = {p.name: rng.choice((-1, 1)) for p in params}
        steps = {p.name: gains(p, k, args.iterations) for p in params}
        plus = {p.name: p.clamp(p.value + steps[p.name][0] * delta[p.name]) for p in params}
        minus = {p.name: p.clamp(p.value - steps[p.name][0] * delta[p.name]) for p in params}
        first = ((k - 1) * args.pairs) % len(openings)
        chosen = [openings[(first + i) % len(openings)] for i in range(args.pairs)]
        result, summary = play(args, plus, minus, chosen)
        for p in params:
            c, a = steps[p.name]
            p.value = p.clamp(p.value + a / c * result * delta[p.name])
        record = {
            "iteration": k,
            "result": result,
            "wdl": [summary["wins"], summary["draws"], summary["losses"]],
            "plus": {n: int(round(v)) for n, v in plus.items()},
            "minus": {n: int(round(v)) for n, v in minus.items()},
            "theta": {p.name: p.value for p in params},
        }
        with open(args.log, "a") as f:
            f.write(json.dumps(record) + "\n")
        shown = " ".join(f"{p.name}={p.value:.1f}" for p in params)
        print(f"{k}/{args.iterations} {result:+d} {shown}", flush=True)

    print(" ".join(f"{p.name}={int(round(p.value))}" for p in params))


if __name__ == "__main__":
    main()
