"""The package itself: every public name exported, documented and in the type stubs."""

import ast
import inspect
import pathlib

import xq

PKG = pathlib.Path(xq.__file__).parent
STUBS = PKG / "_xq.pyi"


def stub_names():
    tree = ast.parse(STUBS.read_text(encoding="utf-8"))
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        elif isinstance(node, ast.Assign):
            top.update(t.id for t in node.targets)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return top, members


def test_the_wheel_ships_stubs_and_py_typed():
    assert STUBS.is_file() and (PKG / "py.typed").is_file()


def test_every_native_name_has_a_stub_and_every_stub_a_name():
    top, members = stub_names()
    native = {n for n in dir(xq._xq) if not n.startswith("_")} | {"__version__"}
    assert native - top == set()
    assert {n for n in top if not n.startswith("_") and n not in ("InfoDict",)} - native == set()
    for cls, methods in members.items():
        obj = getattr(xq._xq, cls)
        public = {n for n in vars(obj) if not n.startswith("_")}
        assert public - methods == set(), cls
        assert {m for m in methods if not m.startswith("_")} - public == set(), cls


def test_all_is_complete_and_everything_is_documented():
    for name in xq.__all__:
        assert hasattr(xq, name), name
    for name in dir(xq._xq):
        if name.startswith("_"):
            continue
        assert name in xq.__all__, name
        obj = getattr(xq._xq, name)
        if inspect.isclass(obj) or callable(obj):
            assert obj.__doc__, name
        if inspect.isclass(obj):
            for member, value in vars(obj).items():
                if not member.startswith("_"):
                    assert value.__doc__, f"{name}.{member}"
    assert xq.svg.board.__doc__ and xq.flip_move.__doc__ and xq.square.__doc__


def test_version():
    assert xq.__version__ == "0.2.0"


def test_the_stubs_type_check_a_typed_use():
    """mypy --strict on tests/typing_sample.py (skipped where mypy is not installed;
    .ci/run installs it)."""
    import subprocess
    import sys

    import pytest

    pytest.importorskip("mypy")
    sample = pathlib.Path(__file__).with_name("typing_sample.py")
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(sample)],
        capture_output=True, text=True, cwd=sample.parent,
    )
    assert out.returncode == 0, out.stdout + out.stderr
