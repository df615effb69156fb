"""The engine in-process: the short mates of data/mates.epd, the info dict, MultiPV, the
info callback and the analysis iterator, stop() from another thread, the GIL released
while it thinks, and no search left running once the engine is gone."""

import gc
import os
import threading
import time

import pytest

import xq
import xq.engine
from conftest import mate_cases

SHORT_MATES = [c for c in mate_cases() if c[1] <= 3]


@pytest.fixture(scope="module")
def engine():
    return xq.EmbeddedEngine(threads=1, hash_mb=16)


def test_the_short_mates_are_there():
    assert len(mate_cases()) == 45 and len(SHORT_MATES) == 31


@pytest.mark.parametrize("fen,mate,bm", SHORT_MATES, ids=[f"mate{c[1]}-{i}" for i, c in enumerate(SHORT_MATES)])
def test_the_engine_finds_the_short_mates(engine, fen, mate, bm):
    board = xq.Board(fen)
    engine.new_game()
    info = engine.analyse(board, depth=2 * mate + 12)
    assert info["score"].relative == xq.engine.Mate(mate), info["pv"]
    assert info["score"] == xq.engine.PovScore(xq.engine.Mate(mate), board.turn)
    best = info["pv"][0]
    if best.iccs() in bm:
        return
    # Another move may mate as fast: then the opponent is mated in mate - 1.
    board.push(best)
    if mate == 1:
        assert board.is_checkmate()
    else:
        engine.new_game()
        assert engine.analyse(board, depth=2 * mate + 12)["score"].relative == xq.engine.Mate(-(mate - 1))


def test_the_info_dict(engine):
    board = xq.Board()
    board.push_notation("h2e2")
    info = engine.analyse(board, depth=6)
    assert set(info) >= {"score", "wdl", "pv", "depth", "seldepth", "nodes", "nps", "time", "multipv"}
    assert info["depth"] == 6 and info["nodes"] > 0 and info["time"] >= 0
    score = info["score"]
    assert isinstance(score, xq.engine.PovScore) and score.turn == xq.BLACK
    assert isinstance(score.relative, xq.engine.Cp) and score.relative.score() is not None
    assert score.relative.mate() is None and not score.is_mate()
    assert score.black() == score.relative and score.red() == -score.relative
    wdl = info["wdl"]
    assert isinstance(wdl, xq.engine.PovWdl) and wdl.relative.total() == 1000
    assert wdl.red() == -wdl.black()
    assert board.line_notation(info["pv"])  # a legal line from the position
    assert board.move_stack == [xq.Move.from_iccs("h2e2")]  # the board is not touched
    assert xq.Score(cp=35) == xq.engine.Cp(35) and xq.Score(mate=2) == xq.engine.Mate(2)
    import pickle

    assert pickle.loads(pickle.dumps(info["score"])) == info["score"]


def test_multipv(engine):
    lines = engine.analyse(xq.Board(), depth=5, multipv=3)
    assert isinstance(lines, list) and len(lines) == 3
    assert [line["multipv"] for line in lines] == [1, 2, 3]
    assert len({line["pv"][0] for line in lines}) == 3


def test_play(engine):
    board = xq.Board()
    result = engine.play(board, nodes=20_000)
    assert isinstance(result, xq.engine.PlayResult)
    assert board.is_legal(result.move) and result.info["pv"][0] == result.move
    assert result.ponder == result.info["pv"][1]
    mated = xq.Board("R3k4/1R7/9/9/9/9/9/9/9/3K5 b")
    assert engine.play(mated, depth=3).move is None
    assert engine.analyse(mated, depth=3)["pv"] == []
    with pytest.raises(ValueError):
        engine.play(board)  # no limit
    with pytest.raises(ValueError):
        engine.analyse(board, movetime=-1)
    with pytest.raises(ValueError):
        engine.analyse(board, depth=0)


def test_the_same_search_twice_gives_the_same_answer():
    engine = xq.EmbeddedEngine(threads=1, hash_mb=16)
    board = xq.Board()
    board.push_notation("h2e2")
    first = engine.analyse(board, nodes=50_000)
    engine.new_game()
    second = engine.analyse(board, nodes=50_000)
    assert (first["pv"], first["score"], first["nodes"]) == (second["pv"], second["score"], second["nodes"])


def test_the_info_callback_runs_on_the_caller_thread_and_can_stop(engine):
    seen = []
    caller = threading.get_ident()

    def on_info(info):
        seen.append((info["depth"], threading.get_ident()))
        return info["depth"] < 4  # False stops the search

    info = engine.analyse(xq.Board(), depth=40, info=on_info)
    assert [d for d, _ in seen] == [1, 2, 3, 4]
    assert all(t == caller for _, t in seen)
    assert info["depth"] >= 4 and info["pv"]


def test_an_exception_in_the_callback_stops_the_search_and_comes_back(engine):
    def boom(info):
        raise RuntimeError("from the callback")

    with pytest.raises(RuntimeError, match="from the callback"):
        engine.analyse(xq.Board(), depth=40, info=boom)
    assert engine.analyse(xq.Board(), depth=3)["depth"] == 3  # still usable


def test_the_analysis_iterator(engine):
    board = xq.Board()
    with engine.analysis(board) as analysis:  # no limit: until stopped
        depths = []
        for info in analysis:
            depths.append(info["depth"])
            if info["depth"] >= 5:
                break
        assert analysis.info["depth"] == 5
        analysis.stop()
        final = analysis.wait()
    assert depths == [1, 2, 3, 4, 5]
    assert isinstance(final, xq.engine.BestMove) and board.is_legal(final.move)
    assert analysis.best_move == final.move
    # With a limit it ends by itself.
    infos = list(engine.analysis(board, depth=4))
    assert infos[-1]["depth"] == 4


def test_an_unlimited_analysis_that_can_go_no_deeper_ends_by_itself(engine):
    board = xq.Board("3a1k3/9/4R4/6p2/9/2P6/6P1P/6N2/9/1rBAKAB2 w - - 0 21")  # mate in 1
    result = []
    t = threading.Thread(target=lambda: result.append(list(engine.analysis(board))))
    t.start()
    t.join(60)
    assert not t.is_alive(), "the iterator did not end"
    assert result[0][-1]["score"].relative == xq.engine.Mate(1)


def test_stop_from_another_thread():
    engine = xq.EmbeddedEngine(threads=2, hash_mb=16)
    timer = threading.Timer(0.3, engine.stop)
    start = time.monotonic()
    timer.start()
    info = engine.analyse(xq.Board(), movetime=60)
    elapsed = time.monotonic() - start
    timer.join()
    assert elapsed < 10 and info["pv"]


def test_the_gil_is_released_while_it_thinks():
    engine = xq.EmbeddedEngine(threads=1, hash_mb=16)
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    engine.analyse(xq.Board(), movetime=0.5)
    done.set()
    t.join()
    assert ticks > 50  # the other thread ran all along


def threads_now():
    return len(os.listdir("/proc/self/task"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs /proc")
def test_no_search_is_left_running_when_the_engine_goes():
    before = threads_now()
    engine = xq.EmbeddedEngine(threads=2, hash_mb=16)
    analysis = engine.analysis(xq.Board())  # thinks until stopped
    next(iter(analysis))
    assert threads_now() > before
    del analysis, engine
    gc.collect()
    for _ in range(100):
        if threads_now() <= before:
            break
        time.sleep(0.05)
    assert threads_now() <= before


def test_levels_are_reproducible_with_a_seed():
    moves = []
    for _ in range(2):
        engine = xq.EmbeddedEngine(threads=1, hash_mb=16, skill=3)
        engine.set_seed(42)
        board = xq.Board()
        for _ in range(6):
            m = engine.play(board, nodes=5_000).move
            board.push(m)
        moves.append(board.move_stack)
    assert moves[0] == moves[1]
    assert xq.EmbeddedEngine(skill=3).skill == 3 and xq.EmbeddedEngine().skill == 20
    assert repr(xq.EmbeddedEngine(threads=1, hash_mb=8)) == "EmbeddedEngine(threads=1, hash_mb=8, skill=20)"


def test_the_old_name_of_the_in_process_engine_still_works_with_a_warning():
    with pytest.warns(DeprecationWarning, match="xq.EmbeddedEngine"):
        old = xq.Engine
    assert old is xq.EmbeddedEngine
    assert "Engine" not in xq.__all__ and "EmbeddedEngine" in xq.__all__


def test_files_are_loaded_by_the_engines_setters_with_their_messages(tmp_path):
    with pytest.raises(xq.InvalidOption, match=r"^cannot load the network .*missing\.nnue: "):
        xq.EmbeddedEngine(hash_mb=1, eval_file=tmp_path / "missing.nnue")
    (tmp_path / "bad.xqb").write_bytes(b"not a book")
    with pytest.raises(xq.InvalidOption, match=r"bad\.xqb: "):
        xq.EmbeddedEngine(hash_mb=1, book=tmp_path / "bad.xqb")
    with pytest.raises(xq.InvalidOption, match="^cannot read the tablebases "):
        xq.EmbeddedEngine(hash_mb=1, tablebases=tmp_path / "none")
    with pytest.raises(xq.InvalidOption, match="not both"):
        xq.EmbeddedEngine(hash_mb=1, classical=True, eval_file=tmp_path / "x.nnue")
    # The classical evaluation searches differently from the network.
    board = xq.Board()
    net = xq.EmbeddedEngine(hash_mb=1).analyse(board, nodes=3000)
    classical = xq.EmbeddedEngine(hash_mb=1, classical=True).analyse(board, nodes=3000)
    assert (net["score"], net["pv"]) != (classical["score"], classical["pv"])
