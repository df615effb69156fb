#!/usr/bin/env python3
"""Run a UCI/UCCI engine that spells the horse H and the elephant E in FEN (Sjaak II).

`xq match` and xq write N and B. This filter starts the
engine given as its arguments, rewrites the board field of every `position fen ...` line
it forwards (n->h, b->e, both cases; the side to move is left alone) and passes
everything else through unchanged, line by line, in both directions.

  xq match -engine cmd=tools/fen-letters.py arg=/usr/games/sjaakii name=sjaak ranks=1 \
           option.UCI_Variant=xiangqi option.Ponder=false -engine cmd=xq ...
"""
import subprocess
import sys
import threading

LETTERS = str.maketrans("nNbB", "hHeE")


def translate(line):
    words = line.split(" ")
    if len(words) > 2 and words[0] == "position" and words[1] == "fen":
        words[2] = words[2].translate(LETTERS)
    return " ".join(words)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: fen-letters.py ENGINE [ARGS...]")
    engine = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def relay_out():
        for line in engine.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()

    relay = threading.Thread(target=relay_out, daemon=True)
    relay.start()
    try:
        for line in sys.stdin:
            engine.stdin.write(translate(line.rstrip("\n")) + "\n")
            engine.stdin.flush()
        engine.stdin.close()
    except BrokenPipeError:
        pass  # the engine has exited: report its exit status
    status = engine.wait()
    relay.join(timeout=5)  # pass on the engine's last lines
    sys.exit(status)


if __name__ == "__main__":
    main()
