"""Xiangqi as a PettingZoo AEC environment, on xq's whole rules.

    from xq.envs.pettingzoo import env

    game = env(render_mode="ansi")
    game.reset(seed=42)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            action = None
        else:
            action = game.action_space(agent).sample(observation["action_mask"])
        game.step(action)

Two agents, ``"red"`` (moves first) and ``"black"``. ``observation_space(agent)`` is a
``Dict``: ``"observation"``, float32 ``(16 * (history + 1) + 3, 10, 9)`` in the layout of
``xq.envs`` seen by that agent, and ``"action_mask"``, int8 of 2,086 (all 0 for the agent
not to move); ``action_space(agent)`` is ``Discrete(2086)``, ``xq``'s action index, read
in the agent's frame (mirrored for Black) unless ``relative=False``.

The rules end the game (``terminations``): checkmate and stalemate lose, perpetual check
and perpetual chase lose for the side doing it, other repetitions, the 60-move rule (120
plies) and insufficient material draw; the winner gets 1, the loser -1, a draw 0 each.
``infos[agent]`` then holds ``"result"`` (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``),
``"termination"`` (the rule's tag, as ``xq.Termination``) and ``"outcome"`` (in words).
``max_plies`` cuts a game (``truncations``, rewards 0). ``reset(seed=...)`` seeds
``np_random``, which plays the ``random_plies`` random opening moves (0 by default).

``env()`` wraps ``raw_env`` as PettingZoo's classic games are wrapped: an illegal action
ends the game with -1 for the agent that played it and 0 for the other
(``TerminateIllegalWrapper``), an action outside the space fails an assertion, calls out
of order raise. ``raw_env`` alone raises ``xq.IllegalMove`` for an illegal action.
"""

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import _xq
from . import AGENTS, DEFAULT_HISTORY, n_planes


def env(**kwargs: Any) -> AECEnv:
    """``raw_env(**kwargs)`` with PettingZoo's classic wrappers (illegal moves lose)."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


class raw_env(AECEnv, EzPickle):
    """Xiangqi for two agents, ``"red"`` and ``"black"``; see the module.

    ``raw_env(render_mode=None, history=7, relative=True, max_plies=None, fen=None,
    random_plies=0)``: ``render_mode="ansi"`` renders the text board; ``history`` the
    earlier positions in an observation (0 to 64); ``relative`` reads actions and shows
    the board in each agent's frame; ``max_plies`` truncates a game after so many plies
    (None: the rules alone end it); ``fen`` the start (the standard one by default);
    ``random_plies`` random legal moves played from it at each reset. The board is
    ``self.board``, an ``xq.Board`` with its moves.
    """

    metadata = {
        "render_modes": ["ansi"],
        "name": "xq_xiangqi_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        render_mode: Optional[str] = None,
        history: int = DEFAULT_HISTORY,
        relative: bool = True,
        max_plies: Optional[int] = None,
        fen: Optional[str] = None,
        random_plies: int = 0,
    ) -> None:
        EzPickle.__init__(self, render_mode, history, relative, max_plies, fen, random_plies)
        super().__init__()
        if render_mode is not None and render_mode != "ansi":
            raise _xq.InvalidArgument(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_plies is not None and (not isinstance(max_plies, int) or isinstance(max_plies, bool)
                                      or max_plies < 1):
            raise _xq.InvalidArgument(f"max_plies must be None or an int of at least 1, not {max_plies!r}")
        if not isinstance(random_plies, int) or isinstance(random_plies, bool) or random_plies < 0:
            raise _xq.InvalidArgument(f"random_plies must be an int of at least 0, not {random_plies!r}")
        self.render_mode = render_mode
        self.history = history
        self.relative = relative
        self.max_plies = max_plies
        self.random_plies = random_plies
        self.fen = fen if fen is not None else _xq.STARTING_FEN
        self.board = _xq.Board(self.fen)
        if self.board.is_game_over():
            raise _xq.InvalidArgument(f"the game from {self.fen} is already over: {self.board.outcome()}")
        # Checks `history` (InvalidArgument) before anything is built on it.
        _xq._observe(self.board, history, True, relative)
        self.agents = AGENTS[:]
        self.possible_agents = AGENTS[:]
        shape = (n_planes(history), 10, 9)
        self.observation_spaces = {
            name: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(_xq.N_ACTIONS,), dtype=np.int8),
            })
            for name in self.possible_agents
        }
        self.action_spaces = {name: spaces.Discrete(_xq.N_ACTIONS) for name in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self._plies = 0
        self.agent_selection = "red" if self.board.turn else "black"
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: Dict[str, Dict[str, Any]] = {name: {} for name in self.agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, Any]:
        obs, mask = _xq._observe(self.board, self.history, agent == "red", self.relative)
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        while True:  # random opening moves, again if they happen to end the game
            self.board = _xq.Board(self.fen)
            for _ in range(self.random_plies):
                moves = self.board.legal_moves
                self.board.push(moves[int(self.np_random.integers(len(moves)))])
                if self.board.is_game_over():
                    break
            if not self.board.is_game_over():
                break
        self._plies = 0
        self.agents = AGENTS[:]
        self.agent_selection = "red" if self.board.turn else "black"
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {name: {} for name in self.agents}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not _xq._play_action(self.board, int(action), self.relative):
            raise _xq.IllegalMove(
                f"action {action} is not a legal move of {agent} in {self.board.fen()}")
        outcome = self.board.outcome()
        if outcome is not None:
            winner = outcome.winner
            for name in self.agents:
                self.terminations[name] = True
                mine = name == "red"
                self.rewards[name] = 0 if winner is None else (1 if winner == mine else -1)
                self.infos[name] = {
                    "result": outcome.result(),
                    "termination": outcome.termination.value,
                    "outcome": str(outcome),
                }
        self._plies += 1
        if outcome is None and self.max_plies is not None and self._plies >= self.max_plies:
            for name in self.agents:
                self.truncations[name] = True
                self.infos[name] = {"result": "*", "termination": "max-plies",
                                    "outcome": f"cut at {self.max_plies} plies"}
        if outcome is not None:  # every reward before the end is 0: nothing to add
            self._accumulate_rewards()
        self.agent_selection = "red" if self.board.turn else "black"

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() was called without a render_mode (raw_env(render_mode='ansi'))")
            return None
        return str(self.board)

    def close(self) -> None:
        pass
