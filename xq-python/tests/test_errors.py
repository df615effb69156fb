"""Bad input on every entry point: the documented exception with the Rust error's message,
the board unchanged, and never a crash (no PanicException, no abort)."""

import random

import pytest

import xq
import xq.engine

FEN_CASES = [
    ("", "malformed FEN: the FEN is empty"),
    ("4k4/9/9 w", "malformed FEN: the board has 3 ranks separated by '/', expected 10"),
    ("4k4/9/9/9/9/9/9/9/9/4K4 w", "illegal position: the generals face each other on an open file"),
    ("4k4/9/9/9/9/9/9/9/9/3K5 x", "malformed FEN: bad side to move 'x' (expected 'w', 'r' or 'b')"),
    ("4k4/9/9/9/9/9/9/9/9/9 w", "illegal position: red has no general"),
]


def test_exception_hierarchy():
    for cls in (xq.InvalidFen, xq.InvalidMove, xq.IllegalMove, xq.AmbiguousMove,
                xq.InvalidGameFile, xq.InvalidDataFile, xq.InvalidTablebase):
        assert issubclass(cls, xq.XqError) and issubclass(cls, ValueError)
        assert cls.__module__ == "xq" and cls.__doc__
    assert issubclass(xq.XqError, Exception) and not issubclass(xq.XqError, ValueError)
    # The engines' errors are python-chess's: EngineError is a RuntimeError.
    assert issubclass(xq.EngineError, xq.XqError) and issubclass(xq.EngineError, RuntimeError)
    assert issubclass(xq.EngineTerminatedError, xq.EngineError)
    for cls in (xq.InvalidLimit, xq.InvalidOption):
        assert issubclass(cls, xq.EngineError) and issubclass(cls, ValueError)
    for cls in (xq.EngineError, xq.EngineTerminatedError, xq.InvalidLimit, xq.InvalidOption):
        assert cls.__module__ == "xq" and cls.__doc__
    assert issubclass(xq.engine.EngineTimeoutError, xq.EngineError)
    assert issubclass(xq.engine.EngineTimeoutError, TimeoutError)
    assert xq.engine.EngineError is xq.EngineError


@pytest.mark.parametrize("fen,message", FEN_CASES)
def test_bad_fen(fen, message, start):
    with pytest.raises(xq.InvalidFen) as e:
        xq.Board(fen)
    assert str(e.value) == message
    start.push_notation("h2e2")
    with pytest.raises(xq.InvalidFen):
        start.set_fen(fen)
    assert start.move_stack == [xq.Move.from_iccs("h2e2")]  # unchanged


def test_illegal_push_leaves_the_board_unchanged(start):
    start.push_notation("h2e2")
    before = (start.fen(), start.move_stack)
    for text, message in [
        ("h2e2", "illegal move h2e2: no piece of the side to move on h2"),
        ("a0a1", "illegal move a0a1: no piece of the side to move on a0"),
        ("h9h5", "illegal move h9h5: the piece on h9 cannot move there"),
    ]:
        with pytest.raises(xq.IllegalMove) as e:
            start.push(xq.Move.from_iccs(text))
        assert str(e.value) == message
        assert (start.fen(), start.move_stack) == before
    # The red chariot pins the black advisor to its general.
    pinned = xq.Board("4k4/4a4/9/9/9/9/9/9/4R4/3K5 b")
    with pytest.raises(xq.IllegalMove) as e:
        pinned.push(xq.Move.from_iccs("e8d7"))
    assert "general" in str(e.value)


def test_bad_move_text(start):
    for text in ["xyz", "", "炮二进十", "h2e", "z2e2"]:
        with pytest.raises(xq.InvalidMove):
            start.parse_move(text)
        with pytest.raises(xq.InvalidMove):
            start.push_notation(text)
    for text in ["h2e", "h2h2", "z2e2", "炮二平五", ""]:
        with pytest.raises(xq.InvalidMove):
            xq.Move.from_iccs(text)
    with pytest.raises(xq.IllegalMove) as e:
        start.parse_move("车五进一")
    assert str(e.value) == "no piece of the side to move can play '车五进一'"
    with pytest.raises(xq.IllegalMove):
        start.parse_move("C2+6")  # a cannon cannot jump to an empty point
    with pytest.raises(xq.IllegalMove):
        start.notation(xq.Move.from_iccs("h2h8"))
    with pytest.raises(xq.IllegalMove):
        start.gives_check(xq.Move.from_iccs("h2h8"))
    with pytest.raises(xq.IllegalMove) as e:
        start.line_notation([xq.Move.from_iccs("h2e2"), xq.Move.from_iccs("h2e2")])
    assert str(e.value).startswith("move 2 of the line:")
    assert start.move_stack == []


def test_ambiguous_move():
    # Two red horses can reach e2... one on c1, one on g1 (file numbers differ), so
    # make them share a file: horses on d0 and d4 both reach... use the reader's rule:
    board = xq.Board("3k5/9/9/9/9/2N6/9/2N6/9/4K4 w")
    with pytest.raises(xq.AmbiguousMove) as e:
        board.parse_move("马七进六")
    assert "ambiguous" in str(e.value)
    assert board.move_stack == []


@pytest.mark.parametrize(
    "text,message",
    [
        ("1. 炮二平五 马８进７ 2. 马二进四", "game 1, line 1, ply 3: '马二进四': illegal move h0f1: the piece on h0 cannot move there"),
        ("1. h2e2 (1. b2e2", None),
        ('[FEN "bad"]\n1. h2e2', None),
    ],
)
def test_bad_pgn(text, message):
    with pytest.raises(xq.InvalidGameFile) as e:
        xq.read_pgn_str(text)
    if message:
        assert str(e.value) == message
    with pytest.raises(xq.InvalidGameFile):
        xq.read_pgn(text.encode("utf-8"))


def test_bad_files_name_the_file(tmp_path):
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. h2e2 h2e2", encoding="utf-8")
    with pytest.raises(xq.InvalidGameFile) as e:
        xq.read_pgn(bad)
    assert "bad.pgn" in str(e.value) and "ply 2" in str(e.value)
    with pytest.raises(FileNotFoundError):
        xq.read_pgn(tmp_path / "missing.pgn")
    with pytest.raises(xq.InvalidGameFile) as e:
        xq.read_xqf(b"XQ\x0a" + b"\x00" * 10)
    assert "offset" in str(e.value) or "byte" in str(e.value)
    with pytest.raises(TypeError):
        xq.read_pgn(12)


def test_bad_arguments_are_value_errors(start):
    with pytest.raises(ValueError):
        start.piece_at(90)
    with pytest.raises(ValueError):
        start.pieces(8, xq.RED)
    with pytest.raises(TypeError):
        start.push("h2e2")
    with pytest.raises(ValueError):
        start.perft(21)
    with pytest.raises(ValueError, match=r"perft depth -1: 0 to 20"):
        start.perft(-1)
    with pytest.raises(ValueError):
        start.perft(2**70)
    with pytest.raises(xq.IllegalMove):
        xq.Board._restore(xq.STARTING_FEN, ["h2e2", "h2e2"])
    with pytest.raises(xq.InvalidFen):
        xq.Board._restore("bad", [])
    with pytest.raises(ValueError):
        xq.index_to_move(2086)
    with pytest.raises(ValueError):
        xq.move_to_index(xq.Move.from_iccs("a0b1"))
    with pytest.raises(xq.InvalidOption):
        xq.EmbeddedEngine(threads=0)
    with pytest.raises(xq.InvalidOption):
        xq.EmbeddedEngine(hash_mb=2**40)
    with pytest.raises(xq.InvalidOption):
        xq.EmbeddedEngine(skill=21)


# Values that are no limit: negative, zero, huge, not finite, of the wrong type.
BAD_WHOLE = [-1, 0, 2**32, 2**64, 2**200, -(2**70), 1.5, 3.0, "3", True, None.__class__, [3], float("nan")]
BAD_SECONDS = [-1, 0, -0.001, float("nan"), float("inf"), -float("inf"), 1e7, 2**80, "1", True, [1.0]]


@pytest.fixture(scope="module")
def engine():
    return xq.EmbeddedEngine(threads=1, hash_mb=1)


def test_bad_limits_raise_invalid_limit(engine, start):
    """Every bad limit, in every form (the keywords, xq.engine.Limit, multipv), raises
    InvalidLimit (an XqError) with the limit's name, and the engine stays usable."""
    import xq.engine

    seen = 0
    for name in ("depth", "mate"):
        for bad in BAD_WHOLE:
            for call in (engine.analyse, engine.play, engine.analysis):
                with pytest.raises(xq.InvalidLimit, match=name):
                    call(start, **{name: bad})
                seen += 1
            with pytest.raises(xq.InvalidLimit, match=name):
                xq.engine.Limit(**{name: bad})
    for bad in [b for b in BAD_WHOLE if b != 2**32]:  # nodes may be up to 2**64 - 1
        with pytest.raises(xq.InvalidLimit, match="nodes"):
            engine.analyse(start, nodes=bad)
        with pytest.raises(xq.InvalidLimit, match="nodes"):
            xq.engine.Limit(nodes=bad)
        seen += 2
    for bad in BAD_SECONDS:
        with pytest.raises(xq.InvalidLimit, match="movetime"):
            engine.analyse(start, movetime=bad)
        with pytest.raises(xq.InvalidLimit, match="time"):
            xq.engine.Limit(time=bad)
        seen += 2
    for name in ("red_clock", "black_clock", "red_inc", "black_inc", "white_clock", "white_inc"):
        for bad in [b for b in BAD_SECONDS if b != 0]:
            with pytest.raises(xq.InvalidLimit, match=name.replace("white", "red").split("_")[1]):
                xq.engine.Limit(**{name: bad})
            seen += 1
    for bad in [-1, 0, 2**40, 1.5, "2"]:
        with pytest.raises(xq.InvalidLimit, match="remaining_moves"):
            xq.engine.Limit(remaining_moves=bad)
        with pytest.raises(xq.InvalidLimit, match="multipv"):
            engine.analyse(start, depth=1, multipv=bad)
        with pytest.raises(xq.InvalidLimit, match="multipv"):
            engine.analysis(start, multipv=bad)
        seen += 3
    # A Limit changed after it was made is checked again by the engine.
    limit = xq.engine.Limit(depth=3)
    limit.depth = -5
    with pytest.raises(xq.InvalidLimit, match="depth"):
        engine.analyse(start, limit)
    limit.depth, limit.black_clock = 3, -1.0
    with pytest.raises(xq.InvalidLimit, match="black_clock"):
        engine.analyse(start, limit)
    # No limit, a limit of the wrong type, a Limit and keywords together.
    with pytest.raises(xq.InvalidLimit, match="give a limit"):
        engine.analyse(start)
    with pytest.raises(xq.InvalidLimit, match="give a limit"):
        engine.play(start, xq.engine.Limit())
    with pytest.raises(xq.InvalidLimit, match="xq.engine.Limit, not a dict"):
        engine.analyse(start, {"depth": 3})
    with pytest.raises(xq.InvalidLimit, match="not both"):
        engine.analyse(start, xq.engine.Limit(depth=2), depth=3)
    with pytest.raises(xq.InvalidLimit, match="red_clock or white_clock"):
        xq.engine.Limit(red_clock=1, white_clock=1)
    assert seen > 150
    # Still usable, and the good forms work.
    assert engine.analyse(start, xq.engine.Limit(depth=2))["depth"] == 2
    assert engine.analyse(start, depth=2)["depth"] == 2
    assert engine.play(start, xq.engine.Limit(white_clock=1.0, black_clock=1.0)).move is not None
    assert engine.play(start, xq.engine.Limit(nodes=2**64 - 1, depth=1)).move is not None


def test_bad_options_raise_invalid_option(engine):
    for name, bad in [("threads", 0), ("threads", 1025), ("threads", -1), ("threads", 2**70),
                      ("threads", "2"), ("threads", 1.0), ("threads", True), ("hash_mb", 0),
                      ("hash_mb", -16), ("hash_mb", 2**40), ("hash_mb", "16"), ("skill", -1),
                      ("skill", 21), ("skill", 2.5), ("skill", "max")]:
        with pytest.raises(xq.InvalidOption, match=name):
            xq.EmbeddedEngine(**{name: bad})
    for options, message in [
        # The messages of the engine's one option table, as the binary's UCI says them.
        ({"Threads": 0}, "Threads must be between 1 and 1024, not 0"),
        ({"Hash": -1}, "bad value '-1' for Hash"),
        ({"hash": 2.5}, "Hash takes an int, a bool or a str, not float"),
        ({"Skill Level": 99}, "Skill Level must be between 0 and 20, not 99"),
        ({"Use NNUE": "maybe"}, "bad value 'maybe' for Use NNUE (true or false)"),
        ({"UCI_Variant": "shogi"}, "unsupported variant 'shogi'"),
        ({"EvalFile": "no-such.nnue"},
         "cannot load the network no-such.nnue: No such file or directory (os error 2); "
         "the evaluation is unchanged"),
        ({"Contempt": 1}, "unknown option 'Contempt'"),
        ({"MultiPV": 2}, "MultiPV is set by each search: analyse(board, limit, multipv=N)"),
        ({1: 2}, "option names are str, not int"),
    ]:
        with pytest.raises(xq.InvalidOption) as e:
            engine.configure(options)
        assert str(e.value) == message
    # Nothing was applied by a refused call: every name is checked first.
    with pytest.raises(xq.InvalidOption):
        engine.configure({"Threads": 2, "Hash": 0})
    assert (engine.threads, engine.hash_mb) == (1, 1)
    engine.configure({"threads": 2, "HASH": 2, "Skill Level": 20})
    assert (engine.threads, engine.hash_mb, engine.skill) == (2, 2, 20)
    engine.configure({"Threads": 1, "Hash": "1", "Use NNUE": False, "UCI_Elo": 1500})
    assert {"Threads", "Hash", "Skill Level", "UCI_Elo", "Use NNUE", "EvalFile",
            "BookFile", "Clear Hash"} <= set(engine.options)
    assert "MultiPV" not in engine.options and "Ponder" not in engine.options
    assert engine.options["Hash"].max == 33554432 and engine.options["Threads"].type == "spin"
    assert engine.options["Use NNUE"].type == "check" and engine.options["Use NNUE"].default is True
    engine.configure({"Clear Hash": None, "Use NNUE": True})
    engine.set_seed(-1)  # any int is a seed
    engine.set_seed(2**100)


def test_random_input_never_crashes():
    """Random text into every reader: each either works or raises its exception."""
    rng = random.Random(1)
    alphabet = "rnbakcpRNBAKCPHE0123456789/ wb-炮马车兵卒进退平前后一二三四五六七八九+=.\n[]{}()\"$!?*"
    board = xq.Board()
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        for call, errors in [
            (lambda: xq.Board(text), xq.InvalidFen),
            (lambda: board.parse_move(text), (xq.InvalidMove, xq.IllegalMove, xq.AmbiguousMove)),
            (lambda: xq.Move.from_iccs(text), xq.InvalidMove),
            (lambda: xq.read_pgn_str(text), xq.InvalidGameFile),
            (lambda: xq.read_xqf(text.encode("utf-8", "replace")), xq.InvalidGameFile),
            (lambda: xq.read_pgn(text.encode("utf-8")), xq.InvalidGameFile),
        ]:
            try:
                call()
            except errors:
                pass
    # Random bytes through the XQF and PGN readers, and a real XQF file cut or flipped.
    sample = (__import__("conftest").GAMES / "sample.xqf").read_bytes()
    for _ in range(500):
        data = bytearray(sample[: rng.randrange(len(sample) + 1)])
        for _ in range(rng.randrange(4)):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        for reader in (xq.read_xqf, xq.read_pgn):
            try:
                reader(bytes(data))
            except xq.InvalidGameFile:
                pass
    assert board.move_stack == []
