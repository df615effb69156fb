"""xq.Tablebase on the small tables the repository keeps (xq-tablebase/tests/data)."""

import pytest

import xq
from conftest import ROOT

TABLES = ROOT / "xq-tablebase" / "tests" / "data"


def test_probe_wdl_and_dtm():
    tb = xq.Tablebase(TABLES)
    assert tb.endings() == ["KCK", "KNK", "KPK", "KRK", "KRKA", "KRKN"]
    board = xq.Board("3k5/4a4/9/9/9/9/9/9/4R4/4K4 w")
    assert tb.probe_wdl(board) == 1
    assert tb.probe_dtm(board) == 1
    # The chariot takes the advisor: the black general has no move left, and loses.
    board.push(xq.Move.from_iccs("e1e8"))
    assert (tb.probe_wdl(board), tb.probe_dtm(board)) == (-1, 0)
    # The same position with the colours swapped.
    assert tb.probe_dtm(xq.Board("4k4/4r4/9/9/9/9/9/9/4A4/3K5 b")) == 1
    # A horse against a bare general wins; with the general to move it loses.
    assert tb.probe_dtm(xq.Board("3k5/9/9/9/9/9/9/9/4N4/4K4 b")) < 0
    # A lone cannon cannot win.
    assert (tb.probe_wdl(xq.Board("3k5/9/9/9/9/9/9/9/4C4/4K4 w")), tb.probe_dtm(xq.Board("3k5/9/9/9/9/9/9/9/4C4/4K4 w"))) == (0, 0)
    # Not in the directory.
    assert tb.probe_wdl(xq.Board()) is None
    assert tb.probe_dtm(xq.Board("3k5/4a4/9/9/9/9/9/9/4C4/4K4 w")) is None


def test_a_win_by_the_perpetual_check_rule_has_no_distance():
    tb = xq.Tablebase(TABLES)
    # The horse on b1 checks, and can check forever: a draw without the rule, a win for
    # the chariot with it.
    board = xq.Board("9/9/4k4/9/9/9/9/9/1n7/R2K5 w")
    assert tb.probe_wdl(board) == 1
    with pytest.raises(ValueError, match="perpetual check or chase rule"):
        tb.probe_dtm(board)
    # A chariot against a horse is mostly a plain win, with a distance.
    assert tb.probe_dtm(xq.Board("3k5/9/9/9/9/9/9/9/4n4/R3K4 w")) > 0


def test_bad_tables_raise(tmp_path):
    with pytest.raises(xq.InvalidTablebase):
        xq.Tablebase(tmp_path / "missing")
    good = (TABLES / "KNK.xqtb").read_bytes()
    (tmp_path / "KNK.xqtb").write_bytes(good[:-5])
    tb = xq.Tablebase(tmp_path)
    board = xq.Board("3k5/9/9/9/9/9/9/9/4N4/4K4 w")
    with pytest.raises(xq.InvalidTablebase, match="truncated"):
        tb.probe_wdl(board)
    (tmp_path / "KNK.xqtb").write_bytes(b"not a table" * 20)
    with pytest.raises(xq.InvalidTablebase, match="not an xq tablebase file"):
        xq.Tablebase(tmp_path).probe_dtm(board)
    assert issubclass(xq.InvalidTablebase, xq.XqError)
    with pytest.raises(TypeError):
        tb.probe_wdl("3k5/9/9/9/9/9/9/9/4N4/4K4 w")


def test_a_composed_position_is_not_in_the_tables_and_nothing_raises():
    # A soldier on its own back rank: no game brings it there (strict=False takes it).
    # KPK's table has no entry for it: None, as for an ending not in the directory.
    board = xq.Board("3k5/9/9/9/9/9/9/9/9/4KP3 w", strict=False)
    tb = xq.Tablebase(TABLES)
    assert tb.probe_wdl(board) is None
    assert tb.probe_dtm(board) is None
    assert tb.probe_wdl(board.mirror()) is None
    # The in-process engine with the tables set searches it without them.
    engine = xq.EmbeddedEngine(threads=1, hash_mb=4)
    engine.configure({"TablebasePath": str(TABLES)})
    info = engine.analyse(board, depth=4)
    assert info["pv"][0] in board.legal_moves
    # One step over the river, the soldier is in the table again.
    assert tb.probe_wdl(xq.Board("3k5/9/9/9/5P3/9/9/9/9/4K4 w")) == 1
