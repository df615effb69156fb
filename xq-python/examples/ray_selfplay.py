"""Self-play data generation with xq, as Ray tasks over a cluster (or in one process).

Each game starts from a random opening drawn from its seed (a few random legal moves),
then xq's engine plays both sides at a fixed number of nodes, one search thread and a
fresh table per game, so a game depends on its seed alone: the same seeds give the same
records on one machine or spread over many, in any order. Every position of a finished
game becomes a line of training data in the `xq datagen` format
(`FEN | score | result`, Red's point of view; `xq.read_datagen` reads it back, and
`xq tune` fits the evaluation to it).

    python ray_selfplay.py --games 8 --nodes 2000 --out selfplay.txt          # one process
    python ray_selfplay.py --games 8 --nodes 2000 --out selfplay.txt --ray    # Ray, local
    python ray_selfplay.py --games 800 --ray --address auto --out data.txt     # a Ray cluster

Ray is used as it is (`pip install ray`): each game is one `ray.remote` task.
"""

import argparse
import random
import sys
from typing import Dict, List, Optional

import xq
import xq.engine

RESULT_FOR_RED = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
# A mate score in the data: large, but ordered by the distance to mate.
MATE_CP = 30_000


def opening(seed: int, plies: int = 6) -> xq.Board:
    """A board after `plies` random legal moves drawn from `seed`."""
    rng = random.Random(seed)
    board = xq.Board()
    for _ in range(plies):
        moves = board.legal_moves
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    return board


def red_cp(score: xq.engine.PovScore) -> int:
    """A score as centipawns from Red's view (a mate in n moves is MATE_CP - n)."""
    cp = score.red().score(mate_score=MATE_CP)
    assert cp is not None
    return cp


def play_game(seed: int, nodes: int = 2000, max_plies: int = 200) -> Dict:
    """One self-play game from the opening of `seed`: its moves, result, termination and
    the (FEN, Red's score) of every position the engine searched."""
    engine = xq.Engine(threads=1, hash_mb=16)
    board = opening(seed)
    start = board.copy(stack=False)
    book = len(board.move_stack)
    positions = []
    while board.outcome() is None and len(board.move_stack) < max_plies:
        info = engine.analyse(board, nodes=nodes)
        positions.append((board.fen(), red_cp(info["score"])))
        board.push(info["pv"][0])
    outcome = board.outcome()
    return {
        "seed": seed,
        "start": start.fen(),
        "moves": [m.iccs() for m in board.move_stack[book:]],
        "result": outcome.result() if outcome else "*",
        "termination": outcome.termination.value if outcome else None,
        "positions": positions,
    }


def datagen_lines(game: Dict) -> List[str]:
    """The training lines of a finished game (none for an unfinished one)."""
    result = RESULT_FOR_RED.get(game["result"])
    if result is None:
        return []
    return [f"{fen} | {cp} | {result:.1f}" for fen, cp in game["positions"]]


def run_local(seeds: List[int], nodes: int, max_plies: int) -> List[Dict]:
    """The games one after the other in this process."""
    return [play_game(s, nodes, max_plies) for s in seeds]


def run_ray(
    seeds: List[int],
    nodes: int,
    max_plies: int,
    address: Optional[str] = None,
    num_cpus: Optional[int] = None,
) -> List[Dict]:
    """The games as Ray tasks, one task a game, returned in the order of `seeds`.
    Starts a local Ray instance (with `num_cpus` workers) unless one is running or
    `address` names a cluster."""
    import ray

    if __name__ != "__main__":
        # Imported as a module the workers cannot import: send its code along.
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    task = ray.remote(num_cpus=1)(play_game)
    return ray.get([task.remote(s, nodes, max_plies) for s in seeds])


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed + i")
    p.add_argument("--nodes", type=int, default=2000, help="nodes per move")
    p.add_argument("--max-plies", type=int, default=200, help="an unfinished game stops here")
    p.add_argument("--ray", action="store_true", help="run the games as Ray tasks")
    p.add_argument("--address", default=None, help="a Ray cluster's address (default: a local instance)")
    p.add_argument("--num-cpus", type=int, default=None, help="workers of a local Ray instance")
    p.add_argument("--out", default=None, help="write the training lines here")
    args = p.parse_args(argv)
    seeds = [args.seed + i for i in range(args.games)]
    if args.ray:
        games = run_ray(seeds, args.nodes, args.max_plies, args.address, args.num_cpus)
    else:
        games = run_local(seeds, args.nodes, args.max_plies)
    lines = [line for g in games for line in datagen_lines(g)]
    for g in games:
        print(f"seed {g['seed']}: {len(g['moves'])} plies, {g['result']} {g['termination'] or ''}".rstrip())
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))
    print(f"{len(games)} games, {len(lines)} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
