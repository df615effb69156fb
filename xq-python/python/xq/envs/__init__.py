"""Environments for reinforcement learning on xq's rules.

Every environment here ends games by the whole rules (checkmate, stalemate as a loss,
perpetual check and perpetual chase as a loss for the side doing it, other repetitions
and the 60-move rule's 120 plies as draws, insufficient material) and shares one
observation, one action index and one mask:

* ``xq.envs.pettingzoo.env()`` / ``raw_env``: a PettingZoo AEC environment, two agents
  ``"red"`` and ``"black"`` (needs ``pettingzoo``);
* ``xq.envs.gymnasium.XiangqiEnv``: a Gymnasium environment against ``xq.EmbeddedEngine``
  at a level (needs ``gymnasium``);
* ``xq.envs.openspiel``: the OpenSpiel game ``"python_xq_xiangqi"``, registered on import
  (needs ``open_spiel``);
* ``VectorXiangqi`` (here): many games stepped in one call into Rust, finished games
  started again (needs only NumPy).

**Actions** are ``xq``'s 2,086 action indices (``xq.move_to_index``). With ``relative``
(the default, except in OpenSpiel) an action is read in the mover's frame: mirrored
across the river when Black moves (``xq.mirror_index``), so one network plays both
sides; ``action_to_move`` turns one into the move played.

**The mask** is int8 of 2,086, 1 at each legal action (in the same frame); all 0 for a
side that is not to move.

**The observation** is float32 of shape ``(16 * (history + 1) + 3, 10, 9)`` (plane,
rank, file), seen by one side (``observation(board, observer)``): for each of the current
position and the ``history`` positions before it (frame ``t`` = ``t`` plies back, all 0
before the game's start), planes ``16t .. 16t + 6`` the observer's general, advisors,
elephants, horses, chariots, cannons and soldiers, ``16t + 7 .. 16t + 13`` the other
side's, ``16t + 14`` all 1 when that position had occurred once before (since its last
capture), ``16t + 15`` twice before; then three planes: all 1 when Red is to move, all 1
when the observer is Red, and the 60-move rule's count of plies / 120. With
``relative`` and Black observing, every frame is mirrored across the river (Black's
pieces first, seen from Black's side). Without ``relative``, Red's pieces come first and
nothing is mirrored. (``Board.planes()`` is the 18-plane layout of one position; this one
adds the history and the observer.)
"""

import random
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .. import _xq
from .._xq import Board, Move

#: Earlier positions an observation holds unless told otherwise (8 frames in all, as
#: AlphaZero's and PettingZoo's chess observations).
DEFAULT_HISTORY: int = 7

#: Agents of the two-player environments, Red first (Red moves first).
AGENTS: List[str] = ["red", "black"]


def n_planes(history: int = DEFAULT_HISTORY) -> int:
    """The number of planes of an observation with ``history`` earlier positions."""
    return 16 * (history + 1) + 3


def observation(
    board: Board,
    observer: Optional[bool] = None,
    *,
    history: int = DEFAULT_HISTORY,
    relative: bool = True,
) -> Tuple[Any, Any]:
    """``(observation, mask)`` of ``board`` seen by ``observer`` (``xq.RED``,
    ``xq.BLACK``; None: the side to move), as the environments give them: float32 of
    shape ``(n_planes(history), 10, 9)`` and int8 of 2,086 (all 0 unless ``observer`` is
    to move). Raises ``xq.InvalidArgument`` for a ``history`` outside 0..64."""
    if observer is None:
        observer = board.turn
    return _xq._observe(board, history, bool(observer), relative)


def action_to_move(board: Board, action: int, *, relative: bool = True) -> Move:
    """The move that ``action`` plays on ``board``: its action index, mirrored when
    ``relative`` and Black is to move."""
    if relative and not board.turn:
        action = _xq.mirror_index(action)
    return _xq.index_to_move(action)


def move_to_action(board: Board, move: Move, *, relative: bool = True) -> int:
    """The action that plays ``move`` on ``board`` (the inverse of ``action_to_move``)."""
    action = _xq.move_to_index(move)
    return _xq.mirror_index(action) if relative and not board.turn else action


class VectorXiangqi:
    """``n`` games stepped together in one call into Rust, each started again when it
    ends (by the rules, or at ``max_plies`` plies).

    ``reset(seed=None)`` returns ``(observations, masks)``: float32 ``(n, planes, 10, 9)``
    and int8 ``(n, 2086)``, each game seen by its side to move. ``step(actions)`` plays
    one action in every game (each in its mover's frame when ``relative``) and returns
    ``(observations, masks, rewards, dones)``: the mover's reward (1 a win, -1 a loss, 0
    otherwise), float32; ``dones`` (bool) where a game ended, whose observation and mask
    are already of the new start. ``infos`` then holds ``"truncated"`` (bool, ended at
    ``max_plies``), ``"winner"`` (int8: 1 Red won, -1 Black won, 0 otherwise) and
    ``"termination"`` (the rule's tag where a game ended, ``"max-plies"`` where it was cut,
    else None). An illegal action raises ``xq.IllegalMove`` naming the game, and no game
    changes.

    ``sample_actions()`` draws a uniformly random legal action for each game (a random
    player), from the generator ``reset(seed)`` seeds (in Rust: the same seed, the same
    actions).

    With ``copy=False`` (Gymnasium's vector environments have the same switch) the
    observations and masks are the same two arrays at every call, overwritten in place:
    for large batches a step then costs a fraction of a new array's (only what the last
    observation set is cleared). Copy what you keep (``obs.copy()``) and do not write
    into them.
    """

    def __init__(
        self,
        n: int,
        *,
        history: int = DEFAULT_HISTORY,
        relative: bool = True,
        max_plies: Optional[int] = None,
        fen: Optional[str] = None,
        copy: bool = True,
    ) -> None:
        self._games = _xq._VectorGames(n, history, relative, max_plies, fen, copy)
        self.num_envs: int = len(self._games)
        self.history = history
        self.relative = relative
        self.max_plies = max_plies
        self.copy = copy
        self.observation_shape: Tuple[int, int, int] = (self._games.n_planes, 10, 9)
        self.infos: Dict[str, Any] = {}
        self._games.seed(random.SystemRandom().getrandbits(64))

    def __len__(self) -> int:
        return self.num_envs

    def reset(self, seed: Optional[int] = None) -> Tuple[Any, Any]:
        """Starts every game again; returns ``(observations, masks)``."""
        if seed is not None:
            self._games.seed(seed)
        obs, masks = self._games.reset()
        self.infos = {}
        return obs, masks

    def observe(self) -> Tuple[Any, Any]:
        """``(observations, masks)`` of the games as they stand."""
        return self._games.observe()

    def step(self, actions: Union[Sequence[int], Any]) -> Tuple[Any, Any, Any, Any]:
        """Plays one action in every game; see the class."""
        obs, masks, rewards, dones, truncated, winners, terminations = self._games.step(actions)
        self.infos = {"truncated": truncated, "winner": winners, "termination": terminations}
        return obs, masks, rewards, dones

    def sample_actions(self) -> Any:
        """A uniformly random legal action of each game (int64, in its mover's frame),
        drawn in Rust by the generator ``reset(seed)`` seeds: a random player."""
        return self._games.sample_actions()

    def boards(self) -> List[Board]:
        """Copies of the games as ``xq.Board``s, with their moves."""
        return self._games.boards()

    def __repr__(self) -> str:
        return (f"<VectorXiangqi {self.num_envs} games, history {self.history}, "
                f"relative {self.relative}, max_plies {self.max_plies}, copy {self.copy}>")


__all__ = [
    "DEFAULT_HISTORY", "AGENTS", "n_planes", "observation", "action_to_move",
    "move_to_action", "VectorXiangqi",
]
