"""A value network learnt in a few minutes on the CPU that beats a uniformly random
player: a small example of xq.envs (NumPy only, no deep-learning library).

    python xq-python/examples/learn_random.py [--minutes 3] [--games 100] [--seed 1]

1. **Random games for data.** ``xq.envs.VectorXiangqi(256)`` plays random games on the
   whole rules (each step one call into Rust for 256 boards, finished games started
   again); positions are sampled with the result of their game from the side to move's
   view (1 won, -1 lost, 0 drawn), discounted by 0.99 a ply before the end.
2. **The network.** A two-layer perceptron (1,260 piece-square inputs: the side to
   move's pieces and the other side's, seen from the side to move, as
   ``Board.planes(relative=True)`` has them; 64 hidden units; tanh output) fitted to
   those results by Adam on the squared error.
3. **Games against the random player, learnt from too.** The network plays by one ply of
   look-ahead: every legal move is made on a copy, the position after it valued by the
   network from the opponent's side (a move that ends the game is valued by the rules:
   a mate or a stalemate wins, a perpetual check or chase loses, a repetition or the
   60-move rule draws), and the best taken; a move is worth no more than the worst of
   the opponent's replies that end the game leaves (one more ply, for those alone).
   Its games against the random player (with a little exploration) are added to the data
   and the network is fitted again, while the time lasts.
4. **The match**: ``--games`` games against a uniformly random player, half as Red and
   half as Black, to the end by the rules (no cap on their length); wins, draws and
   losses are printed with how the games ended.

Needs NumPy (``pip install "xq-xiangqi[numpy]"``). The run is the same for the same seed,
but for how much training the time allows.
"""

import argparse
import collections
import os
import time

# The matrices are small: one BLAS thread is faster than several (and much faster on a
# busy machine). Set before NumPy loads its BLAS.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import xq  # noqa: E402
import xq.envs  # noqa: E402

# The piece planes (14 x 90), two repetition inputs (the position occurred once, twice
# before: going round in circles draws) and three of the side to move's mobility (its
# legal moves / 40, at most 5, at most 2: a general with nowhere to go is near mate).
N_FEATURES = 14 * 90 + 2 + 3
# A result is discounted by this much a ply before the end: a win sooner is worth more,
# which teaches the network to press on to mate rather than wander into the 60-move rule.
DISCOUNT = 0.99


class Network:
    """A 1,260-64-1 perceptron, ReLU then tanh, trained by Adam on the squared error."""

    def __init__(self, rng, hidden=64):
        self.params = [
            rng.normal(0.0, 1.0 / np.sqrt(N_FEATURES), (N_FEATURES, hidden)).astype(np.float32),
            np.zeros(hidden, np.float32),
            rng.normal(0.0, 1.0 / np.sqrt(hidden), (hidden, 1)).astype(np.float32),
            np.zeros(1, np.float32),
        ]
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.params]
        self.steps = 0

    def value(self, x):
        w1, b1, w2, b2 = self.params
        return np.tanh(np.maximum(x @ w1 + b1, 0.0) @ w2 + b2)[:, 0]

    def train_batch(self, x, z, lr=1e-3):
        w1, b1, w2, b2 = self.params
        h = np.maximum(x @ w1 + b1, 0.0)
        v = np.tanh(h @ w2 + b2)[:, 0]
        dv = ((v - z) * (1.0 - v * v) / len(z))[:, None].astype(np.float32)
        dh = (dv @ w2.T) * (h > 0)
        grads = [x.T @ dh, dh.sum(0), h.T @ dv, dv.sum(0)]
        self.steps += 1
        for p, g, (m, s) in zip(self.params, grads, self.moments):
            m *= 0.9
            m += 0.1 * g
            s *= 0.999
            s += 0.001 * g * g
            p -= lr * (m / (1 - 0.9 ** self.steps)) / (np.sqrt(s / (1 - 0.999 ** self.steps)) + 1e-8)
        return float(np.mean((v - z) ** 2))

    def fit(self, x, z, rng, epochs, batch=256):
        loss = 0.0
        for _ in range(epochs):
            order = rng.permutation(len(z))
            for i in range(0, len(order) - batch + 1, batch):
                pick = order[i:i + batch]
                loss = self.train_batch(x[pick].astype(np.float32), z[pick])
        return loss


def features(boards):
    """The inputs of each board, seen by its side to move (float32)."""
    return inputs(xq.planes_batch(boards, relative=True), xq.legal_masks(boards).sum(axis=1))


def inputs(planes, mobility):
    """The inputs from planes in ``Board.planes``' layout (pieces 0-13, repetitions
    15-16) and the number of legal moves."""
    n = len(planes)
    mobility = np.asarray(mobility, np.float32)[:, None]
    return np.concatenate([
        planes[:, :14].reshape(n, -1), planes[:, 15:17, 0, 0],
        np.minimum(mobility, 40.0) / 40.0, mobility <= 5, mobility <= 2,
    ], axis=1).astype(np.float32)


def random_game_data(seconds, rng, keep=0.05, n=256):
    """(features, results) of positions of random games played for `seconds`."""
    env = xq.envs.VectorXiangqi(n, history=0)
    obs, masks = env.reset(seed=int(rng.integers(2**63)))
    pending = [[] for _ in range(n)]   # (features, red to move, ply) of each game so far
    plies = np.zeros(n, np.int64)
    xs, zs = [], []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        take = np.flatnonzero(rng.random(n) < keep)
        if len(take):
            # The environment's layout (history 0): pieces 0-13, repetitions 14-15, Red
            # to move 16; put in Board.planes' order for `from_planes`.
            planes = np.concatenate([obs[take, :14], obs[take, 16:17], obs[take, 14:16]], axis=1)
            for i, x in zip(take, inputs(planes, masks[take].sum(axis=1))):
                pending[i].append((x.astype(np.float16), obs[i, 16, 0, 0] == 1.0, plies[i]))
        obs, masks, _, dones = env.step(env.sample_actions())
        plies += 1
        for i in np.flatnonzero(dones):
            winner = int(env.infos["winner"][i])    # 1 Red, -1 Black, 0 a draw
            for x, red, ply in pending[i]:
                xs.append(x)
                zs.append(float(winner if red else -winner) * DISCOUNT ** (plies[i] - ply))
            pending[i] = []
            plies[i] = 0
    return xs, zs


def choose(net, board, rng, explore=0.0):
    """The move of one ply of look-ahead with the network (a random one with probability
    `explore`)."""
    moves = board.legal_moves
    if explore and rng.random() < explore:
        return moves[int(rng.integers(len(moves)))]
    me = board.turn
    children, values, open_ = [], np.zeros(len(moves)), []
    for i, move in enumerate(moves):
        child = board.copy()
        child.push(move)
        outcome = child.outcome()
        if outcome is None:
            children.append(child)
            open_.append(i)
        else:
            values[i] = 0.0 if outcome.winner is None else (2.0 if outcome.winner == me else -2.0)
    if children:
        values[open_] = -net.value(features(children))
    # One more ply for the replies that end the game: a move is worth no more than the
    # worst game-ending reply leaves (a loss -2, a draw 0: a repetition the opponent can
    # complete). Moves are looked at best first, until none left can be better.
    order = np.argsort(-values + rng.random(len(moves)) * 1e-6)
    best, best_value = order[0], -np.inf
    for i in order:
        if values[i] <= best_value:
            break
        value = values[i] if abs(values[i]) >= 2.0 else min(values[i], worst_ending(board, moves[i]))
        if value > best_value:
            best, best_value = i, value
    return moves[int(best)]


def worst_ending(board, move):
    """The worst, for the side to move, of the opponent's replies to `move` that end the
    game (-2 a loss, 0 a draw), or +inf if none does."""
    child = board.copy()
    child.push(move)
    me = board.turn
    worst = np.inf
    for reply in child.legal_moves:
        child.push(reply)
        outcome = child.outcome()
        child.pop()
        if outcome is not None:
            worst = min(worst, 0.0 if outcome.winner is None else (2.0 if outcome.winner == me else -2.0))
            if worst <= -2.0:
                break
    return worst


def play(net, rng, net_is_red, explore=0.0, record=None):
    """A game of the network against a uniformly random player to the end by the rules;
    returns its outcome. With `record`, the positions and results go there."""
    board = xq.Board()
    seen = []
    while (outcome := board.outcome()) is None:
        if record is not None:
            seen.append((features([board])[0].astype(np.float16), board.turn, board.ply()))
        if board.turn == net_is_red:
            board.push(choose(net, board, rng, explore))
        else:
            moves = board.legal_moves
            board.push(moves[int(rng.integers(len(moves)))])
    if record is not None:
        winner = 0 if outcome.winner is None else (1 if outcome.winner else -1)
        for x, red, ply in seen:
            record[0].append(x)
            record[1].append(float(winner if red else -winner) * DISCOUNT ** (board.ply() - ply))
    return outcome, board.ply()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--games", type=int, default=100, help="games of the final match")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    budget = 60.0 * args.minutes

    xs, zs = random_game_data(0.15 * budget, rng)
    print(f"{len(zs):,} positions of random games ({time.perf_counter() - start:.0f} s)", flush=True)
    net = Network(rng)
    loss = net.fit(np.array(xs), np.array(zs, np.float32), rng, epochs=2)
    print(f"fitted: loss {loss:.3f} ({time.perf_counter() - start:.0f} s)", flush=True)

    rounds = 0
    while time.perf_counter() - start < budget:
        record = (xs, zs)
        results = collections.Counter()
        for g in range(8):
            outcome, _ = play(net, rng, net_is_red=g % 2 == 0, explore=0.1, record=record)
            mine = outcome.winner is not None and outcome.winner == (g % 2 == 0)
            results["win" if mine else ("draw" if outcome.winner is None else "loss")] += 1
        recent = slice(max(0, len(zs) - 50_000), len(zs))
        loss = net.fit(np.array(xs[recent]), np.array(zs[recent], np.float32), rng, epochs=1)
        rounds += 1
        print(f"round {rounds}: {dict(results)} against the random player, loss {loss:.3f}, "
              f"{len(zs):,} positions ({time.perf_counter() - start:.0f} s)", flush=True)
    print(f"trained for {time.perf_counter() - start:.0f} s")

    tally, how = collections.Counter(), collections.Counter()
    lengths = []
    for g in range(args.games):
        red = g % 2 == 0
        outcome, plies = play(net, rng, net_is_red=red)
        lengths.append(plies)
        mine = outcome.winner is not None and outcome.winner == red
        tally["win" if mine else ("draw" if outcome.winner is None else "loss")] += 1
        how[str(outcome.termination)] += 1
    print(f"against a uniformly random player, {args.games} games (half as Red): "
          f"{tally['win']} won, {tally['draw']} drawn, {tally['loss']} lost; "
          f"{tally['win'] / args.games:.0%} won; ended by {dict(how)}; "
          f"{np.mean(lengths):.0f} plies on average")


if __name__ == "__main__":
    main()
