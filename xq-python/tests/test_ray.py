"""The distributed example (examples/ray_selfplay.py) on a local Ray instance with two
workers gives exactly the records of the single-process run for the same seeds, and its
training lines read back with xq.read_datagen. Skipped only where Ray cannot be imported
(.ci/run installs it)."""

import importlib.util
import pathlib

import pytest

ray = pytest.importorskip("ray")

import xq  # noqa: E402

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "ray_selfplay.py"
SEEDS = [11, 12, 13, 14]
NODES, MAX_PLIES = 1000, 150


def load_example():
    spec = importlib.util.spec_from_file_location("ray_selfplay", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    import sys

    sys.modules["ray_selfplay"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def example():
    return load_example()


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_tasks_give_the_single_process_records(example, local_ray, tmp_path):
    local = example.run_local(SEEDS, NODES, MAX_PLIES)
    distributed = example.run_ray(SEEDS, NODES, MAX_PLIES)
    assert [g["seed"] for g in distributed] == SEEDS
    assert distributed == local
    # The games are real games: legal from their start, judged by the rules.
    for g in local:
        board = xq.Board(g["start"])
        for m in g["moves"]:
            board.push(xq.Move.from_iccs(m))
        assert board.result() == g["result"]
        assert len(g["positions"]) == len(g["moves"])
    lines = [line for g in local for line in example.datagen_lines(g)]
    assert lines, "at least one game finished"
    path = tmp_path / "selfplay.txt"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    data = xq.read_datagen(path, planes=True)
    assert len(data["fen"]) == len(lines) and data["planes"].shape == (len(lines), 18, 10, 9)


def test_the_command_line_writes_the_same_file_either_way(example, local_ray, tmp_path, capsys):
    a, b = tmp_path / "local.txt", tmp_path / "ray.txt"
    common = ["--games", "2", "--seed", "21", "--nodes", "800", "--max-plies", "120"]
    assert example.main(common + ["--out", str(a)]) == 0
    assert example.main(common + ["--ray", "--out", str(b)]) == 0
    assert a.read_text() == b.read_text()
    assert "2 games" in capsys.readouterr().out
