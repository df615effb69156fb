"""The same work through xq and through the pure-Python Xiangqi packages: legal move
generation, push/pop through random games, FEN round trips, and a batch of 1,024 boards
to legal masks and planes. Not a test: it prints a Markdown table (docs/python.md keeps
one).

The pure-Python packages both import as `cchess`, so each lives in its own virtual
environment; give their interpreters (a missing one is left out of the table):

    python bench/bench.py --cchess /path/venv-cchess/bin/python \\
                          --pcc /path/venv-pcc/bin/python

`cchess` is `pip install cchess==1.25.5` (and numpy); `pcc` is python-chinese-chess
(windshadow233/python-chinese-chess, installed from its source, with numpy). The work is
drawn by xq from a fixed seed and handed to each package as FENs and ICCS moves; every
package's move counts and FENs are checked against xq's before it is timed.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

N_BATCH = 1024


def best_of(fn, repeats):
    """The fastest of `repeats` runs of fn(), in seconds."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


# --- the work (made with xq) ---------------------------------------------------------


def make_work(seed, positions, games, plies):
    import xq

    rng = random.Random(seed)

    def random_game(max_plies):
        b = xq.Board()
        for _ in range(max_plies):
            moves = b.legal_moves
            if not moves or b.is_game_over():
                break
            b.push(rng.choice(moves))
        return b

    fens = []
    while len(fens) < positions:
        b = random_game(rng.randrange(0, 120))
        if b.legal_moves:
            fens.append(b.fen())
    lines = [[m.iccs() for m in random_game(plies).move_stack] for _ in range(games)]
    batch = []
    while len(batch) < N_BATCH:
        b = random_game(rng.randrange(0, 120))
        batch.append(b.fen())
    counts = [len(xq.Board(f).legal_moves) for f in fens]
    return {"fens": fens, "counts": counts, "games": lines, "batch": batch}


# --- xq ----------------------------------------------------------------------------


def run_xq(work, repeats):
    import numpy as np

    import xq

    boards = [xq.Board(f) for f in work["fens"]]
    assert [len(b.legal_moves) for b in boards] == work["counts"]
    games = [[xq.Move.from_iccs(m) for m in line] for line in work["games"]]
    pairs = sum(len(g) for g in games)

    def movegen():
        for b in boards:
            b.legal_moves

    def push_pop():
        for line in games:
            b = xq.Board()
            for m in line:
                b.push(m)
            for _ in line:
                b.pop()

    def playout():
        for line in games:
            b = xq.Board()
            for m in line:
                b.legal_moves
                b.push(m)
            for _ in line:
                b.pop()

    def fen_round_trip():
        for f in work["fens"]:
            xq.Board(f).fen()

    assert all(xq.Board(f).fen() == f for f in work["fens"])
    batch = [xq.Board(f) for f in work["batch"]]

    def batch_call():
        xq.legal_masks(batch)
        xq.planes_batch(batch)

    def batch_loop():
        np.stack([b.legal_mask() for b in batch])
        np.stack([b.planes() for b in batch])

    masks = xq.legal_masks(batch)
    assert masks.sum() == sum(len(b.legal_moves) for b in batch)
    return {
        "movegen": best_of(movegen, repeats) / len(boards),
        "push_pop": best_of(push_pop, repeats) / pairs,
        "playout": best_of(playout, repeats) / pairs,
        "fen": best_of(fen_round_trip, repeats) / len(work["fens"]),
        "batch": best_of(batch_call, repeats),
        "batch_loop": best_of(batch_loop, repeats),
        "batch_rust": xq._xq._rust_batch_seconds(batch, repeats),
    }


# --- the pure-Python packages: the same work through their own API -----------------


def action_table():
    """(from, to) -> index for the 2,086 moves, as xq orders them (sorted by origin then
    destination, squares rank-major from a0), computed here from the movement rules so
    that the pure-Python runs need no xq."""
    advisor = {(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)}
    elephant = {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}

    def points(table, sq):
        f, r = sq % 9, sq // 9
        return [(f, r) in table, (f, 9 - r) in table]

    index = {}
    for a in range(90):
        for b in range(90):
            fa, ra, fb, rb = a % 9, a // 9, b % 9, b // 9
            df, dr = abs(fa - fb), abs(ra - rb)
            both = lambda t: any(x and y for x, y in zip(points(t, a), points(t, b)))
            if (a != b and (df == 0 or dr == 0)) or sorted((df, dr)) == [1, 2] \
                    or ((df, dr) == (1, 1) and both(advisor)) or ((df, dr) == (2, 2) and both(elephant)):
                index[(a, b)] = len(index)
    assert len(index) == 2086
    return index


KINDS = "kabnrcp"  # general, advisor, elephant, horse, chariot, cannon, soldier


def run_pcc(work, repeats):
    """python-chinese-chess: a python-chess port (Board, legal_moves, push, pop, fen)."""
    import cchess
    import numpy as np

    boards = [cchess.Board(f) for f in work["fens"]]
    assert [len(list(b.legal_moves)) for b in boards] == work["counts"]
    games = [[cchess.Move.from_uci(m) for m in line] for line in work["games"]]
    pairs = sum(len(g) for g in games)

    def movegen():
        for b in boards:
            list(b.legal_moves)

    def push_pop():
        for line in games:
            b = cchess.Board()
            for m in line:
                b.push(m)
            for _ in line:
                b.pop()

    def playout():
        for line in games:
            b = cchess.Board()
            for m in line:
                list(b.legal_moves)
                b.push(m)
            for _ in line:
                b.pop()

    def fen_round_trip():
        for f in work["fens"]:
            cchess.Board(f).fen()

    assert all(cchess.Board(f).fen() == f for f in work["fens"])
    index = action_table()
    batch = [cchess.Board(f) for f in work["batch"]]

    def batch_loop():
        masks = np.zeros((len(batch), 2086), dtype=np.bool_)
        planes = np.zeros((len(batch), 18, 90), dtype=np.float32)
        for i, b in enumerate(batch):
            for m in b.legal_moves:
                masks[i, index[(m.from_square, m.to_square)]] = True
            for sq, p in b.piece_map().items():
                s = p.symbol()
                planes[i, KINDS.index(s.lower()) + (0 if s.isupper() else 7), sq] = 1
            if b.turn:
                planes[i, 14] = 1
        return masks

    return {
        "movegen": best_of(movegen, repeats) / len(boards),
        "push_pop": best_of(push_pop, repeats) / pairs,
        "playout": best_of(playout, 1) / pairs,
        "fen": best_of(fen_round_trip, repeats) / len(work["fens"]),
        "batch_loop": best_of(batch_loop, 1),
    }


def run_cchess(work, repeats):
    """cchess 1.25.5: ChessBoard; its legal moves are create_moves() filtered as its own
    no_moves() does; a move is undone by keeping the board copied before it (its Move
    keeps that copy too)."""
    import cchess
    import numpy as np

    def legal(b):
        return [m for m in b.create_moves() if b.is_valid_move_t(m) and not b.is_checked_move(*m)]

    def pos(sq):
        return (sq % 9, sq // 9)

    def iccs(m):
        a, b = cchess.iccs2pos(m)
        return a, b

    boards = [cchess.ChessBoard(f) for f in work["fens"]]
    counts = [len(legal(b)) for b in boards]
    if counts != work["counts"]:
        bad = sum(c != e for c, e in zip(counts, work["counts"]))
        print(f"cchess: {bad} of {len(counts)} positions with another move count", file=sys.stderr)
    games = [[iccs(m) for m in line] for line in work["games"]]
    pairs = sum(len(g) for g in games)

    def movegen():
        for b in boards:
            legal(b)

    def push_pop():
        for line in games:
            b = cchess.ChessBoard(cchess.FULL_INIT_FEN)
            stack = []
            for a, c in line:
                stack.append(b.copy())
                b.move(a, c)
                b.next_turn()
            for _ in line:
                b = stack.pop()

    def playout():
        for line in games:
            b = cchess.ChessBoard(cchess.FULL_INIT_FEN)
            stack = []
            for a, c in line:
                legal(b)
                stack.append(b.copy())
                b.move(a, c)
                b.next_turn()
            for _ in line:
                b = stack.pop()

    def fen_round_trip():
        for f in work["fens"]:
            cchess.ChessBoard(f).to_full_fen()

    index = action_table()
    batch = [cchess.ChessBoard(f) for f in work["batch"]]

    def batch_loop():
        masks = np.zeros((len(batch), 2086), dtype=np.bool_)
        planes = np.zeros((len(batch), 18, 90), dtype=np.float32)
        for i, b in enumerate(batch):
            for (fx, fy), (tx, ty) in legal(b):
                masks[i, index[(fy * 9 + fx, ty * 9 + tx)]] = True
            for p in b.get_pieces():
                s = p.fench
                planes[i, KINDS.index(s.lower()) + (0 if s.isupper() else 7), p.y * 9 + p.x] = 1
            if b.get_move_color() == cchess.RED:
                planes[i, 14] = 1
        return masks

    return {
        "movegen": best_of(movegen, repeats) / len(boards),
        "push_pop": best_of(push_pop, repeats) / pairs,
        "playout": best_of(playout, 1) / pairs,
        "fen": best_of(fen_round_trip, repeats) / len(work["fens"]),
        "batch_loop": best_of(batch_loop, 1),
        "counts_match": counts == work["counts"],
    }


RUNNERS = {"xq": run_xq, "pcc": run_pcc, "cchess": run_cchess}


def worker(name, work_path, repeats):
    with open(work_path, encoding="utf-8") as f:
        work = json.load(f)
    print(json.dumps(RUNNERS[name](work, repeats)))


def main():
    p = argparse.ArgumentParser(description="xq against the pure-Python Xiangqi packages")
    p.add_argument("--cchess", help="python of a venv with cchess==1.25.5 and numpy")
    p.add_argument("--pcc", help="python of a venv with python-chinese-chess and numpy")
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--plies", type=int, default=100)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--work", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        worker(args.worker, args.work, args.repeats)
        return
    work = make_work(args.seed, args.positions, args.games, args.plies)
    fd, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(work, f)
    results = {}
    for name, python in [("xq", sys.executable), ("pcc", args.pcc), ("cchess", args.cchess)]:
        if not python:
            continue
        out = subprocess.run(
            [python, os.path.abspath(__file__), "--worker", name, "--work", path, "--repeats", str(args.repeats)],
            check=True, capture_output=True, text=True,
        )
        sys.stderr.write(out.stderr)
        results[name] = json.loads(out.stdout.strip().splitlines()[-1])
    os.unlink(path)
    x = results["xq"]
    us = lambda s: f"{s * 1e6:,.1f} µs"
    ms = lambda s: f"{s * 1e3:,.1f} ms"
    names = {"pcc": "python-chinese-chess", "cchess": "cchess 1.25.5"}
    print(f"work: {args.positions} positions, {args.games} random games of up to {args.plies} plies, "
          f"{N_BATCH} boards; best of {args.repeats}\n")
    head = "| work | xq |" + "".join(f" {names[n]} | xq faster |" for n in results if n != "xq")
    print(head)
    print("|---|---|" + "---|---|" * (len(results) - 1))
    rows = [
        ("legal moves of a position", "movegen", us),
        ("push + pop of one move", "push_pop", us),
        ("a ply of a random game: legal moves, push, and pop back", "playout", us),
        ("FEN read and written", "fen", us),
        (f"{N_BATCH} boards to masks and planes, per-board calls", "batch_loop", ms),
    ]
    for label, key, fmt in rows:
        line = f"| {label} | {fmt(x[key])} |"
        for n in results:
            if n != "xq":
                r = results[n][key]
                line += f" {fmt(r)} | {r / x[key]:,.0f}x |"
        print(line)
    other = "".join(" | |" for n in results if n != "xq")
    print(f"| {N_BATCH} boards to masks and planes, `legal_masks` + `planes_batch` | {ms(x['batch'])} |{other}")
    print(f"| the same work inside Rust (no Python objects) | {ms(x['batch_rust'])} |{other}")
    print(f"\nbatch call / Rust: {x['batch'] / x['batch_rust']:.2f}x; "
          f"per-board xq calls / batch call: {x['batch_loop'] / x['batch']:.1f}x")


if __name__ == "__main__":
    main()
