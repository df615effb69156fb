"""xq.annotate: the moves of a game judged as `xq annotate` judges them (xq-analysis)."""

import pytest

import xq
from conftest import ROOT


def test_a_chariot_left_to_be_taken_is_a_blunder():
    # Red leaves its chariot where Black's takes it.
    board = xq.Board("3k4r/9/9/9/9/9/9/9/R8/4K4 w")
    board.push(xq.Move.from_iccs("a1i1"))
    board.push(xq.Move.from_iccs("i9i1"))
    report = xq.annotate(board, depth=4, notation="iccs")
    moves = report["moves"]
    assert [m["ply"] for m in moves] == [1, 2]
    first = moves[0]
    assert (first["side"], first["move"], first["notation"]) == ("red", "a1i1", "a1i1")
    assert first["class"] == "blunder" and first["loss"] >= 200
    assert first["best"] is not None and first["best"] != "a1i1"
    # Black took it: its own best move, no loss.
    assert (moves[1]["move"], moves[1]["loss"], moves[1]["class"]) == ("i9i1", 0, None)
    assert report["red"]["blunders"] == 1 and report["black"]["moves"] == 1
    assert len(report["values"]) == 3 and report["values"][2] <= -900
    assert report["summary"].startswith("xq annotate (depth 4): Red average loss")
    assert set(first) >= {"score", "cp", "best_score", "best_cp", "expected", "wdl", "pv", "best_pv", "depth"}
    assert sum(first["wdl"]) == 1000
    # By the expected result the same move still costs most of the game.
    by_wdl = xq.annotate(board, depth=4, by="wdl")
    assert by_wdl["by"] == "wdl" and by_wdl["moves"][0]["class"] == "blunder"
    # Written in Chinese by default.
    assert xq.annotate(board, depth=2)["moves"][0]["notation"] == "车九平一"


def test_bad_arguments_are_named():
    board = xq.Board()
    board.push(xq.Move.from_iccs("h2e2"))
    with pytest.raises(xq.InvalidLimit, match="depth must be an int from 1 to 4294967295, not 0"):
        xq.annotate(board, depth=0)
    with pytest.raises(xq.InvalidLimit, match="movetime must be a positive number of seconds"):
        xq.annotate(board, movetime=-1)
    with pytest.raises(xq.InvalidArgument, match='unknown measure "pawns"'):
        xq.annotate(board, depth=1, by="pawns")
    with pytest.raises(ValueError):
        xq.annotate(board, depth=1, notation="klingon")
    with pytest.raises(xq.InvalidTablebase, match="cannot read the tablebases"):
        xq.annotate(board, depth=1, tablebases=ROOT / "no" / "such")


def test_an_empty_game_has_no_moves_and_one_value():
    report = xq.annotate(xq.Board(), depth=2)
    assert report["moves"] == [] and len(report["values"]) == 1
