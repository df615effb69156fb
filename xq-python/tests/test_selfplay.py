"""Self-play from Python (xq.selfplay): the bytes of `xq datagen --format binary` for the
same settings (the pinned runs of data/), whatever the threads; typed errors for bad
settings; the GIL released while it plays; and read_datagen on the binary form."""

import os
import re
import signal
import threading
import time

import numpy as np
import pytest

import xq
from conftest import DATA, ROOT

# `xq datagen --games 3 --nodes 300 --random-plies 6 --max-plies 60 --seed 5` (data/README.md).
PINNED = {"nodes": 300, "random_plies": 6, "max_plies": 60, "seed": 5}


def test_the_bytes_of_xq_datagen_for_any_threads(tmp_path):
    classical = (DATA / "datagen-s5-classical.xqsp").read_bytes()
    assert xq.selfplay(3, classical=True, **PINNED) == classical
    assert xq.selfplay(3, classical=True, threads=2, **PINNED) == classical
    path = tmp_path / "net.xqsp"
    round1 = ROOT / "xq-eval" / "nets" / "nn-a6e9bde1.nnue"  # the pinned file's network
    net = xq.selfplay(3, threads=3, path=path, eval_file=round1, **PINNED)
    assert net == (DATA / "datagen-s5-net.xqsp").read_bytes() == path.read_bytes()
    assert xq.selfplay(0) == b"XQSP\x01\x00"


def test_a_network_file_chooses_the_evaluation(tmp_path):
    # The built-in network's file (the one xq-eval embeds) plays the games the built-in
    # network plays.
    source = (ROOT / "xq-eval" / "src" / "nnue" / "mod.rs").read_text(encoding="utf-8")
    built_in = ROOT / "xq-eval" / "nets" / re.search(r"nets/(nn-[0-9a-f]+\.nnue)", source).group(1)
    games = xq.selfplay(1, nodes=100, max_plies=30, seed=2)
    assert xq.selfplay(1, nodes=100, max_plies=30, seed=2, eval_file=built_in) == games
    assert xq.selfplay(1, nodes=100, max_plies=30, seed=2, classical=True) != games
    bad = tmp_path / "bad.nnue"
    bad.write_bytes(b"not a network")
    with pytest.raises(xq.InvalidArgument) as e:
        xq.selfplay(1, eval_file=bad)
    assert str(e.value) == f"cannot load the network {bad}: not an xq network file (no XQNN magic)"
    with pytest.raises(FileNotFoundError):
        xq.selfplay(1, eval_file=tmp_path / "missing.nnue")


@pytest.mark.parametrize("kwargs,message", [
    ({"games": -1}, "games must be an int from 0 to 2**63 - 1, not -1"),
    ({"games": 2**64}, "games must be an int from 0 to 2**63 - 1, not 18446744073709551616"),
    ({"games": 1, "nodes": 0}, "nodes must be an int from 1 to 2**63 - 1, not 0"),
    ({"games": 1, "nodes": 1.5}, "nodes must be an int from 1 to 2**63 - 1, not a float"),
    ({"games": 1, "seed": -1}, "seed must be an int from 0 to 2**64 - 1, not -1"),
    ({"games": 1, "threads": 0}, "threads must be an int from 1 to 1024, not 0"),
    ({"games": 1, "threads": True}, "threads must be an int from 1 to 1024, not a bool"),
    ({"games": 1, "random_plies": 70000}, "random_plies must be an int from 0 to 65535, not 70000"),
    ({"games": 1, "max_plies": "400"}, "max_plies must be an int from 0 to 65535, not a str"),
    ({"games": 1, "resign": -5}, "resign must be an int from 0 to 2147483647, not -5"),
    ({"games": 1, "hash_mb": 2**40}, "hash_mb 1099511627776: cannot allocate a hash table of 1099511627776 MiB"),
    ({"games": 1, "classical": True, "eval_file": "x.nnue"},
     "give classical=True or eval_file, not both: they choose the evaluation"),
])
def test_bad_settings_raise_invalid_argument(kwargs, message):
    games = kwargs.pop("games")
    with pytest.raises(xq.InvalidArgument) as e:
        xq.selfplay(games, **kwargs)
    assert str(e.value) == message
    assert isinstance(e.value, ValueError) and isinstance(e.value, xq.XqError)


def test_games_start_from_the_openings_in_turn(tmp_path):
    # Without random plies a game depends on its opening alone: game 1 of a run over two
    # openings is game 0 of a run over the second.
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    both, first, second = (tmp_path / name for name in ("both.epd", "first.epd", "second.pgn"))
    both.write_text(f"startpos moves h2e2 h9g7\nfen {fen} moves b9c7\n")
    first.write_text("startpos moves h2e2 h9g7\n")
    second.write_text(f'[FEN "{fen}"]\n\n1... b9c7 *\n')
    settings = {"nodes": 200, "max_plies": 30, "random_plies": 0, "classical": True}
    a = xq.selfplay(1, openings=first, **settings)
    b = xq.selfplay(1, openings=second, **settings)
    assert xq.selfplay(2, openings=both, **settings) == a + b[6:]
    assert a != xq.selfplay(1, **settings)
    # openings_start counts from 1 and goes round the file, as `xq datagen --openings-start`.
    assert xq.selfplay(2, openings=both, openings_start=2, **settings) == b + a[6:]
    assert xq.selfplay(1, openings=both, openings_start=3, **settings) == a
    with pytest.raises(xq.InvalidArgument) as e:
        xq.selfplay(1, openings=both, openings_start=0)
    assert str(e.value) == "openings_start must be an int from 1 to 2**63 - 1, not 0"
    with pytest.raises(xq.InvalidArgument) as e:
        xq.selfplay(1, openings_start=2)
    assert str(e.value) == "openings_start needs openings: the file it counts in"
    # The second starts from its FEN: the flags byte, the FEN's length and its text.
    assert b[6] == 1 and b[8:8 + b[7]] == fen.encode()
    with pytest.raises(FileNotFoundError):
        xq.selfplay(1, openings=tmp_path / "missing.epd")
    first.write_text("startpos moves h2e2\nstartpos moves h2e2 h2e2\n")
    with pytest.raises(xq.InvalidArgument) as e:
        xq.selfplay(1, openings=first)
    assert str(e.value) == f"openings {first}: line 2: h2e2: illegal move h2e2: no piece of the side to move on h2"


def test_the_gil_is_released_while_it_plays():
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    xq.selfplay(4, nodes=2000, max_plies=80, classical=True)
    done.set()
    t.join()
    assert ticks > 50  # the other thread ran all along


def test_ctrl_c_stops_a_run_between_games():
    # Ctrl-C every 0.3 s until the run returns (one signal can land in a window where
    # no handler sees it, as an impatient user's second Ctrl-C would not); the run of
    # 500 games (many seconds) must end by KeyboardInterrupt, not by playing them all.
    # The handler raises as Python's default one does, once: a press that comes after
    # the run has stopped is ignored, so it cannot land in pytest's own code.
    presses = []

    def once(signum, frame):
        presses.append(signum)
        if len(presses) == 1:
            raise KeyboardInterrupt

    done = threading.Event()

    def press():
        for _ in range(20):
            if done.wait(0.3):
                return
            os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, once)
    presser = threading.Thread(target=press)
    presser.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            xq.selfplay(500, nodes=200, classical=True)
    finally:
        done.set()
        presser.join()
        signal.signal(signal.SIGINT, previous)
    assert presses


def test_read_datagen_reads_the_binary_form_as_its_text(tmp_path):
    path = tmp_path / "games.xqsp"
    path.write_bytes((DATA / "datagen-s5-net.xqsp").read_bytes())
    data = xq.read_datagen(path, planes=True)
    assert sorted(data) == ["fen", "game", "planes", "result", "score"]
    n = len(data["fen"])
    assert n > 50 and data["planes"].shape == (n, 18, 10, 9)
    assert data["game"].dtype == np.int32 and list(np.unique(data["game"])) == [0, 1, 2]
    # One result per game, from Red's view.
    for g in range(3):
        assert len(set(data["result"][data["game"] == g])) == 1
    # The same positions written as text read back the same, games included.
    text = tmp_path / "games.txt"
    text.write_text("".join(f"{f} | {s} | {r:.1f}\n"
                            for f, s, r in zip(data["fen"], data["score"], data["result"])),
                    encoding="utf-8")
    again = xq.read_datagen(text)
    assert again["fen"] == data["fen"]
    for key in ("score", "result", "game"):
        assert (again[key] == data[key]).all(), key
    damaged = tmp_path / "damaged.xqsp"
    damaged.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(xq.InvalidDataFile) as e:
        xq.read_datagen(damaged)
    assert str(e.value) == f"{damaged}: byte {len(path.read_bytes()) - 3} (game 3): the file ends inside a game"
