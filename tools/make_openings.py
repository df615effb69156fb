#!/usr/bin/env python3
"""Builds a wide opening book for self-play tests: each line of the shared balanced book
(../shared/tools/openings.txt, or --base) extended by random legal plies, kept when a
fixed-depth xq search scores the result within --max-cp for the side to move.

Deterministic for a given seed, base book and xq build. Usage:
  tools/make_openings.py --xq target/release/xq --out tools/openings-wide.txt
"""
import argparse
import json
import random
import re
import subprocess


def legal_moves(xq, fen, moves):
    args = [xq, "perft", "1", "--divide", "--fen", fen]
    if moves:
        args += ["--moves", " ".join(moves)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return sorted(m for m in (l.split(":")[0] for l in out.splitlines()) if re.fullmatch(r"[a-i][0-9][a-i][0-9]", m))


def score(xq, fen, moves, depth):
    args = [xq, "analyze", "--depth", str(depth), "--json", "--hash", "16", "--fen", fen]
    if moves:
        args += ["--moves", " ".join(moves)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    last = json.loads(out.strip().splitlines()[-1])
    return last["score"].get("cp")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xq", default="target/release/xq")
    ap.add_argument("--base", default="../shared/tools/openings.txt")
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-line", type=int, default=40, help="lines kept per base line")
    ap.add_argument("--plies", type=int, default=2, help="random plies added")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--max-cp", type=int, default=60)
    ap.add_argument("--seed", type=int, default=20261123)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    base = [l.split() for l in open(args.base) if l.strip() and not l.startswith("#")]
    out, seen = [], set()
    for words in base:
        assert words[:2] == ["startpos", "moves"], words
        kept, tries = 0, 0
        while kept < args.per_line and tries < args.per_line * 6:
            tries += 1
            moves = list(words[2:])
            for _ in range(args.plies):
                legal = legal_moves(args.xq, start, moves)
                if not legal:
                    break
                moves.append(rng.choice(legal))
            key = " ".join(moves)
            if key in seen:
                continue
            seen.add(key)
            cp = score(args.xq, start, moves, args.depth)
            if cp is not None and abs(cp) <= args.max_cp:
                out.append("startpos moves " + key)
                kept += 1
    rng.shuffle(out)
    with open(args.out, "w") as f:
        f.write(f"# {len(out)} openings: {args.base} + {args.plies} random plies, |score| <= "
                f"{args.max_cp} cp at depth {args.depth} (tools/make_openings.py, seed {args.seed})\n")
        f.write("\n".join(out) + "\n")
    print(len(out), "openings")


if __name__ == "__main__":
    main()
