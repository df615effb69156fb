"""Bad input on every entry point: the documented exception with the Rust error's message,
the board unchanged, and never a crash (no PanicException, no abort)."""

import random

import pytest

import xq

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
    with pytest.raises(OverflowError):
        start.perft(-1)
    with pytest.raises(xq.IllegalMove):
        xq.Board._restore(xq.STARTING_FEN, ["h2e2", "h2e2"])
    with pytest.raises(xq.InvalidFen):
        xq.Board._restore("bad", [])
    with pytest.raises(ValueError):
        xq.index_to_move(2086)
    with pytest.raises(ValueError):
        xq.move_to_index(xq.Move.from_iccs("a0b1"))
    with pytest.raises(ValueError):
        xq.Engine(threads=0)
    with pytest.raises(ValueError):
        xq.Engine(hash_mb=2**40)
    with pytest.raises(ValueError):
        xq.Engine(skill=21)


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
