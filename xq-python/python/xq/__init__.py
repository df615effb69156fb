"""xq: Xiangqi (Chinese chess) for Python, on the Rust crates of the xq engine.

The shape is python-chess's::

    import xq
    board = xq.Board()
    board.push(board.parse_move("炮二平五"))
    board.push(xq.Move.from_iccs("h9g7"))
    print(board.notation(board.peek(), "wxf"), board.fen())
    print(board.outcome())                      # None while the game goes on

Squares are ints 0..89 (``xq.A0`` = 0, rank-major, ``xq.I9`` = 89), colours bools
(``xq.RED`` = True, ``xq.BLACK`` = False), piece types ints ``xq.GENERAL`` (1) ..
``xq.SOLDIER`` (7). Errors are ``xq.XqError`` subclasses (also ``ValueError``):
``InvalidFen``, ``InvalidMove``, ``IllegalMove``, ``AmbiguousMove``, ``InvalidGameFile``,
``InvalidDataFile``, ``InvalidArgument``, ``InvalidTablebase``; the engines' are
python-chess's ``EngineError`` (a ``RuntimeError``), ``EngineTerminatedError``, and
``InvalidLimit`` and ``InvalidOption`` (also ``ValueError``).

Engines: ``xq.EmbeddedEngine()`` is xq's search in-process; ``xq.engine`` drives outside
engines over UCI and UCCI (``xq.engine.SimpleEngine.popen_uci("pikafish")``), with the
same types. Game files: ``xq.pgn`` reads and writes python-chess's editable tree
(``read_game``, ``Game``, ``GameNode``); ``xq.read_pgn`` returns flat ``xq.Record`` objects.

Reinforcement learning: ``xq.envs`` has a PettingZoo environment, a Gymnasium one against
the engine, an OpenSpiel game and ``xq.envs.VectorXiangqi`` (many games a call), all on
the whole rules.

Endgame tables written by ``xq tb gen`` are probed with ``xq.Tablebase(directory)``:
``probe_wdl(board)`` (1, 0, -1) and ``probe_dtm(board)`` (plies to mate, signed).

The machine-learning calls (``Board.legal_mask``, ``Board.planes``, ``legal_masks``,
``planes_batch``, ``push_batch``, ``read_datagen``) return NumPy arrays and import NumPy
when first called; the rest of the package needs nothing but itself. ``selfplay`` plays
the engine against itself and returns the games in ``xq datagen``'s binary form;
``annotate`` judges every move of a game as ``xq annotate`` does.
"""

import enum as _enum
import warnings as _warnings
from typing import Any as _Any
from typing import List as _List

from . import _xq
from ._xq import (  # "X as X": re-exported, for type checkers too
    N_ACTIONS as N_ACTIONS,
    N_PLANES as N_PLANES,
    SQUARE_NAMES as SQUARE_NAMES,
    STARTING_FEN as STARTING_FEN,
    AmbiguousMove as AmbiguousMove,
    Analysis as Analysis,
    Board as Board,
    EmbeddedEngine as EmbeddedEngine,
    EngineError as EngineError,
    EngineTerminatedError as EngineTerminatedError,
    IllegalMove as IllegalMove,
    InvalidArgument as InvalidArgument,
    InvalidDataFile as InvalidDataFile,
    InvalidFen as InvalidFen,
    InvalidGameFile as InvalidGameFile,
    InvalidLimit as InvalidLimit,
    InvalidMove as InvalidMove,
    InvalidTablebase as InvalidTablebase,
    InvalidOption as InvalidOption,
    Move as Move,
    Node as Node,
    Outcome as Outcome,
    Piece as Piece,
    Record as Record,
    Tablebase as Tablebase,
    XqError as XqError,
    action_moves as action_moves,
    annotate as annotate,
    index_to_move as index_to_move,
    legal_masks as legal_masks,
    mirror_index as mirror_index,
    move_to_index as move_to_index,
    parse_square as parse_square,
    planes_batch as planes_batch,
    push_batch as push_batch,
    read_datagen as read_datagen,
    read_pgn as read_pgn,
    read_pgn_str as read_pgn_str,
    read_xqf as read_xqf,
    selfplay as selfplay,
    square_file as square_file,
    square_mirror as square_mirror,
    square_name as square_name,
    square_rank as square_rank,
    write_pgn as write_pgn,
)

from . import svg

__version__: str = _xq.__version__

Color = bool
RED: Color = True
BLACK: Color = False
COLORS: _List[Color] = [RED, BLACK]
COLOR_NAMES: _List[str] = ["black", "red"]

PieceType = int
GENERAL: PieceType = 1
ADVISOR: PieceType = 2
ELEPHANT: PieceType = 3
HORSE: PieceType = 4
CHARIOT: PieceType = 5
CANNON: PieceType = 6
SOLDIER: PieceType = 7
PIECE_TYPES: _List[PieceType] = [GENERAL, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER]
#: Indexed by piece type (index 0 is None, as in python-chess).
PIECE_NAMES = [None, "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"]
#: The FEN letters, indexed by piece type.
PIECE_SYMBOLS = [None, "k", "a", "b", "n", "r", "c", "p"]

Square = int
SQUARES: _List[Square] = list(range(90))
FILE_NAMES: _List[str] = list("abcdefghi")
RANK_NAMES: _List[str] = list("0123456789")

# A0 = 0, B0 = 1, ..., I0 = 8, A1 = 9, ..., I9 = 89.
A0, B0, C0, D0, E0, F0, G0, H0, I0 = range(0, 9)
A1, B1, C1, D1, E1, F1, G1, H1, I1 = range(9, 18)
A2, B2, C2, D2, E2, F2, G2, H2, I2 = range(18, 27)
A3, B3, C3, D3, E3, F3, G3, H3, I3 = range(27, 36)
A4, B4, C4, D4, E4, F4, G4, H4, I4 = range(36, 45)
A5, B5, C5, D5, E5, F5, G5, H5, I5 = range(45, 54)
A6, B6, C6, D6, E6, F6, G6, H6, I6 = range(54, 63)
A7, B7, C7, D7, E7, F7, G7, H7, I7 = range(63, 72)
A8, B8, C8, D8, E8, F8, G8, H8, I8 = range(72, 81)
A9, B9, C9, D9, E9, F9, G9, H9, I9 = range(81, 90)


def square(file_index: int, rank_index: int) -> Square:
    """The square on ``file_index`` (0 = a .. 8 = i) and ``rank_index`` (0 .. 9)."""
    if not (0 <= file_index < 9 and 0 <= rank_index < 10):
        raise ValueError(f"no square at file {file_index}, rank {rank_index}")
    return rank_index * 9 + file_index


def flip_move(move: Move) -> Move:
    """The move mirrored across the river (``move.mirror()``): the move that plays the
    same in ``board.mirror()``."""
    return move.mirror()


class Termination(str, _enum.Enum):
    """The rule that ended a game. Each member equals its tag string
    (``Termination.PERPETUAL_CHASE == "perpetual-chase"``)."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    PERPETUAL_CHECK = "perpetual-check"
    PERPETUAL_CHASE = "perpetual-chase"
    REPETITION = "repetition"
    MOVE_RULE = "60-move-rule"
    INSUFFICIENT_MATERIAL = "insufficient-material"

    def __str__(self) -> str:
        return self.value


class Status(_enum.IntFlag):
    """What is wrong with a position as a game's position (python-chess's ``Status``),
    from ``Board.status()``: ``VALID`` (0) for every position a game can reach. A board
    made with ``strict=False`` may have ``UNREACHABLE_SQUARE`` (a piece where no game can
    bring it, as mate problems place them); ``Board`` refuses the others, named here for
    python-chess's shape."""

    VALID = 0
    NO_RED_GENERAL = 1
    NO_BLACK_GENERAL = 2
    TOO_MANY_GENERALS = 4
    GENERAL_OUTSIDE_PALACE = 8
    UNREACHABLE_SQUARE = 16
    TOO_MANY_PIECES = 32
    GENERALS_FACING = 64
    OPPONENT_CHECK = 128


STATUS_VALID = Status.VALID


def __getattr__(name: str) -> _Any:
    # `xq.Game` was the flat game-file class's first name: a deprecated alias of
    # `xq.Record` (python-chess's editable `Game` is `xq.pgn.Game`); `xq.Engine` the
    # in-process engine's, which differed from the module `xq.engine` only by case.
    # `xq.Score` is
    # `xq.engine.Score`, imported when first asked for.
    if name == "Game":
        _warnings.warn(
            "xq.Game is deprecated: the game-file record is xq.Record "
            "(and python-chess's editable game tree is xq.pgn.Game)",
            DeprecationWarning,
            stacklevel=2,
        )
        return Record
    if name == "Engine":
        _warnings.warn(
            "xq.Engine is deprecated: xq's engine in-process is xq.EmbeddedEngine "
            "(the module xq.engine drives outside engines)",
            DeprecationWarning,
            stacklevel=2,
        )
        return EmbeddedEngine
    if name == "Score":
        from .engine import Score

        return Score
    raise AttributeError(f"module 'xq' has no attribute {name!r}")


__all__ = [
    "__version__",
    # board and moves
    "Board", "Move", "Piece", "Outcome", "Termination", "Status", "STATUS_VALID", "STARTING_FEN", "svg",
    "Color", "RED", "BLACK", "COLORS", "COLOR_NAMES",
    "PieceType", "GENERAL", "ADVISOR", "ELEPHANT", "HORSE", "CHARIOT", "CANNON", "SOLDIER",
    "PIECE_TYPES", "PIECE_NAMES", "PIECE_SYMBOLS",
    "Square", "SQUARES", "SQUARE_NAMES", "FILE_NAMES", "RANK_NAMES",
    "square", "parse_square", "square_name", "square_file", "square_rank", "square_mirror",
    "flip_move",
    # errors
    "XqError", "InvalidFen", "InvalidMove", "IllegalMove", "AmbiguousMove",
    "InvalidGameFile", "InvalidDataFile", "InvalidArgument", "InvalidTablebase",
    "EngineError", "EngineTerminatedError", "InvalidLimit", "InvalidOption",
    # game files (the tree: xq.pgn)
    "Record", "Node", "read_pgn", "read_pgn_str", "read_xqf", "write_pgn",
    # engine (outside engines: xq.engine)
    "EmbeddedEngine", "Analysis", "Score",
    # endgame tables
    "Tablebase",
    # machine learning
    "N_ACTIONS", "N_PLANES", "move_to_index", "index_to_move", "mirror_index", "action_moves",
    "legal_masks", "planes_batch", "push_batch", "read_datagen",
    # self-play
    "selfplay",
    # analysis
    "annotate",
    # squares
    "A0", "B0", "C0", "D0", "E0", "F0", "G0", "H0", "I0",
    "A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1",
    "A2", "B2", "C2", "D2", "E2", "F2", "G2", "H2", "I2",
    "A3", "B3", "C3", "D3", "E3", "F3", "G3", "H3", "I3",
    "A4", "B4", "C4", "D4", "E4", "F4", "G4", "H4", "I4",
    "A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5", "I5",
    "A6", "B6", "C6", "D6", "E6", "F6", "G6", "H6", "I6",
    "A7", "B7", "C7", "D7", "E7", "F7", "G7", "H7", "I7",
    "A8", "B8", "C8", "D8", "E8", "F8", "G8", "H8", "I8",
    "A9", "B9", "C9", "D9", "E9", "F9", "G9", "H9", "I9",
]
