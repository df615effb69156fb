"""Engine matches under xq's referee, from Python: the match `xq match` plays (cutechess-
cli's arguments, xq's rules, pentanomial Elo and SPRT, forfeits), run on this machine or
as tasks on a Ray cluster.

::

    import xq.match

    args = ["-engine", "cmd=./xq-new", "name=new", "-engine", "cmd=./xq-old", "name=old",
            "-each", "tc=10+0.1", "-games", "400", "-concurrency", "2",
            "-openings", "file=tools/openings-wide.txt", "-sprt", "elo0=0", "elo1=10"]
    summary = xq.match.run(args)                      # this machine, 2 games at once
    summary = xq.match.run(args, ray_address="auto")  # a Ray cluster: a task a pair
    print(summary["elo"], summary["elo_error"], summary["sprt"]["result"])

On a cluster each task plays one pair of games (an opening with both colours) with fresh
engine processes on the node Ray gives it, so the engines' commands must run there (a
shared file system, or the same paths on every node). The driver counts each pair as it
comes back, by `xq match`'s own code, stops handing out pairs when the SPRT concludes,
and appends the games to the PGN (`-pgnout`) in the order they end. For the same
arguments with fixed-node limits, the cluster's games are those of one process.
"""

from typing import Any, Callable, Dict, List, Optional, Sequence

from . import _xq

Game = Dict[str, Any]
Summary = Dict[str, Any]

__all__ = ["run", "pairs", "play_pair"]


def pairs(args: Sequence[str]) -> int:
    """The pairs of games the match of `args` plays."""
    return int(_xq._MatchConfig(list(args)).pairs)


def play_pair(args: Sequence[str], pair: int) -> List[Game]:
    """Plays pair `pair` (from 0) of the match of `args` and returns its games as dicts:
    `number` (from 1), `red` (0 or 1: the engine that played Red), `result`, `ending`
    (in words), `moves` (ICCS), `pgn`, `forfeit` (the engine that lost by forfeit, or
    None)."""
    return list(_xq._MatchConfig(list(args)).play_pair(pair))


def _option(args: Sequence[str], name: str) -> Optional[str]:
    """The value of `-name VALUE` (or `--name`) in `args`."""
    for i, a in enumerate(args[:-1]):
        if a.lstrip("-") == name and a.startswith("-"):
            return args[i + 1]
    return None


def run(args: Sequence[str], *, on_game: Optional[Callable[[Game, Summary], Any]] = None,
        ray_address: Optional[str] = None, in_flight: Optional[int] = None) -> Summary:
    """Plays the match of `args` (`xq match`'s arguments) and returns its summary (the
    dict `xq match -json` writes: `games`, `wins`, `draws`, `losses`, `score`, `elo`,
    `elo_error`, `pentanomial`, `forfeits`, `endings`, `sprt`). `on_game(game, summary)`
    is called after every game. With `ray_address` (`"auto"`, `"HOST:PORT"`, or `""` for
    a Ray already initialised) the pairs are Ray tasks, at most `in_flight` at once (the
    cluster's CPUs by default). Raises `xq.InvalidArgument` for arguments `xq match`
    would refuse."""
    args = list(args)
    config = _xq._MatchConfig(args)
    if ray_address is None:
        return dict(config.run(on_game))
    return _run_on_ray(args, config, ray_address, on_game, in_flight)


def _run_on_ray(args: List[str], config: Any, address: str,
                on_game: Optional[Callable[[Game, Summary], Any]],
                in_flight: Optional[int]) -> Summary:
    import ray

    if not ray.is_initialized():
        ray.init(address=address or None, log_to_driver=False)

    @ray.remote(num_cpus=1)
    def task(task_args: List[str], pair: int) -> List[Game]:
        from xq import _xq as native

        return list(native._MatchConfig(task_args).play_pair(pair))

    tally = _xq._MatchTally(config)
    total = int(config.pairs)
    limit = in_flight or max(1, int(ray.cluster_resources().get("CPU", 1)))
    pgn_path = _option(args, "pgnout")
    pgn = open(pgn_path, "a", encoding="utf-8") if pgn_path else None
    pending: Dict[Any, int] = {}
    next_pair = 0
    try:
        while pending or (next_pair < total and tally.verdict is None):
            while next_pair < total and len(pending) < limit and tally.verdict is None:
                pending[task.remote(args, next_pair)] = next_pair
                next_pair += 1
            done, _ = ray.wait(list(pending), num_returns=1)
            pending.pop(done[0])
            games = ray.get(done[0])
            tally.add_pair(games)
            for game in games:
                if pgn is not None:
                    pgn.write(game["pgn"] + "\n")
                    pgn.flush()
                if on_game is not None:
                    on_game(game, tally.summary())
            if tally.verdict is not None:
                for ref in pending:
                    ray.cancel(ref, force=True)
                pending.clear()
    finally:
        if pgn is not None:
            pgn.close()
    return dict(tally.summary())
