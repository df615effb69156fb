"""The distributed example (examples/ray_selfplay.py) on a real local Ray cluster: a head
node and a second node joined to it, one CPU each, started with `ray start` as on a
cluster. The shards its Ray tasks write are byte for byte those of one process for the
same seeds, and the example's command line writes the same files either way. The
cluster is stopped (`ray stop`) whatever happens. Skipped only where Ray cannot be
imported (.ci/run installs it)."""

import importlib.util
import os
import pathlib
import shutil
import socket
import subprocess
import sys

import pytest

ray = pytest.importorskip("ray")

import xq  # noqa: E402

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "ray_selfplay.py"
SEEDS = [11, 12, 13, 14]
GAMES = 2
# Small games: a few seconds of play in all.
OPTIONS = {"nodes": 300, "random_plies": 6, "max_plies": 60, "resign": 1500, "hash_mb": 16,
           "threads": 1, "classical": True}


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
def example():
    return load_example()


@pytest.fixture(scope="module")
def cluster():
    """The address of a two-node Ray cluster on this machine, stopped at the end."""
    command = ray_command()
    if command is None:
        pytest.skip("Ray is installed without its `ray` command")
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")

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
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        subprocess.run([command, "stop", "--force"], capture_output=True, timeout=180, env=env)


def test_ray_tasks_write_the_shards_of_one_process(example, cluster, tmp_path):
    local = example.run_local(SEEDS, GAMES, OPTIONS)
    shards, nodes = example.run_ray(SEEDS, GAMES, OPTIONS, batch=2, address=cluster)
    assert ray.cluster_resources()["CPU"] == 2 and len(ray.nodes()) == 2
    # Two tasks of two seeds, spread over the two nodes.
    assert len(nodes) == 2 and len(set(nodes)) == 2
    assert sorted(shards) == SEEDS
    for seed in SEEDS:
        assert shards[seed] == local[seed], f"seed {seed}"
    paths = example.write_shards(shards, str(tmp_path / "ray"))
    assert [pathlib.Path(p).name for p in paths] == [f"selfplay-s{s}.xqsp" for s in SEEDS]
    for path in paths:
        data = xq.read_datagen(path)
        assert len(data["score"]) > 0 and set(data["game"]) <= set(range(GAMES))


def test_the_command_line_writes_the_same_files_either_way(example, cluster, tmp_path, capsys):
    common = ["--seeds", "21-22", "--games", "1", "--nodes", "300", "--max-plies", "60",
              "--classical"]
    a, b = tmp_path / "local", tmp_path / "ray"
    assert example.main(common + ["--out", str(a)]) == 0
    assert example.main(common + ["--ray", "--address", cluster, "--out", str(b)]) == 0
    names = sorted(p.name for p in a.iterdir())
    assert names == ["selfplay-s21.xqsp", "selfplay-s22.xqsp"]
    assert names == sorted(p.name for p in b.iterdir())
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes()
    out = capsys.readouterr().out
    assert "2 shards of 1 games" in out and "by 2 Ray nodes" in out
