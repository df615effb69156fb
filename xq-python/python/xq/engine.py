"""Xiangqi engines as outside processes, over UCI or UCCI, in python-chess's shape.

::

    import xq
    import xq.engine

    engine = xq.engine.SimpleEngine.popen_uci("pikafish")     # or popen_ucci("eleeye")
    board = xq.Board()
    while not board.is_game_over():
        result = engine.play(board, xq.engine.Limit(time=0.1))
        board.push(result.move)
    info = engine.analyse(board, xq.engine.Limit(depth=12))
    print(info["score"].red(), info["pv"])
    engine.quit()

The same program runs on xq's engine in-process with ``engine = xq.EmbeddedEngine()``: it takes
and returns the same types (``Limit``, ``PlayResult``, ``PovScore``, ``BestMove``).

What python-chess users know is here under the same names: ``popen_uci`` (asyncio) and
``SimpleEngine.popen_uci`` (a background event loop, blocking calls), ``configure``,
``ping``, ``quit``, ``id``, ``options``, ``play`` (a ``PlayResult``), ``analyse`` (an
info dict, a list of them with ``multipv``), ``analysis`` (an iterator with ``stop()``
and ``wait()``), ``Limit``, ``Cp``, ``Mate``, ``PovScore``, ``Wdl``, ``PovWdl``, the
``INFO_*`` flags. Colours are Red and Black: ``Limit(red_clock=..., black_clock=...)``
(``white_*`` is accepted too), ``PovScore.red()``.

**UCCI** (ElephantEye's protocol) is spoken by ``popen_ucci``: ``ucci``/``ucciok``,
``setoption name value`` without keywords, times in seconds unless the engine offers
``usemillisec`` (then it is turned on and times are in milliseconds), ``banmoves``
(``play(..., banmoves=[...])``; ``root_moves`` becomes the ban of every other move),
``nobestmove``, ``go depth infinite`` for an analysis without limit, ``go draw`` for
``draw_offered``, ``bestmove ... draw | resign`` (``PlayResult.draw_offered`` and
``resigned``), ``quit``/``bye``. UCCI has one line per search: ``multipv`` above 1 is
refused.

**Moves** are ``xq.Move``\\ s both ways. Pikafish, xq and UCCI engines number ranks 0-9
(ICCS, ``h2e2``); Fairy-Stockfish's UCI numbers them 1-10 (``h3e3``, and ``e10``). The
engine's form is detected (from ``id name Fairy-Stockfish``, or from a move that only
makes sense in one form), or given: ``popen_uci(cmd, ranks="1-10")``. An engine that
offers ``UCI_Variant`` with ``xiangqi`` is switched to it.

**Errors** are the package's (``xq.XqError`` subclasses): ``EngineError`` (a reply that
breaks the protocol, an illegal move; also a ``RuntimeError``), ``EngineTerminatedError``
(the process died: its exit code and last words on stderr are in the message),
``EngineTimeoutError`` (also a ``TimeoutError``: the engine did not answer in time),
``InvalidLimit`` and ``InvalidOption`` (refused before anything is sent).
"""

from __future__ import annotations

import asyncio
import collections
import collections.abc
import concurrent.futures
import dataclasses
import enum
import logging
import os
import re
import subprocess
import sys
import threading
import typing
from typing import (
    Any,
    Callable,
    Coroutine,
    Deque,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
)

from . import _xq
from ._xq import Board, Move

LOGGER = logging.getLogger(__name__)

T = TypeVar("T")

Color = bool
RED: Color = True
BLACK: Color = False

EngineError = _xq.EngineError
EngineTerminatedError = _xq.EngineTerminatedError
InvalidLimit = _xq.InvalidLimit
InvalidOption = _xq.InvalidOption


if asyncio.TimeoutError is TimeoutError:  # Python 3.11 and later

    class EngineTimeoutError(EngineError, TimeoutError):
        """The engine did not answer in time (also a ``TimeoutError``, the name
        python-chess users catch)."""

else:  # asyncio's own TimeoutError before 3.11

    class EngineTimeoutError(EngineError, TimeoutError, asyncio.TimeoutError):  # type: ignore[no-redef, misc]
        """The engine did not answer in time (also a ``TimeoutError`` and an
        ``asyncio.TimeoutError``, the names python-chess users catch)."""


class AnalysisComplete(Exception):
    """Raised by ``get()`` of an analysis that has ended and has no info left."""


# ---------------------------------------------------------------------------- scores


class _ScoreType(type):
    """Makes ``Score(cp=35)`` a ``Cp(35)`` and ``Score(mate=3)`` a ``Mate(3)``."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Score:
            cp, mate = kwargs.pop("cp", None), kwargs.pop("mate", None)
            if args or kwargs or (cp is None) == (mate is None):
                raise TypeError("Score(cp=...) or Score(mate=...): give exactly one")
            return Cp(cp) if cp is not None else Mate(mate)
        return super().__call__(*args, **kwargs)


class Score(metaclass=_ScoreType):
    """A score from some side's point of view: ``Cp`` (centipawns), ``Mate`` (moves to
    mate, negative when that side is mated) or ``MATE_GIVEN``. Scores compare the way a
    player prefers them: being mated now < mated later < any centipawns < mating later <
    mating sooner.

    ``Score(cp=35)`` and ``Score(mate=3)`` are ``Cp(35)`` and ``Mate(3)``.
    """

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """Centipawns; for a mate ``mate_score`` minus the moves to mate (negated for a
        lost one), or None without a ``mate_score``."""
        raise NotImplementedError

    def mate(self) -> Optional[int]:
        """Moves to mate (negative: being mated; ``-0`` is mated already), or None."""
        raise NotImplementedError

    def is_mate(self) -> bool:
        """Is it a mate score?"""
        return self.mate() is not None

    def _key(self) -> Tuple[int, float]:
        raise NotImplementedError

    def __neg__(self) -> "Score":
        raise NotImplementedError

    def __pos__(self) -> "Score":
        return self

    def __abs__(self) -> "Score":
        return -self if self < Cp(0) else self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: "Score") -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: "Score") -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: "Score") -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: "Score") -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() >= other._key()

    def __hash__(self) -> int:
        return hash(self._key())


class Cp(Score):
    """A score in centipawns (a horse or a cannon is worth about 100 to 500, by the
    engine's scale)."""

    __slots__ = ("cp",)

    def __init__(self, cp: int) -> None:
        self.cp = int(cp)

    def score(self, *, mate_score: Optional[int] = None) -> int:
        return self.cp

    def mate(self) -> None:
        return None

    def _key(self) -> Tuple[int, float]:
        return (1, self.cp)

    def __neg__(self) -> "Cp":
        return Cp(-self.cp)

    def __str__(self) -> str:
        return f"+{self.cp}" if self.cp > 0 else str(self.cp)

    def __repr__(self) -> str:
        return f"Cp({self})"

    def __reduce__(self) -> Any:
        return (Cp, (self.cp,))


class Mate(Score):
    """A mate in ``moves`` moves: positive when the side whose view it is mates,
    negative (or ``Mate(0)``, already mated) when it is mated."""

    __slots__ = ("moves",)

    def __init__(self, moves: int) -> None:
        self.moves = int(moves)

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        if mate_score is None:
            return None
        if self.moves > 0:
            return mate_score - self.moves
        return -mate_score - self.moves

    def mate(self) -> int:
        return self.moves

    def _key(self) -> Tuple[int, float]:
        if self.moves > 0:
            return (2, -self.moves)
        return (0, -self.moves)

    def __neg__(self) -> Score:
        if self.moves == 0:
            return MATE_GIVEN
        return Mate(-self.moves)

    def __str__(self) -> str:
        return f"#+{self.moves}" if self.moves > 0 else f"#-{abs(self.moves)}"

    def __repr__(self) -> str:
        return f"Mate({'+' if self.moves > 0 else '-'}{abs(self.moves)})"

    def __reduce__(self) -> Any:
        return (Mate, (self.moves,))


class MateGivenType(Score):
    """The winning side of ``Mate(0)``: the other side is mated already
    (``MATE_GIVEN == -Mate(0)``)."""

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return mate_score

    def mate(self) -> int:
        return 0

    def _key(self) -> Tuple[int, float]:
        return (3, 0)

    def __neg__(self) -> Score:
        return Mate(0)

    def __str__(self) -> str:
        return "#+0"

    def __repr__(self) -> str:
        return "MateGiven"

    def __reduce__(self) -> Any:
        return "MATE_GIVEN"


MATE_GIVEN = MateGivenType()
MateGiven = MATE_GIVEN


class PovScore:
    """A score and the side whose view it is: ``relative`` (a ``Score`` from the view of
    ``turn``, the side to move of the position searched), ``red()``, ``black()``,
    ``pov(color)``."""

    __slots__ = ("relative", "turn")

    def __init__(self, relative: Score, turn: Color) -> None:
        self.relative = relative
        self.turn = bool(turn)

    def red(self) -> Score:
        """The score from Red's view."""
        return self.pov(RED)

    def black(self) -> Score:
        """The score from Black's view."""
        return self.pov(BLACK)

    def white(self) -> Score:
        """``red()``: python-chess's name (Red moves first, as White does)."""
        return self.pov(RED)

    def pov(self, color: Color) -> Score:
        """The score from ``color``'s view."""
        return self.relative if self.turn == bool(color) else -self.relative

    def is_mate(self) -> bool:
        """Is it a mate score?"""
        return self.relative.is_mate()

    def __neg__(self) -> "PovScore":
        """The opposite score, from the same side's view."""
        return PovScore(-self.relative, self.turn)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovScore):
            return NotImplemented
        return self.red() == other.red()

    def __hash__(self) -> int:
        return hash(self.red())

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {'RED' if self.turn else 'BLACK'})"

    def __str__(self) -> str:
        return str(self.relative)


class Wdl:
    """Win, draw and loss chances out of ``total()`` (per mille for xq and UCI's
    ``wdl``), from some side's view."""

    __slots__ = ("wins", "draws", "losses")

    def __init__(self, wins: int, draws: int, losses: int) -> None:
        self.wins, self.draws, self.losses = int(wins), int(draws), int(losses)

    def total(self) -> int:
        """wins + draws + losses."""
        return self.wins + self.draws + self.losses

    def winning_chance(self) -> float:
        """wins / total."""
        return self.wins / self.total()

    def drawing_chance(self) -> float:
        """draws / total."""
        return self.draws / self.total()

    def losing_chance(self) -> float:
        """losses / total."""
        return self.losses / self.total()

    def expectation(self) -> float:
        """The expected result, 0 to 1: (wins + draws / 2) / total."""
        return (self.wins + 0.5 * self.draws) / self.total()

    def __neg__(self) -> "Wdl":
        return Wdl(self.losses, self.draws, self.wins)

    def __iter__(self) -> Iterator[int]:
        return iter((self.wins, self.draws, self.losses))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Wdl):
            return NotImplemented
        return tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Wdl(wins={self.wins}, draws={self.draws}, losses={self.losses})"


class PovWdl:
    """Win/draw/loss chances and the side whose view they are: ``relative``, ``turn``,
    ``red()``, ``black()``, ``pov(color)``."""

    __slots__ = ("relative", "turn")

    def __init__(self, relative: Wdl, turn: Color) -> None:
        self.relative = relative
        self.turn = bool(turn)

    def red(self) -> Wdl:
        """The chances from Red's view."""
        return self.pov(RED)

    def black(self) -> Wdl:
        """The chances from Black's view."""
        return self.pov(BLACK)

    def white(self) -> Wdl:
        """``red()``: python-chess's name."""
        return self.pov(RED)

    def pov(self, color: Color) -> Wdl:
        """The chances from ``color``'s view."""
        return self.relative if self.turn == bool(color) else -self.relative

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovWdl):
            return NotImplemented
        return self.red() == other.red()

    def __hash__(self) -> int:
        return hash(self.red())

    def __repr__(self) -> str:
        return f"PovWdl({self.relative!r}, {'RED' if self.turn else 'BLACK'})"


# ---------------------------------------------------------------------------- limits


# The package checks numbers in one place (its native module), with one wording.
_check_int = _xq._check_int
_check_seconds = _xq._check_seconds


class Limit:
    """When a search ends: ``time`` (seconds for this move), ``depth`` (plies),
    ``nodes``, ``mate`` (find a mate in so many moves), or a clock: ``red_clock`` and
    ``black_clock`` (seconds left), ``red_inc`` and ``black_inc`` (seconds added per
    move), ``remaining_moves`` (to the next time control). Whichever comes first ends it.

    python-chess's ``white_clock``, ``white_inc`` (Red's) are accepted and read back.
    Raises ``InvalidLimit`` for a negative, non-finite or non-numeric value.
    """

    __slots__ = ("time", "depth", "nodes", "mate", "red_clock", "black_clock", "red_inc",
                 "black_inc", "remaining_moves", "clock_id")

    def __init__(
        self,
        *,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        mate: Optional[int] = None,
        red_clock: Optional[float] = None,
        black_clock: Optional[float] = None,
        red_inc: Optional[float] = None,
        black_inc: Optional[float] = None,
        remaining_moves: Optional[int] = None,
        white_clock: Optional[float] = None,
        white_inc: Optional[float] = None,
        clock_id: object = None,
    ) -> None:
        if white_clock is not None:
            if red_clock is not None:
                raise InvalidLimit("give red_clock or white_clock (the same clock), not both")
            red_clock = white_clock
        if white_inc is not None:
            if red_inc is not None:
                raise InvalidLimit("give red_inc or white_inc (the same increment), not both")
            red_inc = white_inc
        self.time = time
        self.depth = depth
        self.nodes = nodes
        self.mate = mate
        self.red_clock = red_clock
        self.black_clock = black_clock
        self.red_inc = red_inc
        self.black_inc = black_inc
        self.remaining_moves = remaining_moves
        self.clock_id = clock_id
        self._check()

    def _check(self) -> None:
        _check_seconds("time", self.time, True)
        _check_int("depth", self.depth, 1, 2**32 - 1)
        _check_int("nodes", self.nodes, 1, 2**64 - 1)
        _check_int("mate", self.mate, 1, 2**32 - 1)
        for name in ("red_clock", "black_clock", "red_inc", "black_inc"):
            _check_seconds(name, getattr(self, name), False)
        _check_int("remaining_moves", self.remaining_moves, 1, 2**32 - 1)

    @property
    def white_clock(self) -> Optional[float]:
        """``red_clock`` (python-chess's name)."""
        return self.red_clock

    @white_clock.setter
    def white_clock(self, value: Optional[float]) -> None:
        self.red_clock = value

    @property
    def white_inc(self) -> Optional[float]:
        """``red_inc`` (python-chess's name)."""
        return self.red_inc

    @white_inc.setter
    def white_inc(self, value: Optional[float]) -> None:
        self.red_inc = value

    def _fields(self) -> List[Tuple[str, Any]]:
        names = ("time", "depth", "nodes", "mate", "red_clock", "black_clock", "red_inc",
                 "black_inc", "remaining_moves", "clock_id")
        return [(n, getattr(self, n)) for n in names if getattr(self, n) is not None]

    def is_empty(self) -> bool:
        """No limit at all (a search that runs until stopped)."""
        return not [n for n, _ in self._fields() if n != "clock_id"]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Limit):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return "Limit({})".format(", ".join(f"{n}={v!r}" for n, v in self._fields()))


class PlayResult:
    """What ``play`` returns: ``move`` (None when the engine has no move), ``ponder``
    (the reply it expects), ``info`` (the info dict of its last report, as the ``info``
    flags asked), ``draw_offered`` and ``resigned`` (UCCI's ``bestmove ... draw`` and
    ``resign``)."""

    def __init__(
        self,
        move: Optional[Move],
        ponder: Optional[Move],
        info: Optional[Dict[str, Any]] = None,
        *,
        draw_offered: bool = False,
        resigned: bool = False,
    ) -> None:
        self.move = move
        self.ponder = ponder
        self.info: Dict[str, Any] = info if info is not None else {}
        self.draw_offered = draw_offered
        self.resigned = resigned

    def __repr__(self) -> str:
        return (f"<PlayResult at {id(self):#x} (move={self.move}, ponder={self.ponder}, "
                f"info={self.info!r}, draw_offered={self.draw_offered}, resigned={self.resigned})>")


class BestMove:
    """What an analysis ended with: ``move`` and ``ponder`` (either may be None)."""

    def __init__(self, move: Optional[Move], ponder: Optional[Move]) -> None:
        self.move = move
        self.ponder = ponder

    def __repr__(self) -> str:
        return f"<BestMove at {id(self):#x} (move={self.move}, ponder={self.ponder})>"


class Info(enum.IntFlag):
    """Which keys an info dict gets (python-chess's flags): ``BASIC`` (depth, seldepth,
    nodes, nps, time, hashfull, multipv, string...), ``SCORE`` (score, wdl), ``PV``,
    ``REFUTATION``, ``CURRLINE``, ``ALL``."""

    NONE = 0
    BASIC = 1
    SCORE = 2
    PV = 4
    REFUTATION = 8
    CURRLINE = 16
    ALL = BASIC | SCORE | PV | REFUTATION | CURRLINE


INFO_NONE = Info.NONE
INFO_BASIC = Info.BASIC
INFO_SCORE = Info.SCORE
INFO_PV = Info.PV
INFO_REFUTATION = Info.REFUTATION
INFO_CURRLINE = Info.CURRLINE
INFO_ALL = Info.ALL

InfoDict = Dict[str, Any]
ConfigValue = Union[str, int, bool, None]


class Option(typing.NamedTuple):
    """An option the engine announced: ``name``, ``type`` (``check``, ``spin``,
    ``combo``, ``button``, ``string``, UCCI's ``label``), ``default``, ``min``, ``max``
    and ``var`` (the choices of a combo)."""

    name: str
    type: str
    default: ConfigValue
    min: Optional[int]
    max: Optional[int]
    var: List[str]

    def parse(self, value: ConfigValue) -> ConfigValue:
        """``value`` checked against the option's type, range and choices.

        Raises InvalidOption."""
        kind = self.type
        if kind == "check":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower() == "true"
            raise InvalidOption(f"option {self.name} is a check: give True or False, not {value!r}")
        if kind == "spin":
            if isinstance(value, bool) or not isinstance(value, int):
                if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
                    value = int(value)
                else:
                    raise InvalidOption(f"option {self.name} is a spin: give an int, not {value!r}")
            low = self.min if self.min is not None else value
            high = self.max if self.max is not None else value
            if not low <= value <= high:
                raise InvalidOption(f"option {self.name} must be {self.min} to {self.max}, not {value}")
            return value
        if kind == "combo":
            if not isinstance(value, str):
                raise InvalidOption(f"option {self.name} is a combo: give one of {self.var}, not {value!r}")
            for choice in self.var:
                if choice.lower() == value.lower():
                    return choice
            raise InvalidOption(f"option {self.name} takes one of {self.var}, not {value!r}")
        if kind == "button":
            if value not in (None, True):
                raise InvalidOption(f"option {self.name} is a button: give None, not {value!r}")
            return None
        if kind in ("string", "label"):
            if not isinstance(value, (str, int)) or isinstance(value, bool):
                raise InvalidOption(f"option {self.name} is a string: give a str, not {value!r}")
            text = str(value)
            if "\n" in text or "\r" in text:
                raise InvalidOption(f"option {self.name}: a value cannot hold a line break")
            return text
        raise InvalidOption(f"option {self.name} has the unknown type {kind!r}")


class _Options(Mapping[str, Option]):
    """The engine's options by name, the names in any case (as UCI says)."""

    def __init__(self) -> None:
        self._by_key: Dict[str, Option] = {}

    def add(self, option: Option) -> None:
        self._by_key[option.name.lower()] = option

    def __getitem__(self, name: str) -> Option:
        return self._by_key[name.lower()]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._by_key

    def __iter__(self) -> Iterator[str]:
        return (o.name for o in self._by_key.values())

    def __len__(self) -> int:
        return len(self._by_key)

    def __repr__(self) -> str:
        return f"{{{', '.join(repr(n) for n in self)}}}"


# ---------------------------------------------------------------------------- moves

_MOVE = re.compile(r"([a-i])(10|[0-9])([a-i])(10|[0-9])")
_RANKS = ("auto", "0-9", "1-10")


def _check_ranks(ranks: str) -> str:
    if ranks not in _RANKS:
        raise InvalidOption(f"ranks must be 'auto', '0-9' or '1-10', not {ranks!r}")
    return ranks


# ---------------------------------------------------------------------------- the protocols


class _EOF:
    """The end of the engine's output."""


class Protocol(asyncio.SubprocessProtocol):
    """An engine process spoken to over its pipes, one command at a time (python-chess's
    ``Protocol``). ``UciProtocol`` and ``UcciProtocol`` speak the two dialects; make them
    with ``popen_uci`` and ``popen_ucci``."""

    #: The handshake and its end.
    HELLO = ""
    READY = ""

    def __init__(self, *, ranks: str = "auto") -> None:
        self.loop = asyncio.get_running_loop()
        self.transport: Optional[asyncio.SubprocessTransport] = None
        self.returncode: "asyncio.Future[int]" = self.loop.create_future()
        self._stderr_closed: "asyncio.Future[None]" = self.loop.create_future()
        self.id: Dict[str, str] = {}
        self.options = _Options()
        self.config: Dict[str, ConfigValue] = {}
        self.ranks = _check_ranks(ranks)
        self._buffer = {1: bytearray(), 2: bytearray()}
        self._lines: "asyncio.Queue[Union[str, type[_EOF]]]" = asyncio.Queue()
        self._stderr: Deque[str] = collections.deque(maxlen=20)
        self._lock = asyncio.Lock()
        self._game: object = None
        self._searched = False
        self._analysis: Optional[AnalysisResult] = None
        self.initialized = False

    # -- the pipes

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = typing.cast(asyncio.SubprocessTransport, transport)
        LOGGER.debug("%s: connection made", self)

    def pipe_data_received(self, fd: int, data: Union[bytes, str]) -> None:
        if isinstance(data, str):
            data = data.encode()
        buf = self._buffer.setdefault(fd, bytearray())
        buf.extend(data)
        while True:
            end = buf.find(b"\n")
            if end < 0:
                break
            raw = bytes(buf[:end])
            del buf[: end + 1]
            self._line(fd, raw)

    def _line(self, fd: int, raw: bytes) -> None:
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            line = raw.decode("gb18030", errors="replace")
        line = line.rstrip("\r")
        if fd == 2:
            LOGGER.debug("%s: stderr >> %s", self, line)
            self._stderr.append(line)
        else:
            LOGGER.debug("%s: >> %s", self, line)
            self._lines.put_nowait(line)

    def pipe_connection_lost(self, fd: int, exc: Optional[Exception]) -> None:
        if fd in (1, 2):
            rest = bytes(self._buffer.get(fd, b""))
            if rest.strip():
                self._line(fd, rest)
            self._buffer[fd] = bytearray()
        if fd == 1:
            self._lines.put_nowait(_EOF)
        if fd == 2 and not self._stderr_closed.done():
            self._stderr_closed.set_result(None)

    def process_exited(self) -> None:
        code = self.transport.get_returncode() if self.transport else None
        LOGGER.debug("%s: process exited with %s", self, code)
        if not self.returncode.done():
            self.returncode.set_result(code if code is not None else -1)
        self._lines.put_nowait(_EOF)

    def send_line(self, line: str) -> None:
        """Writes ``line`` to the engine. To an engine that has gone, nothing is
        written: the next read reports how it ended."""
        LOGGER.debug("%s: << %s", self, line)
        if self.transport is None or self.returncode.done():
            return
        pipe = self.transport.get_pipe_transport(0)
        if pipe is None or pipe.is_closing():
            LOGGER.debug("%s: the engine's input is closed", self)
            return
        typing.cast(asyncio.WriteTransport, pipe).write((line + "\n").encode("utf-8"))

    def _terminated(self) -> EngineTerminatedError:
        how = "has gone"
        if self.returncode.done():
            code = self.returncode.result()
            how = f"exited with code {code}" if code >= 0 else f"was killed by signal {-code}"
        words = "; its last words: " + " | ".join(self._stderr) if self._stderr else ""
        return EngineTerminatedError(f"the engine {how}{words}")

    async def _gone(self) -> EngineTerminatedError:
        """The error of an engine that has gone, once its exit code and its last words
        on stderr are in (they come apart from the end of its output: wait a little)."""
        try:
            await asyncio.wait_for(asyncio.gather(asyncio.shield(self.returncode),
                                                  asyncio.shield(self._stderr_closed)), 1.0)
        except asyncio.TimeoutError:
            pass
        return self._terminated()

    async def _read(self) -> str:
        item = await self._lines.get()
        if item is _EOF:
            self._lines.put_nowait(_EOF)  # every later read sees the end too
            raise await self._gone()
        return typing.cast(str, item)

    def _drain(self) -> None:
        """Forgets lines nobody waits for (late info after a search)."""
        while not self._lines.empty():
            item = self._lines.get_nowait()
            if item is _EOF:
                self._lines.put_nowait(_EOF)
                return

    def __repr__(self) -> str:
        pid = self.transport.get_pid() if self.transport else "?"
        return f"<{type(self).__name__} (pid={pid})>"

    # -- moves in the engine's form

    def _move_text(self, move: Move) -> str:
        text = move.uci()
        if self.ranks == "1-10":
            return f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}"
        return text

    def _parse_move(self, text: str, board: Board) -> Move:
        """``text`` as an ``xq.Move`` legal in ``board``, in the engine's form (learnt
        from it in ``auto``).

        Raises EngineError for text that is no move or an illegal one."""
        m = _MOVE.fullmatch(text.strip())
        if m is None:
            raise EngineError(f"the engine sent {text!r}, which is not a move")
        f1, r1, f2, r2 = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))

        def as_move(shift: int) -> Optional[Move]:
            a, b = r1 - shift, r2 - shift
            if not (0 <= a <= 9 and 0 <= b <= 9):
                return None
            try:
                move = Move.from_uci(f"{f1}{a}{f2}{b}")
            except _xq.InvalidMove:
                return None
            return move if board.is_legal(move) else None

        if self.ranks == "auto":
            if max(r1, r2) == 10:
                self.ranks = "1-10"
            elif min(r1, r2) == 0:
                self.ranks = "0-9"
            elif as_move(0) is None and as_move(1) is not None:
                LOGGER.info("%s: the engine numbers ranks 1-10 (it sent %s)", self, text)
                self.ranks = "1-10"
        move = as_move(1 if self.ranks == "1-10" else 0)
        if move is None:
            raise EngineError(f"the engine sent the move {text}, which is not legal in {board.fen()}")
        return move

    def _line_moves(self, words: Sequence[str], board: Board) -> List[Move]:
        """The moves of a line (a pv), each played on a copy of ``board``; an illegal one
        ends it (and is logged)."""
        board = board.copy(stack=False)
        out: List[Move] = []
        for word in words:
            try:
                move = self._parse_move(word, board)
            except EngineError as e:
                LOGGER.warning("%s: %s (the line is cut there)", self, e)
                break
            board.push(move)
            out.append(move)
        return out

    def _position(self, board: Board) -> str:
        root = board.root()
        moves = " ".join(self._move_text(m) for m in board.move_stack)
        text = f"position fen {root.fen()}"
        return f"{text} moves {moves}" if moves else text

    # -- commands, run one at a time

    async def _stop_analysis(self) -> None:
        """Stops the search running, if any (a new command ends an analysis or a ponder
        search, as in python-chess), and waits for its answer."""
        analysis = self._analysis
        if analysis is not None and not analysis._done.done():
            analysis.stop()
            await analysis._wait_quietly()

    async def _run(self, command: Callable[[], Coroutine[Any, Any, T]]) -> T:
        if self.returncode.done():
            raise await self._gone()
        await self._stop_analysis()
        async with self._lock:
            return await command()

    async def initialize(self) -> None:
        """The handshake: reads the engine's name and options."""
        async def run() -> None:
            self.send_line(self.HELLO)
            while True:
                line = await self._read()
                if line.strip() == self.READY:
                    break
                self._handshake_line(line)
            await self._after_handshake()
            self.initialized = True
        await self._run(run)

    def _handshake_line(self, line: str) -> None:
        raise NotImplementedError

    async def _after_handshake(self) -> None:
        pass

    async def ping(self) -> None:
        """Waits until the engine answers ``isready``."""
        async def run() -> None:
            await self._isready()
        await self._run(run)

    async def _isready(self) -> None:
        self.send_line("isready")
        while (await self._read()).strip() != "readyok":
            pass

    async def configure(self, options: Mapping[str, ConfigValue]) -> None:
        """Sets options by name (any case), each checked against what the engine
        announced before any is sent.

        Raises InvalidOption for an unknown or managed name or a bad value."""
        checked = self._check_options(options)
        async def run() -> None:
            for option, value in checked:
                self._set_option(option, value)
        await self._run(run)

    #: Options the wrapper sets itself.
    MANAGED: Tuple[str, ...] = ()

    def _check_options(self, options: Mapping[str, ConfigValue]) -> List[Tuple[Option, ConfigValue]]:
        out = []
        for name, value in options.items():
            if not isinstance(name, str):
                raise InvalidOption(f"option names are str, not {type(name).__name__}")
            if name not in self.options:
                known = ", ".join(sorted(self.options, key=str.lower)) or "none"
                raise InvalidOption(f"the engine has no option {name!r} (it has {known})")
            option = self.options[name]
            if option.name.lower() in (m.lower() for m in self.MANAGED):
                raise InvalidOption(
                    f"option {option.name} is set by xq.engine itself (multipv=, ponder= or the variant)")
            out.append((option, option.parse(value)))
        return out

    def _set_option(self, option: Option, value: ConfigValue) -> None:
        raise NotImplementedError

    async def play(
        self,
        board: Board,
        limit: Limit,
        *,
        game: object = None,
        info: Info = INFO_NONE,
        ponder: bool = False,
        draw_offered: bool = False,
        root_moves: Optional[Iterable[Move]] = None,
        banmoves: Optional[Iterable[Move]] = None,
        options: Optional[Mapping[str, ConfigValue]] = None,
    ) -> PlayResult:
        """The engine's move in ``board`` (its whole game is sent, so that it sees the
        repetitions) within ``limit``: a ``PlayResult``. ``root_moves`` restricts the
        moves it may choose (UCI ``searchmoves``; UCCI bans the others), ``banmoves``
        forbids some; ``options`` are set for this search only.

        Raises InvalidLimit without a limit, EngineError for a move that is not legal."""
        if not isinstance(limit, Limit):
            raise InvalidLimit(f"the limit must be an xq.engine.Limit, not a {type(limit).__name__}")
        limit._check()
        if limit.is_empty():
            raise InvalidLimit("play needs a limit: time, depth, nodes, mate or a clock")
        analysis = await self.analysis(board, limit, game=game, info=info, root_moves=root_moves,
                                       banmoves=banmoves, options=options, draw_offered=draw_offered,
                                       _ponder=ponder)
        best = await analysis.wait()
        result = PlayResult(best.move, best.ponder, dict(analysis.info) if info else {},
                            draw_offered=analysis._draw, resigned=analysis._resign)
        if ponder and best.move is not None and best.ponder is not None:
            # Think on the opponent's time about the reply the engine expects; the next
            # command stops it.
            after = board.copy()
            after.push(best.move)
            after.push(best.ponder)
            await self.analysis(after, limit, game=game, info=INFO_NONE, _ponder=True, _go_ponder=True)
        return result

    async def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: Optional[int] = None,
        game: object = None,
        info: Info = INFO_ALL,
        root_moves: Optional[Iterable[Move]] = None,
        banmoves: Optional[Iterable[Move]] = None,
        options: Optional[Mapping[str, ConfigValue]] = None,
    ) -> Union[InfoDict, List[InfoDict]]:
        """Searches ``board`` within ``limit`` and returns the info dict of the end
        (``score`` a ``PovScore``, ``pv`` ``xq.Move``\\ s, ``depth``, ``nodes``, ``time``
        in seconds, ``wdl`` when the engine says it...), or with ``multipv`` a list of the
        best lines' dicts.

        Raises InvalidLimit without a limit or for a bad multipv."""
        if not isinstance(limit, Limit):
            raise InvalidLimit(f"the limit must be an xq.engine.Limit, not a {type(limit).__name__}")
        limit._check()
        if limit.is_empty():
            raise InvalidLimit("analyse needs a limit: time, depth, nodes, mate or a clock")
        analysis = await self.analysis(board, limit, multipv=multipv, game=game, info=info,
                                       root_moves=root_moves, banmoves=banmoves, options=options)
        await analysis.wait()
        if multipv is not None:
            return [dict(line) for line in analysis.multipv if line]
        return dict(analysis.info)

    async def analysis(
        self,
        board: Board,
        limit: Optional[Limit] = None,
        *,
        multipv: Optional[int] = None,
        game: object = None,
        info: Info = INFO_ALL,
        root_moves: Optional[Iterable[Move]] = None,
        banmoves: Optional[Iterable[Move]] = None,
        options: Optional[Mapping[str, ConfigValue]] = None,
        draw_offered: bool = False,
        _ponder: bool = False,
        _go_ponder: bool = False,
    ) -> "AnalysisResult":
        """Starts a search of ``board`` and returns an ``AnalysisResult`` at once:
        iterate over it for the info dicts as they come; ``stop()`` ends it, ``wait()``
        returns the ``BestMove``. Without a limit it runs until stopped.

        Raises InvalidLimit for a bad limit or multipv, InvalidOption for bad options."""
        if limit is None:
            limit = Limit()
        if not isinstance(limit, Limit):
            raise InvalidLimit(f"the limit must be an xq.engine.Limit, not a {type(limit).__name__}")
        limit._check()
        if not isinstance(board, Board):
            raise TypeError(f"board must be an xq.Board, not a {type(board).__name__}")
        if multipv is not None:
            _check_int("multipv", multipv, 1, 500)
        board = board.copy()
        root = self._root_moves(board, root_moves, banmoves)
        extra = self._check_options(options or {})
        result = AnalysisResult(self, board, Info(info), multipv or 1)
        started: "asyncio.Future[None]" = self.loop.create_future()
        await self._stop_analysis()

        async def search() -> None:
            async with self._lock:
                if self.returncode.done():
                    exc = await self._gone()
                    result._finish(exc)
                    result._done.exception()  # the caller gets it from `started`
                    if not started.done():
                        started.set_exception(exc)
                    return
                self._analysis = result
                try:
                    self._drain()
                    await self._new_game(game)
                    self._prepare(multipv or 1, _ponder, extra)
                    self.send_line(self._position(board))
                    self._send_root(board, root)
                    go = self._go(board, limit, draw_offered)
                    if _go_ponder:
                        go = go.replace("go", "go ponder", 1)
                    self.send_line(go)
                    started.set_result(None)
                    await self._search_lines(result)
                except BaseException as e:
                    if not started.done():
                        started.set_exception(e)
                        # The caller gets the error from `started`: the result's copy
                        # is marked as seen.
                        result._finish(e)
                        result._done.exception()
                    else:
                        result._finish(e)
                    if not isinstance(e, Exception):
                        raise

        self.loop.create_task(search())
        await started
        return result

    def _root_moves(self, board: Board, root_moves: Optional[Iterable[Move]],
                    banmoves: Optional[Iterable[Move]]) -> Tuple[Optional[List[Move]], List[Move]]:
        def moves(name: str, seq: Optional[Iterable[Move]]) -> Optional[List[Move]]:
            if seq is None:
                return None
            out = list(seq)
            for m in out:
                if not isinstance(m, Move) or not board.is_legal(m):
                    raise _xq.IllegalMove(f"{name}: {m} is not a legal move in {board.fen()}")
            return out
        return moves("root_moves", root_moves), moves("banmoves", banmoves) or []

    def _send_root(self, board: Board, root: Tuple[Optional[List[Move]], List[Move]]) -> None:
        pass

    async def _new_game(self, game: object) -> None:
        raise NotImplementedError

    def _prepare(self, multipv: int, ponder: bool, extra: List[Tuple[Option, ConfigValue]]) -> None:
        for option, value in extra:
            self._set_option(option, value)

    def _go(self, board: Board, limit: Limit, draw_offered: bool) -> str:
        raise NotImplementedError

    async def _search_lines(self, result: "AnalysisResult") -> None:
        """Reads the search's reports into ``result`` until its best move."""
        while True:
            line = await self._read()
            if self._search_line(line, result):
                return

    def _search_line(self, line: str, result: "AnalysisResult") -> bool:
        raise NotImplementedError

    def _stop(self) -> None:
        self.send_line("stop")

    async def quit(self) -> None:
        """Asks the engine to quit, waits for the process to end and closes its pipes."""
        if not self.returncode.done():
            await self._stop_analysis()
            async with self._lock:
                try:
                    self.send_line("quit")
                except EngineTerminatedError:
                    pass
                await asyncio.shield(self.returncode)
        await self._close_transport()

    async def _close_transport(self) -> None:
        """Closes the process's transport while the loop runs (left to the garbage
        collector, it would try to close its pipes on a loop that may be gone)."""
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()
            # Let the pipes' close callbacks run.
            await asyncio.sleep(0)
            await asyncio.sleep(0)

    def _kill(self) -> None:
        if self.transport is not None and not self.returncode.done():
            try:
                self.transport.kill()
            except ProcessLookupError:
                pass


def _seconds_ms(seconds: float) -> int:
    return max(0, int(round(seconds * 1000)))


class UciProtocol(Protocol):
    """UCI, as Pikafish, xq and Fairy-Stockfish speak it for Xiangqi."""

    HELLO = "uci"
    READY = "uciok"
    MANAGED = ("MultiPV", "Ponder", "UCI_Variant")

    def _handshake_line(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        if words[0] == "id" and len(words) > 1:
            self.id[words[1]] = line.split(None, 2)[2] if len(words) > 2 else ""
        elif words[0] == "option":
            try:
                self.options.add(_parse_uci_option(words[1:]))
            except (ValueError, IndexError):
                LOGGER.warning("%s: cannot read the option line %r", self, line)

    async def _after_handshake(self) -> None:
        if self.ranks == "auto" and self.id.get("name", "").lower().startswith("fairy-stockfish"):
            self.ranks = "1-10"
        variant = self.options.get("UCI_Variant")
        if variant is not None and any(v.lower() == "xiangqi" for v in variant.var):
            self._set_option(variant, "xiangqi")
        await self._isready()

    def _set_option(self, option: Option, value: ConfigValue) -> None:
        if option.type == "button":
            self.send_line(f"setoption name {option.name}")
        else:
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            self.send_line(f"setoption name {option.name} value {text}")
        self.config[option.name] = value

    async def _new_game(self, game: object) -> None:
        # A new game for the first search and whenever `game` changes (python-chess's
        # rule): the engine keeps its table from one move of a game to the next.
        if self._searched and game == self._game:
            return
        self._searched = True
        self._game = game
        self.send_line("ucinewgame")
        await self._isready()

    def _prepare(self, multipv: int, ponder: bool, extra: List[Tuple[Option, ConfigValue]]) -> None:
        if "MultiPV" in self.options:
            if self.config.get(self.options["MultiPV"].name, 1) != multipv:
                self._set_option(self.options["MultiPV"], multipv)
        elif multipv > 1:
            raise EngineError("the engine has no MultiPV option: analyse one line at a time")
        if "Ponder" in self.options:
            if bool(self.config.get(self.options["Ponder"].name, False)) != ponder:
                self._set_option(self.options["Ponder"], ponder)
        if "UCI_ShowWDL" in self.options and "UCI_ShowWDL" not in self.config:
            self._set_option(self.options["UCI_ShowWDL"], True)
        super()._prepare(multipv, ponder, extra)

    def _send_root(self, board: Board, root: Tuple[Optional[List[Move]], List[Move]]) -> None:
        searchmoves, banned = root
        if banned:
            allowed = searchmoves if searchmoves is not None else board.legal_moves
            searchmoves = [m for m in allowed if m not in banned]
            if not searchmoves:
                raise EngineError("every legal move is banned")
        self._searchmoves = searchmoves

    def _go(self, board: Board, limit: Limit, draw_offered: bool) -> str:
        words = ["go"]
        if limit.red_clock is not None:
            words += ["wtime", str(_seconds_ms(limit.red_clock))]
        if limit.black_clock is not None:
            words += ["btime", str(_seconds_ms(limit.black_clock))]
        if limit.red_inc is not None:
            words += ["winc", str(_seconds_ms(limit.red_inc))]
        if limit.black_inc is not None:
            words += ["binc", str(_seconds_ms(limit.black_inc))]
        if limit.remaining_moves is not None:
            words += ["movestogo", str(limit.remaining_moves)]
        if limit.depth is not None:
            words += ["depth", str(limit.depth)]
        if limit.nodes is not None:
            words += ["nodes", str(limit.nodes)]
        if limit.mate is not None:
            words += ["mate", str(limit.mate)]
        if limit.time is not None:
            words += ["movetime", str(max(1, _seconds_ms(limit.time)))]
        if limit.is_empty():
            words.append("infinite")
        searchmoves = getattr(self, "_searchmoves", None)
        if searchmoves is not None:
            words += ["searchmoves"] + [self._move_text(m) for m in searchmoves]
        return " ".join(words)

    def _search_line(self, line: str, result: "AnalysisResult") -> bool:
        words = line.split()
        if not words:
            return False
        if words[0] == "info":
            result._post(self._parse_info(words[1:], result.board, result.selector))
        elif words[0] == "bestmove":
            best = ponder = None
            if len(words) > 1 and words[1] not in ("(none)", "none", "0000"):
                best = self._parse_move(words[1], result.board)
                if len(words) > 3 and words[2] == "ponder":
                    after = result.board.copy(stack=False)
                    after.push(best)
                    try:
                        ponder = self._parse_move(words[3], after)
                    except EngineError as e:
                        LOGGER.warning("%s: %s (no ponder move)", self, e)
            result._finish(BestMove(best, ponder))
            return True
        return False

    def _parse_info(self, words: List[str], board: Board, selector: Info) -> InfoDict:
        info: InfoDict = {}
        i = 0
        ints = {"depth", "seldepth", "nodes", "nps", "hashfull", "tbhits", "multipv",
                "currmovenumber", "cpuload", "sbhits"}
        while i < len(words):
            key = words[i]
            i += 1
            try:
                if key in ints:
                    info[key] = int(words[i])
                    i += 1
                elif key == "time":
                    info["time"] = int(words[i]) / 1000.0
                    i += 1
                elif key == "ebf":
                    info["ebf"] = float(words[i])
                    i += 1
                elif key == "score":
                    kind, value = words[i], int(words[i + 1])
                    i += 2
                    score: Score = Cp(value) if kind == "cp" else Mate(value)
                    if kind == "mate" and value == 0:
                        score = Mate(0)
                    info["score"] = PovScore(score, board.turn)
                    while i < len(words) and words[i] in ("lowerbound", "upperbound"):
                        info[words[i]] = True
                        i += 1
                elif key == "wdl":
                    w, d, l = (int(x) for x in words[i:i + 3])
                    i += 3
                    info["wdl"] = PovWdl(Wdl(w, d, l), board.turn)
                elif key == "currmove":
                    try:
                        info["currmove"] = self._parse_move(words[i], board)
                    except EngineError:
                        pass
                    i += 1
                elif key in ("pv", "refutation", "currline"):
                    rest = words[i:]
                    i = len(words)
                    if key == "pv":
                        info["pv"] = self._line_moves(rest, board)
                    elif key == "refutation" and rest:
                        moves = self._line_moves(rest, board)
                        if moves:
                            info.setdefault("refutation", {})[moves[0]] = moves[1:]
                    elif key == "currline":
                        if rest and rest[0].isdigit():
                            rest = rest[1:]
                        info["currline"] = self._line_moves(rest, board)
                elif key == "string":
                    info["string"] = " ".join(words[i:])
                    i = len(words)
            except (IndexError, ValueError):
                LOGGER.warning("%s: cannot read the info %r", self, " ".join(words))
                break
        return _select(info, selector)


def _select(info: InfoDict, selector: Info) -> InfoDict:
    """The keys of ``info`` the flags ask for."""
    if selector == INFO_ALL:
        return info
    groups = {"score": INFO_SCORE, "wdl": INFO_SCORE, "lowerbound": INFO_SCORE,
              "upperbound": INFO_SCORE, "pv": INFO_PV, "refutation": INFO_REFUTATION,
              "currline": INFO_CURRLINE}
    return {k: v for k, v in info.items() if groups.get(k, INFO_BASIC) & selector}


def _parse_uci_option(words: List[str]) -> Option:
    """``name <N...> type <T> [default <D...>] [min x] [max y] [var v]...``."""
    keys = {"name", "type", "default", "min", "max", "var"}
    fields: Dict[str, List[str]] = {}
    var: List[str] = []
    key: Optional[str] = None
    current: List[str] = []

    def close() -> None:
        if key == "var":
            var.append(" ".join(current))
        elif key is not None:
            fields[key] = current

    for w in words:
        # The name may hold the words of the grammar (a default can be empty).
        if w in keys and not (key == "name" and w != "type"):
            close()
            key, current = w, []
        else:
            current.append(w)
    close()
    name = " ".join(fields["name"])
    kind = " ".join(fields["type"]).lower()
    default_text = " ".join(fields["default"]) if "default" in fields else None
    default: ConfigValue = default_text
    if kind == "check" and default_text is not None:
        default = default_text.lower() == "true"
    elif kind == "spin" and default_text is not None:
        default = int(default_text)
    low = int(fields["min"][0]) if fields.get("min") else None
    high = int(fields["max"][0]) if fields.get("max") else None
    return Option(name, kind, default, low, high, var)


class UcciProtocol(Protocol):
    """UCCI, ElephantEye's protocol (also spoken by xq and most Chinese engines)."""

    HELLO = "ucci"
    READY = "ucciok"
    MANAGED = ("usemillisec", "ponder", "newgame")

    #: Scores at least this far from zero are mates, counted from this value in plies:
    #: ElephantEye's 10000 and xq's 30000 (UCCI has no ``mate`` keyword).
    MATE_VALUES = (30000, 10000)

    def __init__(self, *, ranks: str = "auto") -> None:
        super().__init__(ranks="0-9" if ranks == "auto" else ranks)
        self.millisec = False
        self._pending: InfoDict = {}
        self._ready_seen = False

    def _handshake_line(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        if words[0] == "id" and len(words) > 1:
            self.id[words[1]] = line.split(None, 2)[2] if len(words) > 2 else ""
        elif words[0] == "option" and len(words) > 1:
            try:
                self.options.add(_parse_ucci_option(words[1:]))
            except (ValueError, IndexError):
                LOGGER.warning("%s: cannot read the option line %r", self, line)

    async def _after_handshake(self) -> None:
        if "usemillisec" in self.options:
            self._set_option(self.options["usemillisec"], True)
            self.millisec = True
        await self._isready()

    def _set_option(self, option: Option, value: ConfigValue) -> None:
        if option.type == "button":
            self.send_line(f"setoption {option.name}")
        else:
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            self.send_line(f"setoption {option.name} {text}")
        self.config[option.name] = value

    async def _new_game(self, game: object) -> None:
        # A new game for the first search and whenever `game` changes (python-chess's
        # rule): the engine keeps its table from one move of a game to the next.
        if self._searched and game == self._game:
            return
        self._searched = True
        self._game = game
        if "newgame" in self.options:
            self._set_option(self.options["newgame"], None)
        await self._isready()

    def _prepare(self, multipv: int, ponder: bool, extra: List[Tuple[Option, ConfigValue]]) -> None:
        if multipv > 1:
            raise InvalidLimit("UCCI engines report one line: multipv must be 1")
        super()._prepare(multipv, ponder, extra)
        self._pending = {}

    def _send_root(self, board: Board, root: Tuple[Optional[List[Move]], List[Move]]) -> None:
        searchmoves, banned = root
        ban = list(banned)
        if searchmoves is not None:
            ban += [m for m in board.legal_moves if m not in searchmoves and m not in ban]
        if ban:
            if len(ban) >= len(board.legal_moves):
                raise EngineError("every legal move is banned")
            self.send_line("banmoves " + " ".join(self._move_text(m) for m in ban))

    def _time(self, seconds: float) -> str:
        if self.millisec:
            return str(_seconds_ms(seconds))
        return str(max(0, int(seconds)))

    def _go(self, board: Board, limit: Limit, draw_offered: bool) -> str:
        words = ["go"]
        if draw_offered:
            words.append("draw")
        own = limit.red_clock if board.turn else limit.black_clock
        opp = limit.black_clock if board.turn else limit.red_clock
        own_inc = limit.red_inc if board.turn else limit.black_inc
        opp_inc = limit.black_inc if board.turn else limit.red_inc
        # UCCI takes one mode: the clock, else a time for the move, else depth, else nodes.
        if own is not None:
            # A clock: with moves to go, or an increment (0 for sudden death: `go time T`
            # alone would give T to this move).
            words += ["time", self._time(own)]
            if limit.remaining_moves is not None:
                words += ["movestogo", str(limit.remaining_moves)]
            else:
                words += ["increment", self._time(own_inc or 0)]
            if opp is not None:
                words += ["opptime", self._time(opp)]
                if limit.remaining_moves is not None:
                    words += ["oppmovestogo", str(limit.remaining_moves)]
                else:
                    words += ["oppincrement", self._time(opp_inc or 0)]
        elif limit.time is not None:
            words += ["time", self._time(limit.time) if self.millisec else str(max(1, int(limit.time)))]
        elif limit.depth is not None:
            words += ["depth", str(limit.depth)]
        elif limit.nodes is not None:
            words += ["nodes", str(limit.nodes)]
        else:
            words += ["depth", "infinite"]
        return " ".join(words)

    def _score(self, value: int) -> Score:
        for mate in self.MATE_VALUES:
            if mate - 200 < abs(value) <= mate:
                plies = mate - abs(value)
                moves = (plies + 1) // 2
                return Mate(moves if value > 0 else -moves)
        return Cp(value)

    def _search_line(self, line: str, result: "AnalysisResult") -> bool:
        words = line.split()
        if not words:
            return False
        if words[0] == "info":
            info = self._parse_info(words[1:], result.board)
            if "pv" in info or "score" in info:
                # A new iteration: what was pending (time and nodes) belongs to it.
                if self._pending.get("depth") is not None:
                    result._post(_select(self._pending, result.selector))
                self._pending = info
            else:
                self._pending.update(info)
                if "depth" not in self._pending:
                    return False
                if "time" in info or "nodes" in info:
                    result._post(_select(dict(self._pending), result.selector))
                    self._pending = {}
        elif words[0] in ("bestmove", "nobestmove"):
            if self._pending.get("depth") is not None:
                result._post(_select(self._pending, result.selector))
            self._pending = {}
            best = ponder = None
            if words[0] == "bestmove" and len(words) > 1:
                best = self._parse_move(words[1], result.board)
                rest = words[2:]
                if len(rest) >= 2 and rest[0] == "ponder":
                    after = result.board.copy(stack=False)
                    after.push(best)
                    try:
                        ponder = self._parse_move(rest[1], after)
                    except EngineError as e:
                        LOGGER.warning("%s: %s (no ponder move)", self, e)
                    rest = rest[2:]
                result._draw = "draw" in rest
                result._resign = "resign" in rest
            result._finish(BestMove(best, ponder))
            return True
        return False

    def _parse_info(self, words: List[str], board: Board) -> InfoDict:
        info: InfoDict = {}
        i = 0
        while i < len(words):
            key = words[i]
            i += 1
            try:
                if key in ("depth", "nodes"):
                    info[key] = int(words[i])
                    i += 1
                elif key == "time":
                    info["time"] = int(words[i]) / 1000.0
                    i += 1
                elif key == "score":
                    info["score"] = PovScore(self._score(int(words[i])), board.turn)
                    i += 1
                elif key == "pv":
                    info["pv"] = self._line_moves(words[i:], board)
                    i = len(words)
                elif key == "currmove":
                    try:
                        info["currmove"] = self._parse_move(words[i], board)
                    except EngineError:
                        pass
                    i += 1
                elif key in ("message", "string"):
                    info["string"] = " ".join(words[i:])
                    i = len(words)
            except (IndexError, ValueError):
                LOGGER.warning("%s: cannot read the info %r", self, " ".join(words))
                break
        if "time" in info and "nodes" in info and info["time"] > 0:
            info["nps"] = int(info["nodes"] / info["time"])
        return info

    async def quit(self) -> None:
        """``quit``; the engine says ``bye`` and ends."""
        await super().quit()


def _parse_ucci_option(words: List[str]) -> Option:
    """``<name> type <T> [min x] [max y] [var v ...] [default d]``."""
    name = words[0]
    rest = words[1:]
    fields: Dict[str, List[str]] = {}
    key: Optional[str] = None
    for w in rest:
        if w in ("type", "min", "max", "var", "default"):
            key = w
            fields.setdefault(key, [])
        elif key is not None:
            fields[key].append(w)
    kind = fields["type"][0].lower()
    default_text = " ".join(fields["default"]) if "default" in fields else None
    default: ConfigValue = default_text
    if kind == "check" and default_text is not None:
        default = default_text.lower() == "true"
    elif kind == "spin" and default_text is not None:
        default = int(default_text)
    low = int(fields["min"][0]) if fields.get("min") else None
    high = int(fields["max"][0]) if fields.get("max") else None
    return Option(name, kind, default, low, high, list(fields.get("var", [])))


class AnalysisResult:
    """A search running in the engine (python-chess's ``AnalysisResult``): ``info`` (the
    latest dict of the first line, merged), ``multipv`` (of every line), ``stop()``,
    ``await wait()`` (the ``BestMove``), ``await get()`` / ``await next()`` for the next
    dict, ``async for info in analysis``."""

    def __init__(self, protocol: Protocol, board: Board, selector: Info, multipv: int) -> None:
        self._protocol = protocol
        self.board = board
        self.selector = selector
        self.multipv: List[InfoDict] = [{}]
        self._lines = multipv
        self._queue: "asyncio.Queue[Union[InfoDict, type[_EOF]]]" = asyncio.Queue()
        self._done: "asyncio.Future[BestMove]" = protocol.loop.create_future()
        self._stopped = False
        self._draw = False
        self._resign = False

    @property
    def info(self) -> InfoDict:
        """The latest info of the first line, keys merged over the reports."""
        return self.multipv[0]

    def _post(self, info: InfoDict) -> None:
        if not info:
            return
        line = info.get("multipv", 1)
        while len(self.multipv) < line:
            self.multipv.append({})
        self.multipv[line - 1].update(info)
        self._queue.put_nowait(info)

    def _finish(self, outcome: Union[BestMove, BaseException]) -> None:
        if self._done.done():
            return
        if isinstance(outcome, BaseException):
            self._done.set_exception(outcome)
        else:
            self._done.set_result(outcome)
        self._queue.put_nowait(_EOF)
        if self._protocol._analysis is self:
            self._protocol._analysis = None

    def stop(self) -> None:
        """Asks the engine to stop (it then answers its best move)."""
        if not self._stopped and not self._done.done():
            self._stopped = True
            try:
                self._protocol._stop()
            except EngineTerminatedError:
                pass

    async def wait(self) -> BestMove:
        """Waits for the end of the search and returns the ``BestMove``.

        Raises EngineTerminatedError if the engine died, EngineError for a bad reply."""
        return await asyncio.shield(self._done)

    async def _wait_quietly(self) -> None:
        try:
            await asyncio.shield(self._done)
        except Exception:
            pass

    def would_block(self) -> bool:
        """Would ``get()`` wait for the engine?"""
        return self._queue.empty() and not self._done.done()

    def empty(self) -> bool:
        """Is there no info dict waiting (``get()`` would wait or raise)?"""
        return self._queue.empty() or self._queue._queue[0] is _EOF  # type: ignore[attr-defined]

    async def get(self) -> InfoDict:
        """The next info dict, waiting for it.

        Raises AnalysisComplete once the search has ended and every dict was taken."""
        item = await self._queue.get()
        if item is _EOF:
            self._queue.put_nowait(_EOF)
            if self._done.done() and self._done.exception() is not None:
                raise typing.cast(BaseException, self._done.exception())
            raise AnalysisComplete()
        return typing.cast(InfoDict, item)

    async def next(self) -> Optional[InfoDict]:
        """The next info dict, or None once the search has ended."""
        try:
            return await self.get()
        except AnalysisComplete:
            return None

    def __aiter__(self) -> "AnalysisResult":
        return self

    async def __anext__(self) -> InfoDict:
        try:
            return await self.get()
        except AnalysisComplete:
            raise StopAsyncIteration

    def __enter__(self) -> "AnalysisResult":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# ---------------------------------------------------------------------------- starting engines

Command = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]


def _argv(command: Command) -> List[str]:
    if isinstance(command, (str, os.PathLike)):
        return [os.fspath(command)]
    return [os.fspath(c) for c in command]


async def _popen(make: Callable[[], Protocol], command: Command, setpgrp: bool,
                 popen_args: Dict[str, Any]) -> Tuple[asyncio.SubprocessTransport, Protocol]:
    loop = asyncio.get_running_loop()
    args = dict(popen_args)
    if setpgrp and sys.platform != "win32":
        args.setdefault("start_new_session", True)
    args.setdefault("stdin", subprocess.PIPE)
    args.setdefault("stdout", subprocess.PIPE)
    args.setdefault("stderr", subprocess.PIPE)
    try:
        transport, protocol = await loop.subprocess_exec(make, *_argv(command), **args)
    except OSError as e:
        raise EngineTerminatedError(f"cannot start the engine {_argv(command)[0]!r}: {e}") from e
    try:
        await protocol.initialize()
    except BaseException:
        protocol._kill()
        # Reap it (a process never waited for is a warning when it is collected).
        try:
            await asyncio.wait_for(asyncio.shield(protocol.returncode), 2.0)
        except (Exception, asyncio.CancelledError):
            pass
        transport.close()
        raise
    return transport, protocol


async def popen_uci(command: Command, *, ranks: str = "auto", setpgrp: bool = False,
                    **popen_args: Any) -> Tuple[asyncio.SubprocessTransport, UciProtocol]:
    """Starts a UCI engine (a path, or a list of the program and its arguments) and
    returns ``(transport, protocol)`` once it has said ``uciok``. ``ranks``: ``"auto"``,
    ``"0-9"`` (Pikafish, xq) or ``"1-10"`` (Fairy-Stockfish)."""
    _check_ranks(ranks)
    transport, protocol = await _popen(lambda: UciProtocol(ranks=ranks), command, setpgrp, popen_args)
    return transport, typing.cast(UciProtocol, protocol)


async def popen_ucci(command: Command, *, ranks: str = "0-9", setpgrp: bool = False,
                     **popen_args: Any) -> Tuple[asyncio.SubprocessTransport, UcciProtocol]:
    """Starts a UCCI engine and returns ``(transport, protocol)`` once it has said
    ``ucciok`` (and turned on ``usemillisec`` when it offers it)."""
    _check_ranks(ranks)
    transport, protocol = await _popen(lambda: UcciProtocol(ranks=ranks), command, setpgrp, popen_args)
    return transport, typing.cast(UcciProtocol, protocol)


# ---------------------------------------------------------------------------- SimpleEngine


class SimpleEngine:
    """An engine behind blocking calls (python-chess's ``SimpleEngine``): its event loop
    runs in a background thread. Make one with ``SimpleEngine.popen_uci(cmd)`` or
    ``popen_ucci(cmd)``; use it in a ``with`` block, or call ``quit()``.

    ``timeout`` (seconds, None for none) bounds every call that should be quick
    (starting, ``ping``, ``configure``, ``quit``) and is added to the time a search is
    given (its ``time``, or the mover's clock); a search by depth or nodes waits as long
    as it takes. A call that runs out of time raises ``EngineTimeoutError``; a search
    that does not answer ``stop`` within ``timeout`` more gets its engine killed.
    """

    def __init__(self, transport: asyncio.SubprocessTransport, protocol: Protocol, *,
                 timeout: Optional[float] = 10.0, _loop: Optional["_LoopThread"] = None) -> None:
        self.transport = transport
        self.protocol = protocol
        self.timeout = timeout
        self._loop = _loop if _loop is not None else _LoopThread.of(protocol.loop)
        self._closed = False

    # -- starting

    @classmethod
    def popen_uci(cls, command: Command, *, timeout: Optional[float] = 10.0, ranks: str = "auto",
                  setpgrp: bool = False, debug: bool = False, **popen_args: Any) -> "SimpleEngine":
        """Starts a UCI engine; ``ranks`` as ``popen_uci``."""
        return cls._popen(popen_uci, command, timeout, debug, ranks=ranks, setpgrp=setpgrp, **popen_args)

    @classmethod
    def popen_ucci(cls, command: Command, *, timeout: Optional[float] = 10.0, ranks: str = "0-9",
                   setpgrp: bool = False, debug: bool = False, **popen_args: Any) -> "SimpleEngine":
        """Starts a UCCI engine."""
        return cls._popen(popen_ucci, command, timeout, debug, ranks=ranks, setpgrp=setpgrp, **popen_args)

    @classmethod
    def _popen(cls, opener: Callable[..., Any], command: Command, timeout: Optional[float],
               debug: bool, **kwargs: Any) -> "SimpleEngine":
        if debug:
            LOGGER.setLevel(logging.DEBUG)
        _check_ranks(kwargs.get("ranks", "auto"))
        loop = _LoopThread()
        try:
            transport, protocol = loop.run(opener(command, **kwargs), timeout, "start")
        except BaseException:
            loop.close()
            raise
        return cls(transport, protocol, timeout=timeout, _loop=loop)

    # -- calls

    def _call(self, coro: Coroutine[Any, Any, T], timeout: Optional[float], what: str) -> T:
        if self._closed:
            coro.close()
            raise EngineTerminatedError("the engine was closed")
        try:
            return self._loop.run(coro, timeout, what)
        except EngineTimeoutError:
            self._loop.run(self._rescue(), None, "stop")
            raise

    async def _rescue(self) -> None:
        """After a call ran out of time: stop the search, and kill an engine that does not
        answer within the timeout."""
        analysis = self.protocol._analysis
        if analysis is None or analysis._done.done():
            return
        analysis.stop()
        try:
            await asyncio.wait_for(analysis._wait_quietly(), self.timeout)
        except asyncio.TimeoutError:
            LOGGER.warning("%s: no answer to stop; killing the engine", self.protocol)
            self.protocol._kill()
            analysis._finish(EngineTimeoutError("the engine did not answer stop in time and was killed"))
            analysis._done.exception()  # the caller has its own EngineTimeoutError

    def _search_timeout(self, limit: Optional[Limit], board: Board) -> Optional[float]:
        if self.timeout is None or not isinstance(limit, Limit) or not isinstance(board, Board):
            return None
        clock = limit.red_clock if board.turn else limit.black_clock
        if limit.time is not None:
            return self.timeout + limit.time
        if clock is not None:
            return self.timeout + clock
        return None

    @property
    def id(self) -> Dict[str, str]:
        """What the engine said of itself: ``name``, ``author``..."""
        return dict(self.protocol.id)

    @property
    def options(self) -> Mapping[str, Option]:
        """The engine's options by name (any case)."""
        return self.protocol.options

    @property
    def config(self) -> Dict[str, ConfigValue]:
        """The options set so far (by ``configure`` and by xq.engine itself)."""
        return dict(self.protocol.config)

    def ping(self) -> None:
        """Waits for the engine to answer ``isready``."""
        self._call(self.protocol.ping(), self.timeout, "ping")

    def configure(self, options: Mapping[str, ConfigValue]) -> None:
        """Sets options (checked first: InvalidOption for a bad name or value)."""
        self._call(self.protocol.configure(options), self.timeout, "configure")

    def play(self, board: Board, limit: Limit, **kwargs: Any) -> PlayResult:
        """The engine's move: a ``PlayResult`` (see ``Protocol.play``)."""
        return self._call(self.protocol.play(board, limit, **kwargs),
                          self._search_timeout(limit, board), "play")

    def analyse(self, board: Board, limit: Limit, **kwargs: Any) -> Union[InfoDict, List[InfoDict]]:
        """The info dict at the end of a search (a list with ``multipv``; see
        ``Protocol.analyse``)."""
        return self._call(self.protocol.analyse(board, limit, **kwargs),
                          self._search_timeout(limit, board), "analyse")

    def analysis(self, board: Board, limit: Optional[Limit] = None, **kwargs: Any) -> "SimpleAnalysisResult":
        """Starts a search and returns a ``SimpleAnalysisResult`` at once (an iterator of
        info dicts with ``stop()`` and ``wait()``; use it in a ``with`` block)."""
        result = self._call(self.protocol.analysis(board, limit, **kwargs), self.timeout, "analysis")
        return SimpleAnalysisResult(self, result)

    def quit(self) -> None:
        """Asks the engine to quit, waits for it (killing it after ``timeout``) and stops
        the background loop."""
        self.close()

    def close(self) -> None:
        """The same as ``quit()``; a second call does nothing."""
        if self._closed:
            return
        try:
            self._loop.run(self.protocol.quit(), self.timeout, "quit")
        except (EngineTimeoutError, EngineError):
            self._loop.run(self._kill_and_wait(), 5.0, "kill")
        finally:
            self._closed = True
            try:
                self._loop.run(self.protocol._close_transport(), 5.0, "close")
            except EngineError:
                pass
            self._loop.close()

    async def _kill_and_wait(self) -> None:
        self.protocol._kill()
        try:
            await asyncio.wait_for(asyncio.shield(self.protocol.returncode), 4.0)
        except asyncio.TimeoutError:
            pass

    def kill(self) -> None:
        """Kills the engine process at once."""
        if not self._closed:
            self._loop.run(self._kill_and_wait(), 5.0, "kill")

    @property
    def returncode(self) -> Optional[int]:
        """The exit code once the process has ended, else None."""
        fut = self.protocol.returncode
        return fut.result() if fut.done() else None

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.protocol!r} {self.id.get('name', '?')!r}>"


class SimpleAnalysisResult:
    """A search running in an engine behind ``SimpleEngine``: iterate for its info dicts;
    ``info``, ``multipv``, ``stop()``, ``wait()`` (the ``BestMove``), ``get()``,
    ``next()``, ``empty()``, ``would_block()``. Leaving a ``with`` block stops it and
    waits for its answer."""

    def __init__(self, engine: SimpleEngine, inner: AnalysisResult) -> None:
        self._engine = engine
        self.inner = inner

    @property
    def info(self) -> InfoDict:
        """The latest info of the first line."""
        return self._engine._loop.call(lambda: dict(self.inner.info))

    @property
    def multipv(self) -> List[InfoDict]:
        """The latest info of every line."""
        return self._engine._loop.call(lambda: [dict(i) for i in self.inner.multipv])

    def stop(self) -> None:
        """Asks the engine to stop."""
        self._engine._loop.call(self.inner.stop)

    def wait(self) -> BestMove:
        """Waits for the end and returns the ``BestMove``."""
        return self._engine._loop.run(self.inner.wait(), None, "wait")

    def would_block(self) -> bool:
        """Would ``get()`` wait?"""
        return self._engine._loop.call(self.inner.would_block)

    def empty(self) -> bool:
        """Is there no info dict waiting?"""
        return self._engine._loop.call(self.inner.empty)

    def get(self) -> InfoDict:
        """The next info dict (AnalysisComplete at the end)."""
        return self._engine._loop.run(self.inner.get(), None, "get")

    def next(self) -> Optional[InfoDict]:
        """The next info dict, None at the end."""
        return self._engine._loop.run(self.inner.next(), None, "next")

    def __iter__(self) -> "SimpleAnalysisResult":
        return self

    def __next__(self) -> InfoDict:
        try:
            return self.get()
        except AnalysisComplete:
            raise StopIteration

    def __enter__(self) -> "SimpleAnalysisResult":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        try:
            self.wait()
        except EngineError:
            pass


class _LoopThread:
    """An asyncio event loop running in a daemon thread, and the blocking calls into it."""

    _by_loop: Dict[int, "_LoopThread"] = {}

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            ready.set()
            self.loop.run_forever()
            self.loop.close()

        self.thread = threading.Thread(target=run, name="xq.engine", daemon=True)
        self.thread.start()
        ready.wait()
        _LoopThread._by_loop[id(self.loop)] = self

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> "_LoopThread":
        try:
            return cls._by_loop[id(loop)]
        except KeyError:
            raise EngineError("a SimpleEngine needs a protocol started by SimpleEngine.popen_*") from None

    def run(self, coro: Coroutine[Any, Any, T], timeout: Optional[float], what: str) -> T:
        if threading.current_thread() is self.thread:
            coro.close()
            raise EngineError("a SimpleEngine cannot be called from its own event loop")
        if not self.loop.is_running():
            coro.close()
            raise EngineTerminatedError("the engine's event loop has stopped")

        async def bounded() -> T:
            if timeout is None:
                return await coro
            try:
                return await asyncio.wait_for(coro, timeout)
            except asyncio.TimeoutError:
                raise EngineTimeoutError(f"the engine did not answer {what} within {timeout:g} s") from None

        future = asyncio.run_coroutine_threadsafe(bounded(), self.loop)
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            raise EngineTerminatedError(f"{what} was cancelled") from None
        except KeyboardInterrupt:
            future.cancel()
            raise

    def call(self, fn: Callable[[], T]) -> T:
        async def wrapper() -> T:
            return fn()
        return self.run(wrapper(), None, "call")

    def close(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5.0)
        _LoopThread._by_loop.pop(id(self.loop), None)


__all__ = [
    "popen_uci", "popen_ucci", "SimpleEngine", "SimpleAnalysisResult", "Protocol",
    "UciProtocol", "UcciProtocol", "AnalysisResult", "Limit", "PlayResult", "BestMove",
    "Score", "Cp", "Mate", "MateGiven", "MATE_GIVEN", "MateGivenType", "PovScore", "Wdl",
    "PovWdl", "Info", "InfoDict", "INFO_NONE", "INFO_BASIC", "INFO_SCORE", "INFO_PV",
    "INFO_REFUTATION", "INFO_CURRLINE", "INFO_ALL", "Option", "EngineError",
    "EngineTerminatedError", "EngineTimeoutError", "InvalidLimit", "InvalidOption",
    "AnalysisComplete",
]
