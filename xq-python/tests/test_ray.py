"""The distributed example (examples/ray_selfplay.py) on a real local Ray cluster: a head
node and a second node joined to it, one CPU each, started with `ray start` as on a
cluster, and the example run against it as a user would. The shards its Ray tasks write
(on both nodes) are byte for byte those of one process for the same seeds. The cluster
is stopped (`ray stop`) whatever happens. Skipped only where Ray cannot be imported
(.ci/run installs it)."""

import importlib.util
import json
import os
import pathlib
import secrets
import shutil
import socket
import subprocess
import sys

import pytest

pytest.importorskip("ray")

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "ray_selfplay.py"
SEEDS = [11, 12, 13, 14]
GAMES = 2
# Small games: a few seconds of play in all.
OPTIONS = {"nodes": 300, "random_plies": 6, "max_plies": 60, "resign": 1500, "hash_mb": 16,
           "threads": 1, "classical": True}
ARGS = ["--seeds", "11-14", "--games", "2", "--nodes", "300", "--random-plies", "6",
        "--max-plies", "60", "--classical"]


def load_example():
    spec = importlib.util.spec_from_file_location("ray_selfplay", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["ray_selfplay"] = module
    spec.loader.exec_module(module)
    return module


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ray_command():
    """The `ray` command of this Python's environment (its venv need not be on PATH)."""
    beside = pathlib.Path(sys.executable).with_name("ray")
    return str(beside) if beside.exists() else shutil.which("ray")


@pytest.fixture(scope="module")
def cluster():
    """A two-node Ray cluster on this machine: its address and the environment of the
    processes that use it. Stopped at the end, even when a test fails."""
    command = ray_command()
    if command is None:
        pytest.skip("Ray is installed without its `ray` command")
    # A token of its own, given to every process of the cluster and to the driver: the
    # cluster neither needs nor uses one a `ray.init()` may have left in ~/.ray.
    env = dict(os.environ, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32),
               RAY_USAGE_STATS_ENABLED="0")

    def ray_cli(*args):
        done = subprocess.run([command, *args], capture_output=True, text=True, timeout=180, env=env)
        if done.returncode != 0:
            pytest.fail(f"ray {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")

    port = free_port()
    address = f"127.0.0.1:{port}"
    try:
        ray_cli("start", "--head", f"--port={port}", "--num-cpus=1", "--include-dashboard=false",
                "--disable-usage-stats")
        ray_cli("start", f"--address={address}", "--num-cpus=1", "--disable-usage-stats")
        yield address, env
    finally:
        subprocess.run([command, "stop", "--force"], capture_output=True, timeout=180, env=env)


def test_the_ray_shards_are_those_of_one_process(cluster, tmp_path):
    address, env = cluster
    out = tmp_path / "ray"
    # Two tasks of two seeds each, spread over the two nodes.
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *ARGS, "--ray", "--batch", "2", "--address", address,
         "--out", str(out)],
        capture_output=True, text=True, timeout=600, env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 shards of 2 games" in done.stdout and "by 2 Ray nodes" in done.stdout, done.stdout
    # The same seeds in this process, without Ray.
    example = load_example()
    local = example.run_local(SEEDS, GAMES, OPTIONS)
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"selfplay-s{s}.xqsp" for s in SEEDS]
    for seed, f in zip(SEEDS, files):
        assert f.read_bytes() == local[seed], f.name
    # The example's command line writes the same files without Ray.
    assert example.main(ARGS + ["--out", str(tmp_path / "local")]) == 0
    for f in files:
        assert (tmp_path / "local" / f.name).read_bytes() == f.read_bytes()


def xq_bin():
    """The xq binary the engines of a match run: $XQ_BIN, else the release build."""
    path = os.environ.get("XQ_BIN") or str(pathlib.Path(__file__).resolve().parents[2]
                                           / "target" / "release" / "xq")
    if not pathlib.Path(path).exists():
        pytest.skip(f"no xq binary at {path} (set XQ_BIN)")
    return path


def test_a_match_on_the_cluster_plays_the_games_of_one_process(cluster, tmp_path):
    address, env = cluster
    xq_path = xq_bin()
    openings = pathlib.Path(__file__).resolve().parents[2] / "tools" / "openings-wide.txt"
    args = ["-engine", f"cmd={xq_path}", "name=a", "nodes=600",
            "-engine", f"cmd={xq_path}", "name=b", "nodes=300",
            "-each", "option.Hash=4", "-games", "6", "-openings", f"file={openings}"]
    # The driver in a process of its own, with the cluster's environment.
    driver = (
        "import json, sys, xq.match\n"
        "args = json.loads(sys.argv[1])\n"
        "games = []\n"
        "summary = xq.match.run(args, ray_address=sys.argv[2], on_game=lambda g, s: games.append(g))\n"
        "print(json.dumps({'summary': summary, 'games': games}))\n"
    )
    done = subprocess.run([sys.executable, "-c", driver, json.dumps(args + ["-pgnout", str(tmp_path / "ray.pgn")]), address],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    ray_run = json.loads(done.stdout.strip().splitlines()[-1])
    # The same match in this process, without Ray.
    import xq.match

    local_games = []
    local = xq.match.run(args, on_game=lambda g, s: local_games.append(g))
    by_number = lambda games: {g["number"]: (g["red"], g["result"], g["moves"]) for g in games}
    assert by_number(ray_run["games"]) == by_number(local_games)
    assert len(local_games) == 6
    for key in ("games", "wins", "draws", "losses", "pentanomial", "forfeits"):
        assert ray_run["summary"][key] == local[key], key
    # The driver wrote every game to the PGN.
    assert (tmp_path / "ray.pgn").read_text(encoding="utf-8").count("[Event ") == 6


def test_tables_made_on_the_cluster_are_those_of_one_process(cluster, tmp_path):
    address, env = cluster
    endings = ["KRKN", "KNKA", "KCKP"]  # 7 endings, two of them armed on both sides
    driver = (
        "import json, sys, xq.tablebase\n"
        "rows = xq.tablebase.generate(json.loads(sys.argv[1]), sys.argv[2], ray_address=sys.argv[3])\n"
        "print(json.dumps(rows))\n"
    )

    def on_cluster(directory):
        done = subprocess.run([sys.executable, "-c", driver, json.dumps(endings), str(directory), address],
                              capture_output=True, text=True, timeout=600, env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    rows = on_cluster(tmp_path / "ray")
    order = [r["ending"] for r in rows]
    assert sorted(order) == ["KCK", "KCKP", "KNK", "KNKA", "KPK", "KRK", "KRKN"]
    # Each ending was made after the endings its captures lead to, on both nodes.
    for later, earlier in [("KRKN", "KRK"), ("KRKN", "KNK"), ("KNKA", "KNK"), ("KCKP", "KCK"), ("KCKP", "KPK")]:
        assert order.index(earlier) < order.index(later), order
    assert {r["status"] for r in rows} == {"generated"}
    assert len({r["node"] for r in rows}) == 2, rows
    assert next(r for r in rows if r["ending"] == "KRKN")["rule_decided"] == 1597
    # One process, the binary: the same files, byte for byte.
    local = tmp_path / "local"
    done = subprocess.run([xq_bin(), "tb", "gen", *endings, "-o", str(local), "--threads", "2"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    made = sorted(p.name for p in (tmp_path / "ray").iterdir())
    assert made == sorted(p.name for p in local.iterdir())
    assert len(made) == 15  # 7 distance files, 7 WDL files and the log
    for name in made:
        if name != "endings.csv":
            assert (tmp_path / "ray" / name).read_bytes() == (local / name).read_bytes(), name
    # Again on the cluster into the one process's directory: every table is kept.
    assert {(r["status"], r.get("node")) for r in on_cluster(local)} == {("kept", None)}


def test_an_ending_split_over_the_nodes_is_that_of_one_process(cluster, tmp_path):
    """KRKA and KNKA made and checked in two parts each, one on each node, their updates
    sent between the nodes at every level; KRKN (both sides attack) made whole."""
    address, env = cluster
    endings = ["KRKA", "KNKA", "KRKN"]
    driver = (
        "import json, sys, xq.tablebase\n"
        "rows = xq.tablebase.generate(json.loads(sys.argv[1]), sys.argv[2], ray_address=sys.argv[3],\n"
        "                             split_above=int(sys.argv[4]))\n"
        "print(json.dumps(rows))\n"
    )

    def on_cluster(directory, split_above):
        return subprocess.run([sys.executable, "-c", driver, json.dumps(endings), str(directory), address,
                               str(split_above)], capture_output=True, text=True, timeout=600, env=env)

    done = on_cluster(tmp_path / "ray", 20000)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {r["ending"]: r for r in json.loads(done.stdout.strip().splitlines()[-1])}
    assert sorted(rows) == ["KNK", "KNKA", "KRK", "KRKA", "KRKN"]
    for name in ["KRKA", "KNKA"]:
        assert rows[name]["parts"] == 2 and len(rows[name]["part_nodes"]) == 2, rows[name]
        assert rows[name]["threads"] == 2, rows[name]
    for name in ["KRK", "KNK", "KRKN"]:
        assert "parts" not in rows[name], rows[name]
    # Every table checked by the forward pass, the split ones over their parts.
    assert all(r["verify_seconds"] is not None for r in rows.values()), rows
    local = tmp_path / "local"
    done = subprocess.run([xq_bin(), "tb", "gen", *endings, "-o", str(local), "--threads", "2"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    made = sorted(p.name for p in (tmp_path / "ray").iterdir())
    assert made == sorted(p.name for p in local.iterdir()) and len(made) == 11
    for name in made:
        if name != "endings.csv":
            assert (tmp_path / "ray" / name).read_bytes() == (local / name).read_bytes(), name
    # Parts that need more CPUs at once than the cluster has are refused before anything
    # is made (they would wait for ever).
    done = on_cluster(tmp_path / "small", 5000)
    assert done.returncode != 0
    assert "KNKA in 7 parts of 1 CPU needs 7 CPUs at once; the cluster has 2" in done.stderr
    assert list((tmp_path / "small").iterdir()) == []
