"""Generating endgame tables from Python: the tables `xq tb gen` makes, on this machine
or as tasks on a Ray cluster.

::

    import xq.tablebase

    rows = xq.tablebase.generate(["KRKN", "KCKP"], "tables")          # this machine
    rows = xq.tablebase.generate(["@one-each"], "tables", ray_address="auto")  # a cluster
    print(rows[-1]["ending"], rows[-1]["wins"], rows[-1]["rule_decided"])
    tb = xq.Tablebase("tables")

The endings are names (``KRKN``) and the groups of ``xq tb gen`` (``@one-each``,
``@rook-vs-one``, ``@one``, ``@two``, ``@phase1``). Each is made after the endings its
captures lead to, which are made too. In the directory each ending gets its distance file
(``KRKN.xqtb``) and its WDL file (``KRKN.xqwdl``), and a row in the generation log
``endings.csv``, as ``xq tb gen`` writes them; a good table already there is kept.

On a cluster each ending is a Ray task that Ray starts once the tasks of the endings its
captures lead to have finished. The task gets their tables' bytes through Ray's object
store, makes its ending in a temporary directory of its node and sends its files back, so
the nodes share no file system and need only this package. The driver writes each
ending's files into the directory as they come. The files are those of one process, byte
for byte: a table depends on its ending alone.

An ending too large for one node is split (``split_above=N``): where one side has no
attacker, an ending of more than N numbers is made by ``ceil(numbers / N)`` Ray actors,
each holding its share of the table (three bytes a number while it is generated, and the
tables its captures lead to). At each level of the retrograde analysis the actors send
each other the updates of the positions they hold, through the object store; at the end
each compresses its blocks of the two files, and the files are joined: the same bytes
again. The forward pass that checks a table runs over the parts too, in rounds: each
asks the others for the values of its positions' children that they hold.
"""

import os
import pathlib
import tempfile
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from . import _xq

Row = Dict[str, Any]

__all__ = ["generate", "plan"]


def plan(endings: Sequence[str], max_positions: Optional[int] = None) -> List[str]:
    """The endings that generating `endings` makes, in the order they are made (each
    after the endings its captures lead to), those of more than `max_positions` positions
    (both sides to move) left out. Raises `xq.InvalidArgument` for a name that is neither
    an ending nor a group."""
    return [name for name, _ in _plan(endings, max_positions)]


def _plan(endings: Sequence[str], max_positions: Optional[int]) -> List[Any]:
    if isinstance(endings, str):
        raise TypeError("endings is a list of names, e.g. ['KRKN']")
    if not endings:
        raise _xq.InvalidArgument("no ending given: name endings or groups, e.g. ['KRKN']")
    if max_positions is not None and (not isinstance(max_positions, int) or max_positions < 0):
        raise _xq.InvalidArgument(f"max_positions {max_positions!r}: a whole number, 0 or more")
    return list(_xq._tablebase_plan(list(endings), max_positions))


def _files(directory: pathlib.Path, name: str) -> Dict[str, bytes]:
    return {f: (directory / f).read_bytes() for f in (name + ".xqtb", name + ".xqwdl")
            if (directory / f).exists()}


def _write(directory: pathlib.Path, files: Dict[str, bytes]) -> None:
    """Writes each file whole or not at all (a partial file is never left under its
    name)."""
    for file_name, data in files.items():
        part = directory / (file_name + ".part")
        part.write_bytes(data)
        os.replace(part, directory / file_name)


def generate(endings: Sequence[str], directory: Union[str, "os.PathLike[str]"], *,
             threads: int = 1, verify: bool = True, max_positions: Optional[int] = None,
             note: str = "", ray_address: Optional[str] = None,
             split_above: Optional[int] = None,
             on_table: Optional[Callable[[Row], Any]] = None) -> List[Row]:
    """Makes the tables of `endings` (and of every ending their captures lead to) in
    `directory`, as ``xq tb gen`` does, and returns the generation log's rows, one an
    ending in the order made: dicts with `ending`, `status` ("generated" or "kept"),
    `positions`, `wins`, `draws`, `losses` (both sides to move), `rule_decided` and
    `chase_decided` (positions the rules of perpetual check and chase decided),
    `longest_mate` (plies), `gen_seconds`, `verify_seconds`, `write_seconds`, `threads`,
    `bytes` (the distance file's), `finished` and `note`; on a cluster also `node` (the
    Ray node that made it), and for an ending made in parts `parts` and `part_nodes` (the
    nodes of its parts). `on_table(row)` is called as each ending is done.

    Each ending is made with `threads` threads and checked by a forward pass unless
    `verify` is False. With `ray_address` (``"auto"``, ``"HOST:PORT"``, or ``""`` for a
    Ray already initialised) each ending is a Ray task of `threads` CPUs; with
    `split_above` as well, an ending of more numbers than that (both sides to move) where
    one side has no attacker is made and checked by several Ray actors of `threads` CPUs
    each, one a part (see the module's notes).

    Raises `xq.InvalidArgument` for a name that is neither an ending nor a group, for
    threads below 1, or for `split_above` below 1 or without `ray_address`, and
    `xq.InvalidTablebase` when a table cannot be read, written or checked."""
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise _xq.InvalidArgument(f"threads {threads!r}: a whole number of at least 1")
    if split_above is not None:
        if not isinstance(split_above, int) or isinstance(split_above, bool) or split_above < 1:
            raise _xq.InvalidArgument(f"split_above {split_above!r}: a whole number of at least 1")
        if ray_address is None:
            raise _xq.InvalidArgument("split_above splits endings over a Ray cluster: give ray_address too")
    steps = _plan(endings, max_positions)
    out = pathlib.Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    rows: List[Row] = []

    def done(line: str, extra: Optional[Dict[str, Any]] = None) -> None:
        row = dict(_xq._tablebase_log(str(out), line, note))
        row.update(extra or {})
        rows.append(row)
        if on_table is not None:
            on_table(row)

    if ray_address is None:
        for name, _ in steps:
            kept = _xq._tablebase_kept(str(out), name)
            done(kept or _xq._tablebase_make(str(out), name, threads, verify))
        return rows
    _generate_on_ray(steps, out, threads, verify, ray_address, split_above, done)
    return rows


class _PartActor:
    """One part of an ending made in parts, as a Ray actor: it keeps its share of the
    table between the calls of the driver (`_make_in_parts`), and reads the values of the
    positions its captures lead to from those tables' files a block at a time, as it
    needs them, instead of holding the tables in memory."""

    def __init__(self, name: str, part: int, parts: int, threads: int,
                 files: Dict[str, bytes]) -> None:
        # The part opens the files when it is made and keeps them open: the directory can
        # go at once (a file removed while open stays readable on Linux and macOS, where
        # Ray runs its clusters), and nothing is left behind when the actor is killed.
        with tempfile.TemporaryDirectory(prefix="xq-tb-part-") as tmp:
            _write(pathlib.Path(tmp), files)
            self.part = _xq._TablebasePart(tmp, name, part, parts, threads)

    def start(self) -> None:
        self.part.start()

    def level(self, level: int) -> Any:
        decided, furthest, updates = self.part.level(level)
        return ((decided, furthest), *updates)

    def receive(self, *updates: bytes) -> None:
        self.part.receive(list(updates))

    def finish(self) -> bytes:
        return self.part.finish()

    def pieces(self, summaries: List[bytes]) -> bytes:
        return self.part.pieces(summaries)

    def verify_rounds(self) -> int:
        return self.part.verify_rounds()

    def requests(self, round: int) -> Any:
        return tuple(self.part.requests(round))

    def answer(self, requests: bytes) -> bytes:
        return self.part.answer(requests)

    def check(self, round: int, *answers: bytes) -> int:
        return self.part.check(round, list(answers))

    def node(self) -> str:
        import ray

        return ray.get_runtime_context().get_node_id()


def _make_in_parts(name: str, parts: int, threads: int, verify: bool,
                   *captures: Dict[str, Any]) -> Dict[str, Any]:
    """Makes ending `name` in `parts` Ray actors and returns what a task of one ending
    returns: its log row, its two files' bytes and the nodes. Runs as a Ray task."""
    import time

    import ray
    from ray.util.placement_group import placement_group, remove_placement_group
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    files = {f: b for capture in captures for f, b in capture["files"].items()
             if f.endswith(".xqtb")}
    # The parts' CPUs reserved all at once, spread over the nodes: two endings made in
    # parts at the same time cannot each hold some of the CPUs and wait for the rest.
    group = placement_group([{"CPU": threads}] * parts, strategy="SPREAD")
    actors: List[Any] = []
    try:
        ray.get(group.ready())
        actor: Any = ray.remote(num_cpus=threads)(_PartActor)
        actors = [actor.options(scheduling_strategy=PlacementGroupSchedulingStrategy(
                      placement_group=group, placement_group_bundle_index=k))
                  .remote(name, k, parts, threads, files) for k in range(parts)]
        t0 = time.monotonic()
        ray.get([a.start.remote() for a in actors])
        level = 0
        while True:
            found = [a.level.options(num_returns=parts + 1).remote(level) for a in actors]
            # Each part's updates go straight to the part that holds their positions.
            received = [actors[k].receive.remote(*(found[s][k + 1] for s in range(parts) if s != k))
                        for k in range(parts)]
            counts = ray.get([f[0] for f in found])
            ray.get(received)
            if sum(c[0] for c in counts) == 0 and level >= max(c[1] for c in counts):
                break
            level += 1
        summaries = ray.get([a.finish.remote() for a in actors])
        gen_seconds = time.monotonic() - t0
        verify_seconds = None
        if verify:
            # The forward pass in rounds: each part asks the others for the values of its
            # positions' children they hold, then checks its positions.
            t1 = time.monotonic()
            rounds = max(ray.get([a.verify_rounds.remote() for a in actors]))
            for r in range(rounds):
                asked = [a.requests.options(num_returns=parts).remote(r) for a in actors]
                ray.get([actors[k].check.remote(r, *(actors[o].answer.remote(asked[k][o])
                                                     for o in range(parts) if o != k))
                         for k in range(parts)])
            verify_seconds = time.monotonic() - t1
        t2 = time.monotonic()
        pieces = ray.get([a.pieces.remote(summaries) for a in actors])
        nodes = sorted(set(ray.get([a.node.remote() for a in actors])))
        distance, wdl, line = _xq._tablebase_assemble(summaries, pieces, gen_seconds, verify_seconds,
                                                       time.monotonic() - t2, parts * threads)
    finally:
        for a in actors:
            ray.kill(a)
        remove_placement_group(group)
    return {"line": line, "files": {name + ".xqtb": distance, name + ".xqwdl": wdl},
            "node": ray.get_runtime_context().get_node_id(), "parts": parts,
            "part_nodes": nodes}


def _generate_on_ray(steps: List[Any], out: pathlib.Path, threads: int, verify: bool,
                     address: str, split_above: Optional[int], done: Callable[..., None]) -> None:
    import ray

    if not ray.is_initialized():
        ray.init(address=address or None, log_to_driver=False)

    @ray.remote(num_cpus=threads)
    def make(name: str, threads: int, verify: bool, *captures: Dict[str, Any]) -> Dict[str, Any]:
        from xq import _xq as native
        from xq.tablebase import _files, _write

        with tempfile.TemporaryDirectory(prefix="xq-tb-") as tmp:
            work = pathlib.Path(tmp)
            for capture in captures:  # the distance files: what generating reads
                _write(work, {f: b for f, b in capture["files"].items() if f.endswith(".xqtb")})
            line = native._tablebase_make(tmp, name, threads, verify)
            return {"line": line, "files": _files(work, name),
                    "node": ray.get_runtime_context().get_node_id()}

    # The task that drives the parts of a split ending takes no CPU: its actors do.
    make_in_parts = ray.remote(num_cpus=0)(_make_in_parts)

    kept: Dict[str, str] = {}
    for name, _ in steps:
        line = _xq._tablebase_kept(str(out), name)
        if line is not None:
            kept[name] = line
    # The parts of each ending to make, checked before anything starts: parts that need
    # more CPUs at once than the cluster has would wait for ever.
    cpus = ray.cluster_resources().get("CPU", 0)  # type: ignore[no-untyped-call]
    split = {name: _xq._tablebase_parts(name, split_above) if split_above is not None else 1
             for name, _ in steps if name not in kept}
    for name, parts in split.items():
        if parts > 1 and parts * threads > cpus:
            raise _xq.InvalidArgument(
                f"{name} in {parts} parts of {threads} CPU{'s' * (threads > 1)} needs "
                f"{parts * threads} CPUs at once; the cluster has {cpus:g} (raise split_above)")
    refs: Dict[str, Any] = {}
    names: Dict[Any, str] = {}
    for name, captures in steps:
        if name in kept:
            continue
        for capture in captures:
            if capture not in refs:
                # Already here: its files go to the tasks that need them.
                refs[capture] = ray.put({"files": _files(out, capture)})
        parts = split[name]
        if parts > 1:
            refs[name] = make_in_parts.remote(name, parts, threads, verify,
                                              *(refs[c] for c in captures))
        else:
            refs[name] = make.remote(name, threads, verify, *(refs[c] for c in captures))
        names[refs[name]] = name
    for line in kept.values():
        done(line)
    pending = list(names)
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            result = ray.get(ready[0])
            _write(out, result["files"])
            done(result["line"], {k: result[k] for k in ("node", "parts", "part_nodes")
                                  if k in result})
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
