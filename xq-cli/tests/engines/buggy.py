#!/usr/bin/env python3
"""A UCI engine with a move generation bug, for the tests of `xq perft --engine`.

    buggy.py XQ drop MOVE FEN    in the position FEN, the legal MOVE is missing
    buggy.py XQ add MOVE FEN     in the position FEN, MOVE (not legal there) is added

It runs the xq binary XQ as a subprocess and answers `go perft N` with a perft of its
own built on xq's move lists (`go perft 1`) and positions (`d`), so that the bug shows
at every depth above the position, as a real generator's would. The FEN is compared by
its first two fields (board and side to move). An added move counts one node at any
depth. Only what the tests send is understood: `uci`, `isready`, `setoption`,
`position fen F [moves M...]`, `position startpos`, `go perft N`, `quit`.
"""

import subprocess
import sys

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"

xq_path, kind, bug_move, bug_fen = sys.argv[1:5]
xq = subprocess.Popen([xq_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                      text=True, bufsize=1)


def key(fen):
    return " ".join(fen.split()[:2])


def tell(line):
    xq.stdin.write(line + "\n")
    xq.stdin.flush()


def ask(line, until):
    """Sends `line` to xq; returns its lines up to the one starting with `until`."""
    tell(line)
    out = []
    while True:
        reply = xq.stdout.readline()
        if not reply:
            sys.exit("xq exited")
        reply = reply.strip()
        out.append(reply)
        if reply.startswith(until):
            return out


ask("uci", "uciok")
moves_cache, child_cache, perft_cache = {}, {}, {}


def moves(fen):
    if fen not in moves_cache:
        tell(f"position fen {fen}")
        lines = ask("go perft 1", "Nodes searched")
        found = [l.split(":")[0] for l in lines if l.endswith(": 1")]
        if key(fen) == key(bug_fen):
            if kind == "drop":
                found.remove(bug_move)
            else:
                found.append(bug_move)
        moves_cache[fen] = found
    return moves_cache[fen]


def child(fen, move):
    if (fen, move) not in child_cache:
        tell(f"position fen {fen} moves {move}")
        child_cache[fen, move] = ask("d", "info string fen")[-1].split(" ", 3)[3]
    return child_cache[fen, move]


def perft(fen, depth):
    if depth == 0:
        return 1
    if (fen, depth) not in perft_cache:
        perft_cache[fen, depth] = sum(below(fen, m, depth) for m in moves(fen))
    return perft_cache[fen, depth]


def below(fen, move, depth):
    if kind == "add" and move == bug_move and key(fen) == key(bug_fen):
        return 1
    return perft(child(fen, move), depth - 1)


fen = START
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name buggy")
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        rest = " ".join(words[1:])
        base, _, played = rest.partition(" moves ")
        fen = START if base.startswith("startpos") else base[len("fen "):]
        for m in played.split():
            fen = child(fen, m)
    elif words[:2] == ["go", "perft"]:
        depth = int(words[2])
        total = 0
        for m in moves(fen):
            n = below(fen, m, depth)
            total += n
            print(f"{m}: {n}")
        print()
        print(f"Nodes searched: {total}", flush=True)
    elif words[0] == "quit":
        break
xq.stdin.close()
xq.wait()
