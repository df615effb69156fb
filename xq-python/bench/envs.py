"""Random play through the reinforcement-learning environments, side by side with
OpenSpiel's C++ `xiangqi` driven from Python, in one run. Not a test: it prints a
Markdown table (docs/python.md keeps one).

    python xq-python/bench/envs.py [--seconds 3] [--n 256] [--repeats 3]

A step is what an agent's loop does each ply through the environment's own calls: the
legal actions or the mask, the observation, a uniformly random legal action chosen and
applied; a finished game is started again (the restart is timed too). Each row runs for
`--seconds` (best of `--repeats` runs, in steps a second):

- OpenSpiel `xiangqi` (C++): `state.legal_actions()`, `state.observation_tensor()`,
  `state.apply_action(a)`. It has no repetition rule and cuts games at 500 plies.
- `python_xq_xiangqi` (xq's OpenSpiel game): the same three calls.
- PettingZoo `xq.envs.pettingzoo.env()` (PettingZoo's wrappers): `env.last()` (the
  observation dict with the mask), `env.step(a)`; `raw_env` without the wrappers. The
  random player reads the int8 mask's legal actions as `mask.view(np.bool_).nonzero()[0]`
  (`np.flatnonzero(mask)` on int8 costs about 10 us, as much as the rest of the step).
- `xq.envs.VectorXiangqi(n)`: `sample_actions()` and `step(actions)`, n plies a call;
  with `copy=False` the same two arrays are overwritten at every step.
- Gymnasium `XiangqiEnv`: `env.step(a)` answers with the engine's move (level 0 at 4,000
  nodes, about 1.5 ms), so its rate is the engine's; it is shown for scale only.

The xq environments use their defaults (7 earlier positions: 131 planes an observation;
OpenSpiel's xiangqi observation has 15 planes) and rows with `history=0` (19 planes).
"""

import argparse
import os
import platform
import random
import time


def rate(run, seconds, repeats):
    """The best steps a second of `repeats` runs of run(deadline) -> steps."""
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        steps = run(start + seconds)
        best = max(best, steps / (time.perf_counter() - start))
    return best


def openspiel_loop(game, seed):
    rng = random.Random(seed)

    def run(deadline):
        steps = 0
        state = game.new_initial_state()
        while True:
            if state.is_terminal():
                state = game.new_initial_state()
                if time.perf_counter() > deadline:
                    return steps
            legal = state.legal_actions()
            state.observation_tensor()
            state.apply_action(rng.choice(legal))
            steps += 1
            if steps % 256 == 0 and time.perf_counter() > deadline:
                return steps

    return run


def pettingzoo_loop(env, seed):
    import numpy as np

    rng = random.Random(seed)

    def run(deadline):
        steps = 0
        env.reset(seed=seed)
        while True:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.reset()
                continue
            env.step(rng.choice(obs["action_mask"].view(np.bool_).nonzero()[0]))
            steps += 1
            if steps % 256 == 0 and time.perf_counter() > deadline:
                return steps

    return run


def vector_loop(env, seed):
    def run(deadline):
        steps = 0
        env.reset(seed=seed)
        while time.perf_counter() < deadline:
            env.step(env.sample_actions())
            steps += env.num_envs
        return steps

    return run


def gymnasium_loop(env, seed):
    import numpy as np

    rng = random.Random(seed)

    def run(deadline):
        steps = 0
        _, info = env.reset(seed=seed)
        while time.perf_counter() < deadline:
            action = rng.choice(info["action_mask"].view(np.bool_).nonzero()[0])
            _, _, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                _, info = env.reset()
        return steps

    return run


def empty_openspiel_game():
    """A pyspiel Python game that does nothing: `legal_actions()` answers one fixed list,
    `observation_tensor()` one fixed array, `apply_action` only counts, and a game ends
    after 100 plies. Its rate is pyspiel's own cost for a game written in Python, the
    ceiling for any such game."""
    import numpy as np
    import pyspiel

    game_type = pyspiel.GameType(
        short_name="python_empty_bench", long_name="empty bench game",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=True,
        parameter_specification={})
    legal = list(range(0, 2086, 50))
    tensor = np.zeros(19 * 90, np.float32)

    class State(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self.plies = 0

        def current_player(self):
            return int(pyspiel.PlayerId.TERMINAL) if self.plies >= 100 else self.plies % 2

        def _legal_actions(self, player):
            return legal

        def _apply_action(self, action):
            self.plies += 1

        def is_terminal(self):
            return self.plies >= 100

        def returns(self):
            return [0.0, 0.0]

        def observation_tensor(self, player=None):
            return tensor

    class Game(pyspiel.Game):
        def __init__(self, params=None):
            info = pyspiel.GameInfo(num_distinct_actions=2086, max_chance_outcomes=0,
                                    num_players=2, min_utility=-1.0, max_utility=1.0,
                                    utility_sum=0.0, max_game_length=100)
            super().__init__(game_type, info, params or {})

        def new_initial_state(self):
            return State(self)

    return Game()


def empty_pettingzoo_env():
    """A PettingZoo AEC environment that does nothing: `observe` answers one fixed dict,
    `step` passes the turn, a game ends after 100 plies. Its rate is the AEC protocol's
    own cost in Python (`last()`, `step()`, the reward bookkeeping), the ceiling for any
    environment behind it."""
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv

    mask = np.zeros(2086, np.int8)
    mask[::50] = 1
    obs = {"observation": np.zeros((19, 10, 9), np.float32), "action_mask": mask}

    class Env(AECEnv):
        metadata = {"name": "empty_bench_v0"}

        def __init__(self):
            super().__init__()
            self.possible_agents = ["red", "black"]
            self.action_spaces = {a: spaces.Discrete(2086) for a in self.possible_agents}

        def action_space(self, agent):
            return self.action_spaces[agent]

        def observe(self, agent):
            return obs

        def reset(self, seed=None, options=None):
            self.agents = self.possible_agents[:]
            self.agent_selection = "red"
            self.plies = 0
            self.rewards = dict.fromkeys(self.agents, 0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}

        def step(self, action):
            if self.terminations[self.agent_selection]:
                self._was_dead_step(action)
                return
            self.plies += 1
            if self.plies >= 100:
                for a in self.agents:
                    self.terminations[a] = True
            self.agent_selection = "black" if self.agent_selection == "red" else "red"

    return Env()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n", type=int, default=256, help="games of the vector environment")
    args = parser.parse_args()

    import pyspiel
    import xq
    import xq.envs
    import xq.envs.gymnasium
    import xq.envs.openspiel
    import xq.envs.pettingzoo

    load = os.getloadavg()
    rows = []

    def row(name, run, note=""):
        r = rate(run, args.seconds, args.repeats)
        rows.append((name, r, note))
        print(f"  {name}: {r:,.0f} steps/s", flush=True)

    row("OpenSpiel `xiangqi` (C++)", openspiel_loop(pyspiel.load_game("xiangqi"), 1),
        "15 planes; no repetition rule, games cut at 500 plies")
    row("`python_xq_xiangqi` (xq's OpenSpiel game, history 0)",
        openspiel_loop(pyspiel.load_game("python_xq_xiangqi"), 1), "19 planes")
    row("(an empty Python game in pyspiel)", openspiel_loop(empty_openspiel_game(), 1),
        "pyspiel's own cost for a Python game: the ceiling of the row above")
    row("PettingZoo `env()` (wrapped)", pettingzoo_loop(xq.envs.pettingzoo.env(), 1), "131 planes")
    row("PettingZoo `env(history=0)`", pettingzoo_loop(xq.envs.pettingzoo.env(history=0), 1),
        "19 planes")
    row("PettingZoo `raw_env(history=0)`", pettingzoo_loop(xq.envs.pettingzoo.raw_env(history=0), 1),
        "19 planes, no wrappers")
    row("(an empty PettingZoo AEC environment)", pettingzoo_loop(empty_pettingzoo_env(), 1),
        "the AEC protocol's own cost: the ceiling of `raw_env`")
    from pettingzoo.utils import wrappers

    empty = wrappers.TerminateIllegalWrapper(empty_pettingzoo_env(), illegal_reward=-1)
    empty = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(empty))
    row("(the empty environment wrapped as `env()` is)", pettingzoo_loop(empty, 1),
        "PettingZoo's three wrappers' own cost: the ceiling of `env()`")
    row(f"`VectorXiangqi({args.n})`", vector_loop(xq.envs.VectorXiangqi(args.n), 1), "131 planes")
    row(f"`VectorXiangqi({args.n}, history=0)`",
        vector_loop(xq.envs.VectorXiangqi(args.n, history=0), 1), "19 planes")
    row(f"`VectorXiangqi({args.n}, copy=False)`",
        vector_loop(xq.envs.VectorXiangqi(args.n, copy=False), 1),
        "131 planes, the same arrays overwritten each step")
    gym = xq.envs.gymnasium.XiangqiEnv(opponent_level=0)
    row("Gymnasium `XiangqiEnv(0)`", gymnasium_loop(gym, 1),
        "each step includes the engine's reply (4,000 nodes)")
    gym.close()

    base = rows[0][1]
    print()
    print(f"CPython {platform.python_version()}, xq {xq.__version__}, open_spiel "
          f"{getattr(pyspiel, '__version__', '?')}, {os.cpu_count()} cores, load average "
          f"{load[0]:.2f} before and {os.getloadavg()[0]:.2f} after; best of {args.repeats} "
          f"runs of {args.seconds:g} s")
    print()
    print("| environment | random-play steps/s | vs OpenSpiel C++ | observation |")
    print("|---|---|---|---|")
    for name, r, note in rows:
        print(f"| {name} | {r:,.0f} | {r / base:.1f}x | {note} |")


if __name__ == "__main__":
    main()
