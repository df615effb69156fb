"""xq.Tablebase on the small tables the repository keeps (xq-tablebase/tests/data)."""

import shutil

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
    with pytest.raises(ValueError, match="^win by the perpetual-check rule: no distance to mate"):
        tb.probe_dtm(board)
    # Which rule: the perpetual-check rule, as the referee's termination names it.
    assert tb.probe_rule(board) is xq.Termination.PERPETUAL_CHECK
    assert tb.probe_rule(board) == "perpetual-check"
    # A chariot against a horse is mostly a plain win, with a distance and no rule.
    mate = xq.Board("3k5/9/9/9/9/9/9/9/4n4/R3K4 w")
    assert tb.probe_dtm(mate) > 0
    assert tb.probe_rule(mate) is None
    # A table written by a build before format version 4 does not say which rule.
    old = xq.Tablebase(TABLES / "format-3")
    assert old.probe_wdl(board) == 1
    assert old.probe_rule(board) is None
    with pytest.raises(ValueError, match="^win by the perpetual check or chase rule"):
        old.probe_dtm(board)


def test_a_wdl_file_alone_says_which_rule(tmp_path):
    board = xq.Board("9/9/4k4/9/9/9/9/9/1n7/R2K5 w")
    # Written by a build before format version 5, a WDL file gives the result alone.
    (tmp_path / "KRKN.xqwdl").write_bytes((TABLES / "format-4" / "KRKN.xqwdl").read_bytes())
    old = xq.Tablebase(tmp_path)
    assert (old.probe_wdl(board), old.probe_rule(board), old.probe_dtm(board)) == (1, None, None)
    # From version 5 it says the rule too, without the distance file.
    (tmp_path / "KRKN.xqwdl").write_bytes((ROOT / "web" / "test" / "data" / "KRKN.xqwdl").read_bytes())
    tb = xq.Tablebase(tmp_path)
    assert tb.probe_wdl(board) == 1
    assert tb.probe_rule(board) is xq.Termination.PERPETUAL_CHECK
    assert tb.probe_dtm(board) is None
    assert tb.probe_rule(xq.Board("3k5/9/9/9/9/9/9/9/4n4/R3K4 w")) is None


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


def test_generate_makes_the_tables_xq_tb_gen_makes(tmp_path):
    import xq.tablebase

    assert xq.tablebase.plan(["KRKN", "KRKA"]) == ["KNK", "KRK", "KRKA", "KRKN"]
    seen = []
    rows = xq.tablebase.generate(["KRKN", "KRKA"], tmp_path / "tables", threads=2,
                                 note="from Python", on_table=lambda row: seen.append(row["ending"]))
    assert [r["ending"] for r in rows] == seen == ["KNK", "KRK", "KRKA", "KRKN"]
    assert {r["status"] for r in rows} == {"generated"}
    krkn = rows[-1]
    assert (krkn["positions"], krkn["wins"], krkn["draws"], krkn["losses"]) == (380325, 192333, 609, 187383)
    assert (krkn["rule_decided"], krkn["chase_decided"], krkn["longest_mate"]) == (1597, 0, 26)
    assert krkn["threads"] == 2 and krkn["note"] == "from Python" and krkn["verify_seconds"] is not None
    # The distance files are those the repository keeps, byte for byte; each has its WDL file.
    for row in rows:
        made = tmp_path / "tables" / (row["ending"] + ".xqtb")
        assert made.read_bytes() == (TABLES / made.name).read_bytes(), made.name
        assert row["bytes"] == made.stat().st_size
        assert (tmp_path / "tables" / (row["ending"] + ".xqwdl")).exists()
    # The log has a row an ending, as xq tb gen writes it.
    log = (tmp_path / "tables" / "endings.csv").read_text(encoding="utf-8").splitlines()
    assert log[0] == "# xq tablebase log, format 2"
    assert [line.split(",")[0] for line in log[2:]] == ["KNK", "KRK", "KRKA", "KRKN"]
    # The tables probe.
    tb = xq.Tablebase(tmp_path / "tables")
    assert tb.probe_wdl(xq.Board("9/9/4k4/9/9/9/9/9/1n7/R2K5 w")) == 1
    # Made again, the good tables are kept; one made unreadable is made again.
    (tmp_path / "tables" / "KRKA.xqtb").write_bytes(b"not a table")
    again = xq.tablebase.generate(["KRKA"], tmp_path / "tables", verify=False)
    assert [(r["ending"], r["status"]) for r in again] == [("KRK", "kept"), ("KRKA", "generated")]
    assert again[1]["verify_seconds"] is None
    assert (tmp_path / "tables" / "KRKA.xqtb").read_bytes() == (TABLES / "KRKA.xqtb").read_bytes()
    # A table of format version 3 where both sides attack does not say which rule: made
    # again, as xq tb gen makes it.
    (tmp_path / "tables" / "KRKN.xqtb").write_bytes((TABLES / "format-3" / "KRKN.xqtb").read_bytes())
    again = xq.tablebase.generate(["KRKN"], tmp_path / "tables", verify=False)
    assert [(r["ending"], r["status"]) for r in again] == [("KNK", "kept"), ("KRK", "kept"), ("KRKN", "generated")]
    assert (tmp_path / "tables" / "KRKN.xqtb").read_bytes() == (TABLES / "KRKN.xqtb").read_bytes()
    # Kept, a table where both sides attack has the rule's counts in its row: read from the file.
    again = xq.tablebase.generate(["KRKN"], tmp_path / "tables")
    kept = again[-1]
    assert (kept["ending"], kept["status"]) == ("KRKN", "kept")
    assert (kept["rule_decided"], kept["chase_decided"]) == (1597, 0)
    # A WDL file of format version 4 does not say which rule: kept, the table writes it
    # again as the version 5 file it writes today.
    wdl = tmp_path / "tables" / "KRKN.xqwdl"
    fresh = wdl.read_bytes()
    assert fresh[8] == 5
    wdl.write_bytes((TABLES / "format-4" / "KRKN.xqwdl").read_bytes())
    again = xq.tablebase.generate(["KRKN"], tmp_path / "tables", verify=False)
    assert [(r["ending"], r["status"]) for r in again][-1] == ("KRKN", "kept")
    assert wdl.read_bytes() == fresh


def test_generate_refuses_bad_arguments(tmp_path):
    import xq.tablebase

    with pytest.raises(xq.InvalidArgument, match=r'endings \["KRKX"\]: .*X'):
        xq.tablebase.generate(["KRKX"], tmp_path)
    with pytest.raises(xq.InvalidArgument, match="no ending given"):
        xq.tablebase.generate([], tmp_path)
    with pytest.raises(TypeError, match="a list of names"):
        xq.tablebase.generate("KRKN", tmp_path)
    with pytest.raises(xq.InvalidArgument, match="threads 0: a whole number of at least 1"):
        xq.tablebase.generate(["KRK"], tmp_path, threads=0)
    with pytest.raises(xq.InvalidArgument, match="max_positions -1"):
        xq.tablebase.plan(["KRK"], max_positions=-1)
    with pytest.raises(xq.InvalidArgument, match="split_above 0: a whole number of at least 1"):
        xq.tablebase.generate(["KRK"], tmp_path, split_above=0, ray_address="auto")
    with pytest.raises(xq.InvalidArgument, match="split_above splits endings over a Ray cluster"):
        xq.tablebase.generate(["KRK"], tmp_path, split_above=1000)
    # Endings of more numbers (both sides to move) than max_positions are left out.
    assert xq.tablebase.plan(["KRKN"], max_positions=10000) == ["KNK", "KRK"]
    assert list(tmp_path.iterdir()) == []


def test_a_part_of_a_split_ending_refuses_what_does_not_fit(tmp_path):
    """The steps an actor of a split ending runs (`xq.tablebase.generate(...,
    split_above=N)` on a cluster), without Ray: two parts of KRKA made here, their
    updates exchanged as bytes, give the files of one process, and the forward pass over
    them checks every position."""
    import xq.tablebase
    from xq import _xq

    xq.tablebase.generate(["KRK"], tmp_path / "subs")
    # 40,500 numbers: two parts above 20,250; KRKN is made whole (both sides attack).
    assert [_xq._tablebase_parts(n, 20250) for n in ("KRKA", "KRK", "KRKN")] == [2, 1, 1]
    with pytest.raises(xq.InvalidArgument, match="KRKN: both sides attack"):
        _xq._TablebasePart(str(tmp_path / "subs"), "KRKN", 0, 2, 1)
    with pytest.raises(xq.InvalidTablebase, match="the table KRK is needed first"):
        _xq._TablebasePart(str(tmp_path), "KRKA", 0, 2, 1)
    # A damaged block of a capture's file: an error of the step that reads it.
    bad = tmp_path / "bad"
    bad.mkdir()
    data = bytearray((tmp_path / "subs" / "KRK.xqtb").read_bytes())
    data[-3] ^= 0x55
    (bad / "KRK.xqtb").write_bytes(bytes(data))
    damaged = _xq._TablebasePart(str(bad), "KRKA", 0, 1, 1)
    with pytest.raises(xq.InvalidTablebase, match=r"KRK.xqtb: corrupt \(block data is wrong\)"):
        damaged.start()
    parts = [_xq._TablebasePart(str(tmp_path / "subs"), "KRKA", k, 2, 1) for k in range(2)]
    # The parts hold the files of the tables their captures lead to open, and read them
    # as they need them: the directory may go (as a Ray actor's temporary one does).
    shutil.rmtree(tmp_path / "subs")
    for p in parts:
        p.start()
    level = 0
    while True:
        found = [p.level(level) for p in parts]
        with pytest.raises(xq.InvalidArgument, match="updates for part 1 of KRKA given to part 0"):
            parts[0].receive([found[0][2][1]])
        with pytest.raises(xq.InvalidArgument, match="not a message between parts"):
            parts[0].receive([b"XQTB"])
        for k, p in enumerate(parts):
            p.receive([f[2][k] for f in found])
        if sum(f[0] for f in found) == 0 and level >= max(f[1] for f in found):
            break
        level += 1
    summaries = [p.finish() for p in parts]
    with pytest.raises(xq.InvalidArgument, match="the part's levels are over"):
        parts[0].level(level)
    # The forward pass over the parts: each asks the other for its children's values.
    assert [p.verify_rounds() for p in parts] == [1, 1]
    asked = [p.requests(0) for p in parts]
    with pytest.raises(xq.InvalidArgument, match="no answer gives the value of entry"):
        parts[0].check(0, [])
    checked = sum(parts[k].check(0, [parts[1 - k].answer(asked[k][1 - k])]) for k in range(2))
    pieces = [p.pieces(summaries) for p in parts]
    distance, wdl, row = _xq._tablebase_assemble(summaries, pieces, 1.0, 0.25, 0.5, 2)
    whole = xq.tablebase.generate(["KRKA"], tmp_path / "whole")
    assert checked == whole[-1]["positions"]
    # The levels went one past the longest mate, as in one process.
    assert (level, whole[-1]["longest_mate"]) == (11, 10)
    assert distance == (tmp_path / "whole" / "KRKA.xqtb").read_bytes()
    assert wdl == (tmp_path / "whole" / "KRKA.xqwdl").read_bytes()
    assert row.startswith("KRKA,generated,%d," % whole[-1]["positions"])
    with pytest.raises(xq.InvalidArgument, match="not those of the 2 parts of KRKA in order"):
        _xq._tablebase_assemble(summaries, pieces[::-1], 1.0, None, 0.5, 2)
