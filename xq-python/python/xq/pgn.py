"""Game files as python-chess reads them: ``read_game(handle)`` one game at a time, a
``Game`` with ``headers`` and a tree of ``GameNode``\\ s that can be edited and written
back; ``read_headers`` and ``skip_game`` to go through a big file quickly, and visitors.

::

    import xq.pgn

    with open("games.pgn", "rb") as f:           # UTF-8 or GBK; text mode works too
        while (game := xq.pgn.read_game(f)) is not None:
            print(game.headers["Red"], game.headers["Black"], game.headers.get("Result"))
            for node in game.mainline():
                print(node.ply(), node.move, node.comment)
    print(game)                                  # the PGN, in the notation it was read in

    with open("games.pgn", "rb") as f:           # the headers alone, moves not read
        while (headers := xq.pgn.read_headers(f)) is not None:
            print(headers.get("Event"))

Names: the project says *Game* for a played game and *Record* for a game file
(``xq.Record``, a file's record as one flat object). Inside ``xq.pgn`` the classes keep
python-chess's names, ``Game`` and ``GameNode``, because the point of this module is that
python-chess code reads the same: a ``xq.pgn.Game`` is the root node of a game's tree.

Reading streams through the Rust reader of ``xq-records`` (``PgnReader``, the reader of
``xq.read_pgn`` too): the handle is read line by line, and Rust cuts the file into
games, judges its encoding (once for the file: UTF-8 when the bytes are, else GBK),
reads each game (tags, movetext in ICCS, WXF or Chinese notation, comments, variations,
NAGs, the result, and the text some sites put after a game: ``Game.trailer``) and names
the notation its moves are written in (``Game.notation``). Nothing of that is done in
Python. A bad game raises ``xq.InvalidGameFile`` with its line; every move is checked.
``read_xqf`` reads an XQF file into the same tree.

Visitors are python-chess's: ``read_game(handle, Visitor=...)`` and ``game.accept(
visitor)`` drive a ``BaseVisitor`` (``begin_game``, ``visit_header``, ``end_headers``,
``visit_move``, ``visit_board``, ``visit_comment``, ``visit_nag``, ``begin_variation``,
``end_variation``, ``visit_result``, ``end_game``, ``result``; ``SKIP`` skips);
``GameBuilder`` makes a ``Game`` (the default), ``HeadersBuilder`` the headers
(``read_headers``), ``SkipVisitor`` nothing (``skip_game``).

Writing (``str(game)``, ``game.pgn(notation)``, ``game.accept(StringExporter(...))``) is
``xq.write_pgn``'s canonical form: UTF-8, a ``Format`` tag naming the notation, a ``FEN``
tag when the start is not the usual one, a Red move and Black's answer on each line,
lines of about 80 columns. A file xq wrote reads and writes back byte for byte; a file
from elsewhere comes back in that form with the same tags, moves, comments, variations,
NAGs, result and trailer (the tests check both on every shared game file).
"""

from __future__ import annotations

import abc
import enum
import os
import weakref
from typing import (
    Any,
    Callable,
    Dict,
    Generic,
    Iterable,
    Iterator,
    List,
    MutableMapping,
    Optional,
    Sequence,
    Set,
    Tuple,
    TypeVar,
    Union,
    overload,
)

T = TypeVar("T")
ResultT = TypeVar("ResultT")
#: What a visitor makes (covariant: a ``BaseVisitor[bool]`` is a ``BaseVisitor[object]``).
VisitorResult = TypeVar("VisitorResult", covariant=True)

from . import _xq
from ._xq import Board, Move, STARTING_FEN

NOTATIONS = ("chinese", "chinese-traditional", "wxf", "iccs")

#: The Format tag's value for each notation, as the writer puts it.
_FORMAT = {"chinese": "Chinese", "chinese-traditional": "Chinese", "wxf": "WXF", "iccs": "ICCS"}


def _check_notation(notation: str) -> str:
    if notation not in NOTATIONS:
        raise ValueError(f"unknown notation {notation!r} (chinese, chinese-traditional, wxf or iccs)")
    return notation


# ---------------------------------------------------------------------------- headers


class Headers(MutableMapping[str, str]):
    """The tags of a game, in order (a dict that keeps its insertion order, keys are
    case-sensitive as PGN's are). ``Game()`` starts with python-chess's seven tags, with
    ``Red`` in place of ``White``; a game read from a file has exactly the file's."""

    def __init__(self, data: Union[Iterable[Tuple[str, str]], Dict[str, str], None] = None, **kwargs: str) -> None:
        self._tags: Dict[str, str] = {}
        if data is not None:
            items = data.items() if isinstance(data, dict) else data
            for k, v in items:
                self[k] = v
        for k, v in kwargs.items():
            self[k] = v

    def __setitem__(self, key: str, value: str) -> None:
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError(f"a tag is a str name and a str value, not {key!r}: {value!r}")
        if not key or any(c.isspace() or c in '"[]' for c in key):
            raise ValueError(f"{key!r} is not a tag name")
        if "\n" in value or "\r" in value:
            raise ValueError(f"tag {key}: a value cannot hold a line break")
        self._tags[key] = value

    def __getitem__(self, key: str) -> str:
        return self._tags[key]

    def __delitem__(self, key: str) -> None:
        del self._tags[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tags)

    def __len__(self) -> int:
        return len(self._tags)

    def copy(self) -> "Headers":
        """A copy."""
        return Headers(list(self._tags.items()))

    def __repr__(self) -> str:
        return "Headers({})".format(", ".join(f"{k}={v!r}" for k, v in self._tags.items()))


def _new_headers() -> Headers:
    return Headers([("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
                    ("Red", "?"), ("Black", "?"), ("Result", "*")])


# ---------------------------------------------------------------------------- the tree


class GameNode:
    """A node of a game's tree (python-chess's ``GameNode``): the position after
    ``move`` (``board()``), what follows it (``variations``, the first being the main
    line), the comments and NAGs written with it. The root is the ``Game``; every other
    node is a ``ChildNode``."""

    def __init__(self, *, comment: str = "") -> None:
        self.parent: Optional[GameNode] = None
        self.move: Optional[Move] = None
        self.variations: List[ChildNode] = []
        self.comment = comment
        self.starting_comment = ""
        self.nags: Set[int] = set()

    # -- where it is

    def board(self) -> Board:
        """The position after this node's move, with the moves from the game's start on
        its stack (a new board at each call)."""
        moves = []
        node: GameNode = self
        while node.parent is not None:
            moves.append(node.move)
            node = node.parent
        board = typing_cast_game(node)._start_board()
        for m in reversed(moves):
            board.push(typing_move(m))
        return board

    def ply(self) -> int:
        """The ply of the position after this node (``board().ply()``)."""
        depth = 0
        node: GameNode = self
        while node.parent is not None:
            depth += 1
            node = node.parent
        return typing_cast_game(node)._start_board().ply() + depth

    def turn(self) -> bool:
        """The side to move after this node: True for Red."""
        return self.ply() % 2 == 0

    def root(self) -> "GameNode":
        """The root of the tree."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def game(self) -> "Game":
        """The game this node belongs to."""
        return typing_cast_game(self.root())

    def end(self) -> "GameNode":
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        """Does nothing follow this node?"""
        return not self.variations

    def starts_variation(self) -> bool:
        """Is this node the first of a line that is not its parent's main line?"""
        return self.parent is not None and bool(self.parent.variations) and self.parent.variations[0] is not self

    def is_mainline(self) -> bool:
        """Is this node on the game's main line?"""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def is_main_variation(self) -> bool:
        """Is this node its parent's main line (or the root)?"""
        return self.parent is None or self.parent.variations[0] is self

    def next(self) -> Optional["ChildNode"]:
        """The main line's next node, or None."""
        return self.variations[0] if self.variations else None

    def mainline(self) -> "Mainline[ChildNode]":
        """The nodes of the main line after this one (an iterable; ``reversed`` works)."""
        return Mainline(self, lambda node: node)

    def mainline_moves(self) -> "Mainline[Move]":
        """The moves of the main line after this one."""
        return Mainline(self, lambda node: typing_move(node.move))

    # -- the variations

    def variation(self, move: Union[int, Move, "GameNode"]) -> "ChildNode":
        """The variation by index, by its first move, or the node itself.

        Raises KeyError when there is none."""
        if isinstance(move, int):
            return self.variations[move]
        for v in self.variations:
            if v is move or v.move == move:
                return v
        raise KeyError(move)

    def has_variation(self, move: Move) -> bool:
        """Does a variation start with ``move``?"""
        return any(v.move == move for v in self.variations)

    def add_variation(self, move: Move, *, comment: str = "", starting_comment: str = "",
                      nags: Iterable[int] = ()) -> "ChildNode":
        """Adds a line that starts with ``move`` (after the existing ones) and returns
        its node.

        Raises IllegalMove when ``move`` is not legal here."""
        if not isinstance(move, Move):
            raise TypeError(f"move must be an xq.Move, not a {type(move).__name__}")
        board = self.board()
        if not board.is_legal(move):
            raise _xq.IllegalMove(f"{move} is not legal in {board.fen()}")
        node = ChildNode(self, move, comment=comment, starting_comment=starting_comment, nags=nags)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, *, comment: str = "", nags: Iterable[int] = ()) -> "ChildNode":
        """Adds a line that starts with ``move`` as the main line (the old main line
        becomes the first variation) and returns its node."""
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.remove(node)
        self.variations.insert(0, node)
        return node

    def add_line(self, moves: Iterable[Move], *, comment: str = "", starting_comment: str = "",
                 nags: Iterable[int] = ()) -> "GameNode":
        """Adds the moves one after the other as a line from here and returns the last
        node; the comment and NAGs go to the last, the starting comment to the first."""
        node: GameNode = self
        for m in moves:
            node = node.add_variation(m, starting_comment=starting_comment)
            starting_comment = ""
        node.comment = comment
        node.nags.update(nags)
        return node

    def promote_to_main(self, move: Union[int, Move, GameNode]) -> None:
        """Makes the variation the main line (the others keep their order)."""
        node = self.variation(move)
        self.variations.remove(node)
        self.variations.insert(0, node)

    def promote(self, move: Union[int, Move, GameNode]) -> None:
        """Moves the variation one place up."""
        node = self.variation(move)
        i = self.variations.index(node)
        if i > 0:
            self.variations[i - 1], self.variations[i] = self.variations[i], self.variations[i - 1]

    def demote(self, move: Union[int, Move, GameNode]) -> None:
        """Moves the variation one place down."""
        node = self.variation(move)
        i = self.variations.index(node)
        if i < len(self.variations) - 1:
            self.variations[i + 1], self.variations[i] = self.variations[i], self.variations[i + 1]

    def remove_variation(self, move: Union[int, Move, GameNode]) -> None:
        """Removes the variation and everything after it."""
        self.variations.remove(self.variation(move))

    # -- the tree as tuples (for the Rust reader and writer)

    def _line_from(self, comments: bool, variations: bool, starting: Optional[str]) -> Tuple[Any, ...]:
        """The main line from this node's children as the writer's tuple."""
        nodes = []
        node: GameNode = self
        first = starting
        while node.variations:
            main = node.variations[0]
            alts = []
            if variations:
                for alt in node.variations[1:]:
                    alts.append(_as_line(alt, comments, variations))
            nodes.append((main.move, (main.comment or None) if comments else None,
                          sorted(main.nags) if comments else [], alts))
            node = main
        return (first or None) if comments else None, nodes


def _as_line(start: "ChildNode", comments: bool, variations: bool) -> Tuple[Any, ...]:
    """The line that starts with the node ``start`` (its move, then its main line)."""
    alts: List[Any] = []
    head = (start.move, (start.comment or None) if comments else None,
            sorted(start.nags) if comments else [], alts)
    comment, rest = start._line_from(comments, variations, None)
    return (start.starting_comment or None) if comments else None, [head] + list(rest)


def typing_cast_game(node: GameNode) -> "Game":
    if not isinstance(node, Game):
        raise ValueError("this node is not in a game's tree (its root is not a Game)")
    return node


class ChildNode(GameNode):
    """A node that a move leads to: ``move``, ``parent``, ``comment`` (after the move),
    ``starting_comment`` (before it, when it starts a variation), ``nags``."""

    def __init__(self, parent: GameNode, move: Move, *, comment: str = "", starting_comment: str = "",
                 nags: Iterable[int] = ()) -> None:
        super().__init__(comment=comment)
        self.parent = parent
        self.move = move
        self.starting_comment = starting_comment
        self.nags = set(nags)

    def uci(self) -> str:
        """The move in ICCS (UCI's form for Xiangqi)."""
        return typing_move(self.move).uci()

    def san(self, notation: str = "chinese") -> str:
        """The move written in ``notation`` (Chinese by default: Xiangqi's usual
        notation, in place of chess's SAN)."""
        parent = self.parent
        assert parent is not None
        return parent.board().notation(typing_move(self.move), _check_notation(notation))

    def __repr__(self) -> str:
        return f"<ChildNode at {id(self):#x} ({self.ply()}. {self.move} ...)>"


def typing_move(m: Optional[Move]) -> Move:
    assert m is not None
    return m


class Mainline(Generic[T]):
    """The nodes (or moves) of a main line: iterate, ``reversed()``, ``len()`` is not
    offered (walk it)."""

    def __init__(self, start: GameNode, f: Callable[["ChildNode"], T]) -> None:
        self.start = start
        self.f = f

    def __bool__(self) -> bool:
        return bool(self.start.variations)

    def __iter__(self) -> Iterator[T]:
        node = self.start
        while node.variations:
            node = node.variations[0]
            yield self.f(node)

    def __reversed__(self) -> Iterator[T]:
        nodes = list(self.__iter_nodes())
        for node in reversed(nodes):
            yield self.f(node)

    def __iter_nodes(self) -> Iterator[ChildNode]:
        node = self.start
        while node.variations:
            node = node.variations[0]
            yield node

    def __repr__(self) -> str:
        return "<Mainline ({})>".format(" ".join(str(n.move) for n in self.__iter_nodes()))


class Game(GameNode):
    """A game: the root of its tree (python-chess's ``Game``), with ``headers``, the
    start position (``board()``; the ``FEN`` header when the game does not start from
    the usual position), the comment on the whole game (``comment``), ``trailer`` (text
    written after the game in its file), and what it was read as: ``notation`` and
    ``encoding``."""

    def __init__(self, headers: Optional[Union[Headers, Dict[str, str]]] = None) -> None:
        super().__init__()
        self.headers = Headers(headers.items()) if headers is not None else _new_headers()
        self.trailer: Optional[str] = None
        self.notation = "chinese"
        self.encoding = "utf-8"
        #: The movetext's result token as read (when the headers have no ``Result``).
        self.result_token = "*"

    @classmethod
    def without_tag_roster(cls) -> "Game":
        """A game with no headers at all."""
        return cls(Headers())

    @classmethod
    def from_board(cls, board: Board) -> "Game":
        """A game of a board's moves, from the board's start (the ``FEN`` header set
        when it is not the usual start; ``Result`` when the rules have ended it)."""
        game = cls()
        game.setup(board.root())
        node: GameNode = game
        for m in board.move_stack:
            node = node.add_variation(m)
        game.headers["Result"] = board.result()
        return game

    def setup(self, board: Union[Board, str]) -> None:
        """Starts the game from ``board``'s position (or a FEN): the ``FEN`` header is set,
        or removed for the usual start. Moves already in the tree must stay legal."""
        fen = board.fen() if isinstance(board, Board) else Board(board).fen()
        if fen == STARTING_FEN:
            self.headers.pop("FEN", None)
            self.headers.pop("SetUp", None)
        else:
            self.headers["FEN"] = fen

    def _start_board(self) -> Board:
        fen = self.headers.get("FEN")
        return Board(fen) if fen else Board()

    def board(self) -> Board:
        """The start position (a new board at each call)."""
        return self._start_board()

    def ply(self) -> int:
        return self._start_board().ply()

    # -- writing

    def _result(self) -> str:
        """The result written: the ``Result`` header, else the movetext's token."""
        result = self.headers.get("Result", self.result_token)
        return result if result in ("1-0", "0-1", "1/2-1/2", "*") else "*"

    def _tree(self, *, headers: bool = True, comments: bool = True, variations: bool = True) -> Tuple[Any, ...]:
        tags = [(k, v) for k, v in self.headers.items() if k not in ("FEN", "Format")] if headers else []
        main = self._line_from(comments, variations, self.comment)
        return (tags, self._start_board().fen(), main, self._result(), self.trailer if headers else None)

    def pgn(self, notation: Optional[str] = None, *, headers: bool = True, comments: bool = True,
            variations: bool = True) -> str:
        """The game as PGN text in ``notation`` (``chinese``, ``chinese-traditional``,
        ``wxf``, ``iccs``; by default the one it was read in). Without ``headers`` only
        the movetext (no tags and no trailer); without ``comments`` no comments nor NAGs;
        without ``variations`` the main line alone.

        Raises IllegalMove if a move of the tree is not legal where it is played."""
        notation = _check_notation(notation or self.notation)
        text = _xq._write_pgn_tree(self._tree(headers=headers, comments=comments, variations=variations),
                                   notation)
        if not headers:
            # The writer always opens with the Format tag and a blank line.
            text = text.split("\n\n", 1)[1] if "\n\n" in text else text
        return text

    @overload
    def accept(self, visitor: "FileExporter") -> int: ...  # type: ignore[overload-overlap]

    @overload
    def accept(self, visitor: "StringExporter") -> str: ...

    @overload
    def accept(self, visitor: "BaseVisitor[ResultT]") -> ResultT: ...

    def accept(self, visitor: Any) -> Any:
        """Walks the game with a visitor (python-chess's call) and returns what it made:
        an exporter's text (or, for a ``FileExporter``, the characters written), or a
        ``BaseVisitor``'s ``result()``."""
        if isinstance(visitor, StringExporter):
            return visitor._export(self)
        return _visit(visitor, lambda: self.headers, lambda: self)

    def __str__(self) -> str:
        return self.pgn()

    def __repr__(self) -> str:
        return "<Game at {:#x} ({!r} vs. {!r}, {!r})>".format(
            id(self), self.headers.get("Red", "?"), self.headers.get("Black", "?"), self.headers.get("Date", "?"))


class StringExporter:
    """python-chess's exporter: ``game.accept(StringExporter(headers=True,
    variations=True, comments=True))`` is the PGN text; ``notation`` chooses the move
    notation (by default the game's)."""

    def __init__(self, *, headers: bool = True, variations: bool = True, comments: bool = True,
                 notation: Optional[str] = None) -> None:
        self.headers = headers
        self.variations = variations
        self.comments = comments
        self.notation = notation if notation is None else _check_notation(notation)

    def _export(self, game: Game) -> str:
        return game.pgn(self.notation, headers=self.headers, comments=self.comments,
                        variations=self.variations)


class FileExporter(StringExporter):
    """Writes each game it is given to ``handle`` (text mode), a blank line after each:
    ``game.accept(FileExporter(f))`` returns the number of characters written."""

    def __init__(self, handle: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.handle = handle

    def _export(self, game: Game) -> int:  # type: ignore[override]
        text = super()._export(game) + "\n"
        self.handle.write(text)
        return len(text)


# ---------------------------------------------------------------------------- building from tuples


def _game_of_tree(tree: Tuple[Any, ...], notation: str, encoding: str) -> Game:
    tags, fen, main, result, trailer = tree
    game = Game(_headers_of(tags, fen))
    comment, nodes = main
    game.comment = comment or ""
    _grow(game, nodes)
    game.trailer = trailer
    game.notation = notation
    game.encoding = encoding
    game.result_token = result
    return game


def _grow(parent: GameNode, nodes: Sequence[Tuple[Any, ...]]) -> None:
    """Hangs a line of nodes from ``parent``; each node's variations hang from the same
    parent, after it. Iterative along a line (a game's main line may be long)."""
    for move, comment, nags, variations in nodes:
        child = ChildNode(parent, move, comment=comment or "", nags=nags)
        parent.variations.append(child)
        for start_comment, vnodes in variations:
            if not vnodes:
                continue
            first = len(parent.variations)
            _grow(parent, vnodes[:1])
            head = parent.variations[first]
            head.starting_comment = start_comment or ""
            _grow(head, vnodes[1:])
        parent = child


# ---------------------------------------------------------------------------- visitors


class SkipType(enum.Enum):
    """What ``begin_game``, ``end_headers`` and ``begin_variation`` of a visitor return
    to skip the game, its moves or a variation (``SKIP``)."""

    SKIP = "skip"


SKIP = SkipType.SKIP


class BaseVisitor(abc.ABC, Generic[VisitorResult]):
    """python-chess's visitor: ``read_game(handle, Visitor=...)`` and ``game.accept(
    visitor)`` call its methods in PGN order, and return its ``result()``.

    The calls for a game: ``begin_game()`` (SKIP skips the game), ``begin_headers()``,
    ``visit_header(name, value)`` for each header, ``end_headers()`` (SKIP skips the
    moves, which are then not read at all: a bad move is no error), ``visit_board(board)``
    at the start, ``visit_comment(comment)`` for the comment on the whole game; for each
    move ``visit_move(board, move)`` (``board`` before the move) and ``visit_board(board)``
    (after it), its NAGs (``visit_nag``) and comment; after a move, each line that could
    be played instead of it between ``begin_variation()`` (SKIP skips it) and
    ``end_variation()``, its starting comment first; then ``visit_result(result)`` and
    ``end_game()``. The boards are lent: a visitor that changes one must put it back.

    A bad game raises ``xq.InvalidGameFile`` before its moves are visited (there is no
    ``handle_error``), and the moves come checked and resolved (no ``parse_san``)."""

    def begin_game(self) -> Optional[SkipType]:
        """A game starts."""
        return None

    def begin_headers(self) -> Optional[Headers]:
        """Its headers come."""
        return None

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        """A header."""

    def end_headers(self) -> Optional[SkipType]:
        """The headers are over (SKIP skips the moves)."""
        return None

    def visit_move(self, board: Board, move: Move) -> None:
        """A move, played in ``board``."""

    def visit_board(self, board: Board) -> None:
        """The start position, and the position after each move."""

    def visit_comment(self, comment: str) -> None:
        """A comment: on the whole game, after a move, or before a variation's first
        move."""

    def visit_nag(self, nag: int) -> None:
        """A numeric annotation glyph of the last move."""

    def begin_variation(self) -> Optional[SkipType]:
        """A line that could be played instead of the last move starts (SKIP skips it;
        ``end_variation`` is called still)."""
        return None

    def end_variation(self) -> None:
        """The line is over."""

    def visit_result(self, result: str) -> None:
        """The result: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""

    def end_game(self) -> None:
        """The game is over."""

    @abc.abstractmethod
    def result(self) -> VisitorResult:
        """What the visitor made."""


class GameBuilder(BaseVisitor[Game]):
    """Builds a ``Game`` from the calls: the default visitor of ``read_game`` (which
    builds its game straight from the reader when it is this very class). A subclass
    gets the game's ``trailer``, ``notation`` and ``encoding`` too."""

    def begin_game(self) -> None:
        self.game = Game.without_tag_roster()
        self._nodes: List[GameNode] = [self.game]
        self._starting = ""
        self._after_move = False

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.game.headers[tagname] = tagvalue

    def visit_move(self, board: Board, move: Move) -> None:
        parent = self._nodes[-1]
        node = ChildNode(parent, move, starting_comment=self._starting)
        parent.variations.append(node)
        self._nodes[-1] = node
        self._starting = ""
        self._after_move = True

    def visit_comment(self, comment: str) -> None:
        node = self._nodes[-1]
        if self._after_move or (node is self.game and not node.variations):
            node.comment = _joined(node.comment, comment)
        else:
            self._starting = _joined(self._starting, comment)

    def visit_nag(self, nag: int) -> None:
        self._nodes[-1].nags.add(nag)

    def begin_variation(self) -> None:
        parent = self._nodes[-1].parent
        if parent is None:
            raise ValueError("a variation before any move")
        self._nodes.append(parent)
        self._after_move = False

    def end_variation(self) -> None:
        self._nodes.pop()
        self._after_move = True

    def visit_result(self, result: str) -> None:
        self.game.result_token = result

    def result(self) -> Game:
        return self.game


def _joined(first: str, second: str) -> str:
    """Two comments in one slot, a line apart (as the reader joins them)."""
    return f"{first}\n{second}" if first else second


class HeadersBuilder(BaseVisitor[Headers]):
    """Collects the headers and skips the moves: what ``read_headers`` uses."""

    def begin_headers(self) -> Headers:
        self.headers = Headers()
        return self.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def end_headers(self) -> SkipType:
        return SKIP

    def result(self) -> Headers:
        return self.headers


class SkipVisitor(BaseVisitor[bool]):
    """Skips a game: what ``skip_game`` uses."""

    def begin_game(self) -> SkipType:
        return SKIP

    def end_headers(self) -> SkipType:
        return SKIP

    def begin_variation(self) -> SkipType:
        return SKIP

    def result(self) -> bool:
        return True


def _visit(visitor: BaseVisitor[T], headers: Callable[[], Headers], game: Callable[[], Game]) -> T:
    """Walks a game with ``visitor``; the headers and the game are asked for only when
    the visitor does not skip them."""
    if visitor.begin_game() is not SKIP:
        visitor.begin_headers()
        for name, value in headers().items():
            visitor.visit_header(name, value)
        if visitor.end_headers() is not SKIP:
            _visit_moves(game(), visitor)
    visitor.end_game()
    return visitor.result()


def _visit_moves(game: Game, visitor: BaseVisitor[Any]) -> None:
    board = game.board()
    visitor.visit_board(board)
    if game.comment:
        visitor.visit_comment(game.comment)
    _visit_line(game, board, visitor)
    if isinstance(visitor, GameBuilder):
        # What no visitor call carries: the text after the game and how it was read.
        built = visitor.game
        built.trailer, built.notation, built.encoding = game.trailer, game.notation, game.encoding
    visitor.visit_result(game._result())


def _visit_line(node: GameNode, board: Board, visitor: BaseVisitor[Any]) -> None:
    """Visits what follows ``node`` (whose position ``board`` is): each move of the main
    line, then the lines that could be played instead of it. ``board`` is left as it
    was. Iterative along a line (a main line may be long)."""
    played = 0
    while node.variations:
        main, others = node.variations[0], node.variations[1:]
        _visit_node(main, board, visitor)
        if others:
            board.pop()
            for other in others:
                if visitor.begin_variation() is not SKIP:
                    if other.starting_comment:
                        visitor.visit_comment(other.starting_comment)
                    _visit_node(other, board, visitor)
                    _visit_line(other, board, visitor)
                    board.pop()
                visitor.end_variation()
            board.push(typing_move(main.move))
        played += 1
        node = main
    for _ in range(played):
        board.pop()


def _visit_node(node: ChildNode, board: Board, visitor: BaseVisitor[Any]) -> None:
    """Visits a node's move (played on ``board``, which stays after it), NAGs and
    comment."""
    move = typing_move(node.move)
    visitor.visit_move(board, move)
    board.push(move)
    visitor.visit_board(board)
    for nag in sorted(node.nags):
        visitor.visit_nag(nag)
    if node.comment:
        visitor.visit_comment(node.comment)


# ---------------------------------------------------------------------------- reading

#: The stream of each file being read, made at its first game and dropped at its end
#: (by the file itself when it can be weakly referenced, else by its id). A stream holds
#: no reference to its file: ``read_game`` lends it the file at each call.
_streams: "weakref.WeakKeyDictionary[Any, _xq._PgnStream]" = weakref.WeakKeyDictionary()
_streams_by_id: Dict[int, "_xq._PgnStream"] = {}


def _next_game(handle: Any, encoding: str) -> "Optional[_xq._PgnGame]":
    """The next game's text of ``handle``, cut out by the Rust reader of its stream."""
    try:
        streams: "MutableMapping[Any, _xq._PgnStream]" = _streams
        key: Any = handle
        stream = streams.get(key)
    except TypeError:
        streams, key = _streams_by_id, id(handle)
        stream = streams.get(key)
    if stream is None:
        stream = streams[key] = _xq._PgnStream(handle)
    text = stream.next_game(handle, encoding)
    if text is None:
        del streams[key]
    return text


def _headers_of(tags: Iterable[Tuple[str, str]], fen: str) -> Headers:
    """The headers of a game read: its tags in file order, and ``FEN`` (last) when the
    game does not start from the usual position."""
    headers = Headers(tags)
    if fen != STARTING_FEN:
        headers["FEN"] = fen
    return headers


def _game_of_text(text: "_xq._PgnGame", handle: Any) -> Game:
    tree, notation = text.tree()
    # A file in text mode decoded the text itself: its encoding is the file's.
    encoding = text.encoding or str(getattr(handle, "encoding", None) or "utf-8").lower()
    return _game_of_tree(tree, notation, encoding)


@overload
def read_game(handle: Any, *, encoding: str = "auto") -> Optional[Game]: ...


@overload
def read_game(handle: Any, *, Visitor: Callable[[], BaseVisitor[ResultT]],
              encoding: str = "auto") -> Optional[ResultT]: ...


def read_game(handle: Any, *, Visitor: Callable[[], BaseVisitor[Any]] = GameBuilder,
              encoding: str = "auto") -> Any:
    """Reads the next game of a PGN file and returns it, or None at the end of the file.

    ``handle`` is a file opened in binary mode (the bytes are decoded as UTF-8 when they
    are, else as GBK, as the Chinese sites publish them, judged once for the file; or as
    ``encoding`` says: ``"utf-8"``, ``"gbk"``) or in text mode (then its own encoding
    rules). The file is read line by line by the Rust reader (``xq_records``'
    ``PgnReader``), which cuts it into games, reads them and names the notation of their
    moves. The handle is left at the start of the next game when it can seek; otherwise
    the line read too far is kept for the next call with the same handle.

    With ``Visitor`` (a ``BaseVisitor`` class, or any callable making one), the game is
    walked with a new visitor and its ``result()`` returned instead of a ``Game``:
    ``HeadersBuilder`` for the headers alone (the moves not read), ``SkipVisitor`` to
    skip the game.

    Raises InvalidGameFile with the file's name (when the handle has one), the game's
    number, the line (counted from where reading started) and the ply; the next call
    reads the next game. A byte that is not valid in the encoding ends the reading."""
    text = _next_game(handle, encoding)
    if text is None:
        return None
    if Visitor is GameBuilder:
        return _game_of_text(text, handle)

    def headers() -> Headers:
        tags, fen, _ = text.tags()
        return _headers_of(tags, fen)

    return _visit(Visitor(), headers, lambda: _game_of_text(text, handle))


def read_headers(handle: Any, *, encoding: str = "auto") -> Optional[Headers]:
    """The headers of the next game (with ``FEN`` as ``read_game`` gives it), or None at
    the end of the file; the game's moves are skipped without being read. Raises
    InvalidGameFile for a malformed tag."""
    return read_game(handle, Visitor=HeadersBuilder, encoding=encoding)


def skip_game(handle: Any, *, encoding: str = "auto") -> bool:
    """Skips the next game without reading it: True, or False at the end of the file."""
    return bool(read_game(handle, Visitor=SkipVisitor, encoding=encoding))


def read_xqf(source: Any) -> Game:
    """Reads an XQF file (XQStudio's binary format, encrypted or not) into a ``Game``:
    from a handle opened in binary mode, ``bytes``, or a path.

    Raises InvalidGameFile with the byte offset of the problem."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            data = f.read()
    else:
        data = source.read()
        if isinstance(data, str):
            raise TypeError("an XQF file is binary: open it with 'rb'")
    return _game_of_tree(_xq._xqf_tree(data), "chinese", "xqf")


__all__ = [
    "read_game", "read_headers", "skip_game", "read_xqf", "Game", "GameNode", "ChildNode",
    "Headers", "Mainline", "StringExporter", "FileExporter", "BaseVisitor", "GameBuilder",
    "HeadersBuilder", "SkipVisitor", "SkipType", "SKIP", "NOTATIONS",
]
