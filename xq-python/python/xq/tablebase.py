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
             on_table: Optional[Callable[[Row], Any]] = None) -> List[Row]:
    """Makes the tables of `endings` (and of every ending their captures lead to) in
    `directory`, as ``xq tb gen`` does, and returns the generation log's rows, one an
    ending in the order made: dicts with `ending`, `status` ("generated" or "kept"),
    `positions`, `wins`, `draws`, `losses` (both sides to move), `rule_decided` and
    `chase_decided` (positions the rules of perpetual check and chase decided),
    `longest_mate` (plies), `gen_seconds`, `verify_seconds`, `write_seconds`, `threads`,
    `bytes` (the distance file's), `finished` and `note`; on a cluster also `node` (the
    Ray node that made it). `on_table(row)` is called as each ending is done.

    Each ending is made with `threads` threads and checked by a forward pass unless
    `verify` is False. With `ray_address` (``"auto"``, ``"HOST:PORT"``, or ``""`` for a
    Ray already initialised) each ending is a Ray task of `threads` CPUs.

    Raises `xq.InvalidArgument` for a name that is neither an ending nor a group, or for
    threads below 1, and `xq.InvalidTablebase` when a table cannot be read, written or
    checked."""
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise _xq.InvalidArgument(f"threads {threads!r}: a whole number of at least 1")
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
    _generate_on_ray(steps, out, threads, verify, ray_address, done)
    return rows


def _generate_on_ray(steps: List[Any], out: pathlib.Path, threads: int, verify: bool,
                     address: str, done: Callable[..., None]) -> None:
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

    refs: Dict[str, Any] = {}
    names: Dict[Any, str] = {}
    kept: Dict[str, str] = {}
    for name, captures in steps:
        line = _xq._tablebase_kept(str(out), name)
        if line is not None:
            kept[name] = line
            continue
        for capture in captures:
            if capture not in refs:
                # Already here: its files go to the tasks that need them.
                refs[capture] = ray.put({"files": _files(out, capture)})
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
            done(result["line"], {"node": result["node"]})
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
