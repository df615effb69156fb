"""xq.engine against real engines: the xq binary over UCI and over UCCI, and Debian's
fairy-stockfish over UCI (its ranks 1-10): a game played to the end, MultiPV, an
infinite analysis stopped, an engine killed mid-search (typed errors, no hang), the UCCI
dialect, options, the asyncio API; and small fake engines for what real ones do not do
(illegal moves, silence, a crash at start).

The xq binary is $XQ_BIN, else target/release/xq, else `xq` on the PATH; fairy-stockfish
is $FAIRY_STOCKFISH, else on the PATH or in /usr/games. Without them these tests are
skipped, saying why; with XQ_ENGINE_TESTS=required (set by .ci/run) they fail instead.
"""

import asyncio
import logging
import os
import shutil
import signal
import sys
import textwrap
import threading

import pytest

import xq
import xq.engine
from xq.engine import Limit
from conftest import ROOT

REQUIRED = os.environ.get("XQ_ENGINE_TESTS") == "required"


def find_xq():
    if os.environ.get("XQ_BIN"):
        return os.environ["XQ_BIN"]
    built = ROOT / "target" / "release" / "xq"
    if built.is_file():
        return str(built)
    return shutil.which("xq")


def find_fairy():
    if os.environ.get("FAIRY_STOCKFISH"):
        return os.environ["FAIRY_STOCKFISH"]
    found = shutil.which("fairy-stockfish")
    if found:
        return found
    return "/usr/games/fairy-stockfish" if os.path.isfile("/usr/games/fairy-stockfish") else None


def need(path, what):
    if path is None or not os.path.isfile(path):
        message = f"{what} not found ({path or 'not on the PATH'})"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    return path


KINDS = ["xq-uci", "xq-ucci", "fairy-stockfish"]


def start(kind, **kwargs):
    if kind == "xq-uci":
        return xq.engine.SimpleEngine.popen_uci(need(find_xq(), "the xq binary"), **kwargs)
    if kind == "xq-ucci":
        return xq.engine.SimpleEngine.popen_ucci(need(find_xq(), "the xq binary"), **kwargs)
    return xq.engine.SimpleEngine.popen_uci(need(find_fairy(), "fairy-stockfish"), **kwargs)


@pytest.fixture(scope="module", params=KINDS)
def engine(request):
    e = start(request.param)
    e.kind = request.param
    yield e
    e.quit()


@pytest.fixture(scope="module", params=["xq-uci", "fairy-stockfish"])
def uci_engine(request):
    e = start(request.param)
    yield e
    e.quit()


@pytest.fixture(scope="module")
def ucci_engine():
    e = start("xq-ucci")
    yield e
    e.quit()


@pytest.fixture
def sent(caplog):
    """The commands xq.engine sends, from its debug log."""
    caplog.set_level(logging.DEBUG, logger="xq.engine")

    def lines():
        return [r.getMessage().split("<< ", 1)[1] for r in caplog.records if "<< " in r.getMessage()]

    return lines


def test_the_handshake(engine):
    if engine.kind == "xq-uci":
        assert engine.id["name"].startswith("xq ")
        assert engine.options["Hash"] == xq.engine.Option("Hash", "spin", 64, 1, 33554432, [])
        assert engine.options["multipv"].max == 16  # names in any case
        assert engine.protocol.ranks == "auto"
        assert engine.config["UCI_Variant"] == "xiangqi"
    elif engine.kind == "xq-ucci":
        assert engine.id["name"].startswith("xq ")
        assert engine.options["hashsize"].type == "spin" and engine.options["newgame"].type == "button"
        assert engine.config["usemillisec"] is True and engine.protocol.millisec
        assert engine.protocol.ranks == "0-9"
    else:
        assert engine.id["name"].startswith("Fairy-Stockfish")
        assert engine.protocol.ranks == "1-10"  # known by its name
        assert "xiangqi" in engine.options["UCI_Variant"].var
        assert engine.config["UCI_Variant"] == "xiangqi"
    engine.ping()


def test_play_a_game_to_the_end(engine):
    board = xq.Board()
    game = object()
    while not board.is_game_over() and len(board.move_stack) < 1000:
        result = engine.play(board, Limit(depth=3), game=game)
        assert isinstance(result, xq.engine.PlayResult)
        assert board.is_legal(result.move), (board.fen(), result.move)
        board.push(result.move)
    outcome = board.outcome()
    assert outcome is not None, f"{len(board.move_stack)} plies and no end"
    # Asked after the end, the engine has no move (a mate or stalemate) or plays on (an
    # end by the repetition or 60-move rules, which an engine does not judge).
    if board.is_checkmate() or board.is_stalemate():
        assert engine.play(board, Limit(depth=2)).move is None


def test_xq_and_fairy_stockfish_play_each_other():
    red = start("xq-uci")
    black = start("fairy-stockfish")
    try:
        board = xq.Board()
        while not board.is_game_over() and len(board.move_stack) < 1000:
            side = red if board.turn == xq.RED else black
            move = side.play(board, Limit(depth=2)).move
            board.push(move)
        assert board.outcome() is not None
    finally:
        red.quit()
        black.quit()


def test_analyse_with_multipv(uci_engine):
    board = xq.Board()
    board.push_uci("h2e2")  # the moves are sent, in the engine's rank numbering
    infos = uci_engine.analyse(board, Limit(depth=6), multipv=3)
    assert isinstance(infos, list) and len(infos) == 3
    assert [i["multipv"] for i in infos] == [1, 2, 3]
    assert len({i["pv"][0] for i in infos}) == 3
    for info in infos:
        assert info["depth"] == 6 and info["nodes"] > 0 and info["time"] >= 0
        assert isinstance(info["score"], xq.engine.PovScore) and info["score"].turn == xq.BLACK
        assert board.line_notation(info["pv"])  # a legal line, as xq.Moves
    scores = [i["score"].relative for i in infos]
    assert scores == sorted(scores, reverse=True)
    # One line, not a list.
    info = uci_engine.analyse(board, Limit(depth=4))
    assert isinstance(info, dict) and info["depth"] == 4
    # A mate in one, as a Mate score from both sides.
    mate = uci_engine.analyse(xq.Board("3k5/R8/9/9/9/9/9/9/4R4/4K4 w"), Limit(depth=3))
    assert mate["score"].relative == xq.engine.Mate(1) and mate["score"].black() == xq.engine.Mate(-1)


def test_ucci_has_one_line(ucci_engine):
    engine = ucci_engine
    with pytest.raises(xq.InvalidLimit, match="one line"):
        engine.analyse(xq.Board(), Limit(depth=3), multipv=2)
    (info,) = engine.analyse(xq.Board(), Limit(depth=3), multipv=1)
    assert info["depth"] == 3 and info["pv"]
    engine.ping()  # still fine


def test_stop_an_infinite_analysis(engine):
    board = xq.Board()
    with engine.analysis(board) as analysis:
        depths = []
        for info in analysis:
            if "depth" in info:
                depths.append(info["depth"])
            if depths and depths[-1] >= 5:
                break
        analysis.stop()
        best = analysis.wait()
    assert depths[-1] >= 5 and depths == sorted(depths)
    assert isinstance(best, xq.engine.BestMove) and board.is_legal(best.move)
    assert analysis.info["depth"] >= 5 and analysis.info["pv"]
    # The engine is ready for more.
    engine.ping()
    assert board.is_legal(engine.play(board, Limit(depth=2)).move)
    # A new command stops an analysis left running.
    running = engine.analysis(board)
    running.next()
    assert board.is_legal(engine.play(board, Limit(depth=2)).move)
    assert board.is_legal(running.wait().move)


@pytest.mark.parametrize("kind", KINDS)
def test_an_engine_killed_mid_search(kind):
    engine = start(kind)
    board = xq.Board()
    analysis = engine.analysis(board)  # no limit: it thinks until stopped
    analysis.next()
    os.kill(engine.transport.get_pid(), signal.SIGKILL)
    with pytest.raises(xq.EngineTerminatedError, match="killed by signal 9"):
        analysis.wait()
    with pytest.raises(xq.EngineTerminatedError):
        engine.play(board, Limit(depth=3))
    with pytest.raises(xq.EngineTerminatedError):
        engine.ping()
    with pytest.raises(xq.EngineTerminatedError):
        engine.configure({})
    engine.quit()  # does not hang
    assert engine.returncode == -signal.SIGKILL
    engine.quit()  # twice is fine
    # Killed while `play` waits, from another thread.
    engine = start(kind)
    timer = threading.Timer(0.3, os.kill, (engine.transport.get_pid(), signal.SIGKILL))
    timer.start()
    with pytest.raises(xq.EngineTerminatedError):
        engine.play(board, Limit(depth=100))
    timer.join()
    engine.quit()


def test_options(engine):
    name, good = {"xq-uci": ("Hash", 8), "xq-ucci": ("hashsize", 8), "fairy-stockfish": ("Hash", 8)}[engine.kind]
    for bad, message in [
        ({"No Such Option": 1}, "the engine has no option 'No Such Option'"),
        ({name: -1}, f"option {engine.options[name].name} must be"),
        ({name: "big"}, "is a spin: give an int"),
        ({name: True}, "is a spin"),
    ]:
        with pytest.raises(xq.InvalidOption, match=message):
            engine.configure(bad)
    managed = "MultiPV" if engine.kind != "xq-ucci" else "usemillisec"
    with pytest.raises(xq.InvalidOption, match="set by xq.engine itself"):
        engine.configure({managed: 1 if managed == "MultiPV" else False})
    engine.configure({name: good})
    assert engine.config[engine.options[name].name] == good
    assert xq.Board().is_legal(engine.play(xq.Board(), Limit(depth=2)).move)
    # Options for one search.
    assert engine.analyse(xq.Board(), Limit(depth=2), options={name: 16})["depth"] == 2


def test_the_commands_sent(sent):
    engine = start("xq-uci")
    try:
        board = xq.Board()
        board.push_uci("h2e2")
        engine.play(board, Limit(time=0.05, red_clock=1.5, black_clock=2.0, red_inc=0.1, remaining_moves=20))
        assert sent()[-2:] == [
            "position fen " + xq.STARTING_FEN + " moves h2e2",
            "go wtime 1500 btime 2000 winc 100 movestogo 20 movetime 50",
        ]
        engine.play(board, Limit(depth=2), root_moves=[xq.Move.from_uci("h9g7"), xq.Move.from_uci("b9c7")])
        assert sent()[-1] == "go depth 2 searchmoves h9g7 b9c7"
        # A new game (its table cleared) for the first search and when `game` changes.
        assert sent().count("ucinewgame") == 1
        game = object()
        engine.play(board, Limit(depth=1), game=game)
        engine.play(board, Limit(depth=1), game=game)
        assert sent().count("ucinewgame") == 2
        engine.play(board, Limit(depth=3), ponder=True)
        assert sent()[-1] == "go ponder depth 3"
        engine.ping()  # stops the ponder search first
        assert sent()[-2:] == ["stop", "isready"]
        with engine.analysis(board):
            pass
        assert "go infinite" in sent()
    finally:
        engine.quit()
    assert sent()[-1] == "quit"
    engine = start("xq-ucci")
    try:
        board = xq.Board()
        engine.play(board, Limit(time=0.2))
        assert sent()[-1] == "go time 200"
        engine.play(board, Limit(red_clock=3, black_clock=4))
        assert sent()[-1] == "go time 3000 increment 0 opptime 4000 oppincrement 0"
        engine.play(board, Limit(white_clock=3, black_clock=4, remaining_moves=10), draw_offered=True)
        assert sent()[-1] == "go draw time 3000 movestogo 10 opptime 4000 oppmovestogo 10"
        with engine.analysis(board):
            pass
        assert sent()[-2:] == ["go depth infinite", "stop"]
    finally:
        engine.quit()


def test_the_ucci_dialect(ucci_engine):
    engine = ucci_engine
    board = xq.Board()
    best = engine.play(board, Limit(depth=4)).move
    banned = engine.play(board, Limit(depth=4), banmoves=[best]).move
    assert banned != best and board.is_legal(banned)
    only = xq.Move.from_uci("a3a4")
    assert engine.play(board, Limit(depth=4), root_moves=[only]).move == only
    assert board.is_legal(engine.play(board, Limit(time=0.1)).move)
    assert board.is_legal(engine.play(board, Limit(red_clock=2, black_clock=2, red_inc=0.1)).move)
    assert board.is_legal(engine.play(board, Limit(nodes=5000)).move)
    mated = xq.Board("R3k4/1R7/9/9/9/9/9/9/9/3K5 b")
    result = engine.play(mated, Limit(depth=3))
    assert result.move is None and not result.resigned  # nobestmove
    info = engine.analyse(xq.Board("3k5/R8/9/9/9/9/9/9/4R4/4K4 w"), Limit(depth=3))
    assert info["score"].relative == xq.engine.Mate(1)  # UCCI's 29999: mate in one ply
    assert info["time"] >= 0 and info["nodes"] > 0
    with pytest.raises(xq.IllegalMove):
        engine.play(board, Limit(depth=2), banmoves=[xq.Move.from_uci("a0a9")])


def test_fairy_stockfish_ranks():
    engine = start("fairy-stockfish", ranks="1-10")
    try:
        board = xq.Board()
        for _ in range(6):
            move = engine.play(board, Limit(depth=3)).move
            board.push(move)
        assert len(board.move_stack) == 6
        info = engine.analyse(board, Limit(depth=4))
        assert board.line_notation(info["pv"])
    finally:
        engine.quit()
    with pytest.raises(xq.InvalidOption, match="ranks"):
        xq.engine.SimpleEngine.popen_uci(need(find_fairy(), "fairy-stockfish"), ranks="2-11")


def test_the_same_program_runs_in_process_and_outside():
    def program(engine):
        board = xq.Board()
        info = engine.analyse(board, Limit(depth=4))
        lines = engine.analyse(board, Limit(depth=4), multipv=2)
        played = engine.play(board, Limit(nodes=3000))
        with engine.analysis(board, Limit(depth=3)) as analysis:
            infos = list(analysis)
            best = analysis.wait()
        return [
            type(info).__name__, type(info["score"]).__name__, type(info["score"].relative).__name__,
            type(info["wdl"]).__name__, type(info["pv"][0]).__name__, info["depth"],
            type(lines).__name__, len(lines), [line["multipv"] for line in lines],
            type(played).__name__, type(played.move).__name__, type(best).__name__,
            board.is_legal(best.move), infos[-1]["depth"],
        ]

    inside = xq.EmbeddedEngine(threads=1, hash_mb=16)
    outside = start("xq-uci")
    try:
        outside.configure({"UCI_ShowWDL": True})
        assert program(inside) == program(outside)
        assert program(inside)[:6] == ["dict", "PovScore", "Cp", "PovWdl", "Move", 4]
    finally:
        outside.quit()
        inside.quit()


def test_the_asyncio_api():
    path = need(find_xq(), "the xq binary")

    async def main():
        transport, protocol = await xq.engine.popen_uci(path)
        board = xq.Board()
        result = await protocol.play(board, Limit(depth=3))
        assert board.is_legal(result.move)
        analysis = await protocol.analysis(board, Limit(depth=4))
        depths = [info["depth"] async for info in analysis]
        assert depths == [1, 2, 3, 4]
        assert board.is_legal((await analysis.wait()).move)
        with pytest.raises(xq.engine.AnalysisComplete):
            await analysis.get()
        assert await analysis.next() is None
        await protocol.ping()
        await protocol.quit()
        return await protocol.returncode

    assert asyncio.run(main()) == 0


# ---------------------------------------------------------------------------- fake engines

FAKE = textwrap.dedent(
    """
    import sys
    name, reply, on_go = sys.argv[1], sys.argv[2], sys.argv[3]
    for line in sys.stdin:
        line = line.strip()
        if line == "uci":
            print("id name " + name)
            print("option name Hash type spin default 16 min 1 max 1024")
            print("uciok", flush=True)
        elif line == "isready":
            print("readyok", flush=True)
        elif line.startswith("go"):
            if on_go == "die":
                print("segmentation fault (not really)", file=sys.stderr, flush=True)
                sys.exit(11)
            if on_go == "silent":
                continue
            print("info depth 1 score cp 12 pv " + reply)
            print("bestmove " + reply.split()[0], flush=True)
        elif line == "quit":
            sys.exit(0)
    """
)


def fake(reply, on_go="answer", name="Fake", **kwargs):
    return xq.engine.SimpleEngine.popen_uci([sys.executable, "-c", FAKE, name, reply, on_go], **kwargs)


def test_an_engine_that_numbers_ranks_1_to_10_is_recognised_by_its_moves():
    board = xq.Board()
    # h3e3 is no move in ICCS here (h3 is empty); it is h2e2 with ranks 1-10.
    engine = fake("h3e3 h10g8")
    try:
        result = engine.play(board, Limit(depth=1))
        assert result.move == xq.Move.from_uci("h2e2") and engine.protocol.ranks == "1-10"
        assert engine.analyse(board, Limit(depth=1))["pv"] == [xq.Move.from_uci("h2e2"), xq.Move.from_uci("h9g7")]
    finally:
        engine.quit()
    engine = fake("h2e2 h9g7")
    try:
        assert engine.play(board, Limit(depth=1)).move == xq.Move.from_uci("h2e2")
        assert engine.protocol.ranks == "auto"  # nothing told the forms apart yet
    finally:
        engine.quit()


def test_engines_that_misbehave_raise_typed_errors():
    board = xq.Board()
    engine = fake("a0a9")  # not legal
    try:
        with pytest.raises(xq.EngineError, match="a0a9, which is not legal"):
            engine.play(board, Limit(depth=1))
        engine.ping()  # it still answers
    finally:
        engine.quit()
    engine = fake("xyz")
    try:
        with pytest.raises(xq.EngineError, match="not a move"):
            engine.play(board, Limit(depth=1))
    finally:
        engine.quit()
    engine = fake("h2e2", on_go="die")
    with pytest.raises(xq.EngineTerminatedError, match="exited with code 11; its last words: segmentation fault"):
        engine.play(board, Limit(depth=1))
    engine.quit()
    # Silent: the time given and the timeout pass, stop is not answered, the engine is
    # killed; the error is a TimeoutError too.
    engine = fake("h2e2", on_go="silent", timeout=0.5)
    with pytest.raises(xq.engine.EngineTimeoutError) as e:
        engine.play(board, Limit(time=0.1))
    assert isinstance(e.value, TimeoutError) and isinstance(e.value, xq.EngineError)
    with pytest.raises(xq.EngineTerminatedError):
        engine.play(board, Limit(time=0.1))
    engine.quit()
    # Engines that never start.
    with pytest.raises(xq.EngineTerminatedError, match="cannot start the engine"):
        xq.engine.SimpleEngine.popen_uci("/nonexistent/engine")
    with pytest.raises(xq.EngineTerminatedError, match="exited with code 3; its last words: no such variant"):
        xq.engine.SimpleEngine.popen_uci(["/bin/sh", "-c", "echo 'no such variant' >&2; exit 3"])
    with pytest.raises(xq.engine.EngineTimeoutError, match="did not answer start within 0.5 s"):
        xq.engine.SimpleEngine.popen_uci(["/bin/cat"], timeout=0.5)  # never says uciok
    # Limits are checked before anything is sent.
    engine = fake("h2e2")
    try:
        with pytest.raises(xq.InvalidLimit, match="play needs a limit"):
            engine.play(board, Limit())
        with pytest.raises(xq.InvalidLimit, match="not a dict"):
            engine.analyse(board, {"depth": 3})
        with pytest.raises(xq.InvalidLimit, match="multipv"):
            engine.analyse(board, Limit(depth=1), multipv=0)
        with pytest.raises(xq.EngineError, match="no MultiPV option"):
            engine.analyse(board, Limit(depth=1), multipv=2)
        assert engine.play(board, Limit(depth=1)).move == xq.Move.from_uci("h2e2")
    finally:
        engine.quit()


def test_scores():
    Cp, Mate = xq.engine.Cp, xq.engine.Mate
    order = [Mate(0), Mate(-1), Mate(-5), Cp(-300), Cp(0), Cp(45), Mate(7), Mate(2), xq.engine.MATE_GIVEN]
    assert sorted(reversed(order)) == order
    assert -Mate(0) == xq.engine.MATE_GIVEN and -xq.engine.MATE_GIVEN == Mate(0)
    assert Mate(3).score(mate_score=100_000) == 99_997 and Mate(-3).score(mate_score=100_000) == -99_997
    assert Mate(3).score() is None and Cp(-20).score(mate_score=100_000) == -20
    assert Mate(-2).mate() == -2 and Cp(5).mate() is None and Mate(1).is_mate() and not Cp(1).is_mate()
    assert str(Cp(35)) == "+35" and str(Mate(-2)) == "#-2" and repr(Mate(3)) == "Mate(+3)"
    assert abs(Cp(-35)) == Cp(35) and abs(Mate(-2)) == Mate(2)
    pov = xq.engine.PovScore(Cp(35), xq.BLACK)
    assert pov.red() == Cp(-35) and pov.black() == Cp(35) and pov.white() == Cp(-35)
    assert pov == xq.engine.PovScore(Cp(-35), xq.RED) and -pov == xq.engine.PovScore(Cp(-35), xq.BLACK)
    wdl = xq.engine.PovWdl(xq.engine.Wdl(600, 300, 100), xq.RED)
    assert wdl.black() == xq.engine.Wdl(100, 300, 600) and wdl.red().expectation() == 0.75
    assert xq.Score(mate=3) == Mate(3) and xq.Score(cp=-1) == Cp(-1)
    import pickle

    for s in order + [pov]:
        assert pickle.loads(pickle.dumps(s)) == s
    limit = Limit(white_clock=10, white_inc=1, black_clock=9)
    assert limit.red_clock == 10 and limit.white_inc == limit.red_inc == 1
    assert repr(limit) == "Limit(red_clock=10, black_clock=9, red_inc=1)"


def test_closing_leaves_no_transport_to_the_garbage_collector():
    # A transport left open is closed by its finaliser on a loop that is gone: "Event
    # loop is closed", and on CPython 3.11 a finaliser run inside ast.parse broke it.
    import gc
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with start("xq-uci") as engine:
            engine.ping()
        killed = start("xq-uci")
        os.kill(killed.transport.get_pid(), signal.SIGKILL)
        with pytest.raises(xq.EngineTerminatedError):
            killed.ping()
        killed.quit()
        with pytest.raises(xq.engine.EngineTimeoutError):
            xq.engine.SimpleEngine.popen_uci(["/bin/cat"], timeout=0.5)  # never says uciok
        with pytest.raises(xq.EngineTerminatedError):
            xq.engine.SimpleEngine.popen_uci(["/bin/sh", "-c", "exit 3"])
        del engine, killed
        gc.collect()
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []
