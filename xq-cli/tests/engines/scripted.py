#!/usr/bin/env python3
"""A UCI engine made to misbehave, for `xq match`'s tests. Either it plays the moves of a
script (`--line "m1 m2 ..."`: the line from the match's start, both sides' moves; after
it, `a0a0`), or it passes everything to a real engine (`--proxy PROGRAM`) and answers
with that engine's moves. Either way it can crash, hang, play an illegal move or write a
malformed `bestmove` when asked for its own move number N (from 1).

    scripted.py (--line "m1 m2 ..." | --proxy PROGRAM) [--crash N] [--hang N] [--illegal N] [--garbage N]
"""
import subprocess
import sys
import time

args = sys.argv[1:]
line, proxy, fault = [], None, {}
i = 0
while i < len(args):
    if args[i] == "--line":
        line = args[i + 1].split()
    elif args[i] == "--proxy":
        proxy = subprocess.Popen([args[i + 1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 text=True, bufsize=1)
    else:
        fault[args[i][2:]] = int(args[i + 1])
    i += 2


def ask(command, until):
    """Sends `command` to the real engine; its lines up to the one starting with `until`."""
    proxy.stdin.write(command + "\n")
    proxy.stdin.flush()
    out = []
    while True:
        got = proxy.stdout.readline()
        if not got:
            sys.exit(4)
        out.append(got.rstrip("\n"))
        if got.startswith(until):
            return out


played = []
asked = 0
for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        if proxy:
            ask("uci", "uciok")
        print("id name scripted")
        print("uciok", flush=True)
    elif cmd == "isready":
        if proxy:
            ask("isready", "readyok")
        print("readyok", flush=True)
    elif cmd in ("position", "ucinewgame", "setoption"):
        played = words[words.index("moves") + 1:] if "moves" in words else []
        if proxy:
            proxy.stdin.write(raw)
            proxy.stdin.flush()
    elif cmd == "go":
        asked += 1
        if fault.get("crash") == asked:
            sys.exit(3)
        if fault.get("hang") == asked:
            time.sleep(3600)
        if fault.get("illegal") == asked:
            print("bestmove a0a9", flush=True)
            continue
        if fault.get("garbage") == asked:
            print("bestmove", flush=True)
            continue
        if proxy:
            for out in ask(raw.strip(), "bestmove"):
                print(out, flush=True)
            continue
        n = len(played)
        move = line[n] if n < len(line) else "a0a0"
        print("info depth 1 score cp 0 pv " + move)
        print("bestmove " + move, flush=True)
    elif cmd == "quit":
        break
