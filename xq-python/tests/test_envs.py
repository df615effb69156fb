"""The reinforcement-learning environments, xq.envs: PettingZoo's own API and seed tests,
Gymnasium's env checker, OpenSpiel's random simulation test and its MCTS bot, the vector
environment's auto-reset and masks, and the rules ending games in each of them (the
perpetual check and chase rulings of data/repetition.epd, the 120-ply rule).

Each library's tests skip when it is not installed (CI installs pettingzoo, gymnasium
and open_spiel)."""

import random
import warnings

import numpy as np
import pytest

import xq
import xq.envs
from conftest import repetition_cases

# The 41 rulings of data/repetition.epd (perpetual check, perpetual chase, draws).
CASES = repetition_cases()
CASE_IDS = [f"line{c['line']}-{c['kind']}" for c in CASES]
RESULT_OF = {"red-wins": "1-0", "black-wins": "0-1", "draw": "1/2-1/2"}

# Red's chariot checks the black general on every move (i9 and i8) and each reply is
# forced (d9-d8-d9: d7 is Black's own cannon, e8 and e9 face Red's general): at the ninth
# ply the position occurs for the third time and Red loses by perpetual check.
FORCED_PERPETUAL = "3k5/9/3c4R/9/9/9/9/9/9/4K4 w - - 0 1"
FORCED_MOVES = "i7i9 d9d8 i9i8 d8d9 i8i9 d9d8 i9i8 d8d9 i8i9".split()

# 118 plies without a capture: two more quiet moves reach the 120-ply rule (a draw).
MOVE_RULE_FEN = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 118 70"
MOVE_RULE_MOVES = ["a0a1", "d9d8"]


def actions_of(fen, moves, relative=True):
    """The action of each move of a game from fen, in its mover's frame when relative."""
    board = xq.Board(fen)
    out = []
    for text in moves:
        move = xq.Move.from_iccs(text)
        out.append(xq.envs.move_to_action(board, move, relative=relative))
        board.push(move)
    return out


# --- the shared observation ----------------------------------------------------------------


def test_the_observation_holds_the_planes_of_the_position_and_of_the_ones_before():
    rng = random.Random(7)
    board = xq.Board()
    for _ in range(30):
        board.push(rng.choice(board.legal_moves))
    for observer in (xq.RED, xq.BLACK):
        obs, mask = xq.envs.observation(board, observer, history=3, relative=True)
        assert obs.shape == (16 * 4 + 3, 10, 9) == (xq.envs.n_planes(3), 10, 9)
        assert obs.dtype == np.float32 and mask.dtype == np.int8 and mask.shape == (2086,)
        if observer == board.turn:
            assert np.array_equal(obs[:14], board.planes(relative=True)[:14])
            assert np.array_equal(mask.astype(bool), board.legal_mask(relative=True))
        else:
            assert not mask.any()
        # Frame t is frame 0 of the board t plies back, seen by the same observer.
        earlier = board.copy()
        for t in range(1, 4):
            earlier.pop()
            back, _ = xq.envs.observation(earlier, observer, history=0)
            assert np.array_equal(obs[16 * t:16 * t + 16], back[:16])
        assert (obs[64] == float(board.turn)).all() and (obs[65] == float(observer)).all()
        assert np.array_equal(obs[66], board.planes()[17])
    # Without relative: Red's pieces first, nothing mirrored, whoever observes.
    obs, _ = xq.envs.observation(board, xq.BLACK, history=0, relative=False)
    planes = board.planes()
    assert np.array_equal(obs[:14], planes[:14])
    assert np.array_equal(obs[16], planes[14]) and np.array_equal(obs[18], planes[17])


def test_the_observation_counts_repetitions_and_a_game_start_is_zeros():
    board = xq.Board()
    obs, _ = xq.envs.observation(board, history=2)
    assert not obs[16:48].any()                   # no position before the start
    for text in "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9".split():
        board.push(xq.Move.from_iccs(text))
    obs, _ = xq.envs.observation(board, history=2)
    assert obs[14].all() and obs[15].all()        # the start, now for the third time
    assert obs[16 + 14].all() and not obs[16 + 15].any()   # g7h9 before: twice in all
    with pytest.raises(xq.InvalidArgument, match="history"):
        xq.envs.observation(board, history=65)
    with pytest.raises(xq.InvalidArgument, match="history"):
        xq.envs.observation(board, history=-1)


def test_actions_are_read_in_the_movers_frame():
    board = xq.Board()
    board.push(xq.Move.from_iccs("h2e2"))
    move = xq.Move.from_iccs("h9g7")
    action = xq.envs.move_to_action(board, move)
    assert action == xq.mirror_index(xq.move_to_index(move))
    assert xq.envs.action_to_move(board, action) == move
    assert xq.envs.move_to_action(board, move, relative=False) == xq.move_to_index(move)


# --- PettingZoo ------------------------------------------------------------------------------


@pytest.fixture
def pz():
    pytest.importorskip("pettingzoo")
    import xq.envs.pettingzoo

    return xq.envs.pettingzoo


def test_pettingzoo_api_test_passes(pz):
    from pettingzoo.test import api_test

    api_test(pz.env(), num_cycles=300)
    api_test(pz.raw_env(history=1, relative=False, render_mode="ansi", max_plies=60), num_cycles=300)


def test_pettingzoo_seed_test_passes_and_the_seed_chooses_the_opening(pz):
    from pettingzoo.test import seed_test

    seed_test(lambda: pz.env(random_plies=6, history=1), num_cycles=50)
    openings = set()
    for seed in range(4):
        game = pz.env(random_plies=6)
        game.reset(seed=seed)
        again = pz.env(random_plies=6)
        again.reset(seed=seed)
        assert game.unwrapped.board.fen() == again.unwrapped.board.fen()
        assert game.unwrapped.board.ply() == 6
        openings.add(game.unwrapped.board.fen())
    assert len(openings) > 1


def test_pettingzoo_spaces_masks_and_render(pz):
    game = pz.env(render_mode="ansi")
    game.reset(seed=0)
    assert game.possible_agents == ["red", "black"] and game.agent_selection == "red"
    space = game.observation_space("black")
    assert space["observation"].shape == (131, 10, 9) and space["action_mask"].dtype == np.int8
    assert game.action_space("red").n == 2086
    assert not game.observe("black")["action_mask"].any()
    obs, reward, terminated, truncated, info = game.last()
    assert obs["action_mask"].sum() == 44 and reward == 0 and not terminated
    assert "R N B A K A B N R" in game.render()
    # Black's actions are mirrored: the mirror of h2e2 is Black's h7e7.
    game.step(xq.move_to_index(xq.Move.from_iccs("h2e2")))
    game.step(xq.move_to_index(xq.Move.from_iccs("h2e2")))
    assert [m.iccs() for m in game.unwrapped.board.move_stack] == ["h2e2", "h7e7"]


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_pettingzoo_ends_repetitions_as_the_rules_say(pz, case):
    game = pz.raw_env(fen=case["fen"], history=2)
    game.reset()
    for action in actions_of(case["fen"], case["moves"]):
        assert not any(game.terminations.values())
        game.step(action)
    assert all(game.terminations.values()) and not any(game.truncations.values())
    info = game.infos["red"]
    assert info["result"] == RESULT_OF[case["result"]]
    red = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}[info["result"]]
    assert (game._cumulative_rewards["red"], game._cumulative_rewards["black"]) == (red, -red)
    if case["result"] == "draw":
        assert info["termination"] == "repetition"
    else:
        assert info["termination"] in ("perpetual-check", "perpetual-chase")


def test_pettingzoo_perpetual_check_through_the_wrapped_env(pz):
    game = pz.env(fen=FORCED_PERPETUAL)
    game.reset()
    rewards = {"red": 0, "black": 0}
    for action in actions_of(FORCED_PERPETUAL, FORCED_MOVES):
        game.step(action)
    for agent in game.agent_iter():
        _, reward, terminated, truncated, info = game.last()
        rewards[agent] = reward
        assert terminated and not truncated and info["termination"] == "perpetual-check"
        game.step(None)
    assert rewards == {"red": -1, "black": 1}


def test_pettingzoo_the_120_ply_rule_terminates_and_max_plies_truncates(pz):
    game = pz.raw_env(fen=MOVE_RULE_FEN)
    game.reset()
    for action in actions_of(MOVE_RULE_FEN, MOVE_RULE_MOVES):
        game.step(action)
    assert all(game.terminations.values()) and not any(game.truncations.values())
    assert game.infos["black"]["termination"] == "60-move-rule"
    assert game._cumulative_rewards == {"red": 0, "black": 0}
    game = pz.raw_env(max_plies=3)
    game.reset()
    for _ in range(3):
        assert not any(game.truncations.values())
        game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0]))
    assert all(game.truncations.values()) and not any(game.terminations.values())


def test_pettingzoo_illegal_actions(pz):
    game = pz.env()
    game.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the wrapper warns that the action was illegal
        game.step(0)                      # a0b0: Red's own horse stands on b0
    assert game.rewards == {"red": -1, "black": 0}
    assert all(game.terminations.values())
    raw = pz.raw_env()
    raw.reset()
    with pytest.raises(xq.IllegalMove, match="action 0"):
        raw.step(0)
    assert raw.board.ply() == 0
    with pytest.raises(xq.InvalidArgument):
        pz.raw_env(history=100)
    with pytest.raises(xq.InvalidArgument, match="max_plies"):
        pz.raw_env(max_plies=0)
    with pytest.raises(xq.InvalidArgument, match="render_mode"):
        pz.raw_env(render_mode="human")
    with pytest.raises(xq.InvalidFen):
        pz.raw_env(fen="not a fen")


# --- Gymnasium ------------------------------------------------------------------------------


@pytest.fixture
def gym():
    pytest.importorskip("gymnasium")
    import xq.envs.gymnasium

    return xq.envs.gymnasium


def test_gymnasium_check_env_passes(gym):
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(gym.ENV_ID, render_mode="ansi").unwrapped)
    check_env(gym.XiangqiEnv(opponent_level=3, color="black", history=1))


def play_out(env, seed, rng_seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    trace = [env.board.fen()]
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append(env.board.fen())
        if terminated or truncated:
            return trace, reward, info, obs


def test_gymnasium_the_seed_makes_the_opponent_reproducible(gym):
    a = play_out(gym.XiangqiEnv(opponent_level=0, max_plies=60), seed=3, rng_seed=1)
    b = play_out(gym.XiangqiEnv(opponent_level=0, max_plies=60), seed=3, rng_seed=1)
    assert a[0] == b[0] and a[1] == b[1] and np.array_equal(a[3], b[3])
    c = play_out(gym.XiangqiEnv(opponent_level=0, max_plies=60), seed=4, rng_seed=1)
    assert a[0] != c[0]   # level 0 chooses at random among its eight lines


def test_gymnasium_black_and_the_masks(gym):
    env = gym.XiangqiEnv(opponent_level=20, color="black", opponent_limit=xq.engine.Limit(nodes=500))
    obs, info = env.reset(seed=0)
    assert env.board.ply() == 1 and not env.board.turn        # the engine opened as Red
    assert np.array_equal(info["action_mask"].astype(bool), env.board.legal_mask(relative=True))
    assert np.array_equal(env.action_masks(), env.board.legal_mask(relative=True))
    assert np.array_equal(obs[:14], env.board.planes(relative=True)[:14])
    assert not obs[-2].any()                                   # the observer is Black
    env.close()


def test_gymnasium_illegal_actions_lose_or_raise(gym):
    env = gym.XiangqiEnv()
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] and info["termination"] == "illegal-action"
    assert env.board.ply() == 0
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env = gym.XiangqiEnv(illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(xq.IllegalMove):
        env.step(0)
    assert env.board.ply() == 0
    with pytest.raises(xq.InvalidArgument):
        gym.XiangqiEnv(color="blue")
    with pytest.raises(xq.InvalidOption):
        gym.XiangqiEnv(opponent_level=21)


def test_gymnasium_perpetual_check_loses_for_the_agent(gym):
    env = gym.XiangqiEnv(opponent_level=20, fen=FORCED_PERPETUAL, opponent_limit=xq.engine.Limit(nodes=200))
    env.reset(seed=0)
    actions = actions_of(FORCED_PERPETUAL, FORCED_MOVES)[::2]     # Red's moves
    for i, action in enumerate(actions):
        obs, reward, terminated, truncated, info = env.step(action)
        assert terminated == (i == len(actions) - 1)
    assert reward == -1.0 and info["termination"] == "perpetual-check"
    assert info["outcome"] == "0-1 perpetual check by red"


def test_gymnasium_the_120_ply_rule_terminates(gym):
    env = gym.XiangqiEnv(fen=MOVE_RULE_FEN, opponent_limit=xq.engine.Limit(nodes=200))
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(actions_of(MOVE_RULE_FEN, ["a0a1"])[0])
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert info["termination"] == "60-move-rule" and info["result"] == "1/2-1/2"


# --- OpenSpiel ------------------------------------------------------------------------------


@pytest.fixture
def spiel():
    pyspiel = pytest.importorskip("pyspiel")
    import xq.envs.openspiel  # noqa: F401  (registers the game)

    return pyspiel


def test_openspiel_random_sim_test_passes(spiel):
    game = spiel.load_game("python_xq_xiangqi")
    assert game.num_distinct_actions() == 2086 and game.max_game_length() == 1000
    spiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    short = spiel.load_game("python_xq_xiangqi", {"max_plies": 40, "history": 1})
    spiel.random_sim_test(short, num_sims=5, serialize=False, verbose=False)
    assert short.observation_tensor_shape() == [35, 10, 9]


def test_openspiel_states_are_xq_boards(spiel):
    game = spiel.load_game("python_xq_xiangqi")
    state = game.new_initial_state()
    assert state.legal_actions() == sorted(xq.Board().legal_indices())
    clone = state.clone()
    clone.apply_action(xq.move_to_index(xq.Move.from_iccs("h2e2")))
    assert state.board.ply() == 0 and clone.current_player() == 1
    assert clone.board.fen() == str(clone) and clone.action_to_string(1, 0) == "a0b0"
    obs, _ = xq.envs.observation(clone.board, xq.BLACK, history=0, relative=False)
    assert np.array_equal(np.array(clone.observation_tensor(1)), obs.reshape(-1))
    # The state's own observation_tensor and OpenSpiel's generic observer agree.
    generic = np.array(spiel.State.observation_tensor(clone, 1))
    assert np.array_equal(generic, clone.observation_tensor(1))
    with pytest.raises(Exception, match="not legal"):
        clone.apply_action(0)


def test_openspiel_mcts_plays_a_game_to_the_end(spiel):
    from open_spiel.python.algorithms import mcts

    game = spiel.load_game("python_xq_xiangqi")
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=30)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=30, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    outcome = state.outcome()
    assert outcome is not None                          # the rules ended it, not max_plies
    red = {"1-0": 1.0, "0-1": -1.0, "1/2-1/2": 0.0}[outcome.result()]
    assert state.returns() == [red, -red]


@pytest.mark.parametrize("case", CASES[:12], ids=CASE_IDS[:12])
def test_openspiel_ends_repetitions_as_the_rules_say(spiel, case):
    game = spiel.load_game("python_xq_xiangqi", {"fen": case["fen"]})
    state = game.new_initial_state()
    for action in actions_of(case["fen"], case["moves"], relative=False):
        assert not state.is_terminal()
        state.apply_action(action)
    assert state.is_terminal() and state.outcome().result() == RESULT_OF[case["result"]]
    red = {"1-0": 1.0, "0-1": -1.0, "1/2-1/2": 0.0}[RESULT_OF[case["result"]]]
    assert state.returns() == [red, -red]


def test_openspiel_the_120_ply_rule_and_max_plies(spiel):
    game = spiel.load_game("python_xq_xiangqi", {"fen": MOVE_RULE_FEN})
    state = game.new_initial_state()
    for action in actions_of(MOVE_RULE_FEN, MOVE_RULE_MOVES, relative=False):
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.outcome().termination == xq.Termination.MOVE_RULE
    state = spiel.load_game("python_xq_xiangqi", {"max_plies": 2}).new_initial_state()
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.outcome() is None and state.returns() == [0.0, 0.0]


# --- the vector environment -----------------------------------------------------------------


def test_vector_reset_gives_the_start_and_the_masks_of_the_side_to_move():
    env = xq.envs.VectorXiangqi(4, history=1)
    obs, masks = env.reset(seed=1)
    assert obs.shape == (4, 35, 10, 9) and obs.dtype == np.float32
    assert masks.shape == (4, 2086) and masks.dtype == np.int8 and (masks.sum(axis=1) == 44).all()
    start, _ = xq.envs.observation(xq.Board(), history=1)
    assert all(np.array_equal(o, start) for o in obs)
    actions = env.sample_actions()
    obs, masks, rewards, dones = env.step(actions)
    boards = env.boards()
    assert all(b.ply() == 1 for b in boards) and not dones.any() and not rewards.any()
    # Black to move: the masks and actions in Black's frame.
    assert np.array_equal(masks.astype(bool), xq.legal_masks(boards, relative=True))
    assert np.array_equal(obs[:, :14], xq.planes_batch(boards, relative=True)[:, :14])


def test_vector_auto_resets_finished_games():
    mate_in_one = "3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1"   # a1d1 mates
    env = xq.envs.VectorXiangqi(3, history=0, fen=mate_in_one)
    obs0, _ = env.reset()
    mate = xq.envs.move_to_action(xq.Board(mate_in_one), xq.Move.from_iccs("a1d1"))
    quiet = xq.envs.move_to_action(xq.Board(mate_in_one), xq.Move.from_iccs("a1a2"))
    obs, masks, rewards, dones = env.step([mate, quiet, mate])
    assert dones.tolist() == [True, False, True]
    assert rewards.tolist() == [1.0, 0.0, 1.0]
    assert env.infos["termination"] == ["checkmate", None, "checkmate"]
    assert env.infos["winner"].tolist() == [1, 0, 1] and not env.infos["truncated"].any()
    boards = env.boards()
    assert [b.ply() for b in boards] == [0, 1, 0]   # the finished games started again
    assert np.array_equal(obs[0], obs0[0]) and np.array_equal(obs[2], obs0[2])
    assert masks[0].sum() == masks[2].sum() == len(xq.Board(mate_in_one).legal_moves)
    assert masks[1].sum() == len(boards[1].legal_moves)


def test_vector_rules_truncation_and_illegal_actions():
    env = xq.envs.VectorXiangqi(2, fen=FORCED_PERPETUAL, history=0)
    env.reset()
    for i, action in enumerate(actions_of(FORCED_PERPETUAL, FORCED_MOVES)):
        _, _, rewards, dones = env.step([action, action])
        assert dones.all() == (i == len(FORCED_MOVES) - 1)
    assert rewards.tolist() == [-1.0, -1.0]   # the mover, Red, loses by perpetual check
    assert env.infos["termination"] == ["perpetual-check"] * 2
    assert env.infos["winner"].tolist() == [-1, -1]
    env = xq.envs.VectorXiangqi(2, fen=MOVE_RULE_FEN, history=0)
    env.reset()
    for action in actions_of(MOVE_RULE_FEN, MOVE_RULE_MOVES):
        _, _, rewards, dones = env.step([action, action])
    assert dones.all() and env.infos["termination"] == ["60-move-rule"] * 2 and not rewards.any()
    env = xq.envs.VectorXiangqi(2, max_plies=2, history=0)
    env.reset()
    env.step(env.sample_actions())
    _, _, _, dones = env.step(env.sample_actions())
    assert dones.all() and env.infos["truncated"].all()
    assert env.infos["termination"] == ["max-plies"] * 2
    env.reset()
    legal = env.sample_actions()
    with pytest.raises(xq.IllegalMove, match="game 1"):
        env.step([legal[0], 0])
    assert [b.ply() for b in env.boards()] == [0, 0]   # all or nothing
    with pytest.raises(ValueError, match="2 games but 3 actions"):
        env.step([0, 0, 0])
    with pytest.raises(ValueError, match="not an action index"):
        env.step([legal[0], 5000])
    with pytest.raises(xq.InvalidArgument):
        xq.envs.VectorXiangqi(0)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_vector_ends_repetitions_as_the_rules_say(case):
    env = xq.envs.VectorXiangqi(1, fen=case["fen"], history=0)
    env.reset()
    for action in actions_of(case["fen"], case["moves"]):
        assert not env.boards()[0].is_game_over()
        _, _, rewards, dones = env.step([action])
    winner = {"red-wins": 1, "black-wins": -1, "draw": 0}[case["result"]]
    assert dones[0] and env.infos["winner"][0] == winner


def test_vector_random_play_keeps_every_action_legal():
    env = xq.envs.VectorXiangqi(16, max_plies=300, history=2)
    env.reset(seed=3)
    finished = 0
    for _ in range(400):
        _, _, rewards, dones = env.step(env.sample_actions())   # IllegalMove if not
        finished += int(dones.sum())
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
    assert finished > 0
    # The frames the games keep are the positions the boards took back would show.
    obs, masks = env.observe()
    for o, m, board in zip(obs, masks, env.boards()):
        expected, mask = xq.envs.observation(board, history=2)
        assert np.array_equal(o, expected) and np.array_equal(m, mask)


def test_vector_sampling_is_seeded():
    a, b = xq.envs.VectorXiangqi(4, history=0), xq.envs.VectorXiangqi(4, history=0)
    a.reset(seed=9)
    b.reset(seed=9)
    for _ in range(20):
        actions = a.sample_actions()
        assert np.array_equal(actions, b.sample_actions()) and actions.dtype == np.int64
        a.step(actions)
        b.step(actions)
    assert [x.fen() for x in a.boards()] == [x.fen() for x in b.boards()]


@pytest.mark.parametrize("history", [0, 3])
@pytest.mark.parametrize("relative", [True, False])
def test_vector_without_copy_overwrites_the_same_arrays_with_the_same_values(history, relative):
    # Short games (max_plies) so that finished games start again many times, and a
    # start where the generals shuffle so that repetition planes come and go.
    fresh = xq.envs.VectorXiangqi(8, history=history, relative=relative, max_plies=40)
    kept = xq.envs.VectorXiangqi(8, history=history, relative=relative, max_plies=40, copy=False)
    obs0, masks0 = kept.reset(seed=5)
    expected = fresh.reset(seed=5)
    assert np.array_equal(obs0, expected[0]) and np.array_equal(masks0, expected[1])
    held = obs0.copy()
    for _ in range(150):
        actions = fresh.sample_actions()
        assert np.array_equal(actions, kept.sample_actions())
        new_obs, new_masks, rewards, dones = fresh.step(actions)
        obs, masks, kept_rewards, kept_dones = kept.step(actions)
        assert obs is obs0 and masks is masks0          # the same two arrays...
        assert np.array_equal(obs, new_obs)             # ...holding what new ones hold
        assert np.array_equal(masks, new_masks)
        assert np.array_equal(rewards, kept_rewards) and np.array_equal(dones, kept_dones)
    assert not np.array_equal(held, obs0)               # a copy kept is not overwritten
    assert kept.observe()[0] is obs0
    again, _ = kept.reset()
    assert again is obs0 and np.array_equal(again, fresh.reset()[0])
    assert "copy False" in repr(kept)


def test_vector_without_copy_shows_repetitions_and_clears_them():
    # The generals step back and forth: the repetition planes fill, then the game is
    # cut and started again, and the kept arrays must show the fresh start exactly.
    fen = "4k4/9/9/p8/9/9/8P/9/9/3K5 w - - 0 1"
    shuffle = [xq.Move.from_iccs(m) for m in ["d0d1", "e9e8", "d1d0", "e8e9"] * 2]
    fresh = xq.envs.VectorXiangqi(1, history=1, fen=fen, max_plies=8)
    kept = xq.envs.VectorXiangqi(1, history=1, fen=fen, max_plies=8, copy=False)
    fresh.reset()
    kept.reset()
    seen_repetition = False
    for m in shuffle:
        board = fresh.boards()[0]
        action = xq.envs.move_to_action(board, m)
        new_obs, _, _, _ = fresh.step([action])
        obs, _, _, _ = kept.step([action])
        assert np.array_equal(obs, new_obs)
        seen_repetition |= bool(obs[0, 14].all())
    assert seen_repetition
