"""xq.pgn, python-chess's game tree: every shared game file read game by game (binary
and text mode, GBK and UTF-8) to the flat reader's moves and comments, written back in
xq's canonical form (the same tokens as the file, byte for byte what the flat writer
makes, a fixed point of read and write in every notation and encoding), a file of many
games streamed one at a time and written back byte for byte, read_headers and skip_game
over a collection (seekable or not), visitors, the editing calls, XQF into the same
tree, and errors with their line."""

import io
import pathlib
import unicodedata
import weakref

import pytest

import xq
import xq.pgn
from conftest import GAMES, ROOT

# The shared game files: the repository's copy, and the shared folder next to the
# checkout when there is one (the project machine's /work/shared).
SHARED = ROOT.parent / "shared" / "data" / "games"
DIRS = [GAMES] + ([SHARED] if SHARED.is_dir() else [])
PGN_FILES = sorted(p for d in DIRS for p in d.glob("*.pgn"))
XQF_FILES = sorted(p for d in DIRS for p in d.glob("*.xqf"))


def test_the_shared_files_are_there():
    assert len([p for p in PGN_FILES if p.parent == GAMES]) == 10
    assert [p.name for p in XQF_FILES if p.parent == GAMES] == ["sample.xqf"]


def tree(node):
    """Everything a node and what follows it hold, as plain values."""
    return [
        (str(child.move), child.comment, sorted(child.nags), child.starting_comment, tree(child))
        for child in node.variations
    ]


def same_game(a, b):
    assert dict(a.headers) == dict(b.headers)
    assert list(a.headers) == list(b.headers)
    assert a.comment == b.comment and a.trailer == b.trailer
    assert tree(a) == tree(b)


def tokens(text):
    """The words of a PGN text, full-width digits made ASCII (xq writes Black's Chinese
    moves with ASCII digits: 马2进3 where the sites write 马２进３)."""
    return unicodedata.normalize("NFKC", text).split()


def without_format(text):
    return "\n".join(line for line in text.splitlines() if not line.startswith("[Format "))


@pytest.mark.parametrize("path", PGN_FILES, ids=lambda p: f"{p.parent.parent.parent.name}/{p.name}")
def test_every_shared_pgn_reads_and_writes_back(path):
    raw = path.read_bytes()
    with open(path, "rb") as f:
        game = xq.pgn.read_game(f)
        assert xq.pgn.read_game(f) is None  # one game a file
    assert game.encoding == "gbk" and game.notation == "chinese"
    # The same game as the flat reader's (which tests/test_records.py checks against the
    # independent .moves lines).
    (record,) = xq.read_pgn(path)
    assert list(game.mainline_moves()) == record.moves
    assert [n.comment or None for n in game.mainline()] == [n.comment for n in record.mainline()]
    assert dict(game.headers) == record.tags and game.trailer == record.trailer
    assert game.headers["Result"] == record.result
    board = game.end().board()
    assert board.move_stack == record.moves and board.fen() == record.end().fen()
    # Text mode, the file's encoding given: the same game.
    with open(path, encoding="gbk", newline="") as f:
        same_game(xq.pgn.read_game(f), game)
    # Written back: the file's own words (tags, move numbers, moves, result, trailer) in
    # xq's layout, plus the Format tag; and read again, the same tree and the same text.
    text = str(game)
    assert tokens(without_format(text)) == tokens(raw.decode("gbk"))
    assert '[Format "Chinese"]' in text
    again = xq.pgn.read_game(io.StringIO(text))
    same_game(again, game)
    assert str(again) == text
    # In every notation, the same tree.
    for notation in xq.pgn.NOTATIONS:
        other = xq.pgn.read_game(io.StringIO(game.pgn(notation)))
        assert other.notation == notation
        same_game(other, game)
        assert other.pgn() == game.pgn(notation)


@pytest.mark.parametrize("path", XQF_FILES, ids=lambda p: p.name)
def test_xqf_reads_into_the_same_tree(path):
    game = xq.pgn.read_xqf(path)
    record = xq.read_xqf(path)
    assert list(game.mainline_moves()) == record.moves
    assert game.comment == record.comment
    assert [n.comment or None for n in game.mainline()] == [n.comment for n in record.mainline()]
    assert game.headers["FEN"] == record.start_fen  # a handicap game
    assert game.board().fen() == record.start_fen
    with open(path, "rb") as f:
        same_game(xq.pgn.read_xqf(f), game)
    same_game(xq.pgn.read_xqf(path.read_bytes()), game)
    text = str(game)
    assert text.count("[FEN ") == 1
    again = xq.pgn.read_game(io.StringIO(text))
    same_game(again, game)
    assert str(again) == text
    with pytest.raises(TypeError):
        xq.pgn.read_xqf(io.StringIO("text"))
    with pytest.raises(xq.InvalidGameFile):
        xq.pgn.read_xqf(b"XQ" + bytes(100))


RICH = """[Game "Chinese Chess"]
[Red "红方"]
[Black "黑方"]

{the game} 1. 炮二平五 {central cannon} 马８进７ $1 $14 (1... 炮８平５ {same direction} 2. 马二进三 (2. 兵七进一)) 2. 马二进三 ({before} 2. 马八进七 $2) 车９平８ *
"""


def canonical_file():
    """A UTF-8 file of many games as xq writes them: the shared games, one with
    variations, comments and NAGs, and one from a set-up position in ICCS."""
    games = [xq.pgn.read_game(open(p, "rb")) for p in PGN_FILES if p.parent == GAMES]
    games.append(xq.pgn.read_xqf(GAMES / "sample.xqf"))
    games.append(xq.pgn.read_game(io.StringIO(RICH)))
    board = xq.Board("3k5/R8/9/9/9/9/9/9/4R4/4K4 w")
    board.push_uci("e1e9")
    games.append(xq.pgn.Game.from_board(board))
    return "\n".join(g.pgn("iccs" if i == len(games) - 1 else None) for i, g in enumerate(games))


def test_a_file_of_many_games_streams_and_writes_back_byte_for_byte(tmp_path):
    text = canonical_file()
    path = tmp_path / "many.pgn"
    path.write_bytes(text.encode("utf-8"))
    for mode in ("rb", "r"):
        with open(path, mode, **({} if mode == "rb" else {"encoding": "utf-8"})) as f:
            games = []
            while (game := xq.pgn.read_game(f)) is not None:
                games.append(game)
                # The handle is left at the next game's first line.
                if len(games) == 1:
                    here = f.tell()
                    assert f.read(1) in ("[", b"[")
                    f.seek(here)
        assert len(games) == 13
        assert [g.encoding for g in games] == ["utf-8"] * 13
        assert "\n".join(str(g) for g in games) == text
    # A stream that cannot seek (a pipe, stdin): the line read too far is kept for the
    # next call.
    class Stream:
        def __init__(self, data):
            self.lines = io.BytesIO(data).readlines()

        def readline(self):
            return self.lines.pop(0) if self.lines else b""

        def seekable(self):
            return False

    stream = Stream(text.encode("utf-8"))
    streamed = []
    while (game := xq.pgn.read_game(stream)) is not None:
        streamed.append(str(game))
    assert "\n".join(streamed) == text


def test_the_tree_of_variations_comments_and_nags():
    game = xq.pgn.read_game(io.StringIO(RICH))
    assert game.comment == "the game" and game.notation == "chinese"
    first = game.next()
    assert first.move == xq.Move.from_uci("h2e2") and first.comment == "central cannon"
    assert first.parent is game and first.is_mainline() and not first.starts_variation()
    reply, alternative = first.variations
    assert reply.nags == {1, 14} and reply.uci() == "h9g7"
    assert alternative.uci() == "h7e7" and alternative.comment == "same direction"
    assert alternative.starts_variation() and not alternative.is_mainline()
    assert [n.uci() for n in alternative.mainline()] == ["h0g2"]
    assert [v.uci() for v in alternative.variations[0].parent.variations] == ["h0g2", "c3c4"]
    second = reply.next()
    assert [v.uci() for v in reply.variations] == ["h0g2", "b0c2"]
    assert reply.variations[1].starting_comment == "before" and reply.variations[1].nags == {2}
    assert [m.uci() for m in game.mainline_moves()] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert [n.ply() for n in game.mainline()] == [1, 2, 3, 4]
    end = game.end()
    assert end.is_end() and end.uci() == "i9h9" and end.turn() == xq.RED
    assert second.san() == "马二进三" and second.san("wxf") == "H2+3" and end.san("iccs") == "i9h9"
    assert [str(m) for m in reversed(game.mainline_moves())] == ["i9h9", "h0g2", "h9g7", "h2e2"]
    # Written back (the nested alternative to 2. 马二进三 inside the variation is written
    # as a sibling, as python-chess does) and read again: the same tree.
    text = str(game)
    assert "$1 $14" in text and "{before}" in text
    again = xq.pgn.read_game(io.StringIO(text))
    assert tree(again) == tree(game) and str(again) == text


def test_editing_the_tree():
    game = xq.pgn.Game()
    assert list(game.headers) == ["Event", "Site", "Date", "Round", "Red", "Black", "Result"]
    assert game.board() == xq.Board() and game.next() is None and game.end() is game
    a = game.add_variation(xq.Move.from_uci("h2e2"), comment="central cannon")
    b = game.add_variation(xq.Move.from_uci("b2e2"))
    c = game.add_main_variation(xq.Move.from_uci("c3c4"), nags=[3])
    assert [v.uci() for v in game.variations] == ["c3c4", "h2e2", "b2e2"]
    game.promote_to_main(xq.Move.from_uci("b2e2"))
    assert [v.uci() for v in game.variations] == ["b2e2", "c3c4", "h2e2"]
    game.promote(2)
    assert [v.uci() for v in game.variations] == ["b2e2", "h2e2", "c3c4"]
    game.demote(b)
    game.demote(xq.Move.from_uci("c3c4"))  # already last
    assert [v.uci() for v in game.variations] == ["h2e2", "b2e2", "c3c4"]
    game.promote(0)  # already first
    assert game.variation(xq.Move.from_uci("c3c4")) is c and game.variation(0) is a
    assert game.has_variation(xq.Move.from_uci("b2e2")) and not game.has_variation(xq.Move.from_uci("g3g4"))
    game.remove_variation(xq.Move.from_uci("b2e2"))
    assert [v.uci() for v in game.variations] == ["h2e2", "c3c4"]
    with pytest.raises(KeyError):
        game.variation(xq.Move.from_uci("b2e2"))
    last = a.add_line([xq.Move.from_uci(m) for m in ("h9g7", "h0g2", "i9h9")], comment="as usual", nags=[10])
    assert last.uci() == "i9h9" and last.comment == "as usual" and last.nags == {10}
    assert [m.uci() for m in game.mainline_moves()] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    # An illegal move is refused where it would be played, the tree unchanged.
    with pytest.raises(xq.IllegalMove):
        last.add_variation(xq.Move.from_uci("h2e2"))
    with pytest.raises(TypeError):
        game.add_variation("h2e2")
    assert last.is_end()
    # Comments, the game's comment, headers, result.
    game.comment = "a test"
    a.starting_comment = "ignored on the main line"
    c.starting_comment = "the pawn"
    game.headers["Red"] = "Hu Ronghua"
    game.headers["Result"] = "1/2-1/2"
    text = game.pgn("iccs")
    assert text.startswith('[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[Red "Hu Ronghua"]')
    assert "{a test}\n1. h2e2 {central cannon} ({the pawn} 1. c3c4 $3) 1... h9g7\n2. h0g2 i9h9 $10 {as usual}\n1/2-1/2\n" in text
    again = xq.pgn.read_game(io.StringIO(text))
    assert tree(again)[1] == tree(game)[1] and again.comment == "a test"
    # What is left out on request.
    assert game.pgn("iccs", headers=False) == "{a test}\n1. h2e2 {central cannon} ({the pawn} 1. c3c4 $3) 1... h9g7\n2. h0g2 i9h9 $10 {as usual}\n1/2-1/2\n"
    assert game.accept(xq.pgn.StringExporter(headers=False, comments=False, variations=False, notation="wxf")) == \
        "1. C2=5 H8+7\n2. H2+3 R9=8\n1/2-1/2\n"
    out = io.StringIO()
    assert game.accept(xq.pgn.FileExporter(out, headers=False, notation="iccs")) == len(out.getvalue())
    with pytest.raises(ValueError):
        game.pgn("san")
    with pytest.raises(ValueError):
        game.headers["Bad Name"] = "x"
    with pytest.raises(ValueError):
        game.headers["Event"] = "two\nlines"


def test_games_from_boards_and_set_up_positions():
    board = xq.Board("3k5/R8/9/9/9/9/9/9/4R4/4K4 w")
    board.push_uci("e1e9")
    game = xq.pgn.Game.from_board(board)
    assert game.headers["FEN"] == "3k5/R8/9/9/9/9/9/9/4R4/4K4 w - - 0 1"
    assert game.headers["Result"] == "1-0"
    assert game.end().board().is_checkmate()
    text = game.pgn("iccs")
    assert '[FEN "3k5/R8/9/9/9/9/9/9/4R4/4K4 w - - 0 1"]\n[Format "ICCS"]\n\n1. e1e9\n1-0\n' in text
    game.setup(xq.Board())
    assert "FEN" not in game.headers
    with pytest.raises(xq.IllegalMove):
        str(game)  # e1e9 is not legal from the start
    bare = xq.pgn.Game.without_tag_roster()
    assert len(bare.headers) == 0 and bare.pgn() == '[Format "Chinese"]\n\n*\n'


def test_errors_say_which_game_and_line(tmp_path):
    good = '[Round "1"]\n\n1. h2e2 h9g7 *\n\n'
    bad = '[Round "2"]\n\n1. h2e2 h9g7\n2. h2e2 *\n'
    path = tmp_path / "two.pgn"
    path.write_text(good + bad, encoding="utf-8")
    with open(path, "rb") as f:
        assert xq.pgn.read_game(f).headers["Round"] == "1"
        with pytest.raises(xq.InvalidGameFile) as e:
            xq.pgn.read_game(f)
    assert "game 2" in str(e.value) and "line 8" in str(e.value) and "ply 3" in str(e.value)
    with pytest.raises(ValueError):
        xq.pgn.read_game(io.BytesIO(b""), encoding="latin-1")
    assert xq.pgn.read_game(io.StringIO("")) is None
    assert xq.pgn.read_game(io.StringIO("\n\n  \n")) is None
    # A GBK file opened in binary mode with its encoding forced, and refused as UTF-8.
    gbk = "[Red \"红\"]\n1. 炮二平五 *\n".encode("gbk")
    assert xq.pgn.read_game(io.BytesIO(gbk), encoding="gbk").headers["Red"] == "红"
    with pytest.raises(xq.InvalidGameFile):
        xq.pgn.read_game(io.BytesIO(gbk), encoding="utf-8")


def test_the_notation_a_game_was_read_in():
    for text, notation in [
        ("1. h2e2 h9g7 *", "iccs"),
        ("1. C2=5 H8+7 *", "wxf"),
        ("1. 炮二平五 馬８進７ *", "chinese-traditional"),
        ("1. 炮二平五 马８进７ *", "chinese"),
        ('[Format "WXF"]\n\n*', "wxf"),
        ("*", "chinese"),
    ]:
        game = xq.pgn.read_game(io.StringIO(text))
        assert game.notation == notation, text
        assert game.pgn().count("[Format") == 1


def test_the_deprecated_name_of_the_record():
    with pytest.warns(DeprecationWarning, match="xq.Record"):
        cls = xq.Game
    assert cls is xq.Record
    assert xq.Record.__name__ == "Record"


# ---------------------------------------------------------------------------- streaming


@pytest.mark.parametrize("path", PGN_FILES, ids=lambda p: f"{p.parent.parent.parent.name}/{p.name}")
def test_every_shared_pgn_writes_back_byte_for_byte_through_the_stream(path):
    """Each shared file read through the Rust stream and written back is, byte for byte,
    what the flat reader and writer make of it; that text, as UTF-8 or GBK bytes or as
    text, reads back to itself byte for byte, in every notation."""
    with open(path, "rb") as f:
        game = xq.pgn.read_game(f)
    (record,) = xq.read_pgn(path)
    text = str(game)
    assert text == record.pgn("chinese")
    for notation in xq.pgn.NOTATIONS:
        written = game.pgn(notation)
        for encoding in ("utf-8", "gbk"):
            again = xq.pgn.read_game(io.BytesIO(written.encode(encoding)))
            assert again.encoding == encoding and again.notation == notation
            assert again.pgn() == written
        assert str(xq.pgn.read_game(io.StringIO(written))) == written


def shared_games_file():
    """The ten shared GBK files one after the other, as the sites publish collections,
    and each game alone."""
    files = [p for p in PGN_FILES if p.parent == GAMES]
    return b"".join(p.read_bytes() for p in files), [xq.pgn.read_game(open(p, "rb")) for p in files]


class Pipe:
    """A stream that cannot seek (a pipe, stdin), of bytes or of text."""

    def __init__(self, data):
        self.lines = (io.BytesIO if isinstance(data, bytes) else io.StringIO)(data).readlines()
        self.end = data[:0]

    def readline(self):
        return self.lines.pop(0) if self.lines else self.end

    def seekable(self):
        return False


def test_read_headers_and_skip_game_on_a_file_of_many_games(tmp_path):
    data, alone = shared_games_file()
    path = tmp_path / "collection.pgn"
    path.write_bytes(data)
    for opened in (lambda: open(path, "rb"), lambda: open(path, encoding="gbk", newline=""),
                   lambda: Pipe(data)):
        f = opened()
        # The headers of every game, as read_game gives them, the moves not read.
        headers = []
        while (h := xq.pgn.read_headers(f)) is not None:
            assert isinstance(h, xq.pgn.Headers)
            headers.append(h)
        assert [dict(h) for h in headers] == [dict(g.headers) for g in alone]
        assert [list(h) for h in headers] == [list(g.headers) for g in alone]
        assert xq.pgn.read_headers(f) is None and xq.pgn.skip_game(f) is False
        # Skip three games: the next one read is the fourth.
        f = opened()
        assert [xq.pgn.skip_game(f) for _ in range(3)] == [True, True, True]
        fourth = xq.pgn.read_game(f)
        assert fourth.headers["Round"] == alone[3].headers["Round"] == "9"
        assert str(fourth) == str(alone[3])
        # Then the headers of the fifth, and the sixth game whole.
        assert dict(xq.pgn.read_headers(f)) == dict(alone[4].headers)
        assert str(xq.pgn.read_game(f)) == str(alone[5])
        assert sum(1 for _ in iter(lambda: xq.pgn.skip_game(f), False)) == 4
        assert xq.pgn.read_game(f) is None
    # A file that can seek is left at the next game's first line each time: where the
    # next shared file starts (what the handle is read with in between does not matter).
    sizes = [p.stat().st_size for p in PGN_FILES if p.parent == GAMES]
    ends = [sum(sizes[: i + 1]) for i in range(10)]
    with open(path, "rb") as f:
        at = []
        while xq.pgn.skip_game(f):
            at.append(f.tell())
            assert f.read(1) in (b"[", b"")
            f.seek(at[-1])
    assert at == ends
    # Each game reads alone when the file is moved to its start.
    with open(path, "rb") as f:
        for i in (7, 2):
            f.seek(ends[i - 1])
            assert str(xq.pgn.read_game(f)) == str(alone[i])


class Events(xq.pgn.BaseVisitor[list]):
    """Every call, in order."""

    def __init__(self):
        self.calls = []

    def begin_game(self):
        self.calls.append("begin_game")

    def visit_header(self, tagname, tagvalue):
        self.calls.append(f"{tagname}={tagvalue}")

    def end_headers(self):
        self.calls.append("end_headers")

    def visit_move(self, board, move):
        self.calls.append(board.notation(move, "iccs"))

    def visit_board(self, board):
        self.calls.append(f"board {board.ply()}")

    def visit_comment(self, comment):
        self.calls.append("{" + comment + "}")

    def visit_nag(self, nag):
        self.calls.append(f"${nag}")

    def begin_variation(self):
        self.calls.append("(")

    def end_variation(self):
        self.calls.append(")")

    def visit_result(self, result):
        self.calls.append(result)

    def end_game(self):
        self.calls.append("end_game")

    def result(self):
        return self.calls


class MainLineOnly(xq.pgn.BaseVisitor[int]):
    """The moves of the main line: variations skipped."""

    def begin_game(self):
        self.moves = 0

    def visit_move(self, board, move):
        self.moves += 1

    def begin_variation(self):
        return xq.pgn.SKIP

    def result(self):
        return self.moves


class Builder(xq.pgn.GameBuilder):
    """python-chess's default visitor, driven call by call (not the fast path)."""


def test_visitors():
    events = xq.pgn.read_game(io.StringIO(RICH), Visitor=Events)
    assert events == [
        "begin_game", "Game=Chinese Chess", "Red=红方", "Black=黑方", "end_headers",
        "board 0", "{the game}",
        "h2e2", "board 1", "{central cannon}",
        "h9g7", "board 2", "$1", "$14",
        "(", "h7e7", "board 2", "{same direction}",
        "h0g2", "board 3", "(", "c3c4", "board 3", ")", ")",
        "h0g2", "board 3", "(", "{before}", "b0c2", "board 3", "$2", ")",
        "i9h9", "board 4", "*", "end_game",
    ]
    game = xq.pgn.read_game(io.StringIO(RICH))
    # The same calls when a game is walked.
    assert game.accept(Events()) == events
    # A visitor's SKIP: the main line alone.
    assert xq.pgn.read_game(io.StringIO(RICH), Visitor=MainLineOnly) == 4
    assert game.accept(MainLineOnly()) == 4
    # GameBuilder driven call by call builds the same game as read_game's fast path.
    built = xq.pgn.read_game(io.StringIO(RICH), Visitor=Builder)
    assert type(built) is xq.pgn.Game and built is not game
    same_game(built, game)
    assert str(built) == str(game) and built.notation == game.notation
    rebuilt = game.accept(Builder())
    assert str(rebuilt) == str(game)
    # HeadersBuilder skips the moves: a game whose moves are bad has headers all the same.
    bad = '[Round "1"]\n\n1. h2e2 h2e2 *\n'
    headers = xq.pgn.read_game(io.StringIO(bad), Visitor=xq.pgn.HeadersBuilder)
    assert dict(headers) == {"Round": "1"}
    assert xq.pgn.read_headers(io.StringIO(bad))["Round"] == "1"
    assert xq.pgn.skip_game(io.StringIO(bad)) is True
    with pytest.raises(xq.InvalidGameFile):
        xq.pgn.read_game(io.StringIO(bad))
    # A set-up start: the FEN header, as read_game gives it.
    board = xq.Board("3k5/R8/9/9/9/9/9/9/4R4/4K4 w")
    board.push_uci("e1e9")
    text = xq.pgn.Game.from_board(board).pgn("iccs")
    assert xq.pgn.read_headers(io.StringIO(text))["FEN"] == "3k5/R8/9/9/9/9/9/9/4R4/4K4 w - - 0 1"
    events = xq.pgn.read_game(io.StringIO(text), Visitor=Events)
    assert "FEN=3k5/R8/9/9/9/9/9/9/4R4/4K4 w - - 0 1" in events
    assert events[-4:] == ["e1e9", "board 1", "1-0", "end_game"]


def test_gbk_and_utf8_input():
    text = '[Red "胡荣华"]\n[Black "杨官璘"]\n\n1. 炮二平五 {中炮} 马８进７ *\n\n[Red "许银川"]\n\n1. 兵七进一 *\n'
    for encoding in ("gbk", "utf-8"):
        data = text.encode(encoding)
        for stream in (io.BytesIO(data), Pipe(data)):
            games = list(iter(lambda: xq.pgn.read_game(stream), None))
            assert [g.headers["Red"] for g in games] == ["胡荣华", "许银川"]
            assert [g.encoding for g in games] == [encoding] * 2
            assert games[0].next().comment == "中炮"
    # Judged once for the file: a first game of ASCII, then GBK.
    data = b'[Round "1"]\n\n1. h2e2 *\n\n[Round "2"]\n\n1. b2e2 *\n\n' + text.encode("gbk")
    games = list(iter(lambda f=io.BytesIO(data): xq.pgn.read_game(f), None))
    assert [g.headers.get("Red") for g in games] == [None, None, "胡荣华", "许银川"]
    assert games[-1].encoding == "gbk"
    # A UTF-8 byte-order mark is dropped; text mode reports the file's encoding.
    game = xq.pgn.read_game(io.BytesIO(b"\xef\xbb\xbf" + text.encode()))
    assert list(game.headers) == ["Red", "Black"] and game.encoding == "utf-8"
    gbk_text = io.TextIOWrapper(io.BytesIO(text.encode("gbk")), encoding="gbk")
    game = xq.pgn.read_game(gbk_text)
    assert game.headers["Black"] == "杨官璘" and game.encoding == "gbk"
    # Forced encodings.
    assert xq.pgn.read_game(io.BytesIO(text.encode("gbk")), encoding="gbk").headers["Red"] == "胡荣华"
    with pytest.raises(xq.InvalidGameFile, match="line 1: the bytes are not valid utf-8"):
        xq.pgn.read_game(io.BytesIO(text.encode("gbk")), encoding="utf-8")


def test_a_bad_game_says_where_and_the_next_one_reads(tmp_path):
    games = ['[Round "1"]\n\n1. h2e2 h9g7 *\n', '[Round "2"]\n\n1. h2e2 h9g7\n2. h2e2 *\n',
             '[Round "3"]\n\n1. b2e2 *\n', '[Round "4"\n\n1. b2e2 *\n']
    path = tmp_path / "four.pgn"
    path.write_text("\n".join(games), encoding="utf-8")
    with open(path, "rb") as f:
        assert xq.pgn.read_game(f).headers["Round"] == "1"
        with pytest.raises(xq.InvalidGameFile) as e:
            xq.pgn.read_game(f)
        message = str(e.value)
        assert message.startswith(str(path)) and "game 2, line 8, ply 3" in message
        assert xq.pgn.read_game(f).headers["Round"] == "3"
        with pytest.raises(xq.InvalidGameFile, match=r"game 4, line 14: malformed tag '\[Round \"4\"'"):
            xq.pgn.read_headers(f)
        assert xq.pgn.read_game(f) is None
        # Moved back to its start, the file is read afresh: the same games, the same
        # numbers in the errors.
        f.seek(0)
        assert xq.pgn.read_headers(f)["Round"] == "1"
        with pytest.raises(xq.InvalidGameFile, match="game 2, line 8, ply 3"):
            xq.pgn.read_game(f)
    # Unknown encodings and handles that are no PGN files.
    with pytest.raises(ValueError, match="unknown encoding"):
        xq.pgn.read_game(io.BytesIO(b"1. h2e2 *"), encoding="latin-1")

    class Numbers:
        def readline(self):
            return 12

    with pytest.raises(TypeError, match="str or bytes"):
        xq.pgn.read_game(Numbers())

    class Broken:
        def readline(self):
            raise OSError("the disk is gone")

    with pytest.raises(OSError, match="the disk is gone"):
        xq.pgn.read_game(Broken())


def test_the_format_tag_does_not_override_the_moves():
    game = xq.pgn.read_game(io.StringIO('[Format "WXF"]\n\n1. h2e2 h9g7 *'))
    assert game.notation == "iccs" and "1. h2e2 h9g7" in str(game)


def test_a_stream_that_cannot_be_weakly_referenced():
    """Its stream is kept by its id: the line read too far is not lost between games."""

    class Slotted:
        __slots__ = ("lines",)

        def __init__(self, text):
            self.lines = io.StringIO(text).readlines()

        def readline(self):
            return self.lines.pop(0) if self.lines else ""

    stream = Slotted('[Round "1"]\n1. h2e2 *\n[Round "2"]\n1. b2e2 *\n[Round "3"]\n1. c3c4 *\n')
    with pytest.raises(TypeError):
        weakref.ref(stream)
    assert xq.pgn.read_game(stream).headers["Round"] == "1"
    assert xq.pgn.skip_game(stream) is True
    game = xq.pgn.read_game(stream)
    assert game.headers["Round"] == "3" and game.next().uci() == "c3c4"
    assert xq.pgn.read_game(stream) is None
