"""Self-play training data with xq, as Ray tasks over a cluster (or in one process).

Each seed makes one shard: ``xq.selfplay(games, seed=seed, ...)`` plays games 0 to
games - 1 of the run seeded with it (a few random opening plies each, then the engine on
both sides at a fixed number of nodes a move) and returns them in ``xq datagen``'s
binary form. A game depends on its seed and index alone, so a shard is the same bytes
on any machine, for any thread count, and the same as ``xq datagen --seed SEED --games
GAMES --format binary`` with the same settings. The shards are the input of
``xq train shards/*.xqsp`` (and ``xq tune``, ``xq tune-wdl``, ``xq.read_datagen``).

    python ray_selfplay.py --seeds 1-8 --games 50 --out shards            # one process
    python ray_selfplay.py --seeds 1-8 --games 50 --out shards --ray      # Ray, local
    python ray_selfplay.py --seeds 1-800 --games 50 --out shards --ray --address auto

With Ray (``pip install ray``) the seeds go out in batches (``--batch``), one task a
batch, dealt to the cluster's nodes in turn by their CPUs (a node with 8 CPUs gets 8
batches of each round); each task plays its seeds one after the other on one CPU and
sends the shards back, and this process writes them (``selfplay-s<SEED>.xqsp``).
"""

import argparse
import os
import sys
from typing import Dict, List, Optional, Tuple

import xq


def settings(args: argparse.Namespace) -> Dict:
    """The keyword arguments of ``xq.selfplay`` that the command line sets."""
    out = {
        "nodes": args.nodes,
        "random_plies": args.random_plies,
        "max_plies": args.max_plies,
        "resign": args.resign,
        "hash_mb": args.hash_mb,
        "threads": 1,
    }
    if args.classical:
        out["classical"] = True
    return out


def play_batch(seeds: List[int], games: int, options: Dict) -> Tuple[str, Dict[int, bytes]]:
    """The shards of ``seeds``, and the node that played them (``"local"`` outside Ray)."""
    node = "local"
    try:
        import ray

        if ray.is_initialized():
            node = ray.get_runtime_context().get_node_id()
    except ImportError:
        pass
    return node, {seed: xq.selfplay(games, seed=seed, **options) for seed in seeds}


def batches(seeds: List[int], size: int) -> List[List[int]]:
    """``seeds`` cut into lists of ``size``."""
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def run_local(seeds: List[int], games: int, options: Dict) -> Dict[int, bytes]:
    """Every shard in this process, one after the other."""
    return play_batch(seeds, games, options)[1]


def cpu_slots() -> List[str]:
    """The cluster's live nodes, each as many times as it has CPUs, in a fixed order."""
    import ray

    nodes = sorted(
        (n["NodeID"], int(n["Resources"].get("CPU", 0)))
        for n in ray.nodes() if n["Alive"]
    )
    return [node for node, cpus in nodes for _ in range(cpus)]


def run_ray(
    seeds: List[int],
    games: int,
    options: Dict,
    batch: int = 1,
    address: Optional[str] = None,
    num_cpus: Optional[int] = None,
) -> Tuple[Dict[int, bytes], List[str]]:
    """Every shard, one Ray task a batch of seeds, the batches dealt to the nodes in
    turn by their CPUs; and the node each task ran on. Starts a local Ray instance (with
    ``num_cpus`` workers) unless one is running or ``address`` names a cluster."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    if __name__ != "__main__":
        # Imported as a module the workers cannot import: send its code along.
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    task = ray.remote(num_cpus=1)(play_batch)
    slots = cpu_slots()
    pending = []
    for i, seeds_of_task in enumerate(batches(seeds, batch)):
        # Soft: a node that has gone takes nothing, its batches go elsewhere.
        where = NodeAffinitySchedulingStrategy(slots[i % len(slots)], soft=True) if slots else "DEFAULT"
        pending.append(task.options(scheduling_strategy=where).remote(seeds_of_task, games, options))
    done = ray.get(pending)
    shards: Dict[int, bytes] = {}
    for _, part in done:
        shards.update(part)
    return shards, [node for node, _ in done]


def write_shards(shards: Dict[int, bytes], out: str) -> List[str]:
    """Writes each shard as ``<out>/selfplay-s<SEED>.xqsp``; returns the paths."""
    os.makedirs(out, exist_ok=True)
    paths = []
    for seed in sorted(shards):
        path = os.path.join(out, f"selfplay-s{seed}.xqsp")
        with open(path, "wb") as f:
            f.write(shards[seed])
        paths.append(path)
    return paths


def parse_seeds(text: str) -> List[int]:
    """``"1-4,9"`` -> [1, 2, 3, 4, 9]."""
    seeds: List[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds.extend(range(int(lo), int(hi or lo) + 1))
    return seeds


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", type=parse_seeds, default=parse_seeds("1-4"), help="e.g. 1-8 or 1,5,9")
    p.add_argument("--games", type=int, default=50, help="games a seed (a shard)")
    p.add_argument("--nodes", type=int, default=5000, help="nodes a move")
    p.add_argument("--random-plies", type=int, default=8)
    p.add_argument("--max-plies", type=int, default=400, help="a longer game is a draw")
    p.add_argument("--resign", type=int, default=1500, help="win adjudication, centipawns (0: off)")
    p.add_argument("--hash-mb", type=int, default=16)
    p.add_argument("--classical", action="store_true", help="the classical evaluation, not the network")
    p.add_argument("--ray", action="store_true", help="play the seeds as Ray tasks")
    p.add_argument("--batch", type=int, default=1, help="seeds a Ray task")
    p.add_argument("--address", default=None, help="a Ray cluster's address (default: a local instance)")
    p.add_argument("--num-cpus", type=int, default=None, help="workers of a local Ray instance")
    p.add_argument("--out", default="shards", help="the folder of the shards")
    args = p.parse_args(argv)
    options = settings(args)
    if args.ray:
        shards, nodes = run_ray(args.seeds, args.games, options, args.batch, args.address, args.num_cpus)
        where = f"{len(set(nodes))} Ray nodes"
    else:
        shards, where = run_local(args.seeds, args.games, options), "this process"
    paths = write_shards(shards, args.out)
    positions = sum(len(xq.read_datagen(path)["score"]) for path in paths)
    print(f"{len(paths)} shards of {args.games} games, {positions} positions to train on, "
          f"by {where}, in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
