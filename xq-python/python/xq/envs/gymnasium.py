"""Xiangqi as a Gymnasium environment: one side against ``xq.EmbeddedEngine`` at a level.

    from xq.envs.gymnasium import XiangqiEnv

    env = XiangqiEnv(opponent_level=0, color="red")
    observation, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    print(reward, info["outcome"])

    env = gymnasium.make("xq/Xiangqi-v0", opponent_level=5)   # the same, by its id

The agent plays ``color`` (``"red"``, which moves first, or ``"black"``); after each of its
moves the engine answers at ``opponent_level`` (0, a beginner's level, to 20, full
strength; ``docs/levels.md`` says how strong each is) within ``opponent_limit`` (an
``xq.engine.Limit``, 4,000 nodes by default). The engine searches on one thread, starts
each episode afresh and takes its level's choices from a seed drawn from the seeded
``np_random``: ``reset(seed=s)`` then the same actions give the same game.

``observation_space`` is ``Box(0, 1, (16 * (history + 1) + 3, 10, 9), float32)``, the
board seen by the agent in the layout of ``xq.envs``; ``action_space`` is
``Discrete(2086)``, ``xq``'s action index in the agent's frame (mirrored when it plays
Black) unless ``relative=False``. The legal actions are ``info["action_mask"]`` (int8 of
2,086), also ``env.action_masks()`` (bool, as ``sb3-contrib``'s ``MaskablePPO`` asks).

The reward is the agent's, at the end: 1 a win, -1 a loss, 0 a draw or a cut game. The
whole rules end a game (``terminated``): checkmate, stalemate, perpetual check and chase,
repetition, the 60-move rule, insufficient material; ``info`` then has ``"result"``,
``"termination"`` (the rule's tag) and ``"outcome"`` (in words). ``max_plies`` (counted
from the start, both sides' moves) cuts a game: ``truncated``, reward 0.

**An illegal action** (one the mask does not allow) loses by default
(``illegal_action="lose"``): the episode ends, ``terminated``, reward -1,
``info["illegal_action"] = True`` and ``info["termination"] == "illegal-action"``, the
board unchanged. ``illegal_action="raise"`` raises ``xq.IllegalMove`` instead, the
environment unchanged. A step after the end raises ``RuntimeError`` (call ``reset``).
"""

from typing import Any, Dict, List, Optional, SupportsFloat, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import _xq
from ..engine import Limit
from . import DEFAULT_HISTORY, n_planes


class XiangqiEnv(gymnasium.Env):
    """Xiangqi against ``xq.EmbeddedEngine`` at a level; see the module.

    ``XiangqiEnv(opponent_level=0, color="red", *, opponent_limit=None, history=7,
    relative=True, max_plies=None, fen=None, illegal_action="lose", render_mode=None)``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 2}

    def __init__(
        self,
        opponent_level: int = 0,
        color: str = "red",
        *,
        opponent_limit: Optional[Limit] = None,
        history: int = DEFAULT_HISTORY,
        relative: bool = True,
        max_plies: Optional[int] = None,
        fen: Optional[str] = None,
        illegal_action: str = "lose",
        render_mode: Optional[str] = None,
    ) -> None:
        if color not in ("red", "black"):
            raise _xq.InvalidArgument(f"color must be 'red' or 'black', not {color!r}")
        if illegal_action not in ("lose", "raise"):
            raise _xq.InvalidArgument(
                f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise _xq.InvalidArgument(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_plies is not None and (not isinstance(max_plies, int) or isinstance(max_plies, bool)
                                      or max_plies < 1):
            raise _xq.InvalidArgument(
                f"max_plies must be None or an int of at least 1, not {max_plies!r}")
        self.color = color
        self.opponent_level = opponent_level
        self.opponent_limit = opponent_limit if opponent_limit is not None else Limit(nodes=4000)
        self.history = history
        self.relative = relative
        self.max_plies = max_plies
        self.fen = fen if fen is not None else _xq.STARTING_FEN
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.board = _xq.Board(self.fen)
        if self.board.is_game_over():
            raise _xq.InvalidArgument(f"the game from {self.fen} is already over: {self.board.outcome()}")
        # Checks the level (InvalidOption), `history` (InvalidArgument) and the limit
        # (InvalidLimit) before the environment is used.
        self.engine = _xq.EmbeddedEngine(threads=1, hash_mb=4, skill=opponent_level)
        self._agent = color == "red"
        _xq._observe(self.board, history, self._agent, relative)
        self.observation_space = spaces.Box(
            low=0.0, high=1.0, shape=(n_planes(history), 10, 9), dtype=np.float32)
        self.action_space = spaces.Discrete(_xq.N_ACTIONS)
        self._mask = np.zeros(_xq.N_ACTIONS, dtype=np.int8)
        self._start_ply = self.board.ply()
        self._over = True

    def _observe(self) -> Any:
        obs, self._mask = _xq._observe(self.board, self.history, self._agent, self.relative)
        return obs

    def _ended(self, info: Dict[str, Any]) -> Tuple[float, bool, bool]:
        """(reward, terminated, truncated) of the game as it stands, the outcome put in
        ``info`` if it is over."""
        outcome = self.board.outcome()
        if outcome is not None:
            info.update(result=outcome.result(), termination=outcome.termination.value,
                        outcome=str(outcome))
            winner = outcome.winner
            return (0.0 if winner is None else (1.0 if winner == self._agent else -1.0)), True, False
        if self.max_plies is not None and self.board.ply() - self._start_ply >= self.max_plies:
            info.update(result="*", termination="max-plies",
                        outcome=f"cut at {self.max_plies} plies")
            return 0.0, False, True
        return 0.0, False, False

    def _opponent_moves(self, info: Dict[str, Any]) -> Tuple[float, bool, bool]:
        move = self.engine.play(self.board, self.opponent_limit).move
        assert move is not None, "the engine is asked only while the game goes on"
        self.board.push(move)
        info["opponent_move"] = move
        return self._ended(info)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Any, Dict[str, Any]]:
        super().reset(seed=seed)
        self.board = _xq.Board(self.fen)
        self._start_ply = self.board.ply()
        self.engine.new_game()
        self.engine.set_seed(int(self.np_random.integers(2**63)))
        info: Dict[str, Any] = {}
        self._over = False
        if self.board.turn != self._agent:
            _, terminated, truncated = self._opponent_moves(info)
            # The engine's first move cannot end a game that was not over (a mate in one
            # from a composed FEN would); then the agent has nothing to do but reset.
            self._over = terminated or truncated
        obs = self._observe()
        info["action_mask"] = self._mask
        return obs, info

    def step(self, action: Any) -> Tuple[Any, SupportsFloat, bool, bool, Dict[str, Any]]:
        if self._over:
            raise RuntimeError("the game is over: call reset() before step()")
        info: Dict[str, Any] = {}
        if not _xq._play_action(self.board, int(action), self.relative):
            if self.illegal_action == "raise":
                raise _xq.IllegalMove(
                    f"action {int(action)} is not a legal move in {self.board.fen()}")
            self._over = True
            info.update(illegal_action=True, result="0-1" if self._agent else "1-0",
                        termination="illegal-action", outcome=f"illegal action {int(action)}")
            obs = self._observe()
            info["action_mask"] = self._mask
            return obs, -1.0, True, False, info
        reward, terminated, truncated = self._ended(info)
        if not (terminated or truncated):
            reward, terminated, truncated = self._opponent_moves(info)
        self._over = terminated or truncated
        obs = self._observe()
        info["action_mask"] = self._mask
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> Any:
        """The legal actions of the agent now, bool of 2,086 (sb3-contrib's name)."""
        return self._mask.astype(bool)

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode (XiangqiEnv(render_mode='ansi'))")
            return None
        return str(self.board)

    def close(self) -> None:
        self.engine.close()


#: The id ``gymnasium.make`` knows this environment by (registered on import).
ENV_ID: str = "xq/Xiangqi-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="xq.envs.gymnasium:XiangqiEnv")

__all__: List[str] = ["ENV_ID", "XiangqiEnv"]
