"""xq.match: `xq match`'s matches from Python, on this machine (the cluster's run is in
test_ray.py)."""

import os
import pathlib

import pytest

import xq
import xq.match

ROOT = pathlib.Path(__file__).resolve().parents[2]


def xq_bin():
    path = os.environ.get("XQ_BIN") or str(ROOT / "target" / "release" / "xq")
    if not pathlib.Path(path).exists():
        pytest.skip(f"no xq binary at {path} (set XQ_BIN)")
    return path


def args(binary, games="4"):
    return ["-engine", f"cmd={binary}", "name=strong", "nodes=1500",
            "-engine", f"cmd={binary}", "name=weak", "nodes=30",
            "-each", "option.Hash=4", "-games", games, "-concurrency", "2",
            "-openings", f"file={ROOT / 'tools' / 'openings-wide.txt'}"]


def test_a_match_runs_and_counts_pairs():
    binary = xq_bin()
    seen = []
    summary = xq.match.run(args(binary), on_game=lambda g, s: seen.append((g, s["games"])))
    assert summary["games"] == 4 and len(seen) == 4
    assert sum(summary["pentanomial"]) == 2
    assert summary["wins"] + summary["draws"] + summary["losses"] == 4
    assert summary["engines"] == ["strong", "weak"]
    game = seen[0][0]
    assert set(game) >= {"number", "red", "result", "ending", "moves", "pgn", "forfeit"}
    assert game["pgn"].startswith("[Event ")
    assert game["forfeit"] is None
    # 1,500 nodes against 30: the stronger side wins most games.
    assert summary["wins"] >= 3, summary


def test_a_pair_is_the_same_wherever_it_is_played():
    binary = xq_bin()
    a = xq.match.play_pair(args(binary), 1)
    b = xq.match.play_pair(args(binary), 1)
    assert [g["number"] for g in a] == [3, 4]
    assert [g["moves"] for g in a] == [g["moves"] for g in b]
    assert a[0]["red"] == 0 and a[1]["red"] == 1
    assert xq.match.pairs(args(binary, "7")) == 4


def test_bad_arguments_are_named():
    with pytest.raises(xq.InvalidArgument, match="two -engine options"):
        xq.match.run(["-engine", "cmd=x", "nodes=1"])
    with pytest.raises(xq.InvalidArgument, match="unknown option -frobnicate"):
        xq.match.pairs(["-frobnicate"])
    with pytest.raises(xq.InvalidArgument, match="pair 9"):
        xq.match.play_pair(args("/bin/true"), 9)
