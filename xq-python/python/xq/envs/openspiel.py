"""Xiangqi for OpenSpiel, on xq's whole rules: the game ``"python_xq_xiangqi"``.

Importing this module registers the game with ``pyspiel.register_game`` (beside
OpenSpiel's own C++ ``"xiangqi"``, which has no repetition rule and cuts games at 500
plies)::

    import pyspiel
    import xq.envs.openspiel

    game = pyspiel.load_game("python_xq_xiangqi")              # or with parameters:
    game = pyspiel.load_game("python_xq_xiangqi", {"max_plies": 300})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns(), state.outcome())

Players 0 (Red, moves first) and 1 (Black). Actions are ``xq``'s 2,086 action indices
(``xq.move_to_index``), the same for both players (not mirrored); ``legal_actions()``
lists them in ascending order. The game is sequential, deterministic, of perfect
information, zero-sum with terminal rewards: 1 to the winner, -1 to the loser, 0 each
for a draw. The whole rules end it: checkmate, stalemate, perpetual check and chase,
repetition, the 60-move rule (120 plies), insufficient material;
``state.outcome()`` says which (an ``xq.Outcome``). The parameter ``max_plies`` (1,000
by default: OpenSpiel needs a longest game) ends a game that has gone on so long as a
draw; ``fen`` starts from another position; ``history`` is the number of earlier
positions in the observation tensor (0 by default).

``observation_tensor(player)`` is ``xq.envs.observation(board, player == 0,
history=history, relative=False)`` flattened: float32, ``(16 * (history + 1) + 3) * 90``
values (a NumPy array, where OpenSpiel's C++ games give a list), Red's pieces first,
nothing mirrored; OpenSpiel's observer API (``make_observation``) gives the same values
shaped ``(planes, 10, 9)``. ``observation_string`` is the FEN;
``information_state_string`` the moves played (the game is of perfect information).
``state.board`` is the ``xq.Board``.
"""

from typing import Any, Dict, List, Optional

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from .. import _xq
from . import n_planes

#: The game's name in OpenSpiel's registry.
GAME_NAME: str = "python_xq_xiangqi"
#: The default of the ``max_plies`` parameter.
DEFAULT_MAX_PLIES: int = 1000

_PARAMETERS: Dict[str, Any] = {"max_plies": DEFAULT_MAX_PLIES, "fen": _xq.STARTING_FEN, "history": 0}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Xiangqi (xq's whole rules: perpetual check and chase, the 60-move rule)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


class XiangqiGame(pyspiel.Game):
    """The game ``"python_xq_xiangqi"``; see the module."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        max_plies = params["max_plies"]
        if not isinstance(max_plies, int) or max_plies < 1:
            raise _xq.InvalidArgument(f"max_plies must be an int of at least 1, not {max_plies!r}")
        history = params["history"]
        if not isinstance(history, int) or not 0 <= history <= 64:
            raise _xq.InvalidArgument(f"history must be an int from 0 to 64, not {history!r}")
        start = _xq.Board(params["fen"])
        if start.is_game_over():
            raise _xq.InvalidArgument(f"the game from {params['fen']} is already over: {start.outcome()}")
        info = pyspiel.GameInfo(
            num_distinct_actions=_xq.N_ACTIONS,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_plies,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.max_plies: int = max_plies
        self.fen: str = params["fen"]
        self.history: int = history

    def new_initial_state(self) -> "XiangqiState":
        """A game at its start."""
        return XiangqiState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The observer of OpenSpiel's observation API: the board's tensor and FEN, or
        the moves played for the information state (perfect recall)."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class XiangqiState(pyspiel.State):
    """A game in progress: ``board`` (an ``xq.Board``) and OpenSpiel's state API."""

    def __init__(self, game: XiangqiGame) -> None:
        super().__init__(game)
        self.board = _xq.Board(game.fen)
        self._max_plies = game.max_plies
        self._history = game.history
        self._plies = 0
        self._outcome: Optional[Any] = None
        self._terminal = False

    def current_player(self) -> int:
        """0 (Red) or 1 (Black) to move, or ``pyspiel.PlayerId.TERMINAL``."""
        if self._terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        return 0 if self.board.turn else 1

    def _legal_actions(self, player: int) -> List[int]:
        return sorted(self.board.legal_indices())

    def _apply_action(self, action: int) -> None:
        if not _xq._play_action(self.board, action, False):
            raise _xq.IllegalMove(f"action {action} is not legal in {self.board.fen()}")
        self._plies += 1
        self._outcome = self.board.outcome()
        self._terminal = self._outcome is not None or self._plies >= self._max_plies

    def _action_to_string(self, player: int, action: int) -> str:
        return _xq.index_to_move(action).iccs()

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> List[float]:
        """[Red's, Black's]: 1 and -1 for a win, 0 each for a draw or a game going on."""
        if self._outcome is None or self._outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self._outcome.winner else [-1.0, 1.0]

    def outcome(self) -> Optional[Any]:
        """How the rules ended the game (an ``xq.Outcome``), None while it goes on or when
        ``max_plies`` ended it."""
        return self._outcome

    def observation_tensor(self, player: Optional[int] = None) -> Any:
        """The observation of ``player`` (the player to move by default): the flat
        float32 NumPy array of ``xq.envs.observation(board, player == 0,
        history=history, relative=False)`` (OpenSpiel's C++ games give a list; this skips
        the generic observer, which builds an observer and a state for every call)."""
        if player is None:
            player = self.current_player()
        if player not in (0, 1):
            raise ValueError(f"the player must be 0 or 1, not {player}")
        obs, _ = _xq._observe(self.board, self._history, player == 0, False)
        return obs.reshape(-1)

    def __str__(self) -> str:
        return self.board.fen()


class BoardObserver:
    """OpenSpiel's observer (``observation.py``'s PyObserver): ``tensor`` and ``dict``
    (``"observation"``, shaped (planes, 10, 9)), and the FEN as the string."""

    def __init__(self, game: XiangqiGame, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self._history = game.history
        shape = (n_planes(game.history), 10, 9)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: XiangqiState, player: int) -> None:
        obs, _ = _xq._observe(state.board, self._history, player == 0, False)
        self.tensor[:] = obs.reshape(-1)

    def string_from(self, state: XiangqiState, player: int) -> str:
        return state.board.fen()


pyspiel.register_game(_GAME_TYPE, XiangqiGame)

__all__ = ["GAME_NAME", "DEFAULT_MAX_PLIES", "XiangqiGame", "XiangqiState"]
